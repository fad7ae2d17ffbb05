/*
 * The instruction trace's parts (include/tally/trace.h): one record per
 * instruction, gathered by stepping (trace.c), written as a text line
 * (trace_text.c) or in the compact binary form (trace_bin.c), whose reader
 * turns it back into the same records and so the same text.
 */
#ifndef TALLY_DEBUG_TRACE_IMPL_H
#define TALLY_DEBUG_TRACE_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mem_access.h"

#define TRACE_TEXT_MAX 256    /* "symbol+0xoff: disassembly" */
#define TRACE_SIG_MAX 255     /* signals a record can name (a byte counts them) */

typedef struct trace_record {
  uint64_t cycle, taken;      /* the cycle it starts at, the cycles charged to it */
  uint32_t pc, insn;          /* its address and bits (2 or 4 bytes of them) */
  char text[TRACE_TEXT_MAX];  /* "symbol+0xoff: disassembly" */
  uint32_t nregs;             /* registers it changed: x[reg[i]] = val[i] */
  uint8_t reg[31];
  uint32_t val[31];
  mem_access mem;
  uint32_t nsigs;             /* signals raised (not cycle, instret): sig[i] on count[i] cycles */
  uint16_t sig[TRACE_SIG_MAX];
  uint64_t count[TRACE_SIG_MAX];
} trace_record;

/* The text form's first line, and one record as a line; `names` names
 * the signals by id. */
void trace_text_header(FILE *out);
void trace_text_line(FILE *out, const trace_record *r, const char *const *names);

/* The binary form (docs/tally-trace.md has the layout). */
typedef struct trace_bin_writer trace_bin_writer;
/* Writes the header (the signals' names); NULL when out of memory. */
trace_bin_writer *trace_bin_open(FILE *out, const char *const *names, int nsig);
void trace_bin_record(trace_bin_writer *w, const trace_record *r);
/* Writes the end record and frees w (NULL: nothing). */
void trace_bin_close(trace_bin_writer *w);

#endif
