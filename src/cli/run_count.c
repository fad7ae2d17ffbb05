/*
 * tally run --count: the statistics module from the command line
 * (run_count.h, docs/statmod.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../report/csv.h"
#include "cli.h"
#include "run_count.h"

#define DEFAULT_SHOW 40   /* intervals printed in full; more: the first and last half of it */
#define LABEL_MAX 320

/* ---- options ---- */

void count_opts_init(count_opts *o) {
  *o = (count_opts){.show = DEFAULT_SHOW};
  statmod_params_default(&o->params);
}

void count_opts_free(count_opts *o) {
  free(o->specs);
  o->specs = NULL;
  o->nspecs = o->cap = 0;
}

/* Up to four signal names that look like `name`: the same family (the part
 * before the dot) or containing it. */
static void suggest(const char *name, char *buf, size_t size) {
  size_t fam = strcspn(name, ".");
  int found = 0;
  size_t o = 0;
  buf[0] = '\0';
  for (int i = 0; i < tally_signal_count() && found < 4; i++) {
    const char *s = tally_signal_name(i);
    bool same_family = fam > 0 && strncmp(s, name, fam) == 0 && (s[fam] == '.' || s[fam] == '\0');
    if (same_family || (strlen(name) >= 3 && strstr(s, name))) {
      int n = snprintf(buf + o, size - o, "%s%s", found ? ", " : "; did you mean ", s);
      if (n < 0 || (size_t)n >= size - o)
        break;
      o += (size_t)n;
      found++;
    }
  }
  if (found && o + 2 < size)
    strcat(buf, "?");
}

static int parse_signal(const char *arg, const char *text, int *sig) {
  int s = tally_signal_lookup(text);
  if (s < 0) {
    char *end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 10);
    if (*text && !*end && !errno && v < (unsigned long)tally_signal_count())
      s = (int)v;
  }
  if (s < 0) {
    char hint[160];
    suggest(text, hint, sizeof hint);
    fprintf(stderr, "tally run: --count '%s': unknown signal '%s' ('tally signals' lists them%s)\n", arg,
            text, hint);
    return -1;
  }
  *sig = s;
  return 0;
}

/* "0xLO-0xHI": [lo, hi). Returns 1 when it is a range, 0 when it is not
 * one (a function name), -1 for a bad range (printed). */
static int parse_range(const char *arg, const char *where, uint32_t *lo, uint32_t *hi) {
  const char *dash = strchr(where, '-');
  if (!dash || !(where[0] >= '0' && where[0] <= '9'))
    return 0;
  char a[32];
  size_t n = (size_t)(dash - where);
  uint64_t l, h;
  if (n >= sizeof a) {
    fprintf(stderr, "tally run: --count '%s': bad address range '%s' (expected 0xLO-0xHI)\n", arg, where);
    return -1;
  }
  memcpy(a, where, n);
  a[n] = '\0';
  if (!parse_u64(a, &l) || !parse_u64(dash + 1, &h) || l > UINT32_MAX || h > UINT32_MAX) {
    fprintf(stderr, "tally run: --count '%s': bad address range '%s' (expected 0xLO-0xHI, 32-bit addresses)\n",
            arg, where);
    return -1;
  }
  if (l >= h) {
    fprintf(stderr, "tally run: --count '%s': the range %s is empty (it is [LO, HI): HI must be above LO)\n", arg,
            where);
    return -1;
  }
  *lo = (uint32_t)l;
  *hi = (uint32_t)h;
  return 1;
}

int count_parse_spec(count_opts *o, const char *arg) {
  count_spec sp = {.text = arg, .anywhere = true};
  char sig[64];
  const char *at = strchr(arg, '@');
  size_t n = at ? (size_t)(at - arg) : strlen(arg);
  if (n == 0 || n >= sizeof sig) {
    fprintf(stderr, "tally run: --count '%s': expected SIGNAL or SIGNAL@WHERE (a function or 0xLO-0xHI)\n", arg);
    return -1;
  }
  memcpy(sig, arg, n);
  sig[n] = '\0';
  if (parse_signal(arg, sig, &sp.signal) != 0)
    return -1;
  if (at) {
    const char *where = at + 1;
    if (!*where) {
      fprintf(stderr, "tally run: --count '%s': nothing after '@' (a function name or 0xLO-0xHI)\n", arg);
      return -1;
    }
    sp.anywhere = false;
    int r = parse_range(arg, where, &sp.lo, &sp.hi);
    if (r < 0)
      return -1;
    if (r == 0)
      sp.func = where;
  }
  if (o->nspecs == o->cap) {
    int cap = o->cap ? 2 * o->cap : 16;
    count_spec *v = realloc(o->specs, (size_t)cap * sizeof *v);
    if (!v) {
      fprintf(stderr, "tally run: out of memory\n");
      return -1;
    }
    o->specs = v;
    o->cap = cap;
  }
  o->specs[o->nspecs++] = sp;
  return 0;
}

