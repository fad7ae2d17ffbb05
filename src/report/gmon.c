/*
 * gmon.out for GNU gprof, from the exact profile.
 *
 * The file is the "new" GNU format: a 20-byte header ("gmon", version 1,
 * 12 spare bytes), then tagged records, little-endian with 32-bit
 * addresses for an RV32 program:
 *   tag 0, histogram: low_pc, high_pc, bin count, profiling rate (u32 each),
 *          dimension (15 bytes, NUL-padded), abbreviation (1 byte),
 *          then one u16 per bin;
 *   tag 1, call-graph arc: from_pc, self_pc, count (u32 each).
 *
 * Histogram: one bin per halfword of the profiled code range, so every bin
 * is one instruction's address (RVC instructions are 2-byte aligned) and no
 * bin straddles two functions. A bin holds the exact cycles charged to the
 * instruction there (tally_profile_at). gprof adds up the bins of histogram
 * records that cover the same range (binutils >= 2.17), so counts above
 * 65,535 are spread over several identical records: the histogram stays
 * exact as long as the records fit in HIST_BUDGET bytes. Beyond that, each
 * count is a `divisor` of cycles (rounded so that every function's sum is
 * its exact self cycles / divisor, rounded) and the rate is the clock over
 * the divisor, so gprof's seconds are still cycles / clock.
 *
 * Arcs: gprof wants the call site as from_pc. The public profile gives
 * arcs between functions, not call sites, so from_pc is the caller's first
 * address; gprof maps it to the caller all the same.
 *
 * One task of a task-aware profile (opts->one_task): the bins of each function
 * hold its self cycles in the task (tally_task_func.self), spread over its
 * instructions in the proportions of the whole run's per-instruction cycles
 * with the same cumulative rounding, so gprof's flat profile is exact per
 * function; the arcs are those of the task's calling contexts
 * (tally_profile_contexts, the task as the root: a function the task's code
 * began in is called from nowhere, gprof's <spontaneous>).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"

#define HIST_BUDGET (8u << 20) /* bytes of histogram records before scaling */
#define BIN_MAX 65535u
#define GPROF_INT_MAX 2147483647u /* gprof sums a bin's records into an int */

static void put32(unsigned char *b, uint32_t v) {
  b[0] = (unsigned char)v;
  b[1] = (unsigned char)(v >> 8);
  b[2] = (unsigned char)(v >> 16);
  b[3] = (unsigned char)(v >> 24);
}

static int write_u32s(FILE *f, const uint32_t *v, size_t n) {
  unsigned char b[16];
  for (size_t i = 0; i < n; i++)
    put32(b + 4 * i, v[i]);
  return fwrite(b, 4, n, f) == n ? 0 : -1;
}

/* The function each bin belongs to (-1: none), for rounding per function. */
static int *bin_owners(const tally_profile *p, uint32_t lo, size_t nbins) {
  int *owner = malloc((nbins ? nbins : 1) * sizeof *owner);
  if (!owner)
    return NULL;
  for (size_t i = 0; i < nbins; i++)
    owner[i] = -1;
  const tally_func_profile *f;
  size_t n = tally_profile_functions(p, &f);
  for (size_t k = 0; k < n; k++)
    for (uint32_t pc = f[k].lo; pc < f[k].hi; pc += 2)
      if (pc >= lo && (size_t)(pc - lo) / 2 < nbins)
        owner[(pc - lo) / 2] = (int)k;
  return owner;
}

/* Scaled counts: within each run of bins of one owner, the cumulative sum
 * is rounded, so a function's counts add up to round(self / divisor) and no
 * bin is off by a whole count. */
static void scale_bins(const uint64_t *cycles, const int *owner, size_t nbins, uint64_t divisor, uint64_t *out) {
  uint64_t cum = 0, shown = 0;
  for (size_t i = 0; i < nbins; i++) {
    if (i == 0 || owner[i] != owner[i - 1])
      cum = shown = 0;
    cum += cycles[i];
    uint64_t want = (cum + divisor / 2) / divisor;
    out[i] = want - shown;
    shown = want;
  }
}

typedef struct gmon_arc {
  int caller, callee;      /* function indexes; caller -1: from nowhere */
  uint64_t calls;
} gmon_arc;

/* The arcs of one task, gathered from its calling contexts (the task's
 * name at their root). Function names in the contexts are the function
 * list's own strings, so a pointer identifies the function even when two
 * share a name. */
typedef struct task_arcs {
  const tally_profile *p;
  const char *task;
  const tally_func_profile *fn;
  size_t nfn;
  gmon_arc *a;
  size_t n, cap;
  bool oom;
} task_arcs;

static int func_index(const task_arcs *t, const char *name) {
  for (size_t i = 0; i < t->nfn; i++)
    if (t->fn[i].name == name)
      return (int)i;
  for (size_t i = 0; i < t->nfn; i++)
    if (!strcmp(t->fn[i].name, name))
      return (int)i;
  return -1;
}

