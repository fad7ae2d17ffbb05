/*
 * The records of the per-cycle trace (docs/cycle-trace.md): a header, then
 * runs of identical cycles at a PC, then an end record. Cycles are handed
 * over in order; consecutive ones with the same PC and values become one
 * record.
 */
#ifndef TALLY_STATMOD_CYCLE_TRACE_WRITE_H
#define TALLY_STATMOD_CYCLE_TRACE_WRITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../timing/signals.h"
#include "statmod.h"

typedef struct ctrace_writer {
  FILE *out;
  bool write_failed;
  int write_errno;
  uint64_t first;                /* the first cycle traced */
  uint64_t cycles;               /* cycles written */
  /* the record being gathered: rep cycles at pc with values vec */
  uint64_t rep;
  uint32_t pc, pc_out;
  bool pc_written;
  uint64_t vec[SIG_COUNT];
} ctrace_writer;

/* Writes the header; 0, or -1 (write_errno says why). */
int ctrace_begin(ctrace_writer *w, FILE *out, uint64_t first);
/* rep cycles at pc with the values v[SIG_COUNT]. */
void ctrace_emit(ctrace_writer *w, uint32_t pc, const uint64_t *v, uint64_t rep);
/* A configuration change that takes effect from `cycle`, which must be
 * the cycle after the last one emitted (docs/cycle-trace.md, CONFIG). */
void ctrace_config(ctrace_writer *w, uint64_t cycle, const statmod_change *c);
/* The last record, the end record, a flush; 0, or -1 if anything written
 * failed (write_errno). */
int ctrace_finish(ctrace_writer *w);

#endif
