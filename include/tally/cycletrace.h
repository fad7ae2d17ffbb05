/*
 * The per-cycle trace of a run (docs/cycle-trace.md): for every core cycle
 * of a window, the PC of the instruction in charge of it and the value of
 * every signal on it, exactly as the statistics module counts them: the
 * stimulus a hardware statistics module beside the core would see, which
 * rtl/ feeds to the Verilog module (docs/rtl.md). Needs a core model.
 *
 *   tally_cycle_trace *t = tally_cycle_trace_start(sim, f, 0, UINT64_MAX, &err);
 *   while (tally_run(sim, 1000000) == TALLY_STOP_LIMIT) ;
 *   if (tally_cycle_trace_finish(t, &err) != 0) ...
 *
 * Not a cycle changes: every instruction of the window runs alone (exact,
 * as the statistics module steps near a dispatch); the run is slower there.
 */
#ifndef TALLY_CYCLETRACE_H
#define TALLY_CYCLETRACE_H

#include <stdint.h>
#include <stdio.h>

#include "tally/tally.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tally_cycle_trace tally_cycle_trace;

/* Traces the cycles [from, to) (from before the current cycle: from it)
 * into out, which stays the caller's. With a statistics module, start it
 * first (tally_measure_start): the trace goes in front of it, and finish
 * the trace before the module is finished. NULL with err (TALLY_E_USAGE:
 * no core model; TALLY_E_INTERNAL: memory, or the header cannot be
 * written). */
tally_cycle_trace *tally_cycle_trace_start(tally_sim *sim, FILE *out, uint64_t from, uint64_t to,
                                           tally_error *err);

/* Writes the end record, stops tracing and frees t. 0, or -1 with err: the
 * file could not be written in full (TALLY_E_CREATE), or the trace would
 * not be exact (TALLY_E_INTERNAL). */
int tally_cycle_trace_finish(tally_cycle_trace *t, tally_error *err);

/* Cycles traced so far. */
uint64_t tally_cycle_trace_cycles(const tally_cycle_trace *t);

#ifdef __cplusplus
}
#endif

#endif