static void task_context(void *ctx, const char *const *names, size_t depth, uint64_t calls, const uint64_t *counts) {
  (void)counts;
  task_arcs *t = ctx;
  if (depth < 2 || strcmp(names[0], t->task) || !calls)
    return; /* another task's (tasks of one name share theirs), or the task's own node */
  int callee = func_index(t, names[depth - 1]);
  int caller = depth > 2 ? func_index(t, names[depth - 2]) : -1;
  if (callee < 0)
    return;
  for (size_t i = 0; i < t->n; i++)
    if (t->a[i].caller == caller && t->a[i].callee == callee) {
      t->a[i].calls += calls;
      return;
    }
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 64;
    gmon_arc *a = realloc(t->a, cap * sizeof *a);
    if (!a) {
      t->oom = true;
      return;
    }
    t->a = a;
    t->cap = cap;
  }
  t->a[t->n++] = (gmon_arc){caller, callee, calls};
}

/* The task's cycles per bin: each function's self cycles in the task over
 * its instructions, in the whole run's proportions (cumulative rounding:
 * the function's bins add up to its self cycles exactly). */
static void task_bins(const tally_task_profile *tk, const tally_func_profile *fn, int cyc, const uint64_t *whole,
                      uint32_t lo, size_t nbins, uint64_t *out) {
  memset(out, 0, nbins * sizeof *out);
  for (size_t k = 0; k < tk->nfuncs; k++) {
    const tally_task_func *tf = &tk->funcs[k];
    const tally_func_profile *f = &fn[tf->func];
    uint64_t self = tf->self[cyc];
    if (!self || f->hi <= f->lo || f->lo < lo || (size_t)(f->lo - lo) / 2 >= nbins)
      continue;
    size_t b0 = (f->lo - lo) / 2, b1 = (f->hi - lo + 1) / 2;
    if (b1 > nbins)
      b1 = nbins;
    uint64_t sum = 0;
    for (size_t i = b0; i < b1; i++)
      sum += whole[i];
    if (!sum) { /* no instruction of it counted in the run as a whole: all at its entry */
      out[b0] += self;
      continue;
    }
    unsigned __int128 cum = 0;
    uint64_t shown = 0;
    for (size_t i = b0; i < b1; i++) {
      cum += whole[i];
      uint64_t want = (uint64_t)((cum * self + sum / 2) / sum);
      out[i] += want - shown;
      shown = want;
    }
  }
}

/* The divisor and rate for seconds: the smallest divisor at least `need`
 * that divides the clock (so rate = clock / divisor exactly), if there is
 * one not much larger. */
static void pick_seconds(uint64_t clock, uint64_t need, uint64_t *divisor, uint32_t *rate) {
  if (clock / need > UINT32_MAX)
    need = clock / UINT32_MAX + 1;
  for (uint64_t d = need; d <= 2 * need; d++) {
    if (clock % d == 0) {
      *divisor = d;
      *rate = (uint32_t)(clock / d);
      return;
    }
  }
  *divisor = need;
  double r = (double)clock / (double)need;
  *rate = r < 1 ? 1 : (uint32_t)llround(r);
}

