/*
 * tally profile: the exact per-function profile of a run. Every cycle and
 * every signal is charged to the instruction it belongs to; a shadow call
 * stack gives calls, inclusive cycles and caller-to-callee arcs. Optionally
 * a gprof-style PC sampler runs alongside, for comparison.
 */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../report/export.h"
#include "cli.h"
#include "host_files.h"
#include "stopwatch.h"
#include "tally/tally.h"

#define MAX_COLS 16

#define PROFILE_SLICE_INSNS 20000000ull

typedef struct profile_opts {
  const char *core;
  const char *sets[64];
  int nsets;
  int cols[MAX_COLS];
  int ncols;
  int sort;               /* signal to sort by */
  size_t top;             /* rows shown, 0 = all */
  bool callgraph;
  bool lines;             /* per-source-line profile */
  const char *annotate;
  double sample_seconds;  /* 0 = no sampler */
  uint64_t max_insns;
  double timeout;         /* wall-time seconds, 0 = none */
  const char *outputs[16][2]; /* (format, path) */
  int noutputs;
  report_gmon_unit gmon_unit;
  host_files_opts files;  /* --semihost-files, --semihost-root */
} profile_opts;

static void profile_usage(FILE *f) {
  fprintf(f,
          "usage: tally profile [options] PROGRAM [ARGS...]\n"
          "\n"
          "Runs PROGRAM on a core model and prints its exact profile: for every\n"
          "function the cycles and signals of its own instructions, its calls, and\n"
          "its inclusive cycles through a shadow call stack. Nothing is sampled:\n"
          "every cycle of the run is counted once, and the numbers sum to the total.\n"
          "\n"
          "options:\n"
          "      --core NAME          core model (default tally5); --set SEC.KEY=VAL to adjust\n"
          "      --signals LIST       columns, comma-separated signal names\n"
          "                           (default cycle,instret,icache.miss,dcache.read_miss,\n"
          "                           dcache.write_miss,stall; see 'tally signals')\n"
          "      --sort SIGNAL        sort by this signal's self total (default cycle)\n"
          "      --top N              show the N first functions and lines (default all)\n"
          "  -g, --callgraph          also print caller -> callee arcs with exact calls\n"
          "                           and inclusive cycles, and their call sites\n"
          "      --lines              also print the profile per source line (file:line\n"
          "                           of each function, from the DWARF line table: build\n"
          "                           PROGRAM with -g); --csv then writes it, --json adds it\n"
          "      --annotate FUNC      disassembly of FUNC with per-instruction counts\n"
          "      --sample-every T     also run a PC sampler every T of simulated time\n"
          "                           (e.g. 10ms, 1ms, 100us) and compare its shares\n"
          "      --max-insns N        stop after N instructions\n"
          "      --timeout S          stop after S seconds of wall time (Ctrl-C stops too;\n"
          "                           either way the profile of what ran is printed)\n"
          HOST_FILES_HELP
          "\n"
          "exports (written after the run; docs/profile.md describes each):\n"
          "      --json FILE          the whole profile as JSON (read by 'tally diff')\n"
          "      --gmon FILE          a gmon.out for 'riscv64-unknown-elf-gprof PROGRAM FILE'\n"
          "      --gmon-unit U        seconds (default; counts at the core clock) or cycles\n"
          "      --callgrind FILE     Callgrind format, for callgrind_annotate and KCachegrind\n"
          "      --speedscope FILE    speedscope's format (stacks weighted by cycles)\n"
          "      --folded FILE        folded stacks (flame graphs), self cycles per stack\n"
          "      --csv FILE           the flat profile as CSV (with --lines: the line profile)\n"
          "  -h, --help               show this help\n"
          "\n"
          "exit status: the program's own; 124, 125, 126 when the run stopped early\n"
          "(as for 'tally run'); 64 usage errors; 66 when PROGRAM cannot be loaded,\n"
          "or --lines and it has no line table; 70 when an export cannot be written.\n");
}

static bool parse_time(const char *s, double *secs) {
  char *end;
  double v = strtod(s, &end);
  if (end == s || v <= 0)
    return false;
  if (!strcmp(end, "s")) *secs = v;
  else if (!strcmp(end, "ms")) *secs = v * 1e-3;
  else if (!strcmp(end, "us")) *secs = v * 1e-6;
  else if (!strcmp(end, "ns")) *secs = v * 1e-9;
  else return false;
  return true;
}

