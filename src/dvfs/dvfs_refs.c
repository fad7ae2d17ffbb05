/*
 * The two references tally dvfs measures its choice against (the paper
 * has neither): the best static setting, the whole program run at each
 * operating point (the model's clock and voltage overridden), and the
 * oracle, the selected regions (those that passed the thresholds) each at
 * every operating point, every combination tried by a real run when there
 * are at most DVFS_ORACLE_MAX_RUNS of them, else greedily (one region at a
 * time, most misses per cycle first, each kept at the point that saves the
 * most energy within --max-slowdown given the ones before). The oracle's
 * answer is the least energy within the slowdown limit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dvfs.h"

enum { EXIT_BADDATA = 65, EXIT_INTERNAL_ = 70 };

int dvfs_static_run(const dvfs_opts *o, const char *dir, size_t point, dvfs_run *r, tally_error *err) {
  char f[64], v[64];
  snprintf(f, sizeof f, "core.frequency_mhz=%g", o->pts[point].mhz);
  snprintf(v, sizeof v, "core.voltage=%g", o->pts[point].volt);
  const char *sets[] = {f, v};
  return dvfs_run_elf(o, o->in, dir, sets, 2, NULL, r, err);
}

bool dvfs_same_output(const dvfs_run *a, const dvfs_run *b) {
  return a->exit_code == b->exit_code && a->out_len == b->out_len && memcmp(a->out, b->out, a->out_len) == 0;
}

double dvfs_slowdown(const dvfs_run *r, const dvfs_run *base) { return 100.0 * (r->e.seconds / base->e.seconds - 1); }

/* One trial: the regions at the points in cfg (indexed like v), built and
 * run. Its output must be the original's. */
static int trial(const dvfs_opts *o, const char *dir, dvfs_region *v, size_t n, const int *cfg,
                 const dvfs_run *base, dvfs_run *r, tally_error *err) {
  char elf[4096];
  snprintf(elf, sizeof elf, "%s/oracle.elf", dir);
  for (size_t i = 0; i < n; i++)
    v[i].point = cfg[i];
  int rc = dvfs_insert(o, dir, v, n, elf, err);
  if (!rc)
    rc = dvfs_run_elf(o, elf, dir, NULL, 0, NULL, r, err);
  if (!rc && !dvfs_same_output(base, r)) {
    snprintf(err->msg, sizeof err->msg, "an oracle trial's output or exit status differs from the original's");
    rc = EXIT_INTERNAL_;
  }
  unlink(elf);
  return rc;
}

/* Keeps cfg in best when its run is within the limit and uses less energy. */
static void consider(const dvfs_opts *o, const dvfs_run *r, const dvfs_run *base, const int *cfg, size_t n,
                     dvfs_oracle *best) {
  if (dvfs_slowdown(r, base) > o->max_slowdown || r->e.total_j >= best->joules)
    return;
  memcpy(best->points, cfg, n * sizeof *cfg);
  best->seconds = r->e.seconds, best->joules = r->e.total_j;
  best->cycles = r->cycles;
}

static bool selected(const dvfs_region *r) { return r->point || r->dropped; }


/* The selected regions, most misses per cycle first. */
static size_t selected_order(const dvfs_region *v, size_t n, size_t *idx) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (selected(&v[i]))
      idx[m++] = i;
  dvfs_order_by_mpc(v, idx, m, true);
  return m;
}

/* One real run of the regions at cfg's points, kept in best when it is
 * the best so far. */
static int try_points(const dvfs_opts *o, const char *dir, dvfs_region *v, size_t n, const int *cfg,
                      const dvfs_run *base, dvfs_oracle *best, tally_error *err) {
  dvfs_run r;
  int rc = trial(o, dir, v, n, cfg, base, &r, err);
  best->runs++;
  if (!rc)
    consider(o, &r, base, cfg, n, best);
  dvfs_run_free(&r);
  return rc;
}

static int exhaustive(const dvfs_opts *o, const char *dir, dvfs_region *v, size_t n, const size_t *idx, size_t m,
                      int *cfg, const dvfs_run *base, dvfs_oracle *best, tally_error *err) {
  int rc = 0;
  for (;;) {
    size_t k = 0; /* the next combination: a counter in base npts over idx */
    while (k < m && ++cfg[idx[k]] == (int)o->npts)
      cfg[idx[k++]] = 0;
    if (k == m)
      return 0; /* back to all zero: every combination tried */
    if ((rc = try_points(o, dir, v, n, cfg, base, best, err)) != 0)
      return rc;
  }
}

static int greedy(const dvfs_opts *o, const char *dir, dvfs_region *v, size_t n, const size_t *idx, size_t m,
                  int *cfg, const dvfs_run *base, dvfs_oracle *best, tally_error *err) {
  for (size_t k = 0; k < m; k++) {
    for (size_t p = 1; p < o->npts; p++) {
      cfg[idx[k]] = (int)p;
      int rc = try_points(o, dir, v, n, cfg, base, best, err);
      if (rc)
        return rc;
    }
    cfg[idx[k]] = best->points[idx[k]]; /* keep this region's best, go on with the next */
  }
  return 0;
}

int dvfs_oracle_search(const dvfs_opts *o, const char *dir, const dvfs_region *regions, size_t n,
                       const dvfs_run *base, dvfs_oracle *best, tally_error *err) {
  memset(best, 0, sizeof *best);
  dvfs_region *v = malloc((n ? n : 1) * sizeof *v);
  int *cfg = calloc(n ? n : 1, sizeof *cfg);
  size_t *idx = malloc((n ? n : 1) * sizeof *idx);
  best->points = calloc(n ? n : 1, sizeof *best->points);
  if (!v || !cfg || !idx || !best->points) {
    free(v), free(cfg), free(idx);
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return EXIT_INTERNAL_;
  }
  memcpy(v, regions, n * sizeof *v);
  size_t m = selected_order(v, n, idx);
  best->selected = m;
  best->seconds = base->e.seconds, best->joules = base->e.total_j, best->cycles = base->cycles;
  double combos = 1;
  for (size_t k = 0; k < m; k++)
    combos *= (double)o->npts;
  best->exhaustive = combos - 1 <= DVFS_ORACLE_MAX_RUNS;
  int rc = best->exhaustive ? exhaustive(o, dir, v, n, idx, m, cfg, base, best, err)
                            : greedy(o, dir, v, n, idx, m, cfg, base, best, err);
  free(v), free(cfg), free(idx);
  return rc;
}

void dvfs_oracle_free(dvfs_oracle *b) {
  free(b->points);
  b->points = NULL;
}
