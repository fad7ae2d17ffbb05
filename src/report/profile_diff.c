/*
 * Two JSON profiles (report_write_json) side by side, per function, with
 * the change from A to B (`tally diff`, tally_export_profile_diff).
 * Functions are matched by name (the two programs may be different builds,
 * so addresses differ); the rows are sorted by the size of the change.
 */
#define _GNU_SOURCE /* qsort_r */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/array.h"
#include "export.h"
#include "tally/tally.h"


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
  tally_format_count(a > b ? a - b : b - a, digits, sizeof digits);
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

static void print_row(FILE *out, const char *label, uint64_t a, uint64_t b, bool in_a, bool in_b, const char *note) {
  char sa[32], sb[32], sd[40], sr[32];
  fprintf(out, "%16s %16s %16s %8s  %s%s\n", in_a ? tally_format_count(a, sa, sizeof sa) : "-", in_b ? tally_format_count(b, sb, sizeof sb) : "-",
         fmt_signed(in_a ? a : 0, in_b ? b : 0, sd, sizeof sd), fmt_ratio(a, b, in_a, in_b, sr, sizeof sr), label, note);
}

int report_profile_diff(const char *path_a, const char *path_b, diff_measure m, const char *signal, uint64_t top,
                        FILE *out, char *err, size_t errsize) {
  report_profile *a = report_read_json(path_a, err, errsize), *b = NULL;
  if (a)
    b = report_read_json(path_b, err, errsize);
  if (!a || !b) {
    report_profile_free(a);
    return REPORT_DIFF_INPUT;
  }
  int status = 0;
  int sig_a = report_profile_signal(a, m == BY_SIGNAL ? signal : "cycle");
  int sig_b = report_profile_signal(b, m == BY_SIGNAL ? signal : "cycle");
  if (sig_a < 0 || sig_b < 0) {
    snprintf(err, errsize, "%s: the profile has no signal '%s'", sig_a < 0 ? path_a : path_b,
             m == BY_SIGNAL ? signal : "cycle");
    status = REPORT_DIFF_INPUT;
    goto out;
  }
  size_t n = 0;
  diff_row *rows = add_side(NULL, &n, a, false, m, sig_a);
  if (rows)
    rows = add_side(rows, &n, b, true, m, sig_b);
  if (!rows) {
    snprintf(err, errsize, "out of memory");
    status = -1;
    goto out;
  }
  sort_array(rows, n, sizeof *rows, by_change);

  const char *what = m == BY_INCLUSIVE ? "inclusive cycles" : m == BY_CALLS ? "calls" : signal;
  fprintf(out, "tally diff: %s%s\n  A: %s (%s on %s)\n  B: %s (%s on %s)\n\n", m == BY_SIGNAL ? "self " : "", what, path_a,
         a->program, a->core, path_b, b->program, b->core);
  fprintf(out, "%16s %16s %16s %8s  %s\n", "A", "B", "B - A", "B / A", "function");
  size_t shown = 0, only_a = 0, only_b = 0;
  for (size_t i = 0; i < n; i++) {
    only_a += rows[i].in_a && !rows[i].in_b;
    only_b += rows[i].in_b && !rows[i].in_a;
    if (rows[i].a == 0 && rows[i].b == 0)
      continue;
    if (top && shown == top)
      continue;
    shown++;
    print_row(out, rows[i].name, rows[i].a, rows[i].b, rows[i].in_a, rows[i].in_b,
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
  fprintf(out, "\n");
  print_row(out, "total", ta, tb, true, true, "");
  if (only_a || only_b)
    fprintf(out, "\nonly in A: %zu function%s; only in B: %zu\n", only_a, only_a == 1 ? "" : "s", only_b);
  free(rows);
out:
  report_profile_free(a);
  report_profile_free(b);
  return status;
}
