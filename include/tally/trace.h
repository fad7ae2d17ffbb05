/*
 * The instruction trace: one text line per executed instruction (cycle of
 * issue, cycles taken, pc, symbol+offset, disassembly, registers written,
 * memory touched, signals raised). Built on the public API only: the
 * program runs one step at a time (tally_step), which is exact, so a
 * traced run has the cycles and signal totals of an untraced one; nothing
 * in the run loop pays for it when it is off. An instruction that takes
 * an exception has its line (up to and including the trap's entry), and
 * the handler's first instruction the next; an interrupt's entry is
 * charged to the line of the handler's first instruction.
 * src/debug/trace.c; the line format is in docs/tally-trace.md.
 */
#ifndef TALLY_TRACE_H
#define TALLY_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "tally/tally.h"

typedef struct tally_trace tally_trace;

typedef enum tally_trace_format {
  TALLY_TRACE_TEXT,      /* one line per instruction (docs/tally-trace.md) */
  TALLY_TRACE_BINARY,    /* the same records, compact (its layout: docs/tally-trace.md) */
} tally_trace_format;

/* A trace of `sim` written to `out` (which stays the caller's) in one of
 * the formats. Writes the format's header. NULL when out of memory. */
tally_trace *tally_trace_open(tally_sim *sim, FILE *out, tally_trace_format format);
/* tally_trace_open(sim, out, TALLY_TRACE_TEXT). */
tally_trace *tally_trace_new(tally_sim *sim, FILE *out);
/* Ends the trace (the binary form's end record) and frees it. */
void tally_trace_free(tally_trace *t);

/* Runs one instruction (after an interrupt's entry, if one is due) and
 * writes its line (none when the program had already stopped and ran
 * nothing). Returns what tally_step returned. */
tally_stop tally_trace_step(tally_trace *t);

/* Lines written so far, and the cycles they add up to. */
uint64_t tally_trace_lines(const tally_trace *t);
uint64_t tally_trace_cycles(const tally_trace *t);

/* Reads a binary trace from `in` and writes its text form to `out`: the
 * very lines the text format would have had. The file is untrusted: 0, or
 * -1 with err (TALLY_E_INPUT) naming what is wrong and at which byte (not
 * a binary trace, cut short, damaged). */
int tally_trace_print(FILE *in, FILE *out, tally_error *err);

#endif
