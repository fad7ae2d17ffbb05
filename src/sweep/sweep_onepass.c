/*
 * `tally sweep --one-pass`: every I- and D-cache size and associativity of
 * a sweep from one simulation per program and machine, where that gives
 * exactly the numbers of separate runs (docs/tally-sweep.md, "One pass").
 *
 * A cache's access stream (the I-cache: one lookup per new fetch line;
 * the D-cache: every load and store to cached memory) depends only on the
 * program's path and the line size, not on the cache's contents. For LRU,
 * an access hits in a cache of S sets and W ways exactly when fewer than W
 * other lines of its set were used since its last use (its stack distance
 * within the set is below W): one LRU stack per set count, as deep as the
 * largest W, gives the misses of every W at once, and with a dirtiness
 * per entry the write-backs too (sweep_lru.c). The stream comes from one
 * run with a one-line cache in place of each cache that varies, whose
 * misses (tally_on_icache_miss, tally_on_dcache_miss) are every access but
 * a repeat of the line used last; such a repeat hits in every cache
 * without moving anything, and a store among them shows as the write-back
 * of its line by the next fill.
 *
 * Cycles follow when every miss costs the same whatever came before: no
 * SDRAM row misses (SRAM, or a zero row-miss time) and nothing that keeps
 * the memory port busy past the instruction that started it (a write-back
 * D-cache, or no write buffer). Then a point's cycles are the reference
 * run's plus the difference in fills and write-backs times their costs,
 * and the other counts move with them (derive). What cannot be derived
 * (interrupts, wfi sleep, DVFS, marker cycles) makes the sweep refuse.
 * One reference run per program and machine (everything of the model but
 * the caches' sizes and ways and the D-cache's line, whose shortest value
 * the reference takes: a sweep over I-cache line sizes or write policies
 * makes several). The point of each reference that takes longest is also
 * run for real and compared, signal by signal: a program whose path
 * depends on time (reading mcycle or mtime) is caught there rather than
 * trusted.
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

/* What a group's misses cost, in core cycles (the same for every point of
 * one machine): a line fill of each cache, the write-back of a dirty
 * D-cache line, a store through a write-through D-cache. */
typedef struct costs {
  uint32_t ifill, dfill, dwb, dstore;
  uint32_t ibeats, dbeats;   /* bus beats of a line of each cache */
} costs;

static costs costs_of(const sw_model *m) {
  uint32_t first = sw_ns_cycles(m->read_first_ns, m->freq_mhz), beat = sw_ns_cycles(m->read_beat_ns, m->freq_mhz);
  uint32_t wbeat = sw_ns_cycles(m->write_ns, m->freq_mhz);
  uint32_t ib = sw_model_beats(m, &m->i), db = sw_model_beats(m, &m->d);
  return (costs){first + (ib - 1) * beat, first + (db - 1) * beat, db * wbeat, wbeat, ib, db};
}

/* The cache counts that differ between the points of a group. */
typedef struct counts {
  uint64_t imiss, rmiss, wmiss, wb;
} counts;

static uint64_t sig_of(const sw_result *r, const char *name) { return r->signals[tally_signal_lookup(name)]; }

static counts counts_of_run(const sw_result *r) {
  return (counts){sig_of(r, "icache.miss"), sig_of(r, "dcache.read_miss"), sig_of(r, "dcache.write_miss"),
                  sig_of(r, "writeback")};
}

static uint32_t sets_of(const sw_cache *c) { return c->size / (c->ways * c->line); }

typedef struct group {       /* the points of one program on one machine */
  const tally_sweep *s;
  sw_db *db;
  sw_point *pts;
  sw_model *mdl;
  size_t n;
  int vary_i, vary_d;        /* the I-cache's, the D-cache's size or ways differ among them */
  void (*done)(void *, const sw_result *);
  void *ctx;
  pthread_mutex_t *lock;
} group;

/* The D-cache stacks of one line size, in the chain from dl (NULL if none). */
static const sw_lru *stacks_of_line(const sw_lru *dl, uint32_t line) {
  for (; dl; dl = dl->next)
    if (1u << dl->line_shift == line)
      return dl;
  return NULL;
}

/* Point i's counts: from the stacks for a cache that varies, else the
 * reference's (whose cache is then the point's). */
