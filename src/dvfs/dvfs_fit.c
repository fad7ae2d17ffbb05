/*
 * Fitting the chosen regions within --max-slowdown, by real runs. First
 * the descent: every chosen region starts at the slowest point, and while
 * the run is too slow the one with the fewest misses per cycle goes one
 * point faster (dropped at the first point; the loops inside a dropped one
 * then get their turn). The descent only ever raises: a region it dropped
 * early stays out even when the later drops leave room for it (the oracle
 * showed such loops on rotate and spmv), and one it moved a point up
 * stays there. So then the re-add: each dropped region that can still be
 * switched beside the chosen ones, and each chosen one above the slowest
 * point, most misses per cycle first, is tried at each point from the
 * slowest up to one below its own, and kept at the first that stays
 * within the limit and takes less energy than the choice so far. Then
 * the exchange (see exchange_one): each chosen region in turn is taken
 * out and the re-add run again without it. Every decision rests on a run
 * of the program, so the limit always holds.
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

static int descend(dvfs_opts *o, const char *dir, dvfs_region *regs, size_t nregs, const dvfs_run *base,
                   dvfs_run *after, tally_error *err) {
  for (;;) {
    dvfs_run_free(after);
    int rc = build_and_run(o, dir, regs, nregs, o->out, base, after, err);
    if (rc)
      return rc;
    if (dvfs_slowdown(after, base) <= o->max_slowdown || !raise_weakest(regs, nregs))
      return 0;
    dvfs_choose(o, regs, nregs);
  }
}

/* The regions the descent moved up: dropped, or chosen above the slowest
 * point; most misses per cycle first. */
static size_t raised_order(const dvfs_region *v, size_t n, int slowest, size_t *idx) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if ((v[i].dropped && !v[i].point) || (v[i].point && v[i].point < slowest))
      idx[m++] = i;
  dvfs_order_by_mpc(v, idx, m, true);
  return m;
}

/* The re-add's and the exchange's state: the regions, the trial ELF, a
 * scratch order and copy of the regions, and the runs left. */
typedef struct fit_ctx {
  const dvfs_opts *o;
  const char *dir, *elf;
  dvfs_region *regs, *save;
  size_t nregs, *idx;
  const dvfs_run *base;
  unsigned runs_left;
  tally_error *err;
} fit_ctx;

/* The re-add and the exchange stop trying after this many runs (a
 * program with many candidates would otherwise take as many runs as
 * dropped regions x points x chosen regions). */
#define DVFS_FIT_MAX_RUNS 64

/* Runs the regions' current points into *r; false (and *rc) when no run
 * is left or it failed. */
static bool trial(fit_ctx *c, dvfs_run *r, int *rc) {
  *rc = 0;
  if (!c->runs_left)
    return false;
  c->runs_left--;
  *rc = build_and_run(c->o, c->dir, c->regs, c->nregs, c->elf, c->base, r, c->err);
  return !*rc;
}

static bool better(const fit_ctx *c, const dvfs_run *r, const dvfs_run *cur) {
  return dvfs_slowdown(r, c->base) <= c->o->max_slowdown && r->e.total_j < cur->e.total_j;
}

/* Tries regs[k] at each point from the slowest up to one below its own
 * (a dropped region's is 0); keeps the first run within the limit that
 * takes less energy than *cur (then *cur is it). */
static int try_lower(fit_ctx *c, size_t k, dvfs_run *cur) {
  const int slowest = (int)c->o->npts - 1;
  dvfs_region *r = &c->regs[k];
  const int from = r->point;
  for (int p = slowest; p > from; p--) {
    dvfs_run run = {0};
    int rc;
    r->point = p;
    if (trial(c, &run, &rc) && better(c, &run, cur)) {
      dvfs_run_free(cur);
      *cur = run;
      r->dropped = false;
      r->why = from ? "chosen (moved down again after the descent)"
               : p == slowest ? "chosen (re-added after the descent)"
                              : "chosen (re-added after the descent, points up)";
      return 0;
    }
    r->point = from;
    dvfs_run_free(&run);
    if (rc || !c->runs_left)
      return rc;
  }
  return 0;
}

/* One pass of the re-add over the regions the descent moved up, but
 * `skip`: a dropped one when it can still join the chosen ones. */
