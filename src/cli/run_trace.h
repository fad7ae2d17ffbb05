/* tally run --trace: the instruction trace's window (run_trace.c). */
#ifndef TALLY_CLI_RUN_TRACE_H
#define TALLY_CLI_RUN_TRACE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "tally/tally.h"

#define TRACE_COUNT_DEFAULT 1000000u   /* lines, unless --trace-count says otherwise */

typedef struct trace_opts {
  const char *file;      /* --trace FILE ('-': stdout), or NULL */
  const char *from;      /* --trace-from FUNC|ADDR, or NULL: from the first instruction */
  uint64_t count;        /* --trace-count N */
  bool binary;           /* --trace-format bin */
} trace_opts;

/* Runs the program up to the window's start, then through the window,
 * writing the trace. Returns how the program stopped (TALLY_STOP_LIMIT:
 * the window is done, or *bound says why it was cut short). *status is an
 * exit status when the trace could not be made (TALLY_STOP_ERROR is then
 * returned and nothing ran) or not written in full (the run goes on). */
tally_stop trace_window(tally_sim *sim, const trace_opts *o, uint64_t max_insns,
                        volatile sig_atomic_t *interrupted, const char **bound, int *status);

#endif