static counts point_counts(const group *g, size_t i, const sw_lru *il, const sw_lru *dls, const counts *ref) {
  const sw_model *m = &g->mdl[i];
  counts c = *ref;
  if (g->vary_i)
    c.imiss = sw_lru_misses(il, sets_of(&m->i), m->i.ways, -1);
  if (g->vary_d) {
    const sw_lru *dl = stacks_of_line(dls, m->d.line);
    c.rmiss = sw_lru_misses(dl, sets_of(&m->d), m->d.ways, 0);
    c.wmiss = sw_lru_misses(dl, sets_of(&m->d), m->d.ways, 1);
    c.wb = m->d.wb ? sw_lru_writebacks(dl, sets_of(&m->d), m->d.ways) : 0;
  }
  return c;
}

/* Line fills of the D-cache: every miss of a write-back one, the loads'
 * of a write-through one (which allocates nothing on a store). */
static int64_t dfills(const sw_model *m, const counts *c) {
  return (int64_t)c->rmiss + (m->d.wb ? (int64_t)c->wmiss : 0);
}

static void move(uint64_t *sig, const char *name, int64_t by) {
  int k = tally_signal_lookup(name);
  sig[k] = (uint64_t)((int64_t)sig[k] + by);
}

static void set(uint64_t *sig, const char *name, uint64_t v) { sig[tally_signal_lookup(name)] = v; }

/* Point p's result from the reference's: the caches' counts from the
 * stacks (c), cycles and stalls moved by what its fills and write-backs
 * cost (k, its own line sizes) less what the reference's cost (kr),
 * memory transactions by the differences in their numbers, energy by its
 * model's prices. */
static void derive(const sw_model *m, const costs *k, const costs *kr, const sw_result *ref, const counts *rc,
                   const counts *c, sw_result *r, uint64_t *sig) {
  *r = *ref;
  memcpy(sig, ref->signals, (size_t)ref->nsignals * sizeof *sig);
  int64_t di = (int64_t)c->imiss - (int64_t)rc->imiss, dfill = dfills(m, c) - dfills(m, rc);
  int64_t dwb = (int64_t)c->wb - (int64_t)rc->wb;
  int64_t ic = di * k->ifill;
  int64_t dc = dfills(m, c) * k->dfill + (int64_t)c->wb * k->dwb - dfills(m, rc) * kr->dfill -
               (int64_t)rc->wb * kr->dwb;
  int64_t read_beats = di * k->ibeats + dfills(m, c) * k->dbeats - dfills(m, rc) * kr->dbeats;
  int64_t write_beats = (int64_t)c->wb * k->dbeats - (int64_t)rc->wb * kr->dbeats;
  set(sig, "icache.miss", c->imiss);
  set(sig, "icache.hit", sig_of(ref, "icache.access") - c->imiss);
  set(sig, "dcache.read_miss", c->rmiss);
  set(sig, "dcache.read_hit", sig_of(ref, "dcache.read_hit") + rc->rmiss - c->rmiss);
  set(sig, "dcache.write_miss", c->wmiss);
  set(sig, "dcache.write_hit", sig_of(ref, "dcache.write_hit") + rc->wmiss - c->wmiss);
  set(sig, "writeback", c->wb);
  move(sig, "mem.read", di + dfill);
  move(sig, "mem.write", dwb);
  move(sig, "stall.icache", ic);
  move(sig, "stall.dcache", dc);
  move(sig, "stall", ic + dc);
  move(sig, "cycle", ic + dc);
  r->cycles = (uint64_t)((int64_t)ref->cycles + ic + dc);
  double vr = m->voltage / m->nominal_voltage;
  double pj = (double)(ic + dc) * (m->core_pj * vr * vr + m->static_mw * vr * 1000.0 / m->freq_mhz) +
              (double)read_beats * m->mem_read_pj + (double)write_beats * m->mem_write_pj;
  r->energy_j = ref->energy_j + pj * 1e-12;
  r->cache_bytes = sw_model_cache_bytes(m); /* the reference's caches are one line */
  r->signals = sig;
}

typedef struct gpool {       /* the groups, run on up to `jobs` threads */
  group *g;
  size_t ng;
  atomic_size_t next;
  const volatile int *cancel;
  pthread_mutex_t lock;
  int failed;
  tally_error err;
} gpool;

/* The reference's counts that must be what the derivation assumes: the
 * observers saw every miss, and each cost exactly its latency (every
 * miss costs at least that; the sum equal to it means each did). */
