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

uint32_t timing_fetch_miss_region(timing *t, uint32_t line_addr, uint64_t now) {
  int64_t *row = t->region_row;
  if (!row || !timing_ifill_lean_ok(t, line_addr))
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
  if (!row || !timing_dfill_lean_ok(t, addr))
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
