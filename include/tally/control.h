/*
 * libtally: configuring a waiting board by control packets.
 *
 * A board started with control (`tally run --control ADDR:PORT`, or
 * tally_measure_control) waits for its statistics module's configuration
 * as control packets (docs/protocol.md): the timer, the address range
 * registers, the counters, then START. This is the client side, what
 * `tally config` runs: each request waits for its reply and is sent again
 * (the same bytes) if none comes.
 *
 *   tally_control_cfg cfg = {.board = "127.0.0.1:7401", .key_path = "board.key"};
 *   tally_control *c = tally_control_open(&cfg, &err);   // says hello: learns the run
 *   tally_control_set_timer(c, 100000, &err);
 *   tally_control_set_arr(c, 0, 0x80000100, 0x80000180, "MixColumns", &err);
 *   tally_control_set_counter(c, 0, tally_signal_lookup("dcache.read_miss"), 0, true, &err);
 *   tally_control_start(c, &err);
 *   tally_control_close(c);
 *
 * Errors: TALLY_E_USAGE (bad address or value), TALLY_E_INPUT (the key
 * file), TALLY_E_REFUSED (the board said no, or its answers do not match
 * the key), TALLY_E_NOANSWER (no reply after every try), TALLY_E_INTERNAL.
 */
#ifndef TALLY_CONTROL_H
#define TALLY_CONTROL_H

#include <stdbool.h>
#include <stdint.h>

#include "tally/tally.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TALLY_DEFAULT_CONTROL_PORT 7401
#define TALLY_CONTROL_ANYWHERE 0xFFFFu  /* a counter's ARR: no address restriction */
#define TALLY_CONTROL_MAX_NAME 255      /* bytes of an ARR's name */

typedef struct tally_control_cfg {
  const char *board;           /* ADDR:PORT the board takes control packets on */
  const char *key_path;        /* its key file (docs/tally-config.md), or NULL */
  int timeout_ms;              /* per try; 0: 1000 */
  int retries;                 /* tries per request; 0: 3 */
  const char *key_env;         /* or the environment variable whose value's bytes are the key (not with key_path) */
} tally_control_cfg;

typedef struct tally_control tally_control;

/* Opens a socket to the board and asks its state (a QUERY): fails unless
 * the board answers. */
tally_control *tally_control_open(const tally_control_cfg *cfg, tally_error *err);
void tally_control_close(tally_control *c);

int tally_control_set_timer(tally_control *c, uint64_t period, tally_error *err);
/* name: the function the range is, or NULL. */
int tally_control_set_arr(tally_control *c, unsigned index, uint32_t lo, uint32_t hi, const char *name,
                          tally_error *err);
/* arr: an ARR index or TALLY_CONTROL_ANYWHERE. */
int tally_control_set_counter(tally_control *c, unsigned index, int signal, unsigned arr, bool enabled,
                              tally_error *err);
/* Task register `index` (1..16) names a task (docs/protocol.md, SET_TASK);
 * "" empties it. */
int tally_control_set_task(tally_control *c, unsigned index, const char *name, tally_error *err);
/* A counter that counts only while the task of task register `task`
 * (1..16) runs (SET_COUNTER's task byte); task 0: whatever runs. */
int tally_control_set_task_counter(tally_control *c, unsigned index, int signal, unsigned arr, bool enabled,
                                   unsigned task, tally_error *err);
int tally_control_start(tally_control *c, tally_error *err);
int tally_control_stop(tally_control *c, tally_error *err);

typedef struct tally_control_status {
  uint64_t run_id;
  const char *state;           /* "waiting", "running", ... */
  uint32_t counters, width, arrs;
  uint64_t period, intervals, cycle;
  uint32_t bad_tags, stale, malformed; /* control packets the board refused */
} tally_control_status;

int tally_control_query(tally_control *c, tally_control_status *st, tally_error *err);

/* The last request in words ("counter 3 = dcache.read_miss in ARR 0"). */
const char *tally_control_last(const tally_control *c);

#ifdef __cplusplus
}
#endif

#endif
