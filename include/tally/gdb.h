/*
 * A GDB remote stub (the remote serial protocol over TCP): GDB connects
 * with `target remote` before the program starts or while it runs, and
 * from then on the program runs only as GDB says. Stepping, breakpoints,
 * watchpoints and stops never change a simulated cycle: the simulation
 * stops between two instructions, the simulated clock does not see it.
 * Built on the public API only (tally.h); src/debug/gdb*.c.
 * docs/tally-gdb.md.
 *
 *   tally_gdb *g = tally_gdb_listen("3333", &err);
 *   // either wait for GDB before the first instruction:
 *   tally_gdb_serve(g, sim, &stop_flag, &r);
 *   // or run in slices and let GDB attach between two of them:
 *   while (tally_run(sim, 1000000) == TALLY_STOP_LIMIT)
 *     if (tally_gdb_pending(g)) { tally_gdb_serve(g, sim, &stop_flag, &r); ... }
 *   tally_gdb_close(g);
 */
#ifndef TALLY_GDB_H
#define TALLY_GDB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "tally/tally.h"

typedef struct tally_gdb tally_gdb;

typedef struct tally_gdb_result {
  tally_stop stop;     /* how the program ended, or TALLY_STOP_LIMIT if GDB left first */
  bool detached;       /* GDB detached before the end: the program should run on */
  char err[200];       /* why serving failed, when tally_gdb_serve returns -1 */
} tally_gdb_result;

/* Listens on `where`: "PORT" on loopback (127.0.0.1), or "ADDR:PORT" with
 * an IPv4 address. NULL with err (TALLY_E_USAGE for a bad PORT or ADDR or
 * a port that cannot be listened on). */
tally_gdb *tally_gdb_listen(const char *where, tally_error *err);

/* True when a GDB is connecting (never waits): between two slices of a
 * running program, the moment to call tally_gdb_serve. */
bool tally_gdb_pending(const tally_gdb *g);

/* Takes one GDB connection (waiting for it) and serves it: the program
 * is stopped where it is (GDB's `?` is answered with SIGTRAP) and runs as
 * GDB says until it ends and GDB is told, or GDB detaches (r->detached:
 * the caller runs it on, and another GDB may attach later) or kills it or
 * goes away (the program then stops there), or `*interrupted` becomes
 * true. 0, or -1 with r->err when no connection could be taken. */
int tally_gdb_serve(tally_gdb *g, tally_sim *sim, volatile sig_atomic_t *interrupted, tally_gdb_result *r);

/* Stops listening. */
void tally_gdb_close(tally_gdb *g);

#endif
