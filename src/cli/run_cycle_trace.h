/* tally run --cycle-trace FILE [--cycle-trace-window FROM:TO]: the
 * per-cycle trace (run_cycle_trace.c, docs/cycle-trace.md). */
#ifndef TALLY_CLI_RUN_CYCLE_TRACE_H
#define TALLY_CLI_RUN_CYCLE_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "tally/cycletrace.h"

typedef struct cycle_trace_opts {
  const char *file;      /* --cycle-trace FILE ('-': stdout), or NULL */
  uint64_t from, to;     /* --cycle-trace-window FROM:TO; default the whole run */
} cycle_trace_opts;

/* Parses FROM:TO (either may be empty: the run's start, its end) into o;
 * prints the error and returns -1 when it is not a window. */
int cycle_trace_window(const char *arg, cycle_trace_opts *o);

typedef struct cycle_trace_run {
  tally_cycle_trace *t;
  FILE *f;
} cycle_trace_run;

/* Opens FILE and starts the trace: 0, or an exit status (message printed). */
int cycle_trace_open(tally_sim *sim, const cycle_trace_opts *o, cycle_trace_run *r);
/* Ends it: 0, or an exit status (message printed). */
int cycle_trace_close(cycle_trace_run *r, const char *file);

#endif