static int parse_bounded(const char *opt, const char *arg, uint64_t lo, uint64_t hi, uint64_t *out) {
  uint64_t v;
  if (!parse_u64(arg, &v) || v < lo || v > hi) {
    char a[32], b[32];
    fprintf(stderr, "tally run: %s wants a number from %s to %s, got '%s'\n", opt, fmt_count(lo, a, sizeof a),
            fmt_count(hi, b, sizeof b), arg);
    return -1;
  }
  *out = v;
  return 0;
}

int count_parse_option(count_opts *o, const char *opt, const char *arg) {
  uint64_t v;
  if (strcmp(opt, "--interval") == 0)
    return parse_bounded(opt, arg, 1, STATMOD_MAX_PERIOD, &o->interval);
  if (strcmp(opt, "--counters") == 0) {
    if (parse_bounded(opt, arg, 1, STATMOD_MAX_COUNTERS, &v) != 0)
      return -1;
    o->params.counters = (uint32_t)v;
    o->counters_set = true;
  } else if (strcmp(opt, "--width") == 0) {
    if (parse_bounded(opt, arg, 1, 64, &v) != 0)
      return -1;
    o->params.width = (uint32_t)v;
  } else if (strcmp(opt, "--arrs") == 0) {
    if (parse_bounded(opt, arg, 0, STATMOD_MAX_ARRS, &v) != 0)
      return -1;
    o->params.arrs = (uint32_t)v;
    o->arrs_set = true;
  } else if (strcmp(opt, "--map") == 0) {
    o->map = arg;
  } else if (strcmp(opt, "--intervals-csv") == 0) {
    o->csv = arg;
  } else if (strcmp(opt, "--show-intervals") == 0) {
    if (strcmp(arg, "all") == 0)
      o->show = UINT64_MAX;
    else if (parse_bounded(opt, arg, 0, UINT64_MAX - 1, &o->show) != 0)
      return -1;
  } else {
    fprintf(stderr, "tally run: internal error: unknown option %s\n", opt);
    return -1;
  }
  return 0;
}

/* Distinct ranges of the events, each one ARR. */
static uint32_t distinct_ranges(const count_opts *o, int upto) {
  uint32_t n = 0;
  for (int i = 0; i < upto; i++) {
    if (o->specs[i].anywhere)
      continue;
    bool seen = false;
    for (int k = 0; k < i && !seen; k++)
      seen = !o->specs[k].anywhere && o->specs[k].lo == o->specs[i].lo && o->specs[k].hi == o->specs[i].hi &&
             (o->specs[k].func == NULL) == (o->specs[i].func == NULL) &&
             (!o->specs[k].func || strcmp(o->specs[k].func, o->specs[i].func) == 0);
    n += !seen;
  }
  return n;
}

int count_check(const count_opts *o) {
  if (o->control) {
    if (o->nspecs || o->interval) {
      fprintf(stderr, "tally run: --count and --interval do not go with --control: the board takes its events and "
                      "its period from control packets (tally config --timer ... --counter ... --start)\n");
      return -1;
    }
    return 0;
  }
  if (o->nspecs == 0) {
    if (o->interval || o->counters_set || o->arrs_set || o->csv) {
      fprintf(stderr, "tally run: --interval, --counters, --arrs and --intervals-csv go with --count "
                      "(what to count: tally run --count cycle@main --interval 100000 PROGRAM)\n");
      return -1;
    }
    return 0;
  }
  if (!o->interval) {
    fprintf(stderr, "tally run: --count needs --interval CYCLES, the dispatch period (e.g. --interval 100000: "
                    "the counters are read out and reset every 100,000 core cycles)\n");
    return -1;
  }
  if ((uint32_t)o->nspecs > o->params.counters) {
    fprintf(stderr, "tally run: %d events asked for (--count) but the module has %u counters: add --counters %d "
            "(up to %u)\n", o->nspecs, o->params.counters, o->nspecs, STATMOD_MAX_COUNTERS);
    return -1;
  }
  return 0;
}

