/*
 * Reading the counters (statmod_impl.h): cumulative counts per counter,
 * from the run's totals, the address regions of src/timing/regions.h, and
 * the marker levels; and the exact split of an instruction whose cycles a
 * dispatch falls inside, by the cycle layout of docs/timing.md.
 */
#include <stdlib.h>
#include <string.h>

#include "statmod_impl.h"
#include "statmod_layout.h"

bool statmod_counts_range(const statmod *m, uint32_t i) {
  return m->cfg[i].enabled && m->cfg[i].arr != STATMOD_ANYWHERE;
}

static bool is_marker(uint32_t s) { return s >= SIG_MARKER0 && s <= SIG_MARKER3; }

/* ---- address regions ---- */

void statmod_uninstall_regions(statmod *m) {
  if (!m->regions)
    return;
  if (m->cpu && m->cpu->tm) {
    core_block_flush(m->cpu); /* blocks carry region numbers of these regions */
    timing_regions_install(m->cpu->tm, NULL);
  }
  timing_regions_free(m->regions);
  m->regions = NULL;
}

int statmod_install_regions(statmod *m, char *err, size_t errlen) {
  uint32_t n = m->p.counters, nb = 0, ns = 0;
  uint32_t *bounds = malloc(2 * (size_t)n * sizeof *bounds);
  uint8_t *sigs = malloc(((size_t)n * STATMOD_N_STALL_PARTS + 1) * sizeof *sigs);
  if (!bounds || !sigs) {
    free(bounds);
    free(sigs);
    return statmod_fail(err, errlen, "out of memory for the address regions");
  }
  for (uint32_t i = 0; i < n; i++) {
    if (!statmod_counts_range(m, i))
      continue;
    statmod_arr a = m->arrs[m->cfg[i].arr];
    if (a.lo < a.hi) {
      bounds[nb++] = a.lo;
      bounds[nb++] = a.hi;
    }
    uint16_t s = m->cfg[i].signal;
    if (s == SIG_STALL)
      for (size_t k = 0; k < STATMOD_N_STALL_PARTS; k++)
        sigs[ns++] = statmod_stall_parts[k];
    else if (!is_marker(s))
      sigs[ns++] = (uint8_t)s;
  }
  bool any = false;
  for (uint32_t i = 0; i < n && !any; i++)
    any = statmod_counts_range(m, i);
  timing_regions *r = any ? timing_regions_new(bounds, nb, sigs, ns) : NULL;
  free(bounds);
  free(sigs);
  if (any && !r) {
    return statmod_fail(err, errlen, "out of memory for the address regions");
  }
  statmod_uninstall_regions(m);
  if (r) {
    core_block_flush(m->cpu); /* rebuilt blocks stop at the new boundaries */
    timing_regions_install(m->cpu->tm, r);
    m->regions = r;
  }
  for (uint32_t i = 0; i < n; i++) {
    m->rlo[i] = m->rhi[i] = 0;
    if (!r || !statmod_counts_range(m, i))
      continue;
    statmod_arr a = m->arrs[m->cfg[i].arr];
    if (a.lo < a.hi) {
      m->rlo[i] = timing_region_of(r, a.lo);
      m->rhi[i] = timing_region_of(r, a.hi);
    }
  }
  return 0;
}

void statmod_settle(statmod *m) {
  core_fold_dirty(m->cpu); /* only the blocks entered since: the module tracks them (statmod_attach) */
  timing_region_sync(m->cpu->tm);
}

/* ---- values ---- */

static int64_t row_value(const int64_t *row, uint32_t s) {
  if (s != SIG_STALL)
    return row[s];
  int64_t v = 0;
  for (size_t k = 0; k < STATMOD_N_STALL_PARTS; k++)
    v += row[statmod_stall_parts[k]];
  return v;
}

static int64_t global_value(const timing *tm, uint32_t s) {
  if (s != SIG_STALL)
    return (int64_t)tm->sig_folded[s] + tm->sig_dyn[s];
  int64_t v = 0;
  for (size_t k = 0; k < STATMOD_N_STALL_PARTS; k++)
    v += (int64_t)tm->sig_folded[statmod_stall_parts[k]] + tm->sig_dyn[statmod_stall_parts[k]];
  return v;
}

/* ---- the exact split, by the cycle layout (statmod_layout.h) ---- */

/* Cycles of [from, from + len) at or after offset k. */
static uint64_t part_after(uint64_t from, uint64_t len, uint64_t k) {
  uint64_t end = from + len;
  return end <= k ? 0 : from >= k ? len : end - k;
}

