/*
 * The per-cycle trace (cycle_trace.h): the recorder in the horizon-watcher
 * slot, and the per-cycle signal values of each unit by the module's cycle
 * layout; cycle_trace_write.c turns them into the records of
 * docs/cycle-trace.md.
 */
#include <stdlib.h>
#include <string.h>

#include "../timing/timing.h"
#include "cycle_trace.h"
#include "cycle_trace_write.h"
#include "statmod_layout.h"
#include "statmod_run.h"

struct statmod_ctrace {
  core_cpu *cpu;                 /* NULL once the simulation has gone */
  const timing_watch_ops *inner_ops;
  void *inner;                   /* the watcher behind (the statistics module), or NULL */
  ctrace_writer w;
  uint64_t from, to;             /* the window [from, to) */
  uint64_t last;                 /* the cycle count at the last instruction edge seen */
  uint64_t unexplained;          /* cycles of the window no unit came for */
  uint64_t misplaced;            /* configuration changes off the last edge recorded */
  statmod *module;               /* the statistics module behind, whose changes are recorded, or NULL */
  /* marker levels at `last` */
  uint32_t mk_bits;
  uint64_t mk_since[4];
  int64_t mk_dyn[4];
};

/* ---- one unit, cycle by cycle ---- */

static bool is_part(uint32_t s) {
  for (size_t i = 0; i < STATMOD_N_LAYOUT_PARTS; i++)
    if (statmod_layout_parts[i] == s)
      return true;
  return false;
}

static bool is_stall_part(uint32_t s) {
  for (size_t i = 0; i < STATMOD_N_STALL_PARTS; i++)
    if (statmod_stall_parts[i] == s)
      return true;
  return false;
}

/* Signals placed on the unit's first issue cycle: all but the cycle and
 * stall parts, instret, the fetch events and the markers. */
static bool on_issue(uint32_t s) {
  return s != SIG_CYCLE && s != SIG_STALL && s != SIG_INSTRET && !is_part(s) && s != SIG_ICACHE_ACCESS &&
         s != SIG_ICACHE_HIT && s != SIG_ICACHE_MISS && s != SIG_MEM_READ && !(s >= SIG_MARKER0 && s <= SIG_MARKER3);
}

/* A marker's switch during the span being laid out: its level is `before`
 * on cycles < at, `after` from at on. */
typedef struct marker_switch {
  uint64_t at;
  bool before, after;
} marker_switch;

/* The unit's values on its cycle at offset k (fi: its first issue cycle,
 * on its last cycle at the latest, as the split counts it). */