static bool parse_signals(const char *list, profile_opts *o) {
  char buf[512];
  snprintf(buf, sizeof buf, "%s", list);
  o->ncols = 0;
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    int id = tally_signal_lookup(tok);
    if (id < 0) {
      fprintf(stderr, "tally profile: unknown signal '%s' (see 'tally signals')\n", tok);
      return false;
    }
    if (o->ncols == MAX_COLS) {
      fprintf(stderr, "tally profile: at most %d signals\n", MAX_COLS);
      return false;
    }
    o->cols[o->ncols++] = id;
  }
  return o->ncols > 0;
}

static volatile sig_atomic_t interrupted;

/* Runs in slices, so that --max-insns, --timeout and Ctrl-C all end the run
 * with its profile kept; *bound says which did when it returns LIMIT. */
static tally_stop run_bounded(tally_sim *sim, const profile_opts *o, const char **bound) {
  stopwatch_start(sim, &interrupted);
  stopwatch_arm(o->timeout);
  tally_stop s;
  for (;;) {
    uint64_t left = o->max_insns ? o->max_insns - tally_instret(sim) : UINT64_MAX;
    s = tally_run(sim, left < PROFILE_SLICE_INSNS ? left : PROFILE_SLICE_INSNS);
    if (s != TALLY_STOP_LIMIT || (*bound = stopwatch_reason()))
      break;
    if (o->max_insns && tally_instret(sim) >= o->max_insns) {
      *bound = "--max-insns reached";
      break;
    }
  }
  stopwatch_stop();
  return s;
}

