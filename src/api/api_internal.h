/*
 * What the files of src/api share and nothing else sees: the error helper
 * and the structs behind the public handles of include/tally/.
 */
#ifndef TALLY_API_INTERNAL_H
#define TALLY_API_INTERNAL_H

#include <stdbool.h>

#include "../store/store.h"
#include "../symbols/symtab.h"
#include "tally/tally.h"

/* Fills err (if not NULL) with a printf-style message; api_error's code is
 * TALLY_E_INTERNAL. Both return -1, for `return api_fail(...)`. */
int api_fail(tally_error *err, tally_errcode code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define api_error(err, ...) api_fail((err), TALLY_E_INTERNAL, __VA_ARGS__)

/* Reads a board description as tally_config.board names it (NULL: the
 * built-in virt), with the error codes of tally_sim_open (board_api.c). */
struct board_desc;
int api_board_read(const char *board, struct board_desc *d, tally_error *err);

/* include/tally/store.h's handle: the store's own. */
struct tally_store {
  store *st;
  bool owned;
};

/* The simulation's hart (sim.c), for the recorders that watch its timing
 * model (the cycle trace). */
struct core_cpu *api_sim_cpu(tally_sim *sim);

/* The program's symbols, for naming control packets' ranges (sim.c). */
const sym_table *api_sim_symbols(const tally_sim *sim);

/* Task awareness for the statistics module's task counters (sim.c): the
 * profile's task layer (tally_profile_tasks_enable with spec, NULL:
 * "auto"), turned on with the profile if it is not on yet, tells fn the
 * name of what runs at every switch; fn is told what runs now before
 * this returns. Nothing in the program changes: no cycle does. */
int api_tasks_follow(tally_sim *sim, const char *spec, void (*fn)(void *ctx, const char *name), void *ctx,
                     tally_error *err);
/* fn is told nothing more (the module following the tasks is freed). */
void api_tasks_unfollow(tally_sim *sim, void (*fn)(void *ctx, const char *name), void *ctx);
/* The names of the tasks and trap contexts seen so far, ", "-separated,
 * into buf; whether `name` is one of them. */
bool api_tasks_seen(const tally_sim *sim, const char *name, char *buf, size_t size);

#endif