/* ---- the sinks: what is printed ---- */

typedef struct count_row {
  uint64_t index, begin, end;
  uint64_t *values;
  uint8_t *sat;
} count_row;

struct count_run {
  statmod *m;
  tally_sim *sim;
  uint32_t n;                 /* columns: the counters shown */
  uint32_t cap;               /* columns room was made for */
  uint32_t *col;              /* column -> module counter */
  char (*arr_name)[LABEL_MAX];/* [params.arrs]: the function an ARR was chosen as, or "" */
  uint32_t arrs;
  uint32_t width;
  uint64_t interval;
  char (*label)[LABEL_MAX];
  char (*where)[LABEL_MAX];
  const char **signame;
  uint32_t *lo, *hi;
  bool *anywhere;
  /* rows kept for the table: the first `head` and a ring of the last `tail` */
  uint64_t head, tail;
  count_row *rows;            /* head + tail rows */
  uint64_t seen;              /* data intervals received */
  bool any_sat;
  bool have_final;
  count_row final;
  uint64_t final_intervals;
  FILE *csv;
  const char *csv_path;
  bool csv_failed;
};

statmod *count_module(count_run *r) { return r->m; }
const char *count_label(const count_run *r, uint32_t i) { return i < r->n ? r->label[i] : ""; }
const char *count_where(const count_run *r, uint32_t i) { return i < r->n ? r->where[i] : ""; }

static void copy_row(count_run *r, count_row *row, const statmod_interval *iv) {
  row->index = iv->index;
  row->begin = iv->cycle_begin;
  row->end = iv->cycle_end;
  for (uint32_t i = 0; i < r->n; i++) {
    row->values[i] = iv->values[r->col[i]];
    row->sat[i] = iv->saturated[r->col[i]];
  }
}

static void csv_row(count_run *r, const statmod_interval *iv) {
  if (!r->csv)
    return;
  if (iv->final)
    fprintf(r->csv, "total,%llu,%llu", (unsigned long long)iv->cycle_begin, (unsigned long long)iv->cycle_end);
  else
    fprintf(r->csv, "%llu,%llu,%llu", (unsigned long long)iv->index, (unsigned long long)iv->cycle_begin,
            (unsigned long long)iv->cycle_end);
  for (uint32_t i = 0; i < r->n; i++)
    fprintf(r->csv, ",%llu", (unsigned long long)iv->values[r->col[i]]);
  for (uint32_t i = 0; i < r->n; i++)
    fprintf(r->csv, ",%u", iv->saturated[r->col[i]] ? 1u : 0u);
  fputc('\n', r->csv);
  if (ferror(r->csv))
    r->csv_failed = true;
}

static void report_sink(void *ctx, const statmod_interval *iv) {
  count_run *r = ctx;
  csv_row(r, iv);
  for (uint32_t i = 0; i < r->n; i++)
    r->any_sat |= iv->saturated[r->col[i]] != 0;
  if (iv->final) {
    copy_row(r, &r->final, iv);
    r->final_intervals = iv->intervals;
    r->have_final = true;
    return;
  }
  if (r->seen < r->head)
    copy_row(r, &r->rows[r->seen], iv);
  else if (r->tail)
    copy_row(r, &r->rows[r->head + (r->seen - r->head) % r->tail], iv);
  r->seen++;
}

/* ---- setup ---- */

static int open_csv(count_run *r, const count_opts *o);
static void csv_header(count_run *r);

static void free_run(count_run *r) {
  if (!r)
    return;
  statmod_free(r->m);
  if (r->rows) {
    for (uint64_t i = 0; i < r->head + r->tail; i++) {
      free(r->rows[i].values);
      free(r->rows[i].sat);
    }
  }
  free(r->rows);
  free(r->final.values);
  free(r->final.sat);
  free(r->label);
  free(r->where);
  free(r->signame);
  free(r->lo);
  free(r->hi);
  free(r->anywhere);
  free(r->col);
  free(r->arr_name);
  if (r->csv)
    fclose(r->csv);
  free(r);
}

