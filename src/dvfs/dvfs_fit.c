/*
 * Fitting the chosen regions within --max-slowdown, by real runs. First
 * the descent: every chosen region starts at the slowest point, and while
 * the run is too slow the one with the fewest misses per cycle goes one
 * point faster (dropped at the first point; the loops inside a dropped one
 * then get their turn). The descent only ever raises, and its order is a
 * profile proxy (misses per cycle): a region it dropped early stays out
 * even when later drops leave room for it, and near-equal proxies decide
 * which of two regions stays. The choice is a knapsack (time added
 * against energy saved, regions that cannot be switched together), so it
 * is then solved as one, on measurements: every region
 * that can be switched is run alone at every slower point, the best
 * combination of those single-region runs within the limit is found
 * exactly (dvfs_knap.c), and a real run of it decides (when it is over the
 * limit, the effects were not additive: the budget is lowered by the
 * excess and the knapsack solved again, a few rounds at most). Runs are
 * remembered by their points, so a combination the descent ran is not
 * run again. Every decision
 * rests on a run of the program, so the limit always holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dvfs.h"

enum { EXIT_BADDATA_ = 65, EXIT_INTERNAL_ = 70 };

/* Moves the chosen region with the fewest misses per cycle one operating
 * point faster (dropped at the first); false if none is chosen. */
static bool raise_weakest(dvfs_region *v, size_t n) {
  long w = -1;
  for (size_t i = 0; i < n; i++)
    if (v[i].point && (w < 0 || dvfs_region_mpc(&v[i]) < dvfs_region_mpc(&v[w])))
      w = (long)i;
  if (w < 0)
    return false;
  if (--v[w].point == 0)
    v[w].why = "dropped: over --max-slowdown", v[w].dropped = true;
  else
    v[w].why = "chosen (one point up: --max-slowdown)";
  return true;
}

/* Writes elf with the regions' current points and runs it; its output
 * must be the original's. */
static int build_and_run(const dvfs_opts *o, const char *dir, const dvfs_region *v, size_t n, const char *elf,
                         const dvfs_run *base, dvfs_run *r, tally_error *err) {
  int rc = dvfs_insert(o, dir, v, n, elf, err);
  if (!rc)
    rc = dvfs_run_elf(o, elf, dir, NULL, 0, NULL, r, err);
  if (!rc && !dvfs_same_output(base, r)) {
    snprintf(err->msg, sizeof err->msg, "%.400s: the output or exit status differs from the original's", elf);
    rc = EXIT_BADDATA_;
  }
  return rc;
}

/* The runs made so far, by the points of every region. */
typedef struct seen_run {
  int *pts;
  dvfs_run run;
} seen_run;
typedef struct seen_runs {
  seen_run *v;
  size_t n, cap;
} seen_runs;

static void run_copy(const dvfs_run *from, dvfs_run *to) {
  *to = *from;
  to->out = NULL;
  if (from->out && (to->out = malloc(from->out_len + 1)))
    memcpy(to->out, from->out, from->out_len + 1);
}

static const dvfs_run *seen_find(const seen_runs *s, const int *pts, size_t n) {
  for (size_t i = 0; i < s->n; i++)
    if (!memcmp(s->v[i].pts, pts, n * sizeof *pts))
      return &s->v[i].run;
  return NULL;
}

/* Remembers r as the run of the regions at pts (a copy). */
static int seen_add(seen_runs *s, const int *pts, size_t n, const dvfs_run *r, tally_error *err) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 16;
    seen_run *v = realloc(s->v, cap * sizeof *v);
    if (!v)
      goto oom;
    s->v = v, s->cap = cap;
  }
  seen_run *e = &s->v[s->n];
  if (!(e->pts = malloc((n ? n : 1) * sizeof *pts)))
    goto oom;
  memcpy(e->pts, pts, n * sizeof *pts);
  run_copy(r, &e->run);
  s->n++;
  return 0;