/* The unit's events of signal s on its cycles at offsets >= k (0 < k < T). */
static uint64_t unit_after(const statmod_unit *u, const statmod_layout *l, uint64_t k, uint32_t s) {
  switch (s) {
  case SIG_CYCLE:
    return l->cycles - k;
  case SIG_STALL: {
    uint64_t v = 0;
    for (size_t i = 0; i < STATMOD_N_STALL_PARTS; i++)
      v += part_after(l->from[statmod_stall_parts[i]], l->len[statmod_stall_parts[i]], k);
    return v;
  }
  case SIG_STALL_ICACHE: case SIG_STALL_LOAD_USE: case SIG_STALL_MULDIV: case SIG_STALL_DCACHE:
  case SIG_STALL_WBUF: case SIG_STALL_DVFS: case SIG_WFI_IDLE: case SIG_STALL_BRANCH: case SIG_STALL_JUMP:
  case SIG_STALL_SYSTEM:
    return part_after(l->from[s], l->len[s], k);
  case SIG_INSTRET: /* the last cycle, which is after any cut inside */
    return (uint64_t)u->counts[s];
  case SIG_ICACHE_ACCESS: case SIG_ICACHE_HIT: case SIG_ICACHE_MISS: /* the first cycle */
    return 0;
  case SIG_MEM_READ: /* fetch reads on the first cycle, data reads on the first issue cycle */
    return l->first_issue >= k ? (uint64_t)u->counts[s] - u->fetch_reads : 0;
  default:
    return l->first_issue >= k ? (uint64_t)u->counts[s] : 0;
  }
}

static bool covers(const statmod *m, uint32_t i, uint32_t pc) {
  if (m->cfg[i].arr == STATMOD_ANYWHERE)
    return true;
  statmod_arr a = m->arrs[m->cfg[i].arr];
  return pc >= a.lo && pc < a.hi;
}

/* A unit's events of signal s, all of them. */
static uint64_t unit_all(const statmod_unit *u, uint32_t s) {
  if (s != SIG_STALL)
    return (uint64_t)u->counts[s];
  uint64_t v = 0;
  for (size_t k = 0; k < STATMOD_N_STALL_PARTS; k++)
    v += (uint64_t)u->counts[statmod_stall_parts[k]];
  return v;
}

static void cum_into(statmod *m, uint64_t t, const statmod_unit *units, uint32_t n, uint64_t *out) {
  timing *tm = m->cpu->tm;
  uint64_t now = tm->cycle;
  /* the units after t, and the one t falls inside (split by the layout) */
  uint32_t first = n;
  const statmod_unit *cut = NULL;
  statmod_layout l;
  for (uint32_t j = 0; j < n && t < now; j++) {
    uint64_t end = j + 1 < n ? units[j + 1].start : now;
    if (end <= t)
      continue;
    if (first == n)
      first = j;
    if (units[j].start < t) {
      cut = &units[j];
      statmod_lay_out(cut, end - cut->start, &l);
    }
  }
  uint64_t markers[4];
  timing_marker_totals(tm, t, markers);
  for (uint32_t i = 0; i < m->p.counters; i++) {
    const statmod_counter_cfg *c = &m->cfg[i];
    int64_t v = 0;
    if (!c->enabled) {
      out[i] = 0;
      continue;
    }
    bool ranged = c->arr != STATMOD_ANYWHERE;
    if (is_marker(c->signal)) {
      /* level signals: exact at any cycle, nothing to split */
      if (!ranged)
        v = (int64_t)markers[c->signal - SIG_MARKER0];
      else
        for (uint32_t r = m->rlo[i]; r < m->rhi[i]; r++)
          v += (int64_t)timing_region_marker(tm, r, c->signal - SIG_MARKER0, t);
    } else {
      if (!ranged)
        v = global_value(tm, c->signal);
      else
        for (uint32_t r = m->rlo[i]; r < m->rhi[i]; r++)
          v += row_value(m->regions->rows + (size_t)r * SIG_COUNT, c->signal);
      for (uint32_t j = first; j < n; j++) {
        if (!covers(m, i, units[j].pc))
          continue;
        if (&units[j] == cut)
          v -= (int64_t)unit_after(cut, &l, t - cut->start, c->signal);
        else
          v -= (int64_t)unit_all(&units[j], c->signal);
      }
    }
    out[i] = v > 0 ? (uint64_t)v : 0;
  }
}

void statmod_cum_raw(statmod *m, uint64_t t, const statmod_unit *units, uint32_t n) {
  cum_into(m, t, units, n, m->raw);
}

/* A task counter counts what it would count whatever runs, but only
 * while its task runs: what it counted up to the last switch away from
 * its task, and since the switch to it if it runs now. */
void statmod_cum(statmod *m, uint64_t t, const statmod_unit *units, uint32_t n) {
  cum_into(m, t, units, n, m->cum);
  for (uint32_t i = 0; i < m->p.counters; i++) {
    if (!m->cfg[i].enabled || !m->cfg[i].task)
      continue;
    uint64_t v = m->tacc[i];
    if (m->tactive[i] && m->cum[i] > m->tstart[i])
      v += m->cum[i] - m->tstart[i];
    m->cum[i] = v;
  }
}
