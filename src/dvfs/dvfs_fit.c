/*
 * Fitting the chosen regions within --max-slowdown, by real runs. First
 * the descent: every chosen region starts at the slowest point, and while
 * the run is too slow the one with the fewest misses per cycle goes one
 * point faster (dropped at the first point; the loops inside a dropped one
 * then get their turn). The descent only ever raises: a region it dropped
 * early stays out even when the later drops leave room for it (the oracle
 * showed such loops on rotate and spmv). So then the re-add: each dropped
 * region that can still be switched beside the chosen ones, most misses
 * per cycle first, is tried at each point from the slowest up, and kept at
 * the first that stays within the limit and takes less energy than the
 * choice so far. Then the exchange (see exchange_one): each chosen region
 * in turn is taken out and the re-add run again without it. Every
 * decision rests on a run of the program, so the limit always holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dvfs.h"

enum { EXIT_BADDATA_ = 65, EXIT_INTERNAL_ = 70 };

static double mpc(const dvfs_region *r) { return r->cycles ? (double)r->misses / (double)r->cycles : 0; }

/* Moves the chosen region with the fewest misses per cycle one operating
 * point faster (dropped at the first); false if none is chosen. */
static bool raise_weakest(dvfs_region *v, size_t n) {
  long w = -1;
  for (size_t i = 0; i < n; i++)
    if (v[i].point && (w < 0 || mpc(&v[i]) < mpc(&v[w])))
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

/* The dropped regions, most misses per cycle first. */
static size_t dropped_order(const dvfs_region *v, size_t n, size_t *idx) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (v[i].dropped && !v[i].point)
      idx[m++] = i;
  for (size_t i = 1; i < m; i++)
    for (size_t j = i; j > 0 && mpc(&v[idx[j]]) > mpc(&v[idx[j - 1]]); j--) {
      size_t t = idx[j];
      idx[j] = idx[j - 1], idx[j - 1] = t;
    }
  return m;
}

/* Tries regs[k] at each point from the slowest up; keeps the first run
 * within the limit that takes less energy than *cur (then *cur is it). */
static int try_readd(const dvfs_opts *o, const char *dir, dvfs_region *regs, size_t nregs, size_t k, const char *elf,
                     const dvfs_run *base, dvfs_run *cur, tally_error *err) {
  for (int p = (int)o->npts - 1; p >= 1; p--) {
    dvfs_run r = {0};
    regs[k].point = p;
    int rc = build_and_run(o, dir, regs, nregs, elf, base, &r, err);
    if (!rc && dvfs_slowdown(&r, base) <= o->max_slowdown && r.e.total_j < cur->e.total_j) {
      dvfs_run_free(cur);
      *cur = r;
      regs[k].dropped = false;
      regs[k].why = p == (int)o->npts - 1 ? "chosen (re-added after the descent)"
                                          : "chosen (re-added after the descent, points up)";
      return 0;
    }
    regs[k].point = 0;
    dvfs_run_free(&r);
    if (rc)
      return rc;
  }
  return 0;
}

/* One pass of the re-add over the dropped regions but `skip`. */
static int readd_pass(const dvfs_opts *o, const char *dir, dvfs_region *regs, size_t nregs, size_t skip,
                      const char *elf, const dvfs_run *base, dvfs_run *cur, size_t *idx, tally_error *err) {
  size_t m = dropped_order(regs, nregs, idx);
  int rc = 0;
  for (size_t i = 0; !rc && i < m; i++)
    if (idx[i] != skip && regs[idx[i]].dropped && dvfs_can_join(regs, nregs, idx[i]))
      rc = try_readd(o, dir, regs, nregs, idx[i], elf, base, cur, err);
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
  for (size_t i = 1; i < m; i++)
    for (size_t j = i; j > 0 && mpc(&v[idx[j]]) < mpc(&v[idx[j - 1]]); j--) {
      size_t t = idx[j];
      idx[j] = idx[j - 1], idx[j - 1] = t;
    }
  return m;
}

/* The exchange: the choice is a knapsack (time added against energy
 * saved), so one region may be worth less than two dropped ones that fit
 * in its place (spmv: the row loop against column_sums' loop and _start's).
 * Each chosen region, weakest first, is taken out and the re-add run
 * without it; the new choice stays when it takes less energy. */
static int exchange_one(const dvfs_opts *o, const char *dir, dvfs_region *regs, size_t nregs, size_t c,
                        const char *elf, const dvfs_run *base, dvfs_run *after, size_t *idx, dvfs_region *save,
                        tally_error *err) {
  memcpy(save, regs, nregs * sizeof *regs);
  regs[c].point = 0, regs[c].dropped = true, regs[c].why = "dropped: others save more within --max-slowdown";
  dvfs_run trial = {0};
  int rc = build_and_run(o, dir, regs, nregs, elf, base, &trial, err);
  if (!rc)
    rc = readd_pass(o, dir, regs, nregs, c, elf, base, &trial, idx, err);
  if (!rc && dvfs_slowdown(&trial, base) <= o->max_slowdown && trial.e.total_j < after->e.total_j) {
    dvfs_run_free(after);
    *after = trial;
    for (size_t k = 0; k < nregs; k++)
      if (inside(regs, k, c) && !regs[k].point)
        regs[k].why = "inside a loop taken out (not tried alone)";
    return 0;
  }
  memcpy(regs, save, nregs * sizeof *regs);
  dvfs_run_free(&trial);
  return rc;
}

static int improve(const dvfs_opts *o, const char *dir, dvfs_region *regs, size_t nregs, const dvfs_run *base,
                   dvfs_run *after, tally_error *err) {
  size_t *idx = malloc((nregs ? nregs : 1) * sizeof *idx), *order = malloc((nregs ? nregs : 1) * sizeof *order);
  dvfs_region *save = malloc((nregs ? nregs : 1) * sizeof *save);
  if (!idx || !order || !save) {
    free(idx), free(order), free(save);
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return EXIT_INTERNAL_;
  }
  char elf[4096];
  snprintf(elf, sizeof elf, "%s/readd.elf", dir);
  int rc = readd_pass(o, dir, regs, nregs, (size_t)-1, elf, base, after, idx, err);
  size_t m = rc ? 0 : chosen_order(regs, nregs, order);
  for (size_t i = 0; !rc && i < m; i++)
    if (regs[order[i]].point)
      rc = exchange_one(o, dir, regs, nregs, order[i], elf, base, after, idx, save, err);
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