static const char *reference_wrong(const group *g, const sw_result *ref, const sw_lru *il, const sw_lru *dl,
                                   const costs *k) {
  static const char *const zero[] = {"interrupt", "wfi.idle", "dvfs.switch", "marker0", "marker1", "marker2", "marker3"};
  for (size_t i = 0; i < sizeof zero / sizeof *zero; i++)
    if (sig_of(ref, zero[i]) != 0)
      return "the program takes interrupts, sleeps in wfi, switches the clock or sets markers: "
             "their cycles cannot be derived";
  if (g->vary_i && sig_of(ref, "icache.miss") != il->seen)
    return "the reference run's I-cache misses were not all seen";
  if (g->vary_i && sig_of(ref, "stall.icache") != il->seen * k->ifill)
    return "an I-cache miss of the reference run cost more than the memory's latency";
  if (!g->vary_d)
    return NULL;
  counts c = counts_of_run(ref);
  uint64_t stores = sig_of(ref, "dcache.write_hit") + c.wmiss;
  int wb = g->mdl[0].d.wb;
  if ((wb ? c.rmiss + c.wmiss : c.rmiss + stores) != dl->seen)
    return "the reference run's D-cache fills and stores were not all seen";
  uint64_t stall = wb ? (c.rmiss + c.wmiss) * k->dfill + c.wb * k->dwb : c.rmiss * k->dfill + stores * k->dstore;
  if (sig_of(ref, "stall.dcache") != stall)
    return "a D-cache miss or store of the reference run cost more than the memory's latency";
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

/* The reference point: the group's first, with a one-line, one-way cache
 * in place of each cache that varies (which then misses on every access
 * but a repeat of the line used last); the D-cache's line is the
 * shortest of the group's (dline), whose stream holds every longer one's. */
static int reference_point(const group *g, uint32_t dline, sw_point *ref) {
  const sw_model *m = &g->mdl[0];
  *ref = g->pts[0];
  ref->sets = (sw_list){0};
  char one[64];
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < g->pts[0].sets.n; i++)
    rc = sw_list_add(&ref->sets, g->pts[0].sets.v[i]);
  if (rc == 0 && g->vary_i) {
    snprintf(one, sizeof one, "icache.size=%u", m->i.line);
    rc = sw_list_add(&ref->sets, one) | sw_list_add(&ref->sets, "icache.ways=1");
  }
  if (rc == 0 && g->vary_d) {
    snprintf(one, sizeof one, "dcache.line=%u", dline);
    rc = sw_list_add(&ref->sets, one);
    snprintf(one, sizeof one, "dcache.size=%u", dline);
    rc |= sw_list_add(&ref->sets, one) | sw_list_add(&ref->sets, "dcache.ways=1");
  }
  return rc;
}

#define MAX_DLINES 16 /* line sizes are powers of two below 64 KiB */

/* The stacks of every cache shape the group's points ask for: the
 * I-cache's (one line size), and the D-cache's per line size, chained in
 * dl[0..*ndl) from dl[0] (one callback feeds them all). */
static int stacks_for(const group *g, sw_lru *il, sw_lru *dl, size_t *ndl) {
  const sw_model *m0 = &g->mdl[0];
  *il = (sw_lru){.line_shift = (uint32_t)__builtin_ctz(m0->i.line ? m0->i.line : 4)};
  *ndl = 0;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < g->n; i++) {
    const sw_model *m = &g->mdl[i];
    if (g->vary_i)
      rc = sw_lru_add(il, sets_of(&m->i), m->i.ways);
    if (rc != 0 || !g->vary_d)
      continue;
    uint32_t shift = (uint32_t)__builtin_ctz(m->d.line ? m->d.line : 4);
    size_t k = 0;
    while (k < *ndl && dl[k].line_shift != shift)
      k++;
    if (k == *ndl) {
      if (k == MAX_DLINES)
        return -1;
      dl[k] = (sw_lru){.line_shift = shift, .no_allocate = !m->d.wb};
      if (k)
        dl[k - 1].next = &dl[k];
      ++*ndl;
    }
    rc = sw_lru_add(&dl[k], sets_of(&m->d), m->d.ways);
  }
  return rc;
}

static uint32_t shortest_dline(const group *g) {
  uint32_t l = g->mdl[0].d.line;
  for (size_t i = 1; i < g->n; i++)
    if (g->mdl[i].d.line < l)
      l = g->mdl[i].d.line;
  return l;
}

