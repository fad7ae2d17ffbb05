/*
 * Address regions: counts per PC range for the statistics module's range
 * counters, at no cost per instruction or per event.
 *
 * The address space is cut at a sorted list of boundaries into regions:
 * region r is [bounds[r-1], bounds[r]), with bounds[-1] = 0 and
 * bounds[nbounds] = 2^32. Blocks are never built across a boundary
 * (block.c), so each block lies in one region, kept in its block_timing.
 * A region's row receives every count its instructions are charged:
 *   - static costs when blocks are folded (core_fold_blocks): executions
 *     times the block's static costs go to the block's region;
 *   - dynamic charges go to sig_dyn and to the row of the current region
 *     (timing.region_row, timing_count), which entering a block of another
 *     region changes (timing_region_switch). This is exact because every
 *     dynamic charge is made while its instruction's block is the one being
 *     run: a block's dynamic charges, its early-exit corrections (which take
 *     back from the row too) and a single-stepped instruction's folded
 *     static costs (run.c, which adds them to the row too) all come before
 *     the next block is entered, and traps and interrupts switch to their
 *     instruction's region before they charge (trap.c). Most dynamic events
 *     are per-block counts folded with the static ones (block_timing), so
 *     charges, and these extra additions, are rare; a switch costs a
 *     pointer, not a pass over the signals.
 *
 * Markers are level signals, not charges: a marker is high from the start
 * of the instruction that sets it to the start of the one that clears it.
 * Per region they are kept by time: at a switch, and when a marker is
 * cleared, the cycles since max(set, region entered) go to the current
 * region's row; a reader adds the part still open (timing_region_marker).
 */
#ifndef TALLY_TIMING_REGIONS_H
#define TALLY_TIMING_REGIONS_H

#include <stdint.h>

#include "timing.h"

#define TIMING_MAX_REGIONS 65535u

typedef struct timing_regions {
  uint32_t nbounds;
  uint32_t *bounds;            /* ascending, distinct, none 0 */
  uint32_t nregions;           /* nbounds + 1 */
  int64_t *rows;               /* nregions * SIG_COUNT counts */
  uint32_t ntracked;
  uint8_t tracked[SIG_COUNT];  /* signals some range counter reads */
  uint64_t entered;            /* the cycle the current region was entered */
} timing_regions;

/* Regions cut at `bounds` (any order, duplicates and 0 allowed: they are
 * sorted and merged), for range counters of `signals`.
 * NULL when out of memory or when there would be more than
 * TIMING_MAX_REGIONS regions. */
timing_regions *timing_regions_new(const uint32_t *bounds, uint32_t nbounds, const uint8_t *signals,
                                   uint32_t nsignals);
void timing_regions_free(timing_regions *r);

/* The region of an address. */
uint32_t timing_region_of(const timing_regions *r, uint32_t pc);
/* The first boundary above pc, or 0 when there is none (the region reaches
 * the top of the address space). */
uint32_t timing_region_limit(const timing_regions *r, uint32_t pc);

/* Starts charging `t`'s counts into r (NULL: stops). The caller flushes the
 * block cache first (core_block_flush), so that every block is rebuilt with
 * its region, and keeps r alive while installed. Rows are not cleared. */
void timing_regions_install(timing *t, timing_regions *r);

/* Execution enters a block of another region. Inline: programs that call
 * across the counted functions switch on most block entries, and a call
 * each showed in their profile. */
void timing_region_close_markers(timing *t);
static inline void timing_region_switch(timing *t, uint32_t region) {
  timing_regions *r = t->regions;
  if (r) {
    if (t->markers)
      timing_region_close_markers(t); /* the open markers' cycles so far belong to the region left */
    r->entered = t->cycle;
    t->region_row = r->rows + (size_t)region * SIG_COUNT;
  }
  t->region = (uint16_t)region;
}

/* Brings the rows up to date before they are read: nothing to do, since
 * dynamic counts reach them as they are made (kept for callers). */
void timing_region_sync(timing *t);

/* Makes the region of `pc` the current one (a trap or interrupt about to
 * charge the instruction at pc). */
void timing_region_enter(timing *t, uint32_t pc);

/* The program sets its markers to `bits` at cycle `now` (timing_set_markers
 * calls this before it changes them). */
void timing_region_markers(timing *t, uint32_t bits, uint64_t now);
/* Cycles of region `region` on which marker k was high, up to cycle `now`
 * (not before the current region was entered). */
uint64_t timing_region_marker(const timing *t, uint32_t region, unsigned k, uint64_t now);

/* timing_fetch_miss_lean and timing_dcache_miss_lean that charge the
 * rows set too, a profile's and the current region's (fetch_regions.c):
 * the lean routines refuse any row, and the general ones cost a run with
 * range counters or a profile a quarter of its time where a cache
 * thrashes. Same state and counts as timing_fetch_miss and
 * timing_dcache_miss. */
uint32_t timing_fetch_miss_rows(timing *t, uint32_t line_addr, uint64_t now);
uint32_t timing_dcache_miss_rows(timing *t, uint32_t addr, uint64_t now, bool is_write);

#endif
