/*
 * Address regions for range counters (regions.h).
 */
#include <stdlib.h>
#include <string.h>

#include "regions.h"
#include "../util/array.h"

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

timing_regions *timing_regions_new(const uint32_t *bounds, uint32_t nbounds, const uint8_t *signals,
                                   uint32_t nsignals) {
  timing_regions *r = calloc(1, sizeof *r);
  uint32_t *b = malloc((nbounds ? nbounds : 1) * sizeof *b);
  if (!r || !b) {
    free(r);
    free(b);
    return NULL;
  }
  copy_array(b, bounds, nbounds * sizeof *b);
  sort_array(b, nbounds, sizeof *b, cmp_u32);
  uint32_t n = 0;
  for (uint32_t i = 0; i < nbounds; i++)
    if (b[i] != 0 && (n == 0 || b[i] != b[n - 1]))
      b[n++] = b[i];
  r->bounds = b;
  r->nbounds = n;
  r->nregions = n + 1;
  r->rows = n + 1 <= TIMING_MAX_REGIONS ? calloc((size_t)(n + 1) * SIG_COUNT, sizeof *r->rows) : NULL;
  if (!r->rows) {
    timing_regions_free(r);
    return NULL;
  }
  bool seen[SIG_COUNT] = {false};
  for (uint32_t i = 0; i < nsignals; i++) {
    if (signals[i] < SIG_COUNT && !seen[signals[i]]) {
      seen[signals[i]] = true;
      r->tracked[r->ntracked++] = signals[i];
    }
  }
  return r;
}

void timing_regions_free(timing_regions *r) {
  if (!r)
    return;
  free(r->bounds);
  free(r->rows);
  free(r);
}

/* The number of boundaries <= pc. */
static uint32_t bounds_at_or_below(const timing_regions *r, uint32_t pc) {
  uint32_t lo = 0, hi = r->nbounds;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (r->bounds[mid] <= pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

uint32_t timing_region_of(const timing_regions *r, uint32_t pc) { return bounds_at_or_below(r, pc); }

uint32_t timing_region_limit(const timing_regions *r, uint32_t pc) {
  uint32_t i = bounds_at_or_below(r, pc);
  return i < r->nbounds ? r->bounds[i] : 0;
}

void timing_region_sync(timing *t) {
  (void)t; /* dynamic counts reach the current region's row as they are made */
}

/* Marker k's cycles in the current region from the later of its setting
 * and the region's entry up to now. */
static uint64_t open_marker(const timing *t, unsigned k, uint64_t now) {
  uint64_t from = t->marker_since[k] > t->regions->entered ? t->marker_since[k] : t->regions->entered;
  return now > from ? now - from : 0;
}

/* Gives the current region the marker cycles up to now. */
static void close_markers(timing *t, uint32_t bits, uint64_t now) {
  int64_t *row = t->regions->rows + (size_t)t->region * SIG_COUNT;
  for (unsigned k = 0; k < 4; k++)
    if (bits >> k & 1u)
      row[SIG_MARKER0 + k] += (int64_t)open_marker(t, k, now);
}

void timing_region_close_markers(timing *t) { close_markers(t, t->markers, t->cycle); }

void timing_region_enter(timing *t, uint32_t pc) {
  if (t->regions) {
    uint32_t region = timing_region_of(t->regions, pc);
    if (region != t->region)
      timing_region_switch(t, region);
  }
}

void timing_region_markers(timing *t, uint32_t bits, uint64_t now) {
  if (t->regions)
    close_markers(t, t->markers & ~bits, now); /* the ones being cleared */
}

uint64_t timing_region_marker(const timing *t, uint32_t region, unsigned k, uint64_t now) {
  const timing_regions *r = t->regions;
  if (!r || region >= r->nregions || k > 3)
    return 0;
  uint64_t v = (uint64_t)r->rows[(size_t)region * SIG_COUNT + SIG_MARKER0 + k];
  if (region == t->region && (t->markers >> k & 1u))
    v += open_marker(t, k, now);
  return v;
}

void timing_regions_install(timing *t, timing_regions *r) {
  t->regions = r;
  t->region = 0;
  t->region_row = r ? r->rows : NULL;
  if (r)
    r->entered = t->cycle;
}
