/*
 * A GDB remote stub (the remote serial protocol over TCP): GDB connects
 * with `target remote`, and the program runs only as GDB says. Stepping,
 * breakpoints and stops never change a simulated cycle: the simulation
 * stops between two instructions, the simulated clock does not see it.
 * Built on the public API only (tally.h); src/debug/gdb.c. docs/tally-gdb.md.
 */
#ifndef TALLY_GDB_H
#define TALLY_GDB_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>

#include "tally/tally.h"

typedef struct tally_gdb_result {
  tally_stop stop;     /* how the program ended, or TALLY_STOP_LIMIT if GDB left first */
  bool detached;       /* GDB detached before the end: the program should run on */
  char err[200];       /* why serving failed, when gdb_serve returns -1 */
} tally_gdb_result;

/* Listens on `where` ("PORT" on loopback, or "ADDR:PORT"), prints where
 * it listens on `note`, takes one GDB connection and serves it until the
 * program ends and GDB is told, or GDB detaches or kills it (the program
 * then stops there), or `*interrupted` becomes true. 0, or -1 with r->err
 * set when the socket cannot be made or GDB never connects. */
int tally_gdb_serve(tally_sim *sim, const char *where, FILE *note, volatile sig_atomic_t *interrupted,
                    tally_gdb_result *r);

#endif
