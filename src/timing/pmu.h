/*
 * The hardware performance monitor (Zihpm with mcountinhibit): the
 * mhpmcounter3..31 / mhpmevent3..31 CSRs of the core model's `[pmu]`
 * section, counting catalog signals exactly as the statistics module does
 * (docs/pmu.md). mcycle and minstret stay the core's own (src/core/csr.c);
 * mcountinhibit's bits 0 and 2 are kept there too.
 *
 * Exactness. A counter's value is kept as (value, mark): the value it had at
 * an instruction boundary and the signal's total at that boundary; while it
 * runs, its value at a later boundary is value + (total now - mark). Signal
 * totals are exact only at instruction boundaries that the run loop knows,
 * so an instruction that touches a PMU CSR is always a block of its own and
 * is always stepped (run.c): the loop hands the totals before it
 * (pmu_step_begin) and after it (pmu_step_end). A read sees the counts of
 * every cycle before the reading instruction starts (as mcycle does); a
 * write, an event change or an inhibit change takes effect when the
 * writing instruction ends. Nothing here is on the path of a program that
 * never touches these CSRs.
 *
 * Event numbers: mhpmevent = 0 counts nothing (RISC-V); 1 + id selects the
 * catalog signal id (`tally signals`); every other value is not legal and
 * reads back as 0 (WARL).
 */
#ifndef TALLY_TIMING_PMU_H
#define TALLY_TIMING_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "core_model.h"
#include "signals.h"

#define PMU_FIRST 3u          /* mhpmcounter3 is the first */
#define PMU_MAX 29u           /* ... and mhpmcounter31 the last */
#define PMU_CSR_INHIBIT 0x320u

typedef enum pmu_csr_access { PMU_NOT_MINE, PMU_ILLEGAL, PMU_READ_ONLY, PMU_READ_WRITE } pmu_csr_access;

typedef struct pmu_state {
  uint32_t n;               /* counters that exist: 3 .. 3 + n - 1 */
  pmu_absent absent;
  uint32_t inhibit;         /* mcountinhibit bits of the hpm counters (3..31) */
  uint32_t event[32];       /* mhpmevent, legal values only */
  uint64_t value[32];       /* value at the boundary `mark` was taken at */
  uint64_t mark[32];        /* the event's signal total there, while it runs */
  /* the instruction being stepped */
  bool stepping;
  uint64_t before[SIG_COUNT];  /* signal totals before it started */
  bool pending;             /* its write, applied when it ends */
  unsigned pending_csr;
  uint32_t pending_value;
} pmu_state;

void pmu_init(pmu_state *p, const core_model *m);

/* How the PMU treats `csr` (PMU_NOT_MINE for the CSRs it does not own:
 * mcountinhibit is shared with the core, which asks pmu_owns first). */
pmu_csr_access pmu_csr_access_of(const pmu_state *p, unsigned csr);

/* True for an access that must be stepped with exact totals around it:
 * a CSR of an existing counter or event, or mcountinhibit, on a core that
 * has counters. */
bool pmu_needs_step(const pmu_state *p, unsigned csr);

/* Reads a PMU CSR (mcountinhibit: the hpm bits only) at the start of the
 * stepped instruction. */
uint32_t pmu_csr_read(const pmu_state *p, unsigned csr);
/* Writes it, from the end of the stepped instruction on. */
void pmu_csr_write(pmu_state *p, unsigned csr, uint32_t v);

/* Around a stepped instruction that needs it: the totals of every signal
 * (derived and marker signals included) before and after it. */
void pmu_step_begin(pmu_state *p, const uint64_t *totals);
void pmu_step_end(pmu_state *p, const uint64_t *totals);
/* True when the stepped instruction wrote: pmu_step_end needs the totals
 * after it (otherwise it does not read them). */
static inline bool pmu_step_pending(const pmu_state *p) { return p->pending; }

#endif
