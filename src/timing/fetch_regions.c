/*
 * The lean miss routines with an address region's row to charge
 * (regions.h): timing_fetch_miss_lean and timing_dcache_miss_lean refuse
 * whenever a row is set, so that a run with range counters took the
 * general miss routines on every miss (on nettle-sha256, whose I-cache
 * thrashes, a quarter of the run). A region's row gets exactly what the
 * run's totals get from a lean miss (the same handful of counts), so these
 * run the lean routine with the row put aside and then add those counts to
 * the row: the same state and counts as the general routine.
 */
#include "regions.h"

/* The lean routines' gates besides the rows (timing.c): when one of these
 * holds they take the general routine, which must then see the row. */
static bool ifill_is_lean(const timing *t, uint32_t line_addr) {
  return t->lean_ifill && !t->icache_miss_fn && !t->reset_flush && !t->hold_floor && !t->max_wait_states &&
         !t->prof_row && !timing_in_sram(t, line_addr);
}

static bool dfill_is_lean(const timing *t, uint32_t addr) {
  return t->lean_dfill && !t->dcache_miss_fn && !t->max_wait_states && !t->prof_row && !timing_in_sram(t, addr);
}

uint32_t timing_fetch_miss_region(timing *t, uint32_t line_addr, uint64_t now) {
  int64_t *row = t->region_row;
  if (!row || !ifill_is_lean(t, line_addr))
    return timing_fetch_miss_lean(t, line_addr, now);
  t->region_row = NULL;
  uint32_t stall = timing_fetch_miss_lean(t, line_addr, now);
  t->region_row = row;
  /* fetch_fill's pulses and charge, as timing_count gives them to the row */
  row[SIG_ICACHE_ACCESS]++;
  row[SIG_ICACHE_MISS]++;
  row[SIG_MEM_READ]++;
  row[SIG_CYCLE] += stall;
  row[SIG_STALL_ICACHE] += stall;
  return stall;
}

uint32_t timing_dcache_miss_region(timing *t, uint32_t addr, uint64_t now, bool is_write) {
  int64_t *row = t->region_row;
  if (!row || !dfill_is_lean(t, addr))
    return timing_dcache_miss_lean(t, addr, now, is_write);
  int64_t writebacks = t->sig_dyn[SIG_WRITEBACK];
  t->region_row = NULL;
  uint32_t stall = timing_dcache_miss_lean(t, addr, now, is_write);
  t->region_row = row;
  /* timing_dcache_miss's add_dmiss on the row */
  row[is_write ? SIG_DCACHE_WRITE_MISS : SIG_DCACHE_READ_MISS]++;
  if (t->sig_dyn[SIG_WRITEBACK] != writebacks) {
    row[SIG_WRITEBACK]++;
    row[SIG_MEM_WRITE]++;
  }
  row[SIG_MEM_READ]++;
  row[SIG_CYCLE] += stall;
  row[SIG_STALL_DCACHE] += stall;
  return stall;
}