static int run_group(group *g, tally_error *err) {
  sw_lru il, dl[MAX_DLINES];
  size_t ndl = 0;
  sw_point ref_pt;
  uint32_t dline = shortest_dline(g);
  int rc = stacks_for(g, &il, dl, &ndl);
  rc |= reference_point(g, dline, &ref_pt);
  if (rc != 0)
    sw_err(err, TALLY_E_INTERNAL, "out of memory");
  int ns = tally_signal_count();
  uint64_t *rsig = calloc((size_t)ns, sizeof *rsig), *sig = calloc((size_t)ns, sizeof *sig),
           *csig = calloc((size_t)ns, sizeof *csig);
  sw_result ref, r, real;
  if (rc == 0 && (!rsig || !sig || !csig))
    rc = (sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1);
  sw_observers obs = {g->vary_i ? sw_lru_on_miss : NULL, &il, g->vary_d ? sw_lru_on_dcache : NULL, dl};
  if (rc == 0)
    rc = sw_point_run_observed(g->s, &ref_pt, &obs, &ref, rsig, err);
  sw_model mref = g->mdl[0]; /* the reference's memory costs: the shortest D-cache line */
  mref.d.line = dline;
  costs kr = costs_of(&mref);
  const char *wrong = rc == 0 ? reference_wrong(g, &ref, &il, dl, &kr) : NULL;
  if (wrong)
    rc = (sw_err(err, TALLY_E_USAGE, "--one-pass: %s (program %s)", wrong, g->pts[0].prog->name), -1);
  counts rc0 = rc == 0 ? counts_of_run(&ref) : (counts){0};
  /* the point that takes longest (the most misses and write-backs), run
   * for real as a check */
  size_t check = 0;
  uint64_t most = 0;
  for (size_t i = 0; rc == 0 && i < g->n; i++) {
    counts c = point_counts(g, i, &il, dl, &rc0);
    costs k = costs_of(&g->mdl[i]);
    derive(&g->mdl[i], &k, &kr, &ref, &rc0, &c, &r, sig);
    if (i == 0 || r.cycles > most)
      check = i, most = r.cycles;
  }
  for (size_t n = 0; rc == 0 && n < g->n; n++) {
    size_t i = (check + n) % g->n; /* the checked point first: nothing is stored if it fails */
    counts c = point_counts(g, i, &il, dl, &rc0);
    costs k = costs_of(&g->mdl[i]);
    derive(&g->mdl[i], &k, &kr, &ref, &rc0, &c, &r, sig);
    char why[200];
    if (n == 0 && (rc = sw_point_run(g->s, &g->pts[i], &real, csig, err)) == 0 && !same(&r, &real, why, sizeof why))
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
  sw_lru_free(&il);
  for (size_t i = 0; i < ndl; i++)
    sw_lru_free(&dl[i]);
  return rc;
}

static int same_shape(const sw_cache *a, const sw_cache *b) {
  return a->size == b->size && a->ways == b->ways && a->line == b->line;
}

/* Which caches vary in the group, and whether the one pass is exact for
 * it (checked for every group before anything runs). */
static int group_in_family(group *g, tally_error *err) {
  for (size_t i = 1; i < g->n; i++) {
    g->vary_i |= !same_shape(&g->mdl[i].i, &g->mdl[0].i);
    g->vary_d |= !same_shape(&g->mdl[i].d, &g->mdl[0].d);
  }
  for (size_t i = 0; i < g->n; i++) {
    const char *why = sw_models_outside(&g->mdl[i], 1, g->vary_i, g->vary_d);
    if (why)
      return sw_err(err, TALLY_E_USAGE, "--one-pass: not exact for point %zu: %s", g->pts[i].index, why), -1;
  }
  return 0;
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
  if (s->board && strcmp(s->board, "virt") != 0) /* its caches and memory are the virt board's */
    return sw_err(err, TALLY_E_USAGE, "--one-pass: only on the virt board (board '%s'): run without --one-pass",
                  s->board), -1;
  sw_list counters = {0};
  if (sw_counters(s, &counters) != 0)
    return sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1;
  if (counters.n) { /* a function's share of the misses is not in the stacks */
    sw_err(err, TALLY_E_USAGE, "--one-pass: statistics-module counters ('%s') cannot be derived; "
           "run without --one-pass", counters.v[0]);
    sw_list_free(&counters);
    return -1;
  }
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
    g = &gp.g[gp.ng++];
    *g = (group){s, db, pts + i, mdl + i, j - i, 0, 0, done, ctx, &gp.lock};
    rc = group_in_family(g, err);
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
