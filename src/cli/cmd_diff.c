/*
 * tally diff: two JSON profiles (tally profile --json) side by side, per
 * function, with the change from A to B. Functions are matched by name
 * (the two programs may be different builds, so addresses differ); the
 * rows are sorted by the size of the change.
 */
#define _GNU_SOURCE /* qsort_r */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../report/export.h"
#include "cli.h"
#include "tally/tally.h"
#include "../util/array.h"

static void diff_usage(FILE *f) {
  fprintf(f,
          "usage: tally diff [options] A.json B.json\n"
          "\n"
          "Compares two exact profiles written by 'tally profile --json': the same\n"
          "program on two core models, or two builds of a program (rv32imac and\n"
          "rv32i, -O2 and -Os). For every function: its self count of a signal in A\n"
          "and in B, the change B - A and the ratio B / A, largest change first.\n"
          "Functions are matched by name; one found in only one profile is marked so.\n"
          "\n"
          "options:\n"
          "      --signal NAME     compare this signal's self counts (default cycle;\n"
          "                        see 'tally signals')\n"
          "      --inclusive       compare inclusive cycles instead of self counts\n"
          "      --calls           compare call counts instead of self counts\n"
          "      --top N           show the N largest changes (default all)\n"
          "  -h, --help            show this help\n"
          "\n"
          "exit status: 0, 64 for usage errors, 66 when a profile cannot be read.\n");
}

typedef enum { BY_SIGNAL, BY_INCLUSIVE, BY_CALLS } diff_measure;

typedef struct diff_row {
  const char *name;
  bool in_a, in_b;
  uint64_t a, b;
} diff_row;

static uint64_t measure(const report_func *f, diff_measure m, int sig) {
  return m == BY_INCLUSIVE ? f->inclusive_cycles : m == BY_CALLS ? f->calls : f->self[sig];
}

static uint64_t absdiff(const diff_row *r) { return r->a > r->b ? r->a - r->b : r->b - r->a; }

static int by_change(const void *x, const void *y) {
  const diff_row *a = x, *b = y;
  uint64_t da = absdiff(a), db = absdiff(b);
  if (da != db)
    return da < db ? 1 : -1;
  uint64_t ma = a->a > a->b ? a->a : a->b, mb = b->a > b->b ? b->a : b->b;
  if (ma != mb)
    return ma < mb ? 1 : -1;
  return strcmp(a->name, b->name);
}

/* Adds a profile's functions into rows (by name; duplicate names add up). */
static diff_row *add_side(diff_row *rows, size_t *n, const report_profile *p, bool side_b, diff_measure m,
                          int sig) {
  for (size_t i = 0; i < p->nfuncs; i++) {
    const report_func *f = &p->funcs[i];
    size_t k = 0;
    while (k < *n && strcmp(rows[k].name, f->name) != 0)
      k++;
    if (k == *n) {
      diff_row *r = realloc(rows, (*n + 1) * sizeof *r);
      if (!r) {
        free(rows);
        return NULL;
      }
      rows = r;
      rows[(*n)++] = (diff_row){.name = f->name};
    }
    uint64_t v = measure(f, m, sig);
    if (side_b) {
      rows[k].in_b = true;
      rows[k].b += v;
    } else {
      rows[k].in_a = true;
      rows[k].a += v;
    }
  }
  return rows;
}

static const char *fmt_signed(uint64_t a, uint64_t b, char *buf, size_t size) {
  char digits[32];
  fmt_count(a > b ? a - b : b - a, digits, sizeof digits);
  snprintf(buf, size, "%s%s", a == b ? "" : b > a ? "+" : "-", digits);
  return buf;
}

static const char *fmt_ratio(uint64_t a, uint64_t b, bool in_a, bool in_b, char *buf, size_t size) {
  if (!in_a || !in_b || a == 0)
    snprintf(buf, size, "%s", a == 0 && b == 0 && in_a && in_b ? "1.000" : "-");
  else
    snprintf(buf, size, "%.3f", (double)b / (double)a);
  return buf;
}

static void print_row(const char *label, uint64_t a, uint64_t b, bool in_a, bool in_b, const char *note) {
  char sa[32], sb[32], sd[40], sr[32];
  printf("%16s %16s %16s %8s  %s%s\n", in_a ? fmt_count(a, sa, sizeof sa) : "-", in_b ? fmt_count(b, sb, sizeof sb) : "-",
         fmt_signed(in_a ? a : 0, in_b ? b : 0, sd, sizeof sd), fmt_ratio(a, b, in_a, in_b, sr, sizeof sr), label, note);
}