static int parse_opts(int argc, char **argv, profile_opts *o) {
  enum { O_CORE = 256, O_SET, O_SIGNALS, O_SORT, O_TOP, O_ANNOTATE, O_SAMPLE, O_MAX, O_FOLDED, O_CSV,
         O_JSON, O_GMON, O_GMON_UNIT, O_CALLGRIND, O_SPEEDSCOPE, O_LINES,
         O_HOST_FILES, O_TIMEOUT };
  static const struct option longs[] = {
    {"core", required_argument, NULL, O_CORE},     {"set", required_argument, NULL, O_SET},
    {"signals", required_argument, NULL, O_SIGNALS}, {"sort", required_argument, NULL, O_SORT},
    {"top", required_argument, NULL, O_TOP},       {"callgraph", no_argument, NULL, 'g'},
    {"annotate", required_argument, NULL, O_ANNOTATE}, {"sample-every", required_argument, NULL, O_SAMPLE},
    {"max-insns", required_argument, NULL, O_MAX}, {"folded", required_argument, NULL, O_FOLDED},
    {"csv", required_argument, NULL, O_CSV},       {"json", required_argument, NULL, O_JSON},
    {"gmon", required_argument, NULL, O_GMON},     {"gmon-unit", required_argument, NULL, O_GMON_UNIT},
    {"callgrind", required_argument, NULL, O_CALLGRIND}, {"speedscope", required_argument, NULL, O_SPEEDSCOPE},
    {"lines", no_argument, NULL, O_LINES},         {"help", no_argument, NULL, 'h'},
    {"semihost-files", required_argument, NULL, O_HOST_FILES},
    {"timeout", required_argument, NULL, O_TIMEOUT},
    {"semihost-root", required_argument, NULL, O_HOST_FILES},
    {NULL, 0, NULL, 0},
  };
  *o = (profile_opts){.sort = tally_signal_lookup("cycle")};
  parse_signals("cycle,instret,icache.miss,dcache.read_miss,dcache.write_miss,stall", o);
  optind = 1;
  int c, li;
  uint64_t v;
  char optname[40];
  while ((c = getopt_long(argc, argv, "+gh", longs, &li)) != -1) {
    switch (c) {
    case O_CORE: o->core = optarg; break;
    case O_SET:
      if (o->nsets == 64) { fprintf(stderr, "tally profile: too many --set\n"); return -1; }
      o->sets[o->nsets++] = optarg;
      break;
    case O_SIGNALS: if (!parse_signals(optarg, o)) return -1; break;
    case O_SORT:
      if ((o->sort = tally_signal_lookup(optarg)) < 0) {
        fprintf(stderr, "tally profile: unknown signal '%s' for --sort\n", optarg);
        return -1;
      }
      break;
    case O_TOP:
      if (!parse_u64(optarg, &v)) { fprintf(stderr, "tally profile: --top wants a count\n"); return -1; }
      o->top = (size_t)v;
      break;
    case 'g': o->callgraph = true; break;
    case O_LINES: o->lines = true; break;
    case O_ANNOTATE: o->annotate = optarg; break;
    case O_SAMPLE:
      if (!parse_time(optarg, &o->sample_seconds)) {
        fprintf(stderr, "tally profile: --sample-every wants a time like 10ms, got '%s'\n", optarg);
        return -1;
      }
      break;
    case O_MAX:
      if (!parse_u64(optarg, &o->max_insns) || !o->max_insns) {
        fprintf(stderr, "tally profile: --max-insns wants a positive count\n");
        return -1;
      }
      break;
    case O_TIMEOUT:
      if (!parse_seconds(optarg, &o->timeout)) {
        fprintf(stderr, "tally profile: --timeout wants seconds > 0, got '%s'\n", optarg);
        return -1;
      }
      break;
    case O_FOLDED: case O_CSV: case O_JSON: case O_GMON: case O_CALLGRIND: case O_SPEEDSCOPE:
      if (o->noutputs == 16) { fprintf(stderr, "tally profile: too many outputs\n"); return -1; }
      o->outputs[o->noutputs][0] = c == O_FOLDED ? "folded" : c == O_CSV ? "csv" : c == O_JSON ? "json"
                                   : c == O_GMON ? "gmon" : c == O_CALLGRIND ? "callgrind" : "speedscope";
      o->outputs[o->noutputs++][1] = optarg;
      break;
    case O_GMON_UNIT:
      if (!strcmp(optarg, "seconds")) o->gmon_unit = REPORT_GMON_SECONDS;
      else if (!strcmp(optarg, "cycles")) o->gmon_unit = REPORT_GMON_CYCLES;
      else { fprintf(stderr, "tally profile: --gmon-unit wants 'seconds' or 'cycles', got '%s'\n", optarg); return -1; }
      break;
    case O_HOST_FILES:
      snprintf(optname, sizeof optname, "--%s", longs[li].name);
      if (!host_files_parse(&o->files, "profile", optname, optarg))
        return -1;
      break;
    case 'h': profile_usage(stdout); return -2;
    default: return -1;
    }
  }
  if (optind >= argc) {
    fprintf(stderr, "tally profile: no program given (try 'tally profile --help')\n");
    return -1;
  }
  return optind;
}

typedef struct sort_ctx {
  const tally_func_profile *f;
  int sig;
} sort_ctx;

static int by_signal(const void *a, const void *b, void *ctx) {
  const sort_ctx *s = ctx;
  const tally_func_profile *x = &s->f[*(const size_t *)a], *y = &s->f[*(const size_t *)b];
  if (x->self[s->sig] != y->self[s->sig])
    return x->self[s->sig] < y->self[s->sig] ? 1 : -1;
  return strcmp(x->name, y->name);
}

static size_t *sorted_order(const tally_func_profile *f, size_t n, int sig) {
  size_t *order = malloc((n ? n : 1) * sizeof *order);
  if (!order)
    return NULL;
  for (size_t i = 0; i < n; i++)
    order[i] = i;
  sort_ctx ctx = {f, sig};
  qsort_r(order, n, sizeof *order, by_signal, &ctx);
  return order;
}

