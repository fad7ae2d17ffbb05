/*
 * Region selection of tally dvfs, after the DSPInst paper (section 5.1).
 * A phase-profile row (the stretch from one loop-header visit to the
 * next) belongs to the candidate holding the header it started at: with
 * loop regions (the default, the paper's), the loop and every loop around
 * it; with function regions, the function. A candidate is chosen when it
 * has at least min_misses D-cache misses (the paper's first threshold), at
 * least min_mpc misses per cycle (its second), enough cycles per entry
 * (rows entering it from outside) to pay for a switch pair many times
 * over (break-even: min_relocks x (2 x relock cycles + the switch code's
 * cycles per pair)), and switch sites that can be placed. Phases of the
 * start-up code (before main is first entered: crt0's clearing of .bss)
 * count only with --startup. Loops are judged outermost
 * first; a loop inside a chosen one is not a region of its own. A chosen
 * region starts at the slowest operating point.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dvfs.h"

enum { EXIT_INTERNAL_ = 70 };

double dvfs_region_mpc(const dvfs_region *r) {
  return r->cycles ? (double)r->misses / (double)r->cycles : 0;
}

void dvfs_order_by_mpc(const dvfs_region *v, size_t *idx, size_t m, bool most_first) {
  for (size_t i = 1; i < m; i++)
    for (size_t j = i; j > 0; j--) {
      double a = dvfs_region_mpc(&v[idx[j]]), b = dvfs_region_mpc(&v[idx[j - 1]]);
      if (most_first ? a <= b : a >= b)
        break;
      size_t t = idx[j];
      idx[j] = idx[j - 1], idx[j - 1] = t;
    }
}

static const char *judge(const dvfs_opts *o, const dvfs_region *r) {
  double mpc = dvfs_region_mpc(r);
  double per_entry = r->entries ? (double)r->cycles / (double)r->entries : (double)r->cycles;
  if (r->misses < o->min_misses)
    return "too few misses";
  if (mpc < o->min_mpc)
    return "too few misses per cycle";
  /* a switch pair costs two relocks and the switch code's own cycles */
  if (per_entry < o->min_relocks * (2.0 * o->relock_cycles + o->switch_cycles))
    return "too short per entry for the PLL relocks";
  return NULL;
}

/* Sums the rows into every candidate holding their start (and counts the
 * entries of rows coming in from outside). */
static void add_rows(const dvfs_opts *o, dvfs_region *v, size_t n, const dvfs_phase *rows, size_t nrows) {
  for (size_t i = 0; i < nrows; i++)
    for (size_t k = 0; k < n && (o->startup || !rows[i].startup); k++) {
      bool s = dvfs_region_has(&v[k], rows[i].start), e = dvfs_region_has(&v[k], rows[i].end);
      if (s) {
        v[k].cycles += rows[i].cycles;
        v[k].misses += rows[i].rmiss + rows[i].wmiss;
      }
      if (e && !s)
        v[k].entries += rows[i].entries;
    }
}

static int function_candidates(const tally_inst *ti, dvfs_region **out, size_t *nout, tally_error *err) {
  size_t nf = tally_inst_nfuncs(ti);
  dvfs_region *v = calloc(nf ? nf : 1, sizeof *v);
  if (!v) {
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return EXIT_INTERNAL_;
  }
  for (size_t f = 0; f < nf; f++) {
    const tally_inst_func *fn = tally_inst_func_at(ti, f);
    dvfs_region *r = &v[f];
    r->kind = DVFS_FUNCTIONS, r->func = (int)f, r->parent = -1, r->lo = fn->lo, r->hi = fn->hi;
    r->ranges[0] = (dvfs_range){fn->lo, fn->hi, 0}, r->nranges = 1;
    snprintf(r->name, sizeof r->name, "%s", fn->name ? fn->name : "?");
    tally_inst_where(ti, fn->lo, r->where, sizeof r->where);
  }
  *out = v, *nout = nf;
  return 0;
}

static bool ancestor_chosen(const dvfs_region *v, const dvfs_region *r) {
  for (int p = r->parent; p >= 0; p = v[p].parent)
    if (v[p].point)
      return true;
  return false;
}

/* Whether r shares an instruction with a chosen region (bodies of loops
 * that are not nested can overlap in code gcc shares between them). */
static bool overlaps_chosen(const dvfs_region *v, size_t n, const dvfs_region *r) {
  for (size_t k = 0; k < n; k++)
    for (size_t a = 0; v[k].point && &v[k] != r && a < v[k].nranges; a++)
      for (size_t b = 0; b < r->nranges; b++)
        if (v[k].ranges[a].lo < r->ranges[b].hi && r->ranges[b].lo < v[k].ranges[a].hi)
          return true;
  return false;
}

/* Whether v[k] lies around a chosen region. */
static bool descendant_chosen(const dvfs_region *v, size_t n, size_t k) {
  for (size_t j = 0; j < n; j++)
    for (int p = v[j].point ? v[j].parent : -1; p >= 0; p = v[p].parent)
      if ((size_t)p == k)
        return true;
  return false;
}

bool dvfs_can_join(const dvfs_region *v, size_t n, size_t k) {
  const dvfs_region *r = &v[k];
  return r->cycles && !r->point && !r->fails && !ancestor_chosen(v, r) && !descendant_chosen(v, n, k) &&
         !overlaps_chosen(v, n, r);
}

void dvfs_choose(const dvfs_opts *o, dvfs_region *v, size_t n) {
  for (size_t k = 0; k < n; k++) { /* parents before children */
    dvfs_region *r = &v[k];
    if (!r->cycles || r->point || r->dropped)
      continue;
    if (ancestor_chosen(v, r))
      r->why = "inside a chosen loop";
    else if (r->fails)
      r->why = r->fails;
    else if (overlaps_chosen(v, n, r))
      r->why = "shares code with a chosen region";
    else
      r->point = (int)o->npts - 1, r->why = "chosen";
  }
}

int dvfs_select(const dvfs_opts *o, const dvfs_phase *rows, size_t nrows, dvfs_region **regions, size_t *nregions,
                tally_error *err) {
  tally_inst *ti;
  int rc = tally_inst_open(o->in, &ti, err);
  if (rc)
    return rc;
  dvfs_region *v = NULL;
  size_t n = 0;
  rc = o->kind == DVFS_LOOPS ? dvfs_find_loops(ti, &v, &n, err) : function_candidates(ti, &v, &n, err);
  if (rc) {
    tally_inst_close(ti);
    return rc;
  }
  add_rows(o, v, n, rows, nrows);
  for (size_t k = 0; k < n; k++) {
    dvfs_region *r = &v[k];
    if (!r->cycles)
      continue;
    r->fails = judge(o, r);
    if (!r->fails)
      r->fails = r->kind == DVFS_LOOPS ? dvfs_loop_sites(ti, v, n, k, &r->sites) : dvfs_function_sites(ti, r, &r->sites);
  }
  tally_inst_close(ti);
  dvfs_choose(o, v, n);
  *regions = v, *nregions = n;
  return 0;
}
