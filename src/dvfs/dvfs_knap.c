/*
 * The knapsack of tally dvfs's fit: regions, each switched at one of its
 * slower points or not at all, each point with the time it adds and the
 * energy it saves (measured by a run with that region alone switched);
 * some pairs of regions cannot be switched together (one inside the
 * other, or sharing code). The best combination saves the most energy
 * with its times adding up to at most the budget.
 *
 * An exact depth-first branch and bound. The regions are visited best
 * ratio (energy per time) first; the bound of a partial choice is a
 * fractional knapsack over the regions still open (each giving at most its
 * largest saving, at its best ratio), which no whole choice can beat. A
 * point that saves nothing is never taken (it cannot raise the saving). A
 * point that adds no time or gains time is handled by shifting every
 * region's costs by its most negative one and widening the budget by as
 * much, which keeps the bound valid. The search stops after max_nodes
 * nodes and says so (the best found so far is returned).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dvfs.h"

/* A region's numbers for the bound: its largest saving, its best ratio of
 * saving to shifted cost (INFINITY: a saving at no shifted cost), and the
 * shift (its most negative cost, or 0). */
typedef struct knap_reg {
  double best_gain, ratio, shift;
  size_t id;
} knap_reg;

typedef struct knap_search {
  const dvfs_knap *k;
  knap_reg *reg; /* the usable regions, best ratio first */
  size_t m;
  int *cur;      /* the current choice, indexed like k's regions */
  dvfs_knap_sol *best;
  bool stopped;
} knap_search;

static bool usable(const dvfs_knap *k, size_t i, size_t p) {
  double g = k->gain[i * k->npts + p], c = k->cost[i * k->npts + p];
  return isfinite(g) && isfinite(c) && g > 0;
}

static knap_reg describe(const dvfs_knap *k, size_t i) {
  knap_reg r = {0, 0, 0, i};
  for (size_t p = 1; p < k->npts; p++)
    if (usable(k, i, p) && k->cost[i * k->npts + p] < r.shift)
      r.shift = k->cost[i * k->npts + p];
  for (size_t p = 1; p < k->npts; p++) {
    if (!usable(k, i, p))
      continue;
    double g = k->gain[i * k->npts + p], c = k->cost[i * k->npts + p] - r.shift;
    double q = c > 0 ? g / c : INFINITY;
    if (g > r.best_gain)
      r.best_gain = g;
    if (q > r.ratio)
      r.ratio = q;
  }
  return r;
}

static int by_ratio(const void *a, const void *b) {
  const knap_reg *x = a, *y = b;
  if (x->ratio != y->ratio)
    return x->ratio > y->ratio ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* Whether region i conflicts with one in the current choice. */
static bool blocked(const knap_search *s, size_t i) {
  for (size_t j = 0; j < s->k->n; j++)
    if (s->cur[j] && s->k->conflict[i * s->k->n + j])
      return true;
  return false;
}

/* The most any choice of the regions from depth on (those not blocked)
 * can add to the saving with `room` time left. */
static double bound(const knap_search *s, size_t depth, double room) {
  double widen = 0, ub = 0;
  for (size_t d = depth; d < s->m; d++)
    if (!blocked(s, s->reg[d].id))
      widen -= s->reg[d].shift;
  room += widen;
  for (size_t d = depth; d < s->m; d++) {
    const knap_reg *r = &s->reg[d];
    if (blocked(s, r->id))
      continue;
    double need = isinf(r->ratio) ? 0 : r->best_gain / r->ratio;
    if (need <= room)
      ub += r->best_gain, room -= need;
    else
      ub += r->ratio * room, room = 0;
  }
  return ub;
}

static void keep(knap_search *s, double cost, double gain) {
  if (gain <= s->best->gain)
    return;
  memcpy(s->best->pick, s->cur, s->k->n * sizeof *s->cur);
  s->best->gain = gain, s->best->cost = cost;
}

static void search(knap_search *s, size_t depth, double cost, double gain, double budget) {
  if (s->stopped)
    return;
  if (++s->best->nodes > s->k->max_nodes) {
    s->stopped = true;
    return;
  }
  keep(s, cost, gain);
  if (depth == s->m)
    return;
  /* a relative slack: the bound is a sum in another order than the gains */
  double ub = gain + bound(s, depth, budget - cost);
  if (ub * (1 + 1e-12) + 1e-12 <= s->best->gain)
    return;
  const dvfs_knap *k = s->k;
  size_t i = s->reg[depth].id;
  if (!blocked(s, i))
    for (size_t p = 1; p < k->npts; p++) {
      double c = k->cost[i * k->npts + p];
      if (!usable(k, i, p) || cost + c > budget)
        continue;
      s->cur[i] = (int)p;
      search(s, depth + 1, cost + c, gain + k->gain[i * k->npts + p], budget);
      s->cur[i] = 0;
    }
  search(s, depth + 1, cost, gain, budget);
}

int dvfs_knap_solve(const dvfs_knap *k, double budget, dvfs_knap_sol *sol) {
  size_t n1 = k->n ? k->n : 1;
  knap_search s = {k, malloc(n1 * sizeof *s.reg), 0, calloc(n1, sizeof *s.cur), sol, false};
  if (!s.reg || !s.cur) {
    free(s.reg), free(s.cur);
    return -1;
  }
  memset(sol->pick, 0, n1 * sizeof *sol->pick);
  sol->cost = sol->gain = 0, sol->nodes = 0;
  for (size_t i = 0; i < k->n; i++) {
    knap_reg r = describe(k, i);
    if (r.best_gain > 0)
      s.reg[s.m++] = r;
  }
  qsort(s.reg, s.m, sizeof *s.reg, by_ratio);
  if (budget >= 0)
    search(&s, 0, 0, 0, budget);
  sol->complete = !s.stopped;
  free(s.reg), free(s.cur);
  return 0;
}

int dvfs_fitlog_predict(const dvfs_fitlog *f, size_t npts, double limit, dvfs_knap_sol *sol) {
  dvfs_knap k = {f->m, npts, f->cost, f->gain, f->conflict, DVFS_KNAP_MAX_NODES};
  return dvfs_knap_solve(&k, limit, sol);
}

void dvfs_fitlog_free(dvfs_fitlog *f) {
  free(f->region), free(f->cost), free(f->gain), free(f->conflict);
  f->region = NULL, f->cost = f->gain = NULL, f->conflict = NULL;
}