static void print_flat(const tally_profile *p, const profile_opts *o) {
  const tally_func_profile *f;
  size_t n = tally_profile_functions(p, &f);
  int cyc = tally_signal_lookup("cycle");
  uint64_t total = tally_profile_total(p, cyc);
  size_t *order = sorted_order(f, n, o->sort);
  if (!order)
    return;
  char a[32];
  printf("\nFlat profile (exact: every cycle of the run, nothing sampled)\n\n");
  printf("%8s %8s %14s", "%self", "%incl", "calls");
  for (int c = 0; c < o->ncols; c++)
    printf(" %16s", tally_signal_name(o->cols[c]));
  printf(" %16s  %s\n", "incl cycles", "function");
  size_t shown = 0;
  for (size_t i = 0; i < n; i++) {
    const tally_func_profile *fp = &f[order[i]];
    if (!fp->self[cyc] && !fp->calls && !fp->inclusive_cycles)
      continue;
    if (o->top && shown == o->top)
      break;
    shown++;
    printf("%7.2f%% %7.2f%% %14s", total ? 100.0 * (double)fp->self[cyc] / (double)total : 0.0,
           total ? 100.0 * (double)fp->inclusive_cycles / (double)total : 0.0, fmt_count(fp->calls, a, sizeof a));
    for (int c = 0; c < o->ncols; c++)
      printf(" %16s", fmt_count(fp->self[o->cols[c]], a, sizeof a));
    printf(" %16s  %s%s\n", fmt_count(fp->inclusive_cycles, a, sizeof a), fp->name,
           fp->is_handler ? "  [trap handler]" : "");
  }
  printf("%8s %8s %14s", "", "", "total");
  for (int c = 0; c < o->ncols; c++)
    printf(" %16s", fmt_count(tally_profile_total(p, o->cols[c]), a, sizeof a));
  printf("\n");
  free(order);
}

/* ---- the line profile ---- */

typedef struct line_sort {
  const tally_line_profile *l;
  const tally_func_profile *f;
  int sig;
} line_sort;

static int by_line_signal(const void *a, const void *b, void *ctx) {
  const line_sort *s = ctx;
  const tally_line_profile *x = &s->l[*(const size_t *)a], *y = &s->l[*(const size_t *)b];
  if (x->self[s->sig] != y->self[s->sig])
    return x->self[s->sig] < y->self[s->sig] ? 1 : -1;
  if (!x->file != !y->file)
    return x->file ? -1 : 1;
  int c = x->file ? strcmp(x->file, y->file) : 0;
  if (c)
    return c;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return strcmp(s->f[x->func].name, s->f[y->func].name);
}

/* "dir/file.c:12", relative to the working directory when under it (the
 * CSV and JSON keep the recorded path). */
static const char *line_place(const tally_line_profile *l, const char *cwd, char *buf, size_t size) {
  if (!l->file)
    return "[no line info]";
  const char *file = l->file;
  size_t n = cwd ? strlen(cwd) : 0;
  if (n > 1 && strncmp(file, cwd, n) == 0 && file[n] == '/')
    file += n + 1;
  snprintf(buf, size, "%s:%u", file, l->line);
  return buf;
}

static void print_lines(const tally_profile *p, const profile_opts *o) {
  const tally_func_profile *f;
  tally_profile_functions(p, &f);
  const tally_line_profile *l;
  size_t n = tally_profile_lines(p, &l);
  int cyc = tally_signal_lookup("cycle");
  uint64_t total = tally_profile_total(p, cyc);
  size_t *order = malloc((n ? n : 1) * sizeof *order);
  if (!order)
    return;
  for (size_t i = 0; i < n; i++)
    order[i] = i;
  line_sort ctx = {l, f, o->sort};
  qsort_r(order, n, sizeof *order, by_line_signal, &ctx);
  size_t shown = o->top && o->top < n ? o->top : n;
  char cwd[4096], place[4400], a[32];
  const char *here = getcwd(cwd, sizeof cwd);
  int w = 8;
  for (size_t k = 0; k < shown; k++) {
    int len = (int)strlen(f[l[order[k]].func].name);
    if (len > w)
      w = len;
  }
  printf("\nLine profile (exact: every instruction counted to its source line, nothing sampled)\n\n");
  printf("%8s", "%self");
  for (int c = 0; c < o->ncols; c++)
    printf(" %16s", tally_signal_name(o->cols[c]));
  printf("  %-*s  %s\n", w, "function", "source");
  for (size_t k = 0; k < shown; k++) {
    const tally_line_profile *lp = &l[order[k]];
    printf("%7.2f%%", total ? 100.0 * (double)lp->self[cyc] / (double)total : 0.0);
    for (int c = 0; c < o->ncols; c++)
      printf(" %16s", fmt_count(lp->self[o->cols[c]], a, sizeof a));
    printf("  %-*s  %s\n", w, f[lp->func].name, line_place(lp, here, place, sizeof place));
  }
  printf("%8s", "total");
  for (int c = 0; c < o->ncols; c++)
    printf(" %16s", fmt_count(tally_profile_total(p, o->cols[c]), a, sizeof a));
  printf("\n");
  if (shown < n)
    printf("(%s more lines; --top shows more)\n", fmt_count(n - shown, a, sizeof a));
  free(order);
}

