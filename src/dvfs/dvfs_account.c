/*
 * Per-region time and energy of one run (tally dvfs's report): the run is
 * stepped one instruction at a time (stepping never changes a simulated
 * cycle: docs/tally-gdb.md), and whenever the next instruction's pc lies
 * in another region than the last one's, the cycles, instructions,
 * simulated time and energy since the last change are charged to the
 * region just left. An instruction's costs thus go to the region holding
 * its pc; the last row is everything outside the regions (the rest of the
 * program, the library, the switch code). The rows add up to the run's
 * totals by construction (cycles and instructions exactly; time and
 * energy up to the rounding of a double per change); the tests check them
 * against tally run's own totals and the statistics module's counts.
 */
#include <stdlib.h>
#include <string.h>

#include "dvfs.h"

typedef struct mark {
  uint64_t cycles, instret;
  double seconds, joules;
} mark;

static mark mark_now(tally_sim *sim) {
  tally_energy e = tally_energy_now(sim);
  return (mark){tally_cycles(sim), tally_instret(sim), e.seconds, e.total_j};
}

static void charge(dvfs_tally *row, const mark *from, const mark *to) {
  row->cycles += to->cycles - from->cycles;
  row->instret += to->instret - from->instret;
  row->seconds += to->seconds - from->seconds;
  row->joules += to->joules - from->joules;
}

/* The index of the range holding pc (sorted by lo, disjoint), or n. */
static size_t range_of(const dvfs_range *v, size_t n, uint32_t pc) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (pc < v[mid].lo)
      hi = mid;
    else if (pc >= v[mid].hi)
      lo = mid + 1;
    else
      return mid;
  }
  return n;
}

static int by_lo(const void *a, const void *b) {
  const dvfs_range *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

tally_stop dvfs_account_run(const dvfs_opts *o, tally_sim *sim, const dvfs_range *ranges, size_t n, size_t nrows,
                            dvfs_tally *rows) {
  dvfs_range *v = malloc((n ? n : 1) * sizeof *v);
  if (!v)
    return TALLY_STOP_ERROR;
  memcpy(v, ranges, n * sizeof *v);
  qsort(v, n, sizeof *v, by_lo);
  memset(rows, 0, (nrows + 1) * sizeof *rows);
  mark last = mark_now(sim);
  size_t at = range_of(v, n, tally_pc(sim));
  size_t cur = at < n ? v[at].row : nrows;
  tally_stop st = TALLY_STOP_LIMIT;
  for (uint64_t k = 1; st == TALLY_STOP_LIMIT; k++) {
    /* no range: no stepping, slices up to the bounds */
    st = tally_run(sim, n ? 1 : 20000000);
    if (st != TALLY_STOP_LIMIT || ((!n || k % 65536 == 0) && dvfs_bound(o, sim)))
      break;
    if (!n)
      continue;
    uint32_t pc = tally_pc(sim);
    if (at < n && pc >= v[at].lo && pc < v[at].hi)
      continue; /* still in the same range: the common case */
    at = range_of(v, n, pc);
    size_t r = at < n ? v[at].row : nrows;
    if (r == cur)
      continue;
    mark now = mark_now(sim);
    charge(&rows[cur], &last, &now);
    last = now, cur = r;
  }
  mark end = mark_now(sim);
  charge(&rows[cur], &last, &end);
  free(v);
  return st;
}
