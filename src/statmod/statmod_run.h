/*
 * The statistics module as the run loop (src/core/run.c) drives it: the
 * dispatch timer is a cycle horizon, and each time the cycle count reaches
 * it the loop hands over what just ran.
 *
 * The loop guarantees that whenever the cycle count passes a dispatch
 * cycle, it knows the counts of each instruction (or interrupt entry) since
 * the last instruction edge before it: a block run near the horizon with
 * per-instruction rows, an instruction run alone, an interrupt's entry, or
 * the stall no bound covers that ends a block's last instruction (wfi's
 * sleep, a DVFS relock). These units of work are handed over with their own
 * signal counts, so that a dispatch falling strictly inside one is split
 * exactly by the cycle layout of docs/timing.md.
 */
#ifndef TALLY_STATMOD_STATMOD_RUN_H
#define TALLY_STATMOD_STATMOD_RUN_H

#include <stdint.h>

#include "../timing/timing.h"

struct statmod;

/* One unit of work that ended at the current cycle count (timing.h). */
typedef timing_unit statmod_unit;

/* The module as the timing model's horizon watcher (statmod_attach
 * installs it). */
extern const timing_watch_ops statmod_watch_ops;

/* The next cycle the module must see, or UINT64_MAX when it is not timing. */
uint64_t statmod_horizon(const struct statmod *m);

/* The cycle count has reached statmod_horizon(m). units[0..n) are what ran
 * last, in order and back to back, the last one ending now (n = 0: the
 * count stands on an instruction edge and nothing needs splitting).
 * Dispatches every interval due, splitting the unit each dispatch cycle
 * falls inside. */
void statmod_reached(struct statmod *m, const statmod_unit *units, uint32_t n);

#endif
