/*
 * `tally sweep --one-pass`: every I-cache size and associativity of a
 * sweep from one simulation per program, where that gives exactly the
 * numbers of separate runs (docs/tally-sweep.md, "One pass").
 *
 * The I-cache lookup stream (one lookup per new fetch line) depends only
 * on the program's path and the line size, not on the cache's contents.
 * For LRU, a lookup hits in a cache of S sets and W ways exactly when
 * fewer than W other lines of its set were looked up since its last use
 * (its stack distance within the set is below W): one LRU stack per set
 * count, as deep as the largest W, gives the misses of every W at once.
 * The stream comes from one run with a one-line I-cache, whose misses
 * (tally_on_icache_miss) are every lookup but a repeat of the line looked
 * up last, and such a repeat hits in every cache without changing it.
 *
 * Cycles follow when every I-cache miss costs the same P cycles, whatever
 * came before: no SDRAM row misses (SRAM, or a zero row-miss time) and
 * nothing that keeps the memory port busy past the instruction that
 * started it (a write-back D-cache, or no write buffer). Then a point's
 * cycles are the reference run's plus (its misses - the reference's) x P,
 * and the other counts move with them (below). What cannot be derived
 * (interrupts, wfi sleep, DVFS, marker cycles) makes the sweep refuse.
 * One reference run per program and machine (everything of the model but
 * the I-cache's size and ways: a sweep over line sizes or D-caches makes
 * several). One point per reference is also run for real and compared, signal by
 * signal: a program whose path depends on time (reading mcycle or
 * mtime) is caught there rather than trusted.
 *
 * The core model's side (what a point's model is, and the conditions) is
 * sweep_model.c; the LRU stacks are sweep_lru.c.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "sweep_onepass.h"


/* ---- Points from the reference run ---- */

/* Point p's result from the reference's: the I-cache counts from the
 * stacks, cycles and stalls moved by (misses - reference misses) x P,
 * memory reads by the same difference, energy by its model's prices. */
static void derive(const sw_model *m, uint32_t penalty, const sw_result *ref, uint64_t miss_ref, uint64_t miss,
                   sw_result *r, uint64_t *sig) {
  *r = *ref;
  memcpy(sig, ref->signals, (size_t)ref->nsignals * sizeof *sig);
  int64_t dm = (int64_t)miss - (int64_t)miss_ref, dc = dm * (int64_t)penalty;
  int hit = tally_signal_lookup("icache.hit"), mis = tally_signal_lookup("icache.miss");
  int acc = tally_signal_lookup("icache.access"), rd = tally_signal_lookup("mem.read");
  sig[mis] = miss;
  sig[hit] = sig[acc] - miss;
  sig[rd] = (uint64_t)((int64_t)sig[rd] + dm);
  static const char *const moved[] = {"cycle", "stall", "stall.icache"};
  for (size_t i = 0; i < 3; i++) {
    int k = tally_signal_lookup(moved[i]);
    sig[k] = (uint64_t)((int64_t)sig[k] + dc);
  }
  r->cycles = (uint64_t)((int64_t)ref->cycles + dc);
  double vr = m->voltage / m->nominal_voltage;
  double pj = (double)dc * (m->core_pj * vr * vr + m->static_mw * vr * 1000.0 / m->freq_mhz) +
              (double)dm * sw_model_beats(m) * m->mem_read_pj;
  r->energy_j = ref->energy_j + pj * 1e-12;
  r->signals = sig;
}

typedef struct group {       /* the points of one program on one machine */
  const tally_sweep *s;
  sw_db *db;
  sw_point *pts;
  sw_model *mdl;
  size_t n;
  void (*done)(void *, const sw_result *);
  void *ctx;
  pthread_mutex_t *lock;
} group;

typedef struct gpool {       /* the groups, run on up to `jobs` threads */
  group *g;
  size_t ng;
  atomic_size_t next;
  const volatile int *cancel;
  pthread_mutex_t lock;
  int failed;
  tally_error err;
} gpool;

/* The reference's counts that must be what the derivation assumes. */
static const char *reference_wrong(const sw_result *ref, uint64_t seen, uint32_t penalty) {
  static const char *const zero[] = {"interrupt", "wfi.idle", "dvfs.switch", "marker0", "marker1", "marker2", "marker3"};
  for (size_t i = 0; i < sizeof zero / sizeof *zero; i++)
    if (ref->signals[tally_signal_lookup(zero[i])] != 0)
      return "the program takes interrupts, sleeps in wfi, switches the clock or sets markers: "
             "their cycles cannot be derived";
  if (ref->signals[tally_signal_lookup("icache.miss")] != seen)
    return "the reference run's misses were not all seen";
  /* every miss costs at least P; the sum equal to misses x P means each cost P */
  if (ref->signals[tally_signal_lookup("stall.icache")] != seen * penalty)
    return "an I-cache miss of the reference run cost more than the memory's latency";
  return NULL;
}