oom:
  snprintf(err->msg, sizeof err->msg, "out of memory");
  return EXIT_INTERNAL_;
}

static void seen_free(seen_runs *s) {
  for (size_t i = 0; i < s->n; i++)
    free(s->v[i].pts), dvfs_run_free(&s->v[i].run);
  free(s->v);
}

/* The regions' points, into pts. */
static void points_of(const dvfs_region *v, size_t n, int *pts) {
  for (size_t i = 0; i < n; i++)
    pts[i] = v[i].point;
}

/* The fit's state: the regions, the runs so far, scratch points and
 * regions, the log. */
typedef struct fit_ctx {
  dvfs_opts *o;
  const char *dir;
  dvfs_region *regs, *scratch;
  size_t nregs;
  int *pts;
  const dvfs_run *base;
  seen_runs seen;
  dvfs_fitlog *log;
  char elf[4096];
  tally_error *err;
} fit_ctx;

static int descend(fit_ctx *c, dvfs_run *after) {
  for (;;) {
    dvfs_run_free(after);
    int rc = build_and_run(c->o, c->dir, c->regs, c->nregs, c->o->out, c->base, after, c->err);
    c->log->descent_runs++;
    points_of(c->regs, c->nregs, c->pts);
    if (!rc)
      rc = seen_add(&c->seen, c->pts, c->nregs, after, c->err);
    if (rc)
      return rc;
    if (dvfs_slowdown(after, c->base) <= c->o->max_slowdown || !raise_weakest(c->regs, c->nregs))
      return 0;
    dvfs_choose(c->o, c->regs, c->nregs);
  }
}

/* The run of the regions at c->pts: remembered, or made now (then *fresh). */
static int run_points(fit_ctx *c, const dvfs_run **r, bool *fresh) {
  *fresh = false;
  if ((*r = seen_find(&c->seen, c->pts, c->nregs)))
    return 0;
  memcpy(c->scratch, c->regs, c->nregs * sizeof *c->regs);
  for (size_t i = 0; i < c->nregs; i++)
    c->scratch[i].point = c->pts[i];
  dvfs_run run = {0};
  int rc = build_and_run(c->o, c->dir, c->scratch, c->nregs, c->elf, c->base, &run, c->err);
  if (!rc)
    rc = seen_add(&c->seen, c->pts, c->nregs, &run, c->err);
  dvfs_run_free(&run);
  if (rc)
    return rc;
  *fresh = true;
  *r = &c->seen.v[c->seen.n - 1].run;
  return 0;
}

/* Whether v[k] can be measured alone: it passed the thresholds and its
 * switches can be placed. */
static bool measurable(const dvfs_region *v, size_t k) { return v[k].cycles && !v[k].fails; }

/* Regions i and j cannot be switched together (dvfs_can_join's rules,
 * both ways). */
static bool conflicts(dvfs_region *scratch, size_t n, size_t i, size_t j) {
  for (size_t k = 0; k < n; k++)
    scratch[k].point = 0;
  scratch[j].point = 1;
  bool bad = !dvfs_can_join(scratch, n, i);
  scratch[j].point = 0, scratch[i].point = 1;
  bad = bad || !dvfs_can_join(scratch, n, j);
  scratch[i].point = 0;
  return bad;
}

static int log_alloc(fit_ctx *c) {
  dvfs_fitlog *f = c->log;
  size_t m = 0, np = c->o->npts;
  for (size_t i = 0; i < c->nregs; i++)
    m += measurable(c->regs, i);
  size_t m1 = m ? m : 1;
  f->region = malloc(m1 * sizeof *f->region);
  f->cost = calloc(m1 * np, sizeof *f->cost);
  f->gain = calloc(m1 * np, sizeof *f->gain);
  f->conflict = calloc(m1 * m1, sizeof *f->conflict);
  if (!f->region || !f->cost || !f->gain || !f->conflict) {
    snprintf(c->err->msg, sizeof c->err->msg, "out of memory");
    return EXIT_INTERNAL_;
  }
  for (size_t i = 0; i < c->nregs; i++)
    if (measurable(c->regs, i))
      f->region[f->m++] = i;
  memcpy(c->scratch, c->regs, c->nregs * sizeof *c->regs);
  for (size_t a = 0; a < m; a++)
    for (size_t b = 0; b < a; b++)
      f->conflict[a * m + b] = f->conflict[b * m + a] = conflicts(c->scratch, c->nregs, f->region[a], f->region[b]);
  return 0;
}

