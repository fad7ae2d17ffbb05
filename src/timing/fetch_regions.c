/*
 * The lean miss routines with rows to charge besides the run's totals: a
 * profile's (the instruction's row and its calling context's) and an
 * address region's (regions.h). timing_fetch_miss_lean and
 * timing_dcache_miss_lean refuse whenever a row is set, so that a run with
 * range counters or a profile took the general miss routines on every
 * miss (on nettle-sha256, whose I-cache thrashes, a quarter of the run).
 * Each row gets exactly what the run's totals get from a lean miss (the
 * same handful of counts, as timing_count gives them to every row), so
 * these run the lean routine with the rows put aside and then add those
 * counts to each row: the same state and counts as the general routine.
 */
#include "regions.h"

/* fetch_fill's pulses and charge, as timing_count gives them to a row */
static void add_fetch_miss(int64_t *row, uint32_t stall) {
  row[SIG_ICACHE_ACCESS]++;
  row[SIG_ICACHE_MISS]++;
  row[SIG_MEM_READ]++;
  row[SIG_CYCLE] += stall;
  row[SIG_STALL_ICACHE] += stall;
}

/* timing_dcache_miss's add_dmiss */
static void add_dcache_miss(int64_t *row, bool is_write, bool writeback, uint32_t stall) {
  row[is_write ? SIG_DCACHE_WRITE_MISS : SIG_DCACHE_READ_MISS]++;
  if (writeback) {
    row[SIG_WRITEBACK]++;
    row[SIG_MEM_WRITE]++;
  }
  row[SIG_MEM_READ]++;
  row[SIG_CYCLE] += stall;
  row[SIG_STALL_DCACHE] += stall;
}

/* The rows are put aside in locals (none charged while the lean routine
 * runs) and given back after; ctx_row is charged whenever prof_row is */
uint32_t timing_fetch_miss_rows(timing *t, uint32_t line_addr, uint64_t now) {
  int64_t *prof = t->prof_row, *region = t->region_row;
  if (!prof && !region)
    return timing_fetch_miss_lean(t, line_addr, now);
  t->prof_row = t->region_row = NULL;
  bool lean = timing_ifill_lean_ok(t, line_addr);
  uint32_t stall = lean ? timing_fetch_miss_lean(t, line_addr, now) : 0;
  t->prof_row = prof;
  t->region_row = region;
  if (!lean)
    return timing_fetch_miss(t, line_addr, now);
  if (prof) {
    add_fetch_miss(prof, stall);
    add_fetch_miss(t->ctx_row, stall);
  }
  if (region)
    add_fetch_miss(region, stall);
  return stall;
}

uint32_t timing_dcache_miss_rows(timing *t, uint32_t addr, uint64_t now, bool is_write) {
  int64_t *prof = t->prof_row, *region = t->region_row;
  if (!prof && !region)
    return timing_dcache_miss_lean(t, addr, now, is_write);
  t->prof_row = t->region_row = NULL;
  bool lean = timing_dfill_lean_ok(t, addr);
  int64_t writebacks = t->sig_dyn[SIG_WRITEBACK];
  uint32_t stall = lean ? timing_dcache_miss_lean(t, addr, now, is_write) : 0;
  t->prof_row = prof;
  t->region_row = region;
  if (!lean)
    return timing_dcache_miss(t, addr, now, is_write);
  bool wb = t->sig_dyn[SIG_WRITEBACK] != writebacks;
  if (prof) {
    add_dcache_miss(prof, is_write, wb, stall);
    add_dcache_miss(t->ctx_row, is_write, wb, stall);
  }
  if (region)
    add_dcache_miss(region, is_write, wb, stall);
  return stall;
}