int cmd_diff(int argc, char **argv) {
  static const struct option longs[] = {
    {"signal", required_argument, NULL, 's'}, {"inclusive", no_argument, NULL, 'i'},
    {"calls", no_argument, NULL, 'c'},       {"top", required_argument, NULL, 't'},
    {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0},
  };
  const char *signal = "cycle";
  diff_measure m = BY_SIGNAL;
  uint64_t top = 0;
  optind = 1;
  int c;
  while ((c = getopt_long(argc, argv, "+h", longs, NULL)) != -1) {
    switch (c) {
    case 's': signal = optarg; m = BY_SIGNAL; break;
    case 'i': m = BY_INCLUSIVE; break;
    case 'c': m = BY_CALLS; break;
    case 't':
      if (!parse_u64(optarg, &top)) {
        fprintf(stderr, "tally diff: --top wants a count, got '%s'\n", optarg);
        return EXIT_USAGE;
      }
      break;
    case 'h': diff_usage(stdout); return 0;
    default: fprintf(stderr, "(try 'tally diff --help')\n"); return EXIT_USAGE;
    }
  }
  if (argc - optind != 2) {
    fprintf(stderr, "tally diff: wants two profiles, A and B (try 'tally diff --help')\n");
    return EXIT_USAGE;
  }
  if (m == BY_SIGNAL && tally_signal_lookup(signal) < 0) {
    fprintf(stderr, "tally diff: unknown signal '%s' (see 'tally signals')\n", signal);
    return EXIT_USAGE;
  }
  const char *path_a = argv[optind], *path_b = argv[optind + 1];
  char err[600];
  report_profile *a = report_read_json(path_a, err, sizeof err), *b = NULL;
  if (a)
    b = report_read_json(path_b, err, sizeof err);
  if (!a || !b) {
    fprintf(stderr, "tally diff: %s\n", err);
    report_profile_free(a);
    return EXIT_NOINPUT;
  }
  int status = 0;
  int sig_a = report_profile_signal(a, m == BY_SIGNAL ? signal : "cycle");
  int sig_b = report_profile_signal(b, m == BY_SIGNAL ? signal : "cycle");
  if (sig_a < 0 || sig_b < 0) {
    fprintf(stderr, "tally diff: %s: the profile has no signal '%s'\n", sig_a < 0 ? path_a : path_b,
            m == BY_SIGNAL ? signal : "cycle");
    status = EXIT_NOINPUT;
    goto out;
  }
  size_t n = 0;
  diff_row *rows = add_side(NULL, &n, a, false, m, sig_a);
  if (rows)
    rows = add_side(rows, &n, b, true, m, sig_b);
  if (!rows) {
    fprintf(stderr, "tally diff: out of memory\n");
    status = EXIT_INTERNAL;
    goto out;
  }
  sort_array(rows, n, sizeof *rows, by_change);

  const char *what = m == BY_INCLUSIVE ? "inclusive cycles" : m == BY_CALLS ? "calls" : signal;
  printf("tally diff: %s%s\n  A: %s (%s on %s)\n  B: %s (%s on %s)\n\n", m == BY_SIGNAL ? "self " : "", what, path_a,
         a->program, a->core, path_b, b->program, b->core);
  printf("%16s %16s %16s %8s  %s\n", "A", "B", "B - A", "B / A", "function");
  size_t shown = 0, only_a = 0, only_b = 0;
  for (size_t i = 0; i < n; i++) {
    only_a += rows[i].in_a && !rows[i].in_b;
    only_b += rows[i].in_b && !rows[i].in_a;
    if (rows[i].a == 0 && rows[i].b == 0)
      continue;
    if (top && shown == top)
      continue;
    shown++;
    print_row(rows[i].name, rows[i].a, rows[i].b, rows[i].in_a, rows[i].in_b,
              !rows[i].in_b ? "  (only in A)" : !rows[i].in_a ? "  (only in B)" : "");
  }
  /* totals: the runs' totals of the signal (self), their cycles (inclusive),
   * all calls (calls) */
  uint64_t ta = a->totals[sig_a], tb = b->totals[sig_b];
  if (m == BY_CALLS) {
    ta = tb = 0;
    for (size_t i = 0; i < n; i++) {
      ta += rows[i].a;
      tb += rows[i].b;
    }
  }
  printf("\n");
  print_row("total", ta, tb, true, true, "");
  if (only_a || only_b)
    printf("\nonly in A: %zu function%s; only in B: %zu\n", only_a, only_a == 1 ? "" : "s", only_b);
  free(rows);
out:
  report_profile_free(a);
  report_profile_free(b);
  return status;
}
