/*
 * The hardware performance monitor's CSRs (pmu.h, docs/pmu.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu.h"

void pmu_init(pmu_state *p, const core_model *m) {
  memset(p, 0, sizeof *p);
  p->n = m->pmu_counters > PMU_MAX ? PMU_MAX : m->pmu_counters;
  p->absent = m->pmu_absent;
}

/* The counter index (3..31) a counter or event CSR names, or 0. */
static unsigned counter_of(unsigned csr) {
  unsigned i = csr & 0x1fu;
  if (i < PMU_FIRST)
    return 0;
  switch (csr & ~0x1fu) {
  case 0xb00: case 0xb80: case 0xc00: case 0xc80: case 0x320:
    return i;
  default:
    return 0;
  }
}

static bool exists(const pmu_state *p, unsigned i) { return i >= PMU_FIRST && i < PMU_FIRST + p->n; }

/* mcountinhibit bits of the counters that exist. */
static uint32_t existing_mask(const pmu_state *p) {
  return p->n ? (uint32_t)(((1ull << p->n) - 1) << PMU_FIRST) : 0;
}

pmu_csr_access pmu_csr_access_of(const pmu_state *p, unsigned csr) {
  if (csr == PMU_CSR_INHIBIT)
    return p->n == 0 && p->absent == PMU_ABSENT_ILLEGAL ? PMU_ILLEGAL : PMU_READ_WRITE;
  unsigned i = counter_of(csr);
  if (!i)
    return PMU_NOT_MINE;
  if (!exists(p, i) && p->absent == PMU_ABSENT_ILLEGAL)
    return PMU_ILLEGAL;
  return (csr >> 10) == 3 ? PMU_READ_ONLY : PMU_READ_WRITE;
}

bool pmu_needs_step(const pmu_state *p, unsigned csr) {
  if (p->n == 0)
    return false;
  return csr == PMU_CSR_INHIBIT || exists(p, counter_of(csr));
}

static bool running(const pmu_state *p, unsigned i) { return p->event[i] && !(p->inhibit >> i & 1u); }

/* The counter's value at a boundary where the signal totals are `s`. */
static uint64_t value_at(const pmu_state *p, unsigned i, const uint64_t *s) {
  if (!running(p, i))
    return p->value[i];
  return p->value[i] + (s[p->event[i] - 1] - p->mark[i]);
}

/* Makes (value, mark) those of the boundary with totals `s`, so that the
 * counter's configuration can change there. */
static void settle(pmu_state *p, unsigned i, const uint64_t *s) {
  p->value[i] = value_at(p, i, s);
  p->mark[i] = p->event[i] ? s[p->event[i] - 1] : 0;
}

uint32_t pmu_csr_read(const pmu_state *p, unsigned csr) {
  if (csr == PMU_CSR_INHIBIT)
    return p->inhibit;
  unsigned i = counter_of(csr);
  if (!exists(p, i))
    return 0;
  if ((csr & ~0x1fu) == 0x320)
    return p->event[i];
#ifdef TALLY_CHECK_LAWS
  if (!p->stepping) { /* the totals of `before` would be stale */
    fprintf(stderr, "tally: internal error: PMU counter CSR 0x%03x read outside a PMU step\n", csr);
    abort();
  }
#endif
  uint64_t v = value_at(p, i, p->before);
  return (csr & 0x80u) ? (uint32_t)(v >> 32) : (uint32_t)v;
}

void pmu_csr_write(pmu_state *p, unsigned csr, uint32_t v) {
  p->pending = true;
  p->pending_csr = csr;
  p->pending_value = v;
}

static void apply(pmu_state *p, unsigned csr, uint32_t v, const uint64_t *after) {
  if (csr == PMU_CSR_INHIBIT) {
    for (unsigned i = PMU_FIRST; i < PMU_FIRST + p->n; i++)
      settle(p, i, after);
    p->inhibit = v & existing_mask(p);
    return;
  }
  unsigned i = counter_of(csr);
  if (!exists(p, i) || (csr >> 10) == 3)
    return;
  settle(p, i, after);
  if ((csr & ~0x1fu) == 0x320) {
    p->event[i] = v <= SIG_COUNT ? v : 0; /* WARL: an unknown event counts nothing */
    p->mark[i] = p->event[i] ? after[p->event[i] - 1] : 0;
  } else if (csr & 0x80u) {
    p->value[i] = (p->value[i] & 0xffffffffu) | (uint64_t)v << 32;
  } else {
    p->value[i] = (p->value[i] & ~(uint64_t)0xffffffffu) | v;
  }
}

void pmu_step_begin(pmu_state *p, const uint64_t *totals) {
  memcpy(p->before, totals, sizeof p->before);
  p->stepping = true;
  p->pending = false;
}

void pmu_step_end(pmu_state *p, const uint64_t *totals) {
  if (p->pending)
    apply(p, p->pending_csr, p->pending_value, totals);
  p->pending = false;
  p->stepping = false;
}