static int by_inclusive(const void *a, const void *b, void *ctx) {
  const tally_arc *arcs = ctx;
  uint64_t x = arcs[*(const size_t *)a].inclusive_cycles, y = arcs[*(const size_t *)b].inclusive_cycles;
  return x == y ? 0 : x < y ? 1 : -1;
}

static void print_callgraph(tally_sim *sim, const tally_profile *p) {
  const tally_func_profile *f;
  const tally_arc *arcs;
  tally_profile_functions(p, &f);
  size_t n = tally_profile_arcs(p, &arcs);
  char a[32], b[32];
  printf("\nCall graph (exact calls; the callee's inclusive cycles when called from\n"
         "this caller: time in a callee shared by several callers is split exactly)\n\n");
  printf("%14s %18s  %s\n", "calls", "incl cycles", "caller -> callee  (call site)");
  size_t *order = malloc((n ? n : 1) * sizeof *order);
  if (!order)
    return;
  for (size_t i = 0; i < n; i++)
    order[i] = i;
  qsort_r(order, n, sizeof *order, by_inclusive, (void *)arcs);
  for (size_t k = 0; k < n; k++) {
    size_t i = order[k];
    const char *caller = arcs[i].caller >= 0 ? f[arcs[i].caller].name : "?";
    const char *callee = arcs[i].callee >= 0 ? f[arcs[i].callee].name : "?";
    char at[128];
    if (arcs[i].nsites == 1)
      tally_symbolize(sim, arcs[i].sites[0].pc, at, sizeof at);
    printf("%14s %18s  %s -> %s%s%s%s\n", fmt_count(arcs[i].calls, a, sizeof a),
           fmt_count(arcs[i].inclusive_cycles, b, sizeof b), caller, callee, arcs[i].nsites == 1 ? "  (" : "",
           arcs[i].nsites == 1 ? at : "", arcs[i].nsites == 1 ? ")" : "");
    /* several sites: one line each, under the arc */
    for (size_t k = 0; arcs[i].nsites > 1 && k < arcs[i].nsites; k++) {
      const tally_call_site *cs = &arcs[i].sites[k];
      tally_symbolize(sim, cs->pc, at, sizeof at);
      printf("%14s %18s      at %s (0x%08x)\n", fmt_count(cs->calls, a, sizeof a),
             fmt_count(cs->inclusive_cycles, b, sizeof b), at, cs->pc);
    }
  }
  free(order);
}

static void print_sampling(const tally_profile *p, const profile_opts *o) {
  const tally_func_profile *f;
  size_t n = tally_profile_functions(p, &f);
  int cyc = tally_signal_lookup("cycle");
  uint64_t total = tally_profile_total(p, cyc), taken = tally_profile_samples_taken(p);
  size_t *order = sorted_order(f, n, cyc);
  if (!order)
    return;
  char a[32];
  printf("\nPC sampling every %g ms of simulated time (%s samples) against the exact profile\n\n",
         o->sample_seconds * 1e3, fmt_count(taken, a, sizeof a));
  printf("%10s %10s %10s %10s  %s\n", "exact", "sampled", "error", "samples", "function");
  for (size_t i = 0; i < n; i++) {
    const tally_func_profile *fp = &f[order[i]];
    if (!fp->self[cyc] && !fp->samples)
      continue;
    double exact = total ? 100.0 * (double)fp->self[cyc] / (double)total : 0;
    double sampled = taken ? 100.0 * (double)fp->samples / (double)taken : 0;
    printf("%9.2f%% %9.2f%% %+9.2f%% %10s  %s\n", exact, sampled, sampled - exact,
           fmt_count(fp->samples, a, sizeof a), fp->name);
  }
  free(order);
}

