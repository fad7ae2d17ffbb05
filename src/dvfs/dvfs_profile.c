/*
 * The profile of tally dvfs: the loop/phase profile of the DSPInst paper
 * (docs/tally-inst.md, --tool phases), counted non-intrusively: the
 * original program is stepped on the core model one instruction at a time
 * (stepping changes no simulated cycle: docs/tally-gdb.md), and whenever
 * the next instruction is a loop header other than the one the current
 * phase began at, the phase ends there: its cycles, instructions and
 * D-cache read and write misses (the signals' totals, docs/signals.md) are
 * added to the row of its start and end headers, as target/inst/phases.c
 * does on the target. Nothing runs that the program does not run, so the
 * counts are the program's own: a phase that is an address range has
 * exactly the statistics module's counts over that range
 * (tests/dvfs/run_dvfs_profile.sh). The instrumented profiler perturbed
 * what it measured: its runtime's context and tables evicted the
 * program's D-cache lines between two pauses of the counters, and the
 * refills were charged to the loops (a loop of ud's ludcmp: 41,055
 * profile misses against 1), and its trap entry and exit added cycles.
 * phases.out is written to the scratch directory in the tool's format.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dvfs.h"

enum { EXIT_BADDATA = 65, EXIT_INTERNAL_ = 70, EXIT_BOUND_ = 124, EXIT_INTERRUPTED_ = 130, EXIT_CYCLES = 123 };

#define NONE 0xffffffffu

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* The loop headers of the program (the instrumenter's analysis: targets
 * of backward branches and jumps), sorted. */
static int headers(const dvfs_opts *o, uint32_t **out, size_t *n, uint32_t *main_pc, tally_error *err) {
  tally_inst *ti;
  int rc = tally_inst_open(o->in, &ti, err);
  if (rc)
    return rc;
  size_t cap = 64, k = 0;
  uint32_t *v = malloc(cap * sizeof *v);
  for (size_t i = 0; v && i < tally_inst_ninsns(ti); i++) {
    const tally_inst_insn *in = tally_inst_insn_at(ti, i);
    if (!(in->flags & TALLY_INST_LOOP))
      continue;
    if (k == cap) {
      uint32_t *nv = realloc(v, 2 * cap * sizeof *nv);
      if (!nv) {
        free(v);
        v = NULL;
        break;
      }
      v = nv, cap *= 2;
    }
    v[k++] = in->pc;
  }
  *main_pc = NONE;
  for (size_t f = 0; f < tally_inst_nfuncs(ti); f++)
    if (tally_inst_func_at(ti, f)->name && strcmp(tally_inst_func_at(ti, f)->name, "main") == 0)
      *main_pc = tally_inst_func_at(ti, f)->lo;
  tally_inst_close(ti);
  if (!v) {
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return EXIT_INTERNAL_;
  }
  qsort(v, k, sizeof *v, cmp_u32);
  *out = v, *n = k;
  return 0;
}

static bool is_header(const uint32_t *v, size_t n, uint32_t pc) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid] < pc)
      lo = mid + 1;
    else if (v[mid] > pc)
      hi = mid;
    else
      return true;
  }
  return false;
}

typedef struct prof {
  dvfs_phase *rows;
  size_t n, cap;
  size_t *slot; /* open addressing: index + 1 into rows, 0 = empty */
  size_t nslot;
} prof;

static dvfs_phase *row_of(prof *p, uint32_t start, uint32_t end, bool startup) {
  if (2 * (p->n + 1) > p->nslot) { /* grow and rehash */
    size_t ns = p->nslot ? 2 * p->nslot : 1024;
    size_t *nv = calloc(ns, sizeof *nv);
    if (!nv)
      return NULL;
    for (size_t r = 0; r < p->n; r++) {
      size_t h = ((size_t)p->rows[r].start * 2654435761u ^ (size_t)p->rows[r].end * 40503u) & (ns - 1);
      while (nv[h])
        h = (h + 1) & (ns - 1);
      nv[h] = r + 1;
    }
    free(p->slot);
    p->slot = nv, p->nslot = ns;
  }
  size_t h = ((size_t)start * 2654435761u ^ (size_t)end * 40503u) & (p->nslot - 1);
  for (; p->slot[h]; h = (h + 1) & (p->nslot - 1)) {
    dvfs_phase *r = &p->rows[p->slot[h] - 1];
    if (r->start == start && r->end == end && r->startup == startup)
      return r;
  }
  if (p->n == p->cap) {
    size_t nc = p->cap ? 2 * p->cap : 256;
    dvfs_phase *nr = realloc(p->rows, nc * sizeof *nr);
    if (!nr)
      return NULL;
    p->rows = nr, p->cap = nc;
  }
  p->rows[p->n] = (dvfs_phase){.start = start, .end = end, .startup = startup};
  p->slot[h] = ++p->n;
  return &p->rows[p->n - 1];
}

typedef struct counts {
  uint64_t v[4]; /* cycles, instret, D-cache read misses, write misses */
} counts;

static counts now(tally_sim *sim, uint64_t *totals, int rd, int wr) {
  tally_signal_totals(sim, totals);
  return (counts){{tally_cycles(sim), tally_instret(sim), totals[rd], totals[wr]}};
}