void count_free(count_run *r) { free_run(r); }

static bool alloc_row(count_row *row, uint32_t n) {
  row->values = calloc(n ? n : 1, sizeof *row->values);
  row->sat = calloc(n ? n : 1, 1);
  return row->values && row->sat;
}

static count_run *alloc_run(const count_opts *o) {
  count_run *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  uint32_t n = o->control ? o->params.counters : (uint32_t)o->nspecs;
  r->n = o->control ? 0 : n;
  r->cap = n;
  r->arrs = o->params.arrs;
  r->col = calloc(n ? n : 1, sizeof *r->col);
  r->arr_name = calloc(r->arrs ? r->arrs : 1, sizeof *r->arr_name);
  for (uint32_t i = 0; r->col && i < n; i++)
    r->col[i] = i;
  r->width = o->params.width;
  r->interval = o->interval;
  if (o->show == UINT64_MAX) {
    r->head = r->tail = 0; /* grows with the run (report_all_sink) */
  } else {
    r->head = (o->show + 1) / 2;
    r->tail = o->show / 2;
  }
  r->label = calloc(n ? n : 1, sizeof *r->label);
  r->where = calloc(n ? n : 1, sizeof *r->where);
  r->signame = calloc(n ? n : 1, sizeof *r->signame);
  r->lo = calloc(n ? n : 1, sizeof *r->lo);
  r->hi = calloc(n ? n : 1, sizeof *r->hi);
  r->anywhere = calloc(n ? n : 1, sizeof *r->anywhere);
  bool ok = r->col && r->arr_name && r->label && r->where && r->signame && r->lo && r->hi && r->anywhere && alloc_row(&r->final, n);
  if (ok && o->show != UINT64_MAX) {
    r->rows = calloc(r->head + r->tail ? r->head + r->tail : 1, sizeof *r->rows);
    ok = r->rows != NULL;
    for (uint64_t i = 0; ok && i < r->head + r->tail; i++)
      ok = alloc_row(&r->rows[i], n);
  }
  if (!ok) {
    free_run(r);
    return NULL;
  }
  return r;
}

/* --show-intervals all: the rows grow with the run. Rows that cannot be
 * kept (no memory) are counted as not shown, like any others. */
static void report_all_sink(void *ctx, const statmod_interval *iv) {
  count_run *r = ctx;
  if (!iv->final && r->seen == r->head && r->tail == 0) {
    uint64_t cap = r->head ? 2 * r->head : 64;
    count_row *v = realloc(r->rows, cap * sizeof *v);
    if (v) {
      r->rows = v;
      uint64_t i = r->head;
      for (; i < cap; i++) {
        v[i] = (count_row){0};
        if (!alloc_row(&v[i], r->cap)) {
          free(v[i].values);
          free(v[i].sat);
          break;
        }
      }
      r->head = i;
    }
  }
  report_sink(ctx, iv);
}