/* Compares a derived point with a real run of it: every count, and the
 * energy to rounding. */
static int same(const sw_result *a, const sw_result *b, char *why, size_t size) {
  for (int i = 0; i < a->nsignals; i++)
    if (a->signals[i] != b->signals[i])
      return snprintf(why, size, "%s %llu, a real run %llu", tally_signal_name(i),
                      (unsigned long long)a->signals[i], (unsigned long long)b->signals[i]), 0;
  if (a->cycles != b->cycles || a->instret != b->instret || a->exit_code != b->exit_code)
    return snprintf(why, size, "cycles, instructions or exit status differ from a real run"), 0;
  if (fabs(a->energy_j - b->energy_j) > 1e-9 * fabs(b->energy_j))
    return snprintf(why, size, "energy %.9g J, a real run %.9g J", a->energy_j, b->energy_j), 0;
  return 1;
}

static int run_group(group *g, tally_error *err) {
  const sw_model *m0 = &g->mdl[0];
  sw_lru o = {.line_shift = (uint32_t)__builtin_ctz(m0->line)};
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < g->n; i++)
    rc = sw_lru_add(&o, g->mdl[i].size / (g->mdl[i].ways * g->mdl[i].line), g->mdl[i].ways);
  /* the reference: the first point with a one-line, one-way I-cache */
  sw_point ref_pt = g->pts[0];
  ref_pt.sets = (sw_list){0};
  char one[64];
  snprintf(one, sizeof one, "icache.size=%u", m0->line);
  for (size_t i = 0; rc == 0 && i < g->pts[0].sets.n; i++)
    rc = sw_list_add(&ref_pt.sets, g->pts[0].sets.v[i]);
  if (rc == 0)
    rc = sw_list_add(&ref_pt.sets, one) | sw_list_add(&ref_pt.sets, "icache.ways=1");
  if (rc != 0)
    sw_err(err, TALLY_E_INTERNAL, "out of memory");
  int ns = tally_signal_count();
  uint64_t *rsig = calloc((size_t)ns, sizeof *rsig), *sig = calloc((size_t)ns, sizeof *sig),
           *csig = calloc((size_t)ns, sizeof *csig);
  sw_result ref, r, real;
  if (rc == 0 && (!rsig || !sig || !csig))
    rc = (sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1);
  if (rc == 0)
    rc = sw_point_run_observed(g->s, &ref_pt, sw_lru_on_miss, &o, &ref, rsig, err);
  uint32_t penalty = sw_ns_cycles(m0->read_first_ns, m0->freq_mhz) +
                     (sw_model_beats(m0) - 1) * sw_ns_cycles(m0->read_beat_ns, m0->freq_mhz);
  const char *wrong = rc == 0 ? reference_wrong(&ref, o.seen, penalty) : NULL;
  if (wrong)
    rc = (sw_err(err, TALLY_E_USAGE, "--one-pass: %s (program %s)", wrong, g->pts[0].prog->name), -1);
  /* the point with the most misses, run for real as a check */
  size_t check = 0;
  for (size_t i = 1; rc == 0 && i < g->n; i++)
    if (sw_lru_misses(&o, g->mdl[i].size / (g->mdl[i].ways * g->mdl[i].line), g->mdl[i].ways) >
        sw_lru_misses(&o, g->mdl[check].size / (g->mdl[check].ways * g->mdl[check].line), g->mdl[check].ways))
      check = i;
  for (size_t k = 0; rc == 0 && k < g->n; k++) {
    size_t i = (check + k) % g->n; /* the checked point first: nothing is stored if it fails */
    const sw_model *m = &g->mdl[i];
    derive(m, penalty, &ref, o.seen, sw_lru_misses(&o, m->size / (m->ways * m->line), m->ways), &r, sig);
    char why[200];
    if (k == 0 && (rc = sw_point_run(g->s, &g->pts[i], &real, csig, err)) == 0 && !same(&r, &real, why, sizeof why))
      rc = (sw_err(err, TALLY_E_USAGE,
                   "--one-pass: point %zu derived differs from its real run (%s): does the program's path "
                   "depend on time? Run without --one-pass", g->pts[i].index, why), -1);
    pthread_mutex_lock(g->lock); /* the file and the progress are shared by the groups' threads */
    if (rc == 0)
      rc = sw_db_put(g->db, &g->pts[i], &r, err);
    if (rc == 0 && g->done)
      g->done(g->ctx, &r);
    pthread_mutex_unlock(g->lock);
  }
  sw_list_free(&ref_pt.sets);
  free(rsig), free(sig), free(csig);
  sw_lru_free(&o);
  return rc;
}