static void values_at(const statmod_unit *u, const statmod_layout *l, uint64_t fi, uint64_t k,
                      const marker_switch *mk, uint64_t *v) {
  memset(v, 0, SIG_COUNT * sizeof *v);
  v[SIG_CYCLE] = 1;
  for (size_t i = 0; i < STATMOD_N_LAYOUT_PARTS; i++) {
    uint32_t s = statmod_layout_parts[i];
    if (s == SIG_COUNT || k < l->from[s] || k >= l->from[s] + l->len[s])
      continue;
    v[s] = 1;
    if (is_stall_part(s))
      v[SIG_STALL] = 1;
  }
  if (k == 0) {
    v[SIG_ICACHE_ACCESS] += (uint64_t)u->counts[SIG_ICACHE_ACCESS];
    v[SIG_ICACHE_HIT] += (uint64_t)u->counts[SIG_ICACHE_HIT];
    v[SIG_ICACHE_MISS] += (uint64_t)u->counts[SIG_ICACHE_MISS];
    v[SIG_MEM_READ] += u->fetch_reads;
  }
  if (k == fi) {
    for (uint32_t s = 0; s < SIG_COUNT; s++)
      if (on_issue(s))
        v[s] += (uint64_t)u->counts[s];
    v[SIG_MEM_READ] += (uint64_t)u->counts[SIG_MEM_READ] - u->fetch_reads;
  }
  if (k == l->cycles - 1)
    v[SIG_INSTRET] += (uint64_t)u->counts[SIG_INSTRET];
  uint64_t at = u->start + k;
  for (int i = 0; i < 4; i++)
    v[SIG_MARKER0 + i] = at < mk[i].at ? mk[i].before : mk[i].after;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static bool counts_sane(const statmod_unit *u) {
  for (int s = 0; s < SIG_COUNT; s++)
    if (u->counts[s] < 0 && !(s >= SIG_MARKER0 && s <= SIG_MARKER3))
      return false;
  return (int64_t)u->fetch_reads <= u->counts[SIG_MEM_READ];
}

/* The cycles [start, end) of unit u that are in the window: cut where any
 * signal may change (part bounds, the first, first issue and last cycles,
 * marker switches, the window's ends), each piece one record. */
static void lay_unit(statmod_ctrace *t, const statmod_unit *u, uint64_t end, const marker_switch *mk) {
  uint64_t T = end - u->start;
  if (T == 0 || !counts_sane(u)) {
    t->unexplained += T ? T : 1; /* events with no cycle, or counts that cannot be laid out */
    return;
  }
  statmod_layout l;
  statmod_lay_out(u, T, &l);
  uint64_t fi = l.first_issue < T ? l.first_issue : T - 1;
  uint64_t cut[2 * STATMOD_N_LAYOUT_PARTS + 16];
  size_t n = 0;
  cut[n++] = 0, cut[n++] = 1, cut[n++] = fi, cut[n++] = fi + 1, cut[n++] = T - 1, cut[n++] = T;
  for (size_t i = 0; i < STATMOD_N_LAYOUT_PARTS; i++) {
    uint32_t s = statmod_layout_parts[i];
    cut[n++] = l.from[s], cut[n++] = l.from[s] + l.len[s];
  }
  for (int i = 0; i < 4; i++)
    if (mk[i].at > u->start && mk[i].at < end)
      cut[n++] = mk[i].at - u->start;
  if (t->from > u->start && t->from < end)
    cut[n++] = t->from - u->start;
  if (t->to > u->start && t->to < end)
    cut[n++] = t->to - u->start;
  qsort(cut, n, sizeof cut[0], cmp_u64);
  uint64_t v[SIG_COUNT];
  for (size_t i = 0; i + 1 < n; i++) {
    uint64_t a = cut[i], b = cut[i + 1];
    if (a >= b || b > T || u->start + a < t->from || u->start + b > t->to)
      continue;
    values_at(u, &l, fi, a, mk, v);
    ctrace_emit(&t->w, u->pc, v, b - a);
  }
}

/* The markers' switches between the last edge and now. */
static void marker_switches(statmod_ctrace *t, marker_switch *mk) {
  const timing *tm = t->cpu->tm;
  for (int i = 0; i < 4; i++) {
    bool was = t->mk_bits >> i & 1u, is = tm->markers >> i & 1u;
    mk[i] = (marker_switch){.at = UINT64_MAX, .before = was, .after = is};
    if (was && !is) /* cleared: its high cycles since mk_since were added to sig_dyn */
      mk[i].at = t->mk_since[i] + (uint64_t)(tm->sig_dyn[SIG_MARKER0 + i] - t->mk_dyn[i]);
    else if (!was && is)
      mk[i].at = tm->marker_since[i];
  }
}

static void note_edge(statmod_ctrace *t) {
  const timing *tm = t->cpu->tm;
  t->last = tm->cycle;
  t->mk_bits = tm->markers;
  memcpy(t->mk_since, tm->marker_since, sizeof t->mk_since);
  for (int i = 0; i < 4; i++)
    t->mk_dyn[i] = tm->sig_dyn[SIG_MARKER0 + i];
}

/* Lays out the units that ran in [last, now). */
static void record(statmod_ctrace *t, const statmod_unit *u, uint32_t n) {
  uint64_t now = t->cpu->tm->cycle;
  uint64_t lo = t->last > t->from ? t->last : t->from, hi = now < t->to ? now : t->to;
  if (lo >= hi)
    return;
  /* cycles of the window that no unit describes (n = 0: a block ran over
   * them unseen) */
  uint64_t covered = n ? u[0].start : now;
  if (covered > lo)
    t->unexplained += (covered < hi ? covered : hi) - lo;
  marker_switch mk[4];
  marker_switches(t, mk);
  for (uint32_t j = 0; j < n; j++)
    lay_unit(t, &u[j], j + 1 < n ? u[j + 1].start : now, mk);
}

/* ---- the watcher ---- */

static uint64_t own_horizon(const statmod_ctrace *t) {
  if (t->last >= t->to)
    return UINT64_MAX;
  return t->last < t->from ? t->from : t->last + 1;
}

static uint64_t watch_horizon(const void *w) {
  const statmod_ctrace *t = w;
  uint64_t h = own_horizon(t);
  uint64_t in = t->inner ? t->inner_ops->horizon(t->inner) : UINT64_MAX;
  return in < h ? in : h;
}

static void watch_reached(void *w, const timing_unit *units, uint32_t n) {
  statmod_ctrace *t = w;
  if (!t->cpu)
    return;
  if (t->cpu->tm->cycle > t->last)
    record(t, units, n);
  note_edge(t);
  if (t->inner && t->cpu->tm->cycle >= t->inner_ops->horizon(t->inner))
    t->inner_ops->reached(t->inner, units, n);
}

static void watch_detach(void *w) {
  statmod_ctrace *t = w;
  if (!t->cpu)
    return;
  t->cpu->tm->watch = NULL;
  t->cpu->tm->watch_ops = NULL;
  t->cpu = NULL;
  if (t->inner)
    t->inner_ops->detach(t->inner);
}

static const timing_watch_ops ctrace_ops = {.horizon = watch_horizon, .reached = watch_reached,
                                            .detach = watch_detach};

/* ---- configuration changes ---- */

/* The module behind took a change that counts from `cycle` on: every
 * cycle before it is written (it is the last edge seen), so the record
 * goes between them and the next. */
static void on_change(void *ctx, uint64_t cycle, const statmod_change *c) {
  statmod_ctrace *t = ctx;
  if (!t->cpu || cycle < t->from || cycle >= t->to)
    return;
  if (cycle != t->last) {
    t->misplaced++;
    return;
  }
  ctrace_config(&t->w, cycle, c);
}

static void stop_observing(statmod_ctrace *t) {
  if (t->module)
    statmod_on_change(t->module, NULL, NULL);
  t->module = NULL;
}

/* ---- life ---- */

statmod_ctrace *statmod_ctrace_new(core_cpu *cpu, FILE *out, uint64_t from, uint64_t to, char *err,
                                   size_t errlen) {
  if (!cpu->tm) {
    snprintf(err, errlen, "the cycle trace needs a core model (cycles are counted on one)");
    return NULL;
  }
  statmod_ctrace *t = calloc(1, sizeof *t);
  if (!t) {
    snprintf(err, errlen, "out of memory for the cycle trace");
    return NULL;
  }
  t->cpu = cpu;
  t->from = from > cpu->tm->cycle ? from : cpu->tm->cycle;
  t->to = to > t->from ? to : t->from;
  note_edge(t);
  if (ctrace_begin(&t->w, out, t->from) != 0) {
    snprintf(err, errlen, "cannot write the cycle trace: %s", strerror(t->w.write_errno));
    free(t);
    return NULL;
  }
  t->inner_ops = cpu->tm->watch_ops;
  t->inner = cpu->tm->watch;
  cpu->tm->watch_ops = &ctrace_ops;
  cpu->tm->watch = t;
  if (t->inner_ops == &statmod_watch_ops) {
    t->module = t->inner;
    statmod_on_change(t->module, on_change, t);
  }
  return t;
}

int statmod_ctrace_end(statmod_ctrace *t, char *err, size_t errlen) {
  stop_observing(t);
  if (t->cpu && t->cpu->tm->watch == t) {
    /* cycles of the window after the last edge seen: the run stopped off
     * an instruction edge, which cannot happen (run.c) */
    uint64_t now = t->cpu->tm->cycle;
    uint64_t lo = t->last > t->from ? t->last : t->from, hi = now < t->to ? now : t->to;
    if (hi > lo)
      t->unexplained += hi - lo;
    t->cpu->tm->watch_ops = t->inner_ops;
    t->cpu->tm->watch = t->inner;
    t->cpu = NULL;
  }
  if (ctrace_finish(&t->w) != 0) {
    snprintf(err, errlen, "cannot write the cycle trace: %s", strerror(t->w.write_errno));
    return -1;
  }
  if (t->misplaced) {
    snprintf(err, errlen, "internal error: %llu configuration changes came off an instruction edge",
             (unsigned long long)t->misplaced);
    return -1;
  }
  if (t->unexplained) {
    snprintf(err, errlen, "internal error: %llu cycles of the window came with no instruction to place them on",
             (unsigned long long)t->unexplained);
    return -1;
  }
  return 0;
}

void statmod_ctrace_free(statmod_ctrace *t) {
  if (t)
    stop_observing(t);
  if (t && t->cpu && t->cpu->tm->watch == t) {
    t->cpu->tm->watch_ops = t->inner_ops;
    t->cpu->tm->watch = t->inner;
  }
  free(t);
}

uint64_t statmod_ctrace_cycles(const statmod_ctrace *t) { return t->w.cycles + t->w.rep; }