count_run *count_setup(tally_sim *sim, const count_opts *o, int *status) {
  *status = EXIT_USAGE;
  tally_error err;
  if (o->map && tally_load_map(sim, o->map, &err) != 0) {
    fprintf(stderr, "tally run: %s\n", err.msg);
    *status = EXIT_NOINPUT;
    return NULL;
  }
  count_opts res = *o; /* functions resolved into ranges */
  count_spec *specs = malloc((size_t)(o->nspecs ? o->nspecs : 1) * sizeof *specs);
  if (!specs) {
    fprintf(stderr, "tally run: out of memory\n");
    *status = EXIT_INTERNAL;
    return NULL;
  }
  memcpy(specs, o->specs, (size_t)o->nspecs * sizeof *specs);
  res.specs = specs;
  for (int i = 0; i < o->nspecs; i++) {
    if (specs[i].func && tally_function_range(sim, specs[i].func, &specs[i].lo, &specs[i].hi, &err) != 0) {
      fprintf(stderr, "tally run: --count '%s': %s\n", specs[i].text, err.msg);
      free(specs);
      return NULL;
    }
  }
  uint32_t ranges = distinct_ranges(&res, res.nspecs);
  if (ranges > o->params.arrs) {
    fprintf(stderr, "tally run: the events name %u different address ranges but the module has %u address range "
            "registers: add --arrs %u (up to %u)\n", ranges, o->params.arrs, ranges, STATMOD_MAX_ARRS);
    free(specs);
    return NULL;
  }
  count_run *r = alloc_run(o);
  char e[256];
  if (r)
    r->m = statmod_new(&o->params, e, sizeof e);
  if (!r || !r->m) {
    fprintf(stderr, "tally run: %s\n", r ? e : "out of memory");
    free_run(r);
    free(specs);
    *status = EXIT_INTERNAL;
    return NULL;
  }
  if (tally_statmod_attach(sim, r->m, &err) != 0) {
    fprintf(stderr, "tally run: %s\n", err.msg);
    free_run(r);
    free(specs);
    *status = EXIT_INTERNAL;
    return NULL;
  }
  /* counters in the order given; one ARR per distinct range */
  uint32_t *arr_of = calloc((size_t)(o->nspecs ? o->nspecs : 1), sizeof *arr_of);
  int rc = arr_of ? 0 : -1;
  uint32_t next_arr = 0;
  for (int i = 0; i < res.nspecs && rc == 0; i++) {
    const count_spec *sp = &specs[i];
    statmod_counter_cfg c = {.signal = (uint16_t)sp->signal, .arr = STATMOD_ANYWHERE, .enabled = true};
    statmod_arr range = {sp->lo, sp->hi};
    if (!sp->anywhere) {
      uint32_t a = next_arr;
      for (int k = 0; k < i; k++)
        if (!specs[k].anywhere && specs[k].lo == sp->lo && specs[k].hi == sp->hi &&
            (specs[k].func == NULL) == (sp->func == NULL) && (!sp->func || strcmp(specs[k].func, sp->func) == 0))
          a = arr_of[k];
      if (a == next_arr) {
        rc = statmod_set_arr(r->m, a, sp->lo, sp->hi, e, sizeof e);
        count_set_arr_name(r, a, sp->func);
        next_arr++;
      }
      arr_of[i] = a;
      c.arr = (uint16_t)a;
    }
    if (rc == 0)
      rc = statmod_set_counter(r->m, (uint32_t)i, &c, e, sizeof e);
    r->signame[i] = statmod_words(&c, &range, sp->func, r->label[i], LABEL_MAX, r->where[i], LABEL_MAX);
    r->lo[i] = sp->lo;
    r->hi[i] = sp->hi;
    r->anywhere[i] = sp->anywhere;
  }
  free(arr_of);
  free(specs);
  if (rc == 0)
    rc = statmod_set_period(r->m, o->interval, e, sizeof e);
  if (rc == 0)
    rc = statmod_add_sink(r->m, o->show == UINT64_MAX ? report_all_sink : report_sink, r, e, sizeof e);
  if (rc != 0) {
    fprintf(stderr, "tally run: %s\n", arr_of ? e : "out of memory");
    free_run(r);
    *status = EXIT_INTERNAL;
    return NULL;
  }
  r->sim = sim;
  if (open_csv(r, o) != 0) {
    free_run(r);
    *status = EXIT_INTERNAL;
    return NULL;
  }
  csv_header(r);
  return r;
}

static int open_csv(count_run *r, const count_opts *o) {
  if (!o->csv)
    return 0;
  r->csv = fopen(o->csv, "w");
  r->csv_path = o->csv;
  if (!r->csv) {
    fprintf(stderr, "tally run: --intervals-csv: cannot write %s: %s\n", o->csv, strerror(errno));
    return -1;
  }
  return 0;
}

static void csv_header(count_run *r) {
  if (r->csv) {
    fprintf(r->csv, "interval,cycle_begin,cycle_end");
    for (uint32_t i = 0; i < r->n; i++) {
      fputc(',', r->csv);
      report_csv_field(r->csv, r->label[i]);
    }
    for (uint32_t i = 0; i < r->n; i++) {
      char h[LABEL_MAX + 16];
      snprintf(h, sizeof h, "%s saturated", r->label[i]);
      fputc(',', r->csv);
      report_csv_field(r->csv, h);
    }
    fputc('\n', r->csv);
  }
}

void count_set_arr_name(count_run *r, uint32_t arr, const char *name) {
  if (arr < r->arrs)
    snprintf(r->arr_name[arr], LABEL_MAX, "%s", name ? name : "");
}

