/*
 * The statistics module's state, shared by its files:
 *   statmod.c        parameters, configuration, control, the timer, delivery
 *   statmod_count.c  reading the counters: address regions, the exact split
 *                    of an instruction that straddles a dispatch
 *   statmod_words.c  plain words for counters
 *
 * How a counter is read. Counters are never incremented one by one: each
 * counter is a difference of cumulative counts. For counter i, cum(i, t) is
 * the number of its events in cycles [0, t): for an anywhere counter the
 * signal's run total (folded block costs plus dynamic counts); for a range
 * counter the sum of the signal over the address regions its ARR covers
 * (src/timing/regions.h); for a marker the cycles it was high
 * (timing_marker_totals, or the per-region marker accounting). An
 * interval's value is carry[i] + cum(i, end) - base[i], where base[i] is
 * cum at the start of the interval (or at the last reconfiguration) and
 * carry[i] what the counter held then.
 */
#ifndef TALLY_STATMOD_STATMOD_IMPL_H
#define TALLY_STATMOD_STATMOD_IMPL_H

#include "../core/cpu.h"
#include "../timing/regions.h"
#include "../timing/timing.h"
#include "statmod.h"
#include "statmod_run.h"

typedef struct statmod_sink_entry {
  statmod_sink fn;
  void *ctx;
} statmod_sink_entry;

/* A control call made from inside a sink, applied at the next edge. */
typedef statmod_change statmod_pending;

/* A change scheduled for a cycle (statmod_schedule). */
typedef struct statmod_scheduled {
  uint64_t at;                 /* applied on the first instruction edge at or after it */
  uint64_t applied;            /* the cycle it was applied on; UINT64_MAX: not yet */
  uint32_t seq;                /* scheduled k-th (statmod_schedule_applied) */
  statmod_change c;
} statmod_scheduled;

struct statmod {
  statmod_params p;
  uint64_t max;                /* 2^width - 1 */
  statmod_arr *arrs;
  statmod_counter_cfg *cfg;
  uint64_t period;             /* 0 = not set */

  statmod_sink_entry sinks[STATMOD_MAX_SINKS];
  uint32_t nsinks;

  core_cpu *cpu;               /* attached core, or NULL */
  statmod_state state;
  uint64_t run_begin;          /* the cycle counting started */
  uint64_t begin;              /* the cycle the current interval began */
  uint64_t next;               /* its end: the next dispatch (RUNNING) */
  uint64_t index;              /* data intervals delivered */
  uint64_t inexact;

  /* per counter */
  uint64_t *carry, *base, *cum;
  uint64_t *val, *total;
  uint8_t *sat, *sat_any;
  uint32_t *rlo, *rhi;         /* a range counter's regions [rlo, rhi) */
  /* task counters: cum = tacc + (tactive ? raw - tstart : 0), where raw is
   * what the counter would count whatever runs (statmod_impl.h's cum) */
  uint64_t *tacc, *tstart, *raw;
  uint8_t *tactive;

  char tasks[STATMOD_TASK_REGS + 1][STATMOD_TASK_NAME]; /* [1..]: the task registers */
  char running_task[STATMOD_TASK_NAME];                 /* what runs now, as last told */
  uint64_t task_inexact;

  timing_regions *regions;     /* installed in the core's timing model while running */

  bool in_dispatch;
  statmod_pending *pending;
  uint32_t npending, pending_cap;

  /* scheduled changes, in the order of their cycles (equal cycles: as
   * scheduled); [next_sched, nsched) are still to come */
  statmod_scheduled *sched;
  uint32_t nsched, sched_cap, next_sched;
  bool applying;               /* inside apply_scheduled (a STOP it applies reaches the module again) */

  statmod_change_fn on_change;
  void *on_change_ctx;
};

/* statmod.c: writes the message into err (may be NULL), returns -1 */
int statmod_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* statmod_count.c */
bool statmod_counts_range(const statmod *m, uint32_t i);   /* enabled with an ARR */
/* Builds and installs the regions for the enabled range counters (none:
 * uninstalls); flushes the core's block cache. 0, or -1 out of memory. */
int statmod_install_regions(statmod *m, char *err, size_t errlen);
void statmod_uninstall_regions(statmod *m);
/* Folds the core's blocks and moves pending region counts: call before
 * statmod_cum. */
void statmod_settle(statmod *m);
/* cum(i, t) for every enabled counter into m->cum, where t is the current
 * cycle count, or a cycle inside the span of units (statmod_reached): their
 * counts in [t, now) are then taken off, split by the cycle layout where t
 * falls inside one. Disabled counters: 0. */
void statmod_cum(statmod *m, uint64_t t, const statmod_unit *units, uint32_t n);
/* The same into m->raw, as if no counter had a task. */
void statmod_cum_raw(statmod *m, uint64_t t, const statmod_unit *units, uint32_t n);
/* statmod.c: counters [from, to) start counting for their tasks now
 * (after statmod_settle). */
void statmod_task_begin(statmod *m, uint32_t from, uint32_t to);

#endif