static bool close_phase(prof *p, uint32_t start, uint32_t end, bool startup, const counts *from, const counts *to) {
  dvfs_phase *r = row_of(p, start, end, startup);
  if (!r)
    return false;
  r->entries++;
  r->cycles += to->v[0] - from->v[0];
  r->instret += to->v[1] - from->v[1];
  r->rmiss += to->v[2] - from->v[2];
  r->wmiss += to->v[3] - from->v[3];
  return true;
}

static void write_phases(const char *dir, const prof *p) {
  char path[4200];
  snprintf(path, sizeof path, "%s/phases.out", dir);
  FILE *f = fopen(path, "w");
  if (!f)
    return; /* the scratch copy is for inspection only */
  fprintf(f, "# tally phases 1 %zu 0\n# start_pc end_pc entries cycles instret dcache_read_miss dcache_write_miss"
             " [startup: began before main]\n",
          p->n);
  for (size_t r = 0; r < p->n; r++)
    fprintf(f, "0x%08" PRIx32 " 0x%08" PRIx32 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "%s\n",
            p->rows[r].start, p->rows[r].end, p->rows[r].entries, p->rows[r].cycles, p->rows[r].instret,
            p->rows[r].rmiss, p->rows[r].wmiss, p->rows[r].startup ? " startup" : "");
  fclose(f);
}

int dvfs_profile(const dvfs_opts *o, const char *dir, dvfs_phase **rows, size_t *nrows, dvfs_run *base,
                 tally_error *err) {
  (void)base;
  uint32_t *hv;
  size_t nh;
  uint32_t main_pc;
  int rc = headers(o, &hv, &nh, &main_pc, err);
  if (rc)
    return rc;
  FILE *devnull = fopen("/dev/null", "w");
  tally_sim *sim = devnull ? dvfs_new_sim(o, o->in, dir, NULL, 0, devnull, err, &rc) : NULL;
  int rd = tally_signal_lookup("dcache.read_miss"), wr = tally_signal_lookup("dcache.write_miss");
  uint64_t *totals = calloc((size_t)tally_signal_count() + 1, sizeof *totals);
  prof p = {0};
  if (!sim || rd < 0 || wr < 0 || !totals) {
    if (sim || !devnull || rd < 0 || wr < 0 || !totals) {
      snprintf(err->msg, sizeof err->msg, "the phase profile cannot be counted (out of memory, or no D-cache signals)");
      rc = EXIT_INTERNAL_;
    }
    goto out;
  }
  counts at = {{0}}; /* from reset: the stretch before the first loop counts too */
  uint32_t cur = NONE;
  bool startup = main_pc != NONE; /* until main is first entered */
  tally_stop st = TALLY_STOP_LIMIT;
  const char *bound = NULL;
  for (uint64_t k = 1; st == TALLY_STOP_LIMIT; k++) {
    st = tally_run(sim, 1);
    if (st != TALLY_STOP_LIMIT)
      break;
    if (k % 65536 == 0 && (bound = dvfs_bound(o, sim)) != NULL)
      break;
    uint32_t pc = tally_pc(sim);
    if (startup && pc == main_pc) { /* the start-up code ends: its last phase too */
      counts c = now(sim, totals, rd, wr);
      if (!close_phase(&p, cur, NONE, true, &at, &c))
        goto oom;
      at = c, cur = NONE, startup = false;
    }
    if (pc == cur || !is_header(hv, nh, pc))
      continue;
    counts c = now(sim, totals, rd, wr);
    if (!close_phase(&p, cur, pc, startup, &at, &c))
      goto oom;
    at = c, cur = pc;
  }
  if (bound) {
    snprintf(err->msg, sizeof err->msg, "%.300s: %s after %llu instructions (the phase profile)", o->in, bound,
             (unsigned long long)tally_instret(sim));
    rc = strcmp(bound, "interrupted") ? EXIT_BOUND_ : EXIT_INTERRUPTED_;
  } else if (st == TALLY_STOP_CYCLES) {
    snprintf(err->msg, sizeof err->msg, "%.300s: --max-cycles reached (%llu cycles) in the phase profile", o->in,
             (unsigned long long)o->max_cycles);
    rc = EXIT_CYCLES;
  } else if (st != TALLY_STOP_EXIT) {
    snprintf(err->msg, sizeof err->msg, "%.300s: the profiled run did not end by exiting: %.150s", o->in,
             tally_stop_detail(sim));
    rc = EXIT_BADDATA;
  } else {
    counts c = now(sim, totals, rd, wr);
    if (!close_phase(&p, cur, NONE, startup, &at, &c))
      goto oom;
  }
  if (!rc && dir)
    write_phases(dir, &p);
  goto out;
oom:
  snprintf(err->msg, sizeof err->msg, "out of memory");
  rc = EXIT_INTERNAL_;
out:
  if (sim)
    tally_sim_free(sim);
  if (devnull)
    fclose(devnull);
  free(totals);
  free(hv);
  free(p.slot);
  if (rc) {
    free(p.rows);
    return rc;
  }
  *rows = p.rows, *nrows = p.n;
  return 0;
}