const char *count_arr_name(const count_run *r, uint32_t arr) { return arr < r->arrs ? r->arr_name[arr] : ""; }

count_run *count_setup_blank(tally_sim *sim, const count_opts *o, int *status) {
  tally_error err;
  char e[256];
  *status = EXIT_INTERNAL;
  if (o->map && tally_load_map(sim, o->map, &err) != 0) {
    fprintf(stderr, "tally run: %s\n", err.msg);
    *status = EXIT_NOINPUT;
    return NULL;
  }
  count_run *r = alloc_run(o);
  if (r)
    r->m = statmod_new(&o->params, e, sizeof e);
  if (!r || !r->m) {
    fprintf(stderr, "tally run: %s\n", r ? e : "out of memory");
    free_run(r);
    return NULL;
  }
  r->sim = sim;
  if (tally_statmod_attach(sim, r->m, &err) != 0) {
    fprintf(stderr, "tally run: %s\n", err.msg);
    free_run(r);
    return NULL;
  }
  if (statmod_add_sink(r->m, o->show == UINT64_MAX ? report_all_sink : report_sink, r, e, sizeof e) != 0) {
    fprintf(stderr, "tally run: %s\n", e);
    free_run(r);
    return NULL;
  }
  if (open_csv(r, o) != 0) {
    free_run(r);
    return NULL;
  }
  return r;
}

int count_configured(count_run *r) {
  statmod_status st;
  statmod_query(r->m, &st);
  r->interval = st.period;
  r->n = 0;
  for (uint32_t i = 0; i < r->cap; i++) {
    statmod_counter_cfg c = statmod_counter(r->m, i);
    if (!c.enabled)
      continue;
    uint32_t k = r->n++;
    r->col[k] = i;
    bool anywhere = c.arr == STATMOD_ANYWHERE;
    statmod_arr range = anywhere ? (statmod_arr){0, 0} : statmod_arr_of(r->m, c.arr);
    const char *fname = anywhere ? NULL : count_arr_name(r, c.arr);
    r->signame[k] = statmod_words(&c, &range, fname && *fname ? fname : NULL, r->label[k], LABEL_MAX, r->where[k],
                                  LABEL_MAX);
    r->lo[k] = range.lo;
    r->hi[k] = range.hi;
    r->anywhere[k] = anywhere;
  }
  csv_header(r);
  return 0;
}

int count_start(count_run *r) {
  char e[256];
  if (statmod_start(r->m, e, sizeof e) != 0) {
    fprintf(stderr, "tally run: %s\n", e);
    return -1;
  }
  return 0;
}

/* ---- the table ---- */

static int width_of(uint64_t v) {
  char b[32];
  return (int)strlen(fmt_count(v, b, sizeof b));
}

static void print_row(FILE *f, const count_run *r, const char *first, const count_row *row, int wi, int wc,
                      const int *w) {
  char a[32], b[32];
  fprintf(f, "  %*s  %*s  %*s", wi, first, wc, fmt_count(row->begin, a, sizeof a), wc,
          fmt_count(row->end, b, sizeof b));
  for (uint32_t i = 0; i < r->n; i++)
    fprintf(f, "  %*s%s", w[i], fmt_count(row->values[i], a, sizeof a), row->sat[i] ? "*" : " ");
  fputc('\n', f);
}

