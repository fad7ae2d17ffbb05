/*
 * unit.dvfs_knap: tally dvfs's knapsack solver (src/dvfs/dvfs_knap.c)
 * against brute force on random small instances: every assignment of a
 * point (or none) to every region enumerated, the conflicting ones and
 * those over the budget skipped, the largest gain kept. The solver's
 * gain must equal it, and its own choice must be one of those
 * assignments: no conflict, within the budget, with the gain it reports.
 * Instances include costs of zero and below (a region that gains time),
 * gains of zero and below (never worth taking), and ties. Also a law: the
 * best gain never falls as the budget grows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dvfs/dvfs.h"

#define MAXN 8
#define MAXP 4

typedef struct inst {
  size_t n, npts;
  double cost[MAXN * MAXP], gain[MAXN * MAXP];
  bool conflict[MAXN * MAXN];
} inst;

static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;

static unsigned rnd(unsigned m) { /* xorshift64*, fixed seed: reproducible */
  rng_state ^= rng_state >> 12, rng_state ^= rng_state << 25, rng_state ^= rng_state >> 27;
  return (unsigned)((rng_state * 0x2545f4914f6cdd1dull) >> 33) % m;
}

/* Costs and gains on a coarse grid (ties happen) with a few odd ones. */
static double value(int lo, int hi) { return (lo + (int)rnd((unsigned)(hi - lo + 1))) / 4.0; }

static void make(inst *in) {
  in->n = 1 + rnd(MAXN), in->npts = 2 + rnd(MAXP - 1);
  for (size_t i = 0; i < in->n; i++)
    for (size_t p = 0; p < in->npts; p++) {
      in->cost[i * in->npts + p] = p ? value(rnd(8) ? 1 : -4, 16) : 0;
      in->gain[i * in->npts + p] = p ? value(rnd(8) ? 1 : -8, 40) : 0;
      if (p && !rnd(10))
        in->gain[i * in->npts + p] = NAN; /* not measured */
    }
  memset(in->conflict, 0, sizeof in->conflict);
  unsigned density = rnd(4); /* none, some, many conflicts */
  for (size_t i = 0; i < in->n; i++)
    for (size_t j = 0; j < i; j++)
      in->conflict[i * in->n + j] = in->conflict[j * in->n + i] = rnd(4) < density;
}

/* The assignment pick's cost and gain; false when two conflict or a
 * picked point saves nothing (the solver never takes those). */
static bool eval(const inst *in, const int *pick, double *cost, double *gain) {
  *cost = *gain = 0;
  for (size_t i = 0; i < in->n; i++) {
    if (!pick[i])
      continue;
    double g = in->gain[i * in->npts + (size_t)pick[i]];
    if (!(g > 0))
      return false;
    *cost += in->cost[i * in->npts + (size_t)pick[i]], *gain += g;
    for (size_t j = 0; j < in->n; j++)
      if (pick[j] && in->conflict[i * in->n + j])
        return false;
  }
  return true;
}

static double brute(const inst *in, double budget) {
  int pick[MAXN] = {0};
  double best = 0;
  for (;;) {
    size_t k = 0;
    while (k < in->n && ++pick[k] == (int)in->npts)
      pick[k++] = 0;
    if (k == in->n)
      return best;
    double c, g;
    if (eval(in, pick, &c, &g) && c <= budget && g > best)
      best = g;
  }
}

static int check(const inst *in, double budget, double *last, int t) {
  int pick[MAXN];
  dvfs_knap k = {in->n, in->npts, in->cost, in->gain, in->conflict, DVFS_KNAP_MAX_NODES};
  dvfs_knap_sol sol = {.pick = pick};
  if (dvfs_knap_solve(&k, budget, &sol) || !sol.complete) {
    printf("FAIL instance %d: the solver failed or stopped early\n", t);
    return 1;
  }
  double want = brute(in, budget), c, g;
  int bad = 0;
  if (fabs(sol.gain - want) > 1e-9) {
    printf("FAIL instance %d (n=%zu points=%zu budget %.2f): gain %.6f, brute force %.6f\n", t, in->n, in->npts,
           budget, sol.gain, want);
    bad = 1;
  }
  if (!eval(in, pick, &c, &g) || c > budget || fabs(g - sol.gain) > 1e-9 || fabs(c - sol.cost) > 1e-9) {
    printf("FAIL instance %d: the choice is not valid or not what it reports\n", t);
    bad = 1;
  }
  if (sol.gain < *last - 1e-9) {
    printf("FAIL instance %d: gain %.6f at budget %.2f below %.6f at a smaller one\n", t, sol.gain, budget, *last);
    bad = 1;
  }
  *last = sol.gain;
  return bad;
}

int main(void) {
  int fails = 0, checked = 0;
  for (int t = 0; t < 400 && fails < 10; t++) {
    inst in;
    make(&in);
    double last = 0;
    for (int b = 0; b <= 40 && fails < 10; b += 1 + (int)rnd(6), checked++)
      fails += check(&in, b / 4.0, &last, t);
  }
  /* a hand-made case: A alone (cost 3, gain 9) against B + C (2 + 2,
   * 5 + 5) within 4.5; A conflicts with nothing. 10 > 9: B and C. */
  inst h = {3, 2, {0, 3, 0, 2, 0, 2}, {0, 9, 0, 5, 0, 5}, {0}};
  int pick[3];
  dvfs_knap k = {3, 2, h.cost, h.gain, h.conflict, DVFS_KNAP_MAX_NODES};
  dvfs_knap_sol sol = {.pick = pick};
  if (dvfs_knap_solve(&k, 4.5, &sol) || pick[0] || pick[1] != 1 || pick[2] != 1 || sol.gain != 10) {
    printf("FAIL hand-made: picks %d %d %d gain %g, want 0 1 1 gain 10\n", pick[0], pick[1], pick[2], sol.gain);
    fails++;
  }
  /* with B and C in conflict: A */
  h.conflict[1 * 3 + 2] = h.conflict[2 * 3 + 1] = true;
  if (dvfs_knap_solve(&k, 4.5, &sol) || pick[0] != 1 || pick[1] || pick[2] || sol.gain != 9) {
    printf("FAIL hand-made with B, C in conflict: picks %d %d %d gain %g, want 1 0 0 gain 9\n", pick[0], pick[1],
           pick[2], sol.gain);
    fails++;
  }
  /* a tiny node budget: the search says it stopped */
  k.max_nodes = 2;
  if (dvfs_knap_solve(&k, 100, &sol) || sol.complete) {
    printf("FAIL max_nodes 2: the search does not say it stopped early\n");
    fails++;
  }
  printf("%d instances x budgets checked, %d failures\n", checked, fails);
  return fails ? 1 : 0;
}
