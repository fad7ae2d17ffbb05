/*
 * The instruction trace: one text line per executed instruction (cycle of
 * issue, cycles taken, pc, symbol+offset, disassembly, registers written,
 * memory touched, signals raised). Built on the public API only: the
 * program runs one instruction at a time (tally_run with a budget of 1),
 * which is exact, so a traced run has the cycles and signal totals of an
 * untraced one; nothing in the run loop pays for it when it is off.
 * src/debug/trace.c; the line format is in docs/tally-trace.md.
 */
#ifndef TALLY_TRACE_H
#define TALLY_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "tally/tally.h"

typedef struct tally_trace tally_trace;

/* A trace of `sim` written to `out` (which stays the caller's). Writes the
 * format's header line. NULL when out of memory. */
tally_trace *tally_trace_new(tally_sim *sim, FILE *out);
void tally_trace_free(tally_trace *t);

/* Runs one instruction and writes its line (none when the program had
 * already stopped and ran nothing). Returns what tally_run returned. */
tally_stop tally_trace_step(tally_trace *t);

/* Lines written so far, and the cycles they add up to. */
uint64_t tally_trace_lines(const tally_trace *t);
uint64_t tally_trace_cycles(const tally_trace *t);

#endif