int report_write_gmon(const tally_profile *p, const report_run *run, const report_gmon_opts *opts, FILE *f,
                      report_gmon_layout *layout) {
  uint32_t lo, hi;
  tally_profile_code_range(p, &lo, &hi);
  lo &= ~1u;
  hi = (hi + 1) & ~1u;
  if (hi <= lo)
    hi = lo + 2;
  size_t nbins = (hi - lo) / 2;
  int cyc = tally_signal_lookup("cycle");
  const tally_func_profile *fn;
  size_t nfn = tally_profile_functions(p, &fn);
  const tally_task_profile *tasks;
  size_t ntasks = tally_profile_tasks(p, &tasks);
  if (opts->one_task && opts->task >= ntasks) {
    errno = EINVAL;
    return -1;
  }
  uint64_t *cycles = malloc(nbins * sizeof *cycles), *counts = malloc(nbins * sizeof *counts);
  int *owner = bin_owners(p, lo, nbins);
  unsigned char *raw = malloc(nbins * 2);
  task_arcs ta = {.p = p, .fn = fn, .nfn = nfn};
  gmon_arc *arcs = NULL;
  size_t narcs = 0;
  int rc = -1;
  if (!cycles || !counts || !owner || !raw) {
    errno = ENOMEM;
    goto out;
  }
  for (size_t i = 0; i < nbins; i++)
    cycles[i] = tally_profile_at(p, lo + 2 * (uint32_t)i, cyc);
  if (opts->one_task) {
    task_bins(&tasks[opts->task], fn, cyc, cycles, lo, nbins, counts);
    memcpy(cycles, counts, nbins * sizeof *cycles);
    ta.task = tasks[opts->task].name;
    tally_profile_contexts(p, task_context, &ta);
    if (ta.oom) {
      errno = ENOMEM;
      goto out;
    }
    arcs = ta.a;
    narcs = ta.n;
  } else {
    const tally_arc *pa;
    size_t npa = tally_profile_arcs(p, &pa);
    arcs = malloc((npa ? npa : 1) * sizeof *arcs);
    if (!arcs) {
      errno = ENOMEM;
      goto out;
    }
    for (size_t i = 0; i < npa; i++)
      arcs[narcs++] = (gmon_arc){pa[i].caller, pa[i].callee, pa[i].calls};
  }
  uint64_t max = 0;
  for (size_t i = 0; i < nbins; i++)
    if (cycles[i] > max)
      max = cycles[i];

  /* Records of the whole range that fit the budget, at least one. */
  uint64_t budget_records = (opts->max_bytes ? opts->max_bytes : HIST_BUDGET) / (nbins * 2);
  if (budget_records == 0)
    budget_records = 1;
  if (budget_records > GPROF_INT_MAX / BIN_MAX) /* gprof sums a bin into an int */
    budget_records = GPROF_INT_MAX / BIN_MAX;
  uint64_t exact_records = max ? (max + BIN_MAX - 1) / BIN_MAX : 1;
  uint64_t divisor = 1;
  uint32_t rate;
  bool in_cycles = opts->unit == REPORT_GMON_CYCLES || run->clock_hz < 1;
  uint64_t clock = run->clock_hz >= 1 ? (uint64_t)llround(run->clock_hz) : 0;
  if (in_cycles) {
    /* exact or nothing: at most 8 budgets of records */
    if (max > GPROF_INT_MAX || exact_records > budget_records * 8) {
      errno = EFBIG;
      goto out;
    }
    rate = 1;
  } else {
    uint64_t need = 1;
    if (exact_records > budget_records || max > GPROF_INT_MAX)
      need = (max + BIN_MAX * budget_records - 1) / (BIN_MAX * budget_records);
    if (clock > UINT32_MAX && need < clock / UINT32_MAX + 1)
      need = clock / UINT32_MAX + 1;
    if (need == 1) {
      rate = (uint32_t)clock;
    } else {
      pick_seconds(clock, need, &divisor, &rate);
    }
  }
  scale_bins(cycles, owner, nbins, divisor, counts);
  uint64_t maxc = 0;
  for (size_t i = 0; i < nbins; i++)
    if (counts[i] > maxc)
      maxc = counts[i];
  uint32_t records = maxc ? (uint32_t)((maxc + BIN_MAX - 1) / BIN_MAX) : 1;

  /* header */
  unsigned char hdr[20] = {'g', 'm', 'o', 'n'};
  put32(hdr + 4, 1);
  if (fwrite(hdr, sizeof hdr, 1, f) != 1)
    goto out;

  /* histogram records: record r holds min(65535, what is left) per bin */
  char dimen[16] = {0};
  strcpy(dimen, in_cycles ? "cycles" : "seconds");
  dimen[15] = in_cycles ? 'c' : 's';
  for (uint32_t r = 0; r < records; r++) {
    unsigned char tag = 0;
    uint32_t h[4] = {lo, hi, (uint32_t)nbins, rate};
    if (fwrite(&tag, 1, 1, f) != 1 || write_u32s(f, h, 4) != 0 || fwrite(dimen, 16, 1, f) != 1)
      goto out;
    for (size_t i = 0; i < nbins; i++) {
      uint64_t v = counts[i] > BIN_MAX ? BIN_MAX : counts[i];
      counts[i] -= v;
      raw[2 * i] = (unsigned char)v;
      raw[2 * i + 1] = (unsigned char)(v >> 8);
    }
    if (fwrite(raw, 2, nbins, f) != nbins)
      goto out;
  }

  /* call-graph arcs */
  for (size_t i = 0; i < narcs; i++) {
    const gmon_arc *a = &arcs[i];
    if (a->callee < 0 || fn[a->callee].hi <= fn[a->callee].lo)
      continue; /* into no known function: gprof could not name it */
    uint32_t from = a->caller >= 0 ? fn[a->caller].lo : 0;
    for (uint64_t left = a->calls; left;) {
      uint32_t n = left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
      unsigned char tag = 1;
      uint32_t v[3] = {from, fn[a->callee].lo, n};
      if (fwrite(&tag, 1, 1, f) != 1 || write_u32s(f, v, 3) != 0)
        goto out;
      left -= n;
    }
  }
  if (layout)
    *layout = (report_gmon_layout){.lo = lo, .hi = hi, .divisor = divisor, .rate = rate, .records = records};
  rc = ferror(f) ? -1 : 0;
out:
  if (arcs != ta.a)
    free(arcs);
  free(ta.a);
  free(cycles);
  free(counts);
  free(owner);
  free(raw);
  return rc;
}