static void print_table(const count_run *r, FILE *f) {
  char a[32], b[32];
  uint64_t kept = r->seen < r->head + r->tail ? r->seen : r->head + r->tail;
  uint64_t shown_head = r->seen < r->head ? r->seen : r->head;
  /* column widths: the numbers and the "#i" headers */
  int wi = (int)strlen("interval"), wc = (int)strlen("start");
  int *w = calloc(r->n ? r->n : 1, sizeof *w);
  if (!w)
    return;
  for (uint32_t i = 0; i < r->n; i++) {
    snprintf(a, sizeof a, "#%u", r->col[i]);
    w[i] = (int)strlen(a);
    if (width_of(r->final.values[i]) > w[i])
      w[i] = width_of(r->final.values[i]);
  }
  for (uint64_t k = 0; k < kept; k++) {
    const count_row *row = &r->rows[k];
    if (width_of(row->index) > wi)
      wi = width_of(row->index);
    if (width_of(row->end) > wc)
      wc = width_of(row->end);
    for (uint32_t i = 0; i < r->n; i++)
      if (width_of(row->values[i]) > w[i])
        w[i] = width_of(row->values[i]);
  }
  if (width_of(r->final.end) > wc)
    wc = width_of(r->final.end);

  fprintf(f, "\ntally: statistics module: %u event%s, %u-bit counters, interval %s cycles\n", r->n,
          r->n == 1 ? "" : "s", r->width, fmt_count(r->interval, a, sizeof a));
  int wl = 6, ws = 6;
  for (uint32_t i = 0; i < r->n; i++) {
    if ((int)strlen(r->label[i]) > wl)
      wl = (int)strlen(r->label[i]);
    if (r->signame[i] && (int)strlen(r->signame[i]) > ws)
      ws = (int)strlen(r->signame[i]);
  }
  fprintf(f, "  %3s  %-*s  %-*s  %s\n", "#", wl, "counts", ws, "signal", "where");
  for (uint32_t i = 0; i < r->n; i++) {
    fprintf(f, "  %3u  %-*s  %-*s  %s", r->col[i], wl, r->label[i], ws, r->signame[i] ? r->signame[i] : "?", r->where[i]);
    if (!r->anywhere[i] && strncmp(r->where[i], "0x", 2) != 0) /* a function: its range too */
      fprintf(f, "  0x%08x-0x%08x", r->lo[i], r->hi[i]);
    fputc('\n', f);
  }
  fprintf(f, "\n  %*s  %*s  %*s", wi, "interval", wc, "start", wc, "end");
  for (uint32_t i = 0; i < r->n; i++) {
    snprintf(a, sizeof a, "#%u", r->col[i]);
    fprintf(f, "  %*s ", w[i], a);
  }
  fputc('\n', f);
  for (uint64_t k = 0; k < shown_head; k++)
    print_row(f, r, fmt_count(r->rows[k].index, a, sizeof a), &r->rows[k], wi, wc, w);
  if (r->seen > kept)
    fprintf(f, "  %*s  (%s intervals not shown: --show-intervals all, or --intervals-csv FILE)\n", wi, "...",
            fmt_count(r->seen - kept, b, sizeof b));
  for (uint64_t k = shown_head; k < kept; k++) {
    uint64_t idx = r->seen - (kept - k); /* the kept tail, oldest first */
    const count_row *row = &r->rows[r->head + (idx - r->head) % (r->tail ? r->tail : 1)];
    print_row(f, r, fmt_count(row->index, a, sizeof a), row, wi, wc, w);
  }
  print_row(f, r, "total", &r->final, wi, wc, w);
  fprintf(f, "  an interval holds the cycles from start to end - 1; a counter's event on the dispatch cycle\n"
             "  counts in the next interval.");
  if (r->any_sat) {
    uint64_t max = r->width == 64 ? UINT64_MAX : (1ull << r->width) - 1;
    fprintf(f, " * saturated: the counter reached %s (2^%u - 1) and stopped\n  counting in that interval; "
               "its total is then a lower bound.", fmt_count(max, a, sizeof a), r->width);
  }
  fprintf(f, "\n\n");
  /* totals in plain words */
  for (uint32_t i = 0; i < r->n; i++)
    fprintf(f, "  %-*s  %*s%s\n", wl, r->label[i], w[i], fmt_count(r->final.values[i], a, sizeof a),
            r->final.sat[i] ? " (saturated in some interval: at least this many)" : "");
  free(w);
}

int count_finish(count_run *r, FILE *f) {
  char e[256];
  statmod_status st;
  statmod_query(r->m, &st);
  if (st.state == STATMOD_RUNNING && statmod_stop(r->m, e, sizeof e) != 0)
    fprintf(stderr, "tally run: %s\n", e);
  if (r->have_final)
    print_table(r, f);
  int rc = 0;
  if (r->csv) {
    if (fclose(r->csv) != 0)
      r->csv_failed = true;
    r->csv = NULL;
    if (r->csv_failed) {
      fprintf(stderr, "tally run: --intervals-csv: could not write all of %s\n", r->csv_path);
      rc = -1;
    }
  }
  statmod_query(r->m, &st);
  if (st.inexact) {
    fprintf(stderr, "tally run: internal error: %llu dispatches could not be split exactly\n",
            (unsigned long long)st.inexact);
    rc = -1;
  }
  return rc;
}