static int same_machine(const sw_point *a, const sw_model *ma, const sw_point *b, const sw_model *mb) {
  return a->prog == b->prog && strcmp(ma->rest, mb->rest) == 0;
}

typedef struct slot {
  sw_point pt;
  sw_model m;
} slot;

static int slot_order(const void *x, const void *y) {
  const slot *a = x, *b = y;
  if (a->pt.prog != b->pt.prog)
    return a->pt.prog < b->pt.prog ? -1 : 1;
  int c = strcmp(a->m.rest, b->m.rest);
  return c ? c : a->pt.index < b->pt.index ? -1 : a->pt.index > b->pt.index;
}

/* Orders the points by program, then machine, then number (ownership of
 * their memory moves with them). */
static int regroup(sw_point *pts, sw_model *mdl, size_t n) {
  slot *v = malloc((n ? n : 1) * sizeof *v);
  if (!v)
    return -1;
  for (size_t i = 0; i < n; i++)
    v[i] = (slot){pts[i], mdl[i]};
  qsort(v, n, sizeof *v, slot_order);
  for (size_t i = 0; i < n; i++)
    pts[i] = v[i].pt, mdl[i] = v[i].m;
  free(v);
  return 0;
}

static void *group_worker(void *arg) {
  gpool *gp = arg;
  for (;;) {
    size_t i = atomic_fetch_add(&gp->next, 1);
    pthread_mutex_lock(&gp->lock);
    int stop = gp->failed || (gp->cancel && *gp->cancel);
    pthread_mutex_unlock(&gp->lock);
    if (i >= gp->ng || stop)
      return NULL;
    tally_error e = {{0}, TALLY_E_INTERNAL};
    if (run_group(&gp->g[i], &e) != 0) {
      pthread_mutex_lock(&gp->lock);
      if (!gp->failed)
        gp->failed = 1, gp->err = e;
      pthread_mutex_unlock(&gp->lock);
    }
  }
}

static int run_groups(gpool *gp, unsigned jobs, tally_error *err) {
  if (jobs > gp->ng)
    jobs = gp->ng ? (unsigned)gp->ng : 1;
  pthread_t *t = calloc(jobs, sizeof *t);
  if (!t)
    return sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1;
  pthread_mutex_init(&gp->lock, NULL);
  unsigned started = 0;
  while (started < jobs && pthread_create(&t[started], NULL, group_worker, gp) == 0)
    started++;
  if (started == 0)
    group_worker(gp);
  for (unsigned i = 0; i < started; i++)
    pthread_join(t[i], NULL);
  pthread_mutex_destroy(&gp->lock);
  free(t);
  if (gp->failed && err)
    *err = gp->err;
  return gp->failed ? -1 : 0;
}

int sw_onepass(const tally_sweep *s, sw_db *db, const size_t *todo, size_t n, unsigned jobs,
               const volatile int *cancel, void (*done)(void *ctx, const sw_result *r), void *ctx,
               tally_error *err) {
  sw_point *pts = calloc(n ? n : 1, sizeof *pts);
  sw_model *mdl = calloc(n ? n : 1, sizeof *mdl);
  int rc = pts && mdl ? 0 : (sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1);
  size_t made = 0;
  for (; rc == 0 && made < n; made++) {
    if (sw_point_make(s, todo[made], &pts[made]) != 0) {
      rc = (sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1);
      made++;
      break;
    }
    if (sw_model_of(&pts[made], &mdl[made], err) != 0) {
      rc = -1;
      made++;
      break;
    }
    const char *why = sw_model_outside(&mdl[made]);
    if (why)
      rc = (sw_err(err, TALLY_E_USAGE, "--one-pass: not exact for point %zu: %s", todo[made], why), -1);
  }
  /* one reference run per program and machine (the model but the
   * I-cache's size and ways): its points side by side */
  if (rc == 0 && regroup(pts, mdl, n) != 0)
    rc = (sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1);
  gpool gp = {.cancel = cancel};
  for (size_t i = 0; rc == 0 && i < n;) {
    size_t j = i;
    while (j < n && same_machine(&pts[j], &mdl[j], &pts[i], &mdl[i]))
      j++;
    group *g = realloc(gp.g, (gp.ng + 1) * sizeof *g);
    if (!g) {
      rc = (sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1);
      break;
    }
    gp.g = g;
    gp.g[gp.ng++] = (group){s, db, pts + i, mdl + i, j - i, done, ctx, &gp.lock};
    i = j;
  }
  if (rc == 0)
    rc = run_groups(&gp, jobs, err);
  free(gp.g);
  for (size_t i = 0; i < made; i++) {
    sw_point_free(&pts[i]);
    free(mdl[i].rest);
  }
  free(pts);
  free(mdl);
  return rc;
}