static void print_annotation(tally_sim *sim, const tally_profile *p, const profile_opts *o) {
  const tally_func_profile *f;
  size_t n = tally_profile_functions(p, &f);
  for (size_t i = 0; i < n; i++) {
    if (strcmp(f[i].name, o->annotate) != 0)
      continue;
    printf("\n%s [0x%08x, 0x%08x)\n\n", f[i].name, f[i].lo, f[i].hi);
    printf("%10s", "address");
    for (int c = 0; c < o->ncols; c++)
      printf(" %14s", tally_signal_name(o->cols[c]));
    printf("  instruction\n");
    for (uint32_t pc = f[i].lo; pc < f[i].hi;) {
      char dis[96], a[32];
      int len = tally_disasm_at(sim, pc, dis, sizeof dis);
      if (!len)
        break;
      printf("%10x", pc);
      for (int c = 0; c < o->ncols; c++)
        printf(" %14s", fmt_count(tally_profile_at(p, pc, o->cols[c]), a, sizeof a));
      printf("  %s\n", dis);
      pc += (uint32_t)len;
    }
    return;
  }
  fprintf(stderr, "tally profile: no function named '%s'\n", o->annotate);
}

/* The export files, each written by its src/report writer. */
static int write_one(const tally_profile *p, const report_run *run, const char *format, FILE *f,
                     const char *path, const profile_opts *o) {
  if (!strcmp(format, "folded")) return report_write_folded(p, f);
  if (!strcmp(format, "csv")) return o->lines ? report_write_lines_csv(p, f) : report_write_csv(p, f);
  if (!strcmp(format, "json")) return report_write_json(p, run, f);
  if (!strcmp(format, "speedscope")) return report_write_speedscope(p, run, f);
  if (!strcmp(format, "callgrind")) return report_write_callgrind(p, run, f);
  report_gmon_layout layout;
  report_gmon_opts gopts = {.unit = o->gmon_unit};
  int rc = report_write_gmon(p, run, &gopts, f, &layout);
  if (rc == 0 && layout.divisor > 1)
    fprintf(stderr,
            "tally profile: %s: histogram scaled to fit gprof's 16-bit bins: one count is %llu cycles "
            "(rate %u per second); self times are rounded to that\n",
            path, (unsigned long long)layout.divisor, layout.rate);
  else if (rc != 0 && errno == EFBIG)
    fprintf(stderr, "tally profile: %s: an instruction has too many cycles for a histogram counted in "
                    "cycles (gprof's bins would overflow); use --gmon-unit seconds\n", path);
  return rc;
}

static int write_outputs(const tally_profile *p, const report_run *run, const profile_opts *o) {
  int rc = 0;
  for (int i = 0; i < o->noutputs; i++) {
    const char *format = o->outputs[i][0], *path = o->outputs[i][1];
    FILE *f = fopen(path, !strcmp(format, "gmon") ? "wb" : "w");
    if (!f) {
      fprintf(stderr, "tally profile: cannot write %s: %s\n", path, strerror(errno));
      rc = -1;
      continue;
    }
    errno = 0;
    int w = write_one(p, run, format, f, path, o);
    int e = errno;
    if (fclose(f) != 0 && w == 0) {
      w = -1;
      e = errno;
    }
    if (w != 0) {
      if (e != EFBIG)
        fprintf(stderr, "tally profile: writing %s failed: %s\n", path, e ? strerror(e) : "out of memory");
      rc = -1;
    }
  }
  return rc;
}

static const char *stop_word(tally_stop s) {
  switch (s) {
  case TALLY_STOP_EXIT: return "exit";
  case TALLY_STOP_LIMIT: return "limit";
  case TALLY_STOP_TRAP: return "trap";
  case TALLY_STOP_HALT: return "halt";
  default: return "error";
  }
}