/* Step 1: every measurable region alone at every slower point: its
 * whole-run time added and energy saved against the original. */
static int measure_alone(fit_ctx *c) {
  dvfs_fitlog *f = c->log;
  const size_t np = c->o->npts;
  const double t0 = c->base->e.seconds, e0 = c->base->e.total_j;
  for (size_t a = 0; a < f->m; a++)
    for (size_t p = 1; p < np; p++) {
      memset(c->pts, 0, c->nregs * sizeof *c->pts);
      c->pts[f->region[a]] = (int)p;
      const dvfs_run *r;
      bool fresh;
      int rc = run_points(c, &r, &fresh);
      if (rc)
        return rc;
      fresh ? f->alone_runs++ : f->alone_reused++;
      if (fresh)
        fprintf(stderr, "tally dvfs: alone %zu/%zu, %s at %.0f MHz: %+.2f%% time, %+.2f%% energy\n", a + 1, f->m,
                c->regs[f->region[a]].name, c->o->pts[p].mhz, 100 * (r->e.seconds / t0 - 1),
                100 * (r->e.total_j / e0 - 1));
      f->cost[a * np + p] = 100 * (r->e.seconds / t0 - 1);
      f->gain[a * np + p] = 100 * (1 - r->e.total_j / e0);
    }
  return 0;
}

/* Whether v[outer] holds v[k]. */
static bool holds(const dvfs_region *v, size_t outer, size_t k) {
  for (int p = v[k].parent; p >= 0; p = v[p].parent)
    if ((size_t)p == outer)
      return true;
  return false;
}

static const char *why_out(const fit_ctx *c, size_t a) {
  const dvfs_fitlog *f = c->log;
  const size_t np = c->o->npts, r = f->region[a];
  bool saves = false, fits = false;
  for (size_t p = 1; p < np; p++) {
    saves = saves || f->gain[a * np + p] > 0;
    fits = fits || (f->gain[a * np + p] > 0 && f->cost[a * np + p] <= c->o->max_slowdown);
  }
  if (!saves)
    return "dropped: saves no energy alone (switches and relocks)";
  if (!fits)
    return "dropped: over --max-slowdown even alone";
  for (int p = c->regs[r].parent; p >= 0; p = c->regs[p].parent)
    if (c->regs[p].point)
      return "inside a chosen loop";
  for (size_t b = 0; b < f->m; b++)
    if (c->regs[f->region[b]].point && f->conflict[a * f->m + b])
      return holds(c->regs, r, f->region[b]) ? "dropped: a loop inside it saves more"
                                             : "dropped: shares code with a chosen region";
  return "dropped: others save more within --max-slowdown";
}

/* The knapsack's choice (pick, indexed like the log) becomes the regions'
 * points; the decisions say why. */
static void adopt(fit_ctx *c, const int *pick) {
  const dvfs_fitlog *f = c->log;
  const int slowest = (int)c->o->npts - 1;
  /* every region with a point is in the log; one taken out counts as
   * dropped (the oracle tries the chosen and the dropped ones) */
  for (size_t i = 0; i < c->nregs; i++) {
    if (c->regs[i].point)
      c->regs[i].dropped = true, c->regs[i].point = 0;
    if (c->regs[i].fails) /* not "inside a chosen loop" when that loop is out now */
      c->regs[i].why = c->regs[i].fails;
  }
  for (size_t a = 0; a < f->m; a++) {
    dvfs_region *r = &c->regs[f->region[a]];
    r->point = pick[a];
    if (pick[a])
      r->dropped = false;
    if (pick[a])
      r->why = pick[a] == slowest ? "chosen (knapsack of single-region runs)"
                                  : "chosen (knapsack of single-region runs, a faster point)";
  }
  for (size_t a = 0; a < f->m; a++)
    if (!pick[a])
      c->regs[f->region[a]].why = why_out(c, a);
}

