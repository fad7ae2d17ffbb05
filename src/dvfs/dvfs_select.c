/*
 * Region selection of tally dvfs, after the DSPInst paper (section 5.1):
 * a phase profile row belongs to the function holding the loop header it
 * started at; the phases of one function are merged into one region (the
 * paper's merging of neighbouring regions, at function granularity: the
 * switches go at the function's entry and every exit). A region is chosen
 * when it has at least min_misses D-cache misses (the paper's first
 * threshold), at least min_mpc misses per cycle (its second), and enough
 * cycles per entry to pay for the two PLL relocks of a switch pair many
 * times over (break-even: min_relocks x 2 x relock cycles).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dvfs.h"

enum { EXIT_INTERNAL_ = 70, EXIT_BADDATA = 65 };

static long func_of(const tally_inst *ti, uint32_t pc) {
  long i = tally_inst_find_insn(ti, pc);
  return i < 0 ? -1 : tally_inst_insn_at(ti, (size_t)i)->func;
}

static void judge(const dvfs_opts *o, dvfs_region *r) {
  double mpc = r->cycles ? (double)r->misses / (double)r->cycles : 0;
  double per_entry = r->entries ? (double)r->cycles / (double)r->entries : (double)r->cycles;
  r->chosen = false;
  if (r->misses < o->min_misses)
    r->why = "too few misses";
  else if (mpc < o->min_mpc)
    r->why = "too few misses per cycle";
  else if (per_entry < o->min_relocks * 2.0 * o->relock_cycles)
    r->why = "too short per entry for the PLL relocks";
  else
    r->chosen = true, r->why = "chosen";
}

int dvfs_select(const dvfs_opts *o, const dvfs_phase *rows, size_t nrows, dvfs_region **regions, size_t *nregions,
                tally_error *err) {
  tally_inst *ti;
  int rc = tally_inst_open(o->in, &ti, err);
  if (rc)
    return rc;
  size_t nf = tally_inst_nfuncs(ti);
  dvfs_region *v = calloc(nf ? nf : 1, sizeof *v);
  if (!v) {
    tally_inst_close(ti);
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return EXIT_INTERNAL_;
  }
  for (size_t i = 0; i < nrows; i++) {
    long fs = func_of(ti, rows[i].start), fe = func_of(ti, rows[i].end);
    if (fs >= 0) {
      v[fs].cycles += rows[i].cycles;
      v[fs].misses += rows[i].rmiss + rows[i].wmiss;
    }
    if (fe >= 0 && fe != fs) /* entered from outside the function */
      v[fe].entries += rows[i].entries;
  }
  size_t n = 0;
  for (size_t f = 0; f < nf; f++) {
    if (!v[f].cycles)
      continue;
    const tally_inst_func *fn = tally_inst_func_at(ti, f);
    dvfs_region r = v[f];
    snprintf(r.name, sizeof r.name, "%s", fn->name ? fn->name : "?");
    r.lo = fn->lo, r.hi = fn->hi;
    tally_inst_where(ti, fn->lo, r.where, sizeof r.where);
    judge(o, &r);
    v[n++] = r;
  }
  tally_inst_close(ti);
  *regions = v, *nregions = n;
  return 0;
}
