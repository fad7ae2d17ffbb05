/*
 * The cycle layout of one unit of work (an instruction, an interrupt's
 * entry, a tail), docs/timing.md: which of its cycles each signal is high
 * on. The exact split at a dispatch (statmod_count.c) and the per-cycle
 * trace (cycle_trace.c) both read it from here, so the trace shows the
 * cycles exactly as the module counts them.
 *
 *   fetch | load-use | issue | execute extra | memory | wait (wfi) | redirect
 *
 * each part the cycles of its stall signals, in this order; issue is what
 * is left. Fetch events (I-cache lookups and the memory reads of fetch) are
 * high on the unit's first cycle, instret on its last, every other event on
 * its first issue cycle.
 */
#ifndef TALLY_STATMOD_STATMOD_LAYOUT_H
#define TALLY_STATMOD_STATMOD_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "../timing/signals.h"
#include "statmod_run.h"

/* The signals `stall` is the sum of. */
extern const uint8_t statmod_stall_parts[];
#define STATMOD_N_STALL_PARTS 9

/* The parts of the layout in order; SIG_COUNT stands for issue. */
extern const uint8_t statmod_layout_parts[];
#define STATMOD_N_LAYOUT_PARTS 11

typedef struct statmod_layout {
  uint64_t cycles;                 /* T: the unit's cycles */
  uint64_t first_issue;            /* offset of its first issue cycle */
  uint64_t from[SIG_COUNT + 1];    /* offset of each part ([SIG_COUNT]: issue) */
  uint64_t len[SIG_COUNT + 1];
} statmod_layout;

/* Lays out unit u, which took `cycles` cycles. */
void statmod_lay_out(const statmod_unit *u, uint64_t cycles, statmod_layout *l);

#endif