static int readd_pass(fit_ctx *c, size_t skip, dvfs_run *cur) {
  size_t m = raised_order(c->regs, c->nregs, (int)c->o->npts - 1, c->idx);
  int rc = 0;
  for (size_t i = 0; !rc && i < m; i++) {
    size_t k = c->idx[i];
    bool ok = c->regs[k].point ? c->regs[k].point < (int)c->o->npts - 1
                               : c->regs[k].dropped && dvfs_can_join(c->regs, c->nregs, k);
    if (k != skip && ok)
      rc = try_lower(c, k, cur);
  }
  return rc;
}

/* Whether v[c] holds v[k]. */
static bool inside(const dvfs_region *v, size_t k, size_t c) {
  for (int p = v[k].parent; p >= 0; p = v[p].parent)
    if ((size_t)p == c)
      return true;
  return false;
}

/* The chosen regions, fewest misses per cycle first. */
static size_t chosen_order(const dvfs_region *v, size_t n, size_t *idx) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (v[i].point)
      idx[m++] = i;
  dvfs_order_by_mpc(v, idx, m, false);
  return m;
}

/* The exchange: the choice is a knapsack (time added against energy
 * saved), so one region may be worth less than two dropped ones that fit
 * in its place (spmv: the row loop against column_sums' loop and _start's).
 * Chosen region k is taken out and the re-add run without it; the new
 * choice stays when it takes less energy than *after. */
static int exchange_one(fit_ctx *c, size_t k, dvfs_run *after) {
  memcpy(c->save, c->regs, c->nregs * sizeof *c->regs);
  dvfs_region *r = &c->regs[k];
  r->point = 0, r->dropped = true, r->why = "dropped: others save more within --max-slowdown";
  dvfs_run cur = {0};
  int rc;
  bool ran = trial(c, &cur, &rc);
  if (ran)
    rc = readd_pass(c, k, &cur);
  if (ran && !rc && better(c, &cur, after)) {
    dvfs_run_free(after);
    *after = cur;
    for (size_t i = 0; i < c->nregs; i++)
      if (inside(c->regs, i, k) && !c->regs[i].point)
        c->regs[i].why = c->regs[i].fails ? c->regs[i].fails : "inside a loop taken out (not tried alone)";
    return 0;
  }
  memcpy(c->regs, c->save, c->nregs * sizeof *c->regs);
  dvfs_run_free(&cur);
  return rc;
}

static int improve(const dvfs_opts *o, const char *dir, dvfs_region *regs, size_t nregs, const dvfs_run *base,
                   dvfs_run *after, tally_error *err) {
  size_t n1 = nregs ? nregs : 1;
  size_t *idx = malloc(n1 * sizeof *idx), *order = malloc(n1 * sizeof *order);
  dvfs_region *save = malloc(n1 * sizeof *save);
  if (!idx || !order || !save) {
    free(idx), free(order), free(save);
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return EXIT_INTERNAL_;
  }
  char elf[4096];
  snprintf(elf, sizeof elf, "%s/readd.elf", dir);
  fit_ctx c = {o, dir, elf, regs, save, nregs, idx, base, DVFS_FIT_MAX_RUNS, err};
  int rc = readd_pass(&c, (size_t)-1, after);
  size_t m = rc ? 0 : chosen_order(regs, nregs, order);
  for (size_t i = 0; !rc && i < m && c.runs_left; i++)
    if (regs[order[i]].point)
      rc = exchange_one(&c, order[i], after);
  unlink(elf);
  free(idx), free(order), free(save);
  /* OUT.elf is the descent's; the same insertion again gives the program
   * *after ran (insertion is deterministic) */
  if (!rc)
    rc = dvfs_insert(o, dir, regs, nregs, o->out, err);
  return rc;
}

int dvfs_fit(dvfs_opts *o, const char *dir, dvfs_region *regs, size_t nregs, const dvfs_run *base, dvfs_run *after,
             tally_error *err) {
  int rc = descend(o, dir, regs, nregs, base, after, err);
  if (!rc && o->readd)
    rc = improve(o, dir, regs, nregs, base, after, err);
  if (rc)
    unlink(o->out);
  return rc;
}