#define DVFS_FIT_ROUNDS 4

/* Steps 2 and 3: solve, run the solution, keep it when it is within the
 * limit and takes less energy than *after (the descent's); over the
 * limit, lower the budget below the solution's predicted time by the
 * excess and solve again. */
static int verify(fit_ctx *c, dvfs_run *after) {
  dvfs_fitlog *f = c->log;
  int *pick = calloc(f->m ? f->m : 1, sizeof *pick);
  if (!pick) {
    snprintf(c->err->msg, sizeof c->err->msg, "out of memory");
    return EXIT_INTERNAL_;
  }
  double budget = c->o->max_slowdown;
  int rc = 0;
  for (unsigned round = 0; !rc && round < DVFS_FIT_ROUNDS; round++) {
    dvfs_knap_sol sol = {.pick = pick};
    if (dvfs_fitlog_predict(f, c->o->npts, budget, &sol)) {
      snprintf(c->err->msg, sizeof c->err->msg, "out of memory");
      rc = EXIT_INTERNAL_;
      break;
    }
    f->incomplete = f->incomplete || !sol.complete;
    f->rounds++;
    memset(c->pts, 0, c->nregs * sizeof *c->pts);
    for (size_t a = 0; a < f->m; a++)
      c->pts[f->region[a]] = pick[a];
    /* no region: the original program (OUT.elf is then a copy of IN.elf),
     * which beats a descent whose regions cost more than they save */
    const dvfs_run *r = c->base;
    bool fresh = false;
    if (sol.gain > 0 && (rc = run_points(c, &r, &fresh)) != 0)
      break;
    f->verify_runs += fresh;
    double slow = dvfs_slowdown(r, c->base);
    if (slow > c->o->max_slowdown) {
      budget = (sol.cost < budget ? sol.cost : budget) - (slow - c->o->max_slowdown);
      continue;
    }
    if (r->e.total_j < after->e.total_j) {
      dvfs_run_free(after);
      run_copy(r, after);
      adopt(c, pick);
      f->accepted = true;
    }
    break;
  }
  free(pick);
  return rc;
}

static int knapsack_fit(fit_ctx *c, dvfs_run *after) {
  int rc = log_alloc(c);
  if (!rc)
    rc = measure_alone(c);
  if (!rc)
    rc = verify(c, after);
  /* OUT.elf is the descent's; the same insertion again gives the program
   * *after ran (insertion is deterministic) */
  if (!rc && c->log->accepted)
    rc = dvfs_insert(c->o, c->dir, c->regs, c->nregs, c->o->out, c->err);
  return rc;
}

int dvfs_fit(dvfs_opts *o, const char *dir, dvfs_region *regs, size_t nregs, const dvfs_run *base, dvfs_run *after,
             dvfs_fitlog *log, tally_error *err) {
  memset(log, 0, sizeof *log);
  fit_ctx c = {o, dir, regs, malloc((nregs ? nregs : 1) * sizeof *regs), nregs,
               calloc(nregs ? nregs : 1, sizeof(int)), base, {0}, log, {0}, err};
  snprintf(c.elf, sizeof c.elf, "%s/knap.elf", dir);
  int rc = 0;
  if (!c.scratch || !c.pts) {
    snprintf(err->msg, sizeof err->msg, "out of memory");
    rc = EXIT_INTERNAL_;
  }
  if (!rc)
    rc = descend(&c, after);
  if (!rc && o->readd)
    rc = knapsack_fit(&c, after);
  unlink(c.elf);
  seen_free(&c.seen);
  free(c.scratch), free(c.pts);
  if (rc)
    unlink(o->out);
  return rc;
}