int cmd_profile(int argc, char **argv) {
  profile_opts o;
  int first = parse_opts(argc, argv, &o);
  if (first == -2)
    return 0;
  if (first < 0)
    return EXIT_USAGE;
  tally_config cfg; /* RAM as the ELF needs, up to 256 MiB (a tally inst output), as tally run */
  tally_config_default(&cfg);
  uint64_t need = tally_elf_ram_needed(argv[first]);
  if (need > cfg.ram_size && need <= 2ull * TALLY_RAM_SIZE_DEFAULT)
    cfg.ram_size = (uint32_t)need;
  tally_sim *sim = tally_sim_new(&cfg);
  if (!sim) {
    fprintf(stderr, "tally profile: out of memory\n");
    return EXIT_INTERNAL;
  }
  tally_error err;
  const char *prog = argv[first];
  int status = EXIT_NOINPUT;
  if (host_files_apply(&o.files, sim, "profile") != 0) {
    tally_sim_free(sim);
    return status;
  }
  if (tally_load_elf(sim, prog, &err) != 0 || tally_set_core(sim, o.core ? o.core : "tally5", o.sets, o.nsets, &err) != 0 ||
      tally_set_args(sim, argc - first, argv + first) != 0) {
    fprintf(stderr, "tally profile: %s\n", err.msg);
    tally_sim_free(sim);
    return status;
  }
  if (o.lines) {
    /* before the run: a long run is not spent on a profile that cannot be made */
    int has = tally_profile_lines_enable(sim, &err);
    if (has != 1) {
      fprintf(stderr, "tally profile: --lines: %s\n", err.msg);
      tally_sim_free(sim);
      return EXIT_NOINPUT;
    }
  }
  tally_energy clk = tally_energy_now(sim);
  uint64_t period = o.sample_seconds > 0 ? (uint64_t)(o.sample_seconds * clk.frequency_mhz * 1e6 + 0.5) : 0;
  if (o.sample_seconds > 0 && period == 0)
    period = 1;
  if (tally_profile_enable(sim, period, &err) != 0) {
    fprintf(stderr, "tally profile: %s\n", err.msg);
    tally_sim_free(sim);
    return EXIT_INTERNAL;
  }
  const char *bound = NULL;
  tally_stop s = run_bounded(sim, &o, &bound);
  fflush(stdout);
  switch (s) {
  case TALLY_STOP_EXIT: status = tally_exit_code(sim) & 0xff; break;
  case TALLY_STOP_LIMIT: status = interrupted ? EXIT_INTERRUPTED : EXIT_BOUND; break;
  case TALLY_STOP_TRAP: status = EXIT_TRAP; break;
  case TALLY_STOP_HALT: status = EXIT_HALT; break;
  default: status = EXIT_INTERNAL; break;
  }
  if (s != TALLY_STOP_EXIT)
    fprintf(stderr, "tally profile: the run ended early (%s); profiling what ran\n",
            s == TALLY_STOP_LIMIT ? bound : tally_stop_detail(sim));
  tally_profile *p = tally_profile_take(sim);
  if (!p) {
    fprintf(stderr, "tally profile: out of memory for the report\n");
    tally_sim_free(sim);
    return EXIT_INTERNAL;
  }
  char a[32], b[32];
  uint64_t cycles = tally_cycles(sim), insns = tally_instret(sim);
  printf("\ntally profile: %s on core %s: %s cycles, %s instructions, CPI %.3f\n", prog, tally_core_name(sim),
         fmt_count(cycles, a, sizeof a), fmt_count(insns, b, sizeof b), insns ? (double)cycles / (double)insns : 0.0);
  print_flat(p, &o);
  if (o.lines)
    print_lines(p, &o);
  if (o.callgraph)
    print_callgraph(sim, p);
  if (o.sample_seconds > 0)
    print_sampling(p, &o);
  if (o.annotate)
    print_annotation(sim, p, &o);
  uint64_t unmatched, unwinds;
  tally_profile_anomalies(p, &unmatched, &unwinds);
  if (unmatched || unwinds)
    printf("\nnote: %llu returns matched no call and %llu returns unwound several frames\n",
           (unsigned long long)unmatched, (unsigned long long)unwinds);
  report_run run = {.program = prog, .argc = argc - first, .argv = argv + first, .core = tally_core_name(sim),
                    .clock_hz = clk.frequency_mhz * 1e6, .cycles = cycles, .instret = insns, .stop = stop_word(s),
                    .stop_detail = tally_stop_detail(sim), .exit_status = status, .lines = o.lines};
  if (!run.stop_detail || !*run.stop_detail)
    run.stop_detail = s == TALLY_STOP_LIMIT ? "--max-insns reached" : run.stop;
  if (write_outputs(p, &run, &o) != 0 && status == 0)
    status = EXIT_INTERNAL;
  tally_profile_free(p);
  tally_sim_free(sim);
  return status;
}
