/*
 * tally run --count: the statistics module from the command line
 * (run_count.h, docs/statmod.md). The run itself is the library's
 * (include/tally/run.h); this file has the options, the table, the CSV and
 * the messages.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "run_count.h"
#include "stopwatch.h"
#include "tally/collector.h"
#include "tally/export.h"
#include "tally/store.h"

#define DEFAULT_SHOW 40   /* intervals printed in full; more: the first and last half of it */

/* ---- options ---- */

void count_opts_init(count_opts *o) {
  *o = (count_opts){.show = DEFAULT_SHOW};
  tally_measure_params_default(&o->params);
}

void count_opts_free(count_opts *o) {
  free(o->specs);
  o->specs = NULL;
  o->nspecs = o->cap = 0;
  free(o->ats);
  o->ats = NULL;
  o->nats = o->atcap = 0;
}

/* CYCLE of --at CYCLE:CHANGE; CHANGE itself is checked by the library
 * once the program is loaded (a function's range). */
static bool at_cycle(const char *arg, uint64_t *cycle, const char **change) {
  const char *colon = strchr(arg, ':');
  char num[32];
  size_t n = colon ? (size_t)(colon - arg) : 0;
  if (!colon || n == 0 || n >= sizeof num || !colon[1])
    return false;
  memcpy(num, arg, n);
  num[n] = '\0';
  *change = colon + 1;
  return parse_u64(num, cycle);
}

int count_parse_at(count_opts *o, const char *arg) {
  uint64_t c;
  const char *change;
  if (!at_cycle(arg, &c, &change)) {
    fprintf(stderr, "tally run: --at wants CYCLE:CHANGE (e.g. --at 50000:interval=500, --at 50000:counter=1:"
                    "load@main, --at 50000:arr=0:crc32_update), got '%s'\n", arg);
    return -1;
  }
  if (o->nats == o->atcap) {
    int cap = o->atcap ? 2 * o->atcap : 8;
    const char **v = realloc(o->ats, (size_t)cap * sizeof *v);
    if (!v) {
      fprintf(stderr, "tally run: out of memory\n");
      return -1;
    }
    o->ats = v;
    o->atcap = cap;
  }
  o->ats[o->nats++] = arg;
  return 0;
}

bool count_wanted(const count_opts *o) { return o->nspecs > 0 || o->control; }

int count_parse_spec(count_opts *o, const char *arg) {
  tally_event ev;
  tally_error err;
  if (tally_event_parse(arg, &ev, &err) != 0) {
    fprintf(stderr, "tally run: --count %s\n", err.msg);
    return -1;
  }
  if (o->nspecs == o->cap) {
    int cap = o->cap ? 2 * o->cap : 16;
    const char **v = realloc(o->specs, (size_t)cap * sizeof *v);
    if (!v) {
      fprintf(stderr, "tally run: out of memory\n");
      return -1;
    }
    o->specs = v;
    o->cap = cap;
  }
  o->specs[o->nspecs++] = arg;
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
    return parse_bounded(opt, arg, 1, TALLY_MAX_INTERVAL, &o->params.interval);
  if (strcmp(opt, "--counters") == 0) {
    if (parse_bounded(opt, arg, 1, TALLY_MAX_COUNTERS, &v) != 0)
      return -1;
    o->params.counters = (uint32_t)v;
    o->counters_set = true;
  } else if (strcmp(opt, "--width") == 0) {
    if (parse_bounded(opt, arg, 1, 64, &v) != 0)
      return -1;
    o->params.width = (uint32_t)v;
  } else if (strcmp(opt, "--arrs") == 0) {
    if (parse_bounded(opt, arg, 0, TALLY_MAX_ARRS, &v) != 0)
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

static int check_events(const count_opts *o) {
  if (o->control) {
    if (o->nspecs || o->params.interval) {
      fprintf(stderr, "tally run: --count and --interval do not go with --control: the board takes its events and "
                      "its period from control packets (tally config --timer ... --counter ... --start)\n");
      return -1;
    }
    return 0;
  }
  if (o->nats && o->nspecs == 0) {
    fprintf(stderr, "tally run: --at changes the events of --count (tally run --count cycle --interval 1000 "
                    "--at 50000:counter=0:load@main PROGRAM)\n");
    return -1;
  }
  if (o->nspecs == 0) {
    if (o->params.interval || o->counters_set || o->arrs_set || o->csv) {
      fprintf(stderr, "tally run: --interval, --counters, --arrs and --intervals-csv go with --count "
                      "(what to count: tally run --count cycle@main --interval 100000 PROGRAM)\n");
      return -1;
    }
    return 0;
  }
  if (!o->params.interval) {
    fprintf(stderr, "tally run: --count needs --interval CYCLES, the dispatch period (e.g. --interval 100000: "
                    "the counters are read out and reset every 100,000 core cycles)\n");
    return -1;
  }
  if ((uint32_t)o->nspecs > o->params.counters) {
    fprintf(stderr, "tally run: %d events asked for (--count) but the module has %u counters: add --counters %d "
            "(up to %u)\n", o->nspecs, o->params.counters, o->nspecs, TALLY_MAX_COUNTERS);
    return -1;
  }
  return 0;
}

static int check_addr(const char *opt, const char *text, bool need_port) {
  tally_error err;
  if (tally_addr_check(text, need_port, &err) != 0) {
    fprintf(stderr, "tally run: %s %s%s\n", opt, err.msg,
            need_port && strstr(err.msg, "port other than 0") ? " (where 'tally collect --listen' listens)" : "");
    return -1;
  }
  return 0;
}

static int check_destination(const count_opts *o) {
  bool counting = o->nspecs > 0;
  if (o->key && o->key_env) {
    fprintf(stderr, "tally run: --key FILE and --key-env VAR both name a key: give one\n");
    return -1;
  }
  if ((o->key || o->key_env) && !o->control && !o->collector) {
    fprintf(stderr, "tally run: %s goes with --collector ADDR:PORT (it authenticates the run's packets) or "
                    "--control ADDR:PORT (control packets)\n", o->key ? "--key FILE" : "--key-env VAR");
    return -1;
  }
  if (o->no_store && o->db) {
    fprintf(stderr, "tally run: --no-store and --db FILE contradict each other\n");
    return -1;
  }
  if (o->collector && (o->db || o->no_store)) {
    fprintf(stderr, "tally run: --collector sends the run to a remote 'tally collect', which stores it in its own "
                    "--db; --db and --no-store do not go with it\n");
    return -1;
  }
  if (o->no_store && o->control) {
    fprintf(stderr, "tally run: --control needs somewhere to send the run: drop --no-store (store locally) or "
                    "give --collector ADDR:PORT\n");
    return -1;
  }
  if (!counting && !o->control && (o->db || o->no_store || o->collector)) {
    fprintf(stderr, "tally run: --db, --no-store and --collector go with --count or --control (what to count: "
                    "tally run --count cycle@main --interval 100000 PROGRAM)\n");
    return -1;
  }
  if (o->collector && check_addr("--collector", o->collector, true) != 0)
    return -1;
  if (o->control && check_addr("--control", o->control, false) != 0)
    return -1;
  return 0;
}

int count_check(const count_opts *o) { return check_events(o) != 0 || check_destination(o) != 0 ? -1 : 0; }

/* ---- what is printed: rows kept for the table, the CSV ---- */

typedef struct count_row {
  uint64_t index, begin, end;
  uint64_t *values;
  uint8_t *sat;
} count_row;

struct count_run {
  tally_measure *m;
  const count_opts *o;
  uint32_t cap;               /* columns room was made for (the module's counters) */
  /* rows kept for the table: the first `head` and a ring of the last `tail` */
  uint64_t head, tail;
  count_row *rows;            /* head + tail rows */
  uint64_t seen;              /* data intervals received */
  bool any_sat;
  bool have_final;
  count_row final;
  FILE *csv;
  bool csv_failed;
};

static uint32_t columns(const count_run *r) { return tally_measure_events(r->m); }

tally_measure *count_measure(count_run *r) { return r->m; }

static void copy_row(count_run *r, count_row *row, const tally_interval *iv) {
  row->index = iv->index;
  row->begin = iv->cycle_begin;
  row->end = iv->cycle_end;
  memcpy(row->values, iv->values, iv->n * sizeof *row->values);
  memcpy(row->sat, iv->saturated, iv->n);
  (void)r;
}

static void csv_row(count_run *r, const tally_interval *iv) {
  if (!r->csv)
    return;
  if (iv->final)
    fprintf(r->csv, "total,%llu,%llu", (unsigned long long)iv->cycle_begin, (unsigned long long)iv->cycle_end);
  else
    fprintf(r->csv, "%llu,%llu,%llu", (unsigned long long)iv->index, (unsigned long long)iv->cycle_begin,
            (unsigned long long)iv->cycle_end);
  for (uint32_t i = 0; i < iv->n; i++)
    fprintf(r->csv, ",%llu", (unsigned long long)iv->values[i]);
  for (uint32_t i = 0; i < iv->n; i++)
    fprintf(r->csv, ",%u", iv->saturated[i] ? 1u : 0u);
  fputc('\n', r->csv);
  if (ferror(r->csv))
    r->csv_failed = true;
}

static bool alloc_row(count_row *row, uint32_t n) {
  row->values = calloc(n ? n : 1, sizeof *row->values);
  row->sat = calloc(n ? n : 1, 1);
  return row->values && row->sat;
}

/* --show-intervals all: the rows grow with the run. Rows that cannot be
 * kept (no memory) are counted as not shown, like any others. */
static void grow_rows(count_run *r) {
  uint64_t cap = r->head ? 2 * r->head : 64;
  count_row *v = realloc(r->rows, cap * sizeof *v);
  if (!v)
    return;
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

static void report_sink(void *ctx, const tally_interval *iv) {
  count_run *r = ctx;
  csv_row(r, iv);
  for (uint32_t i = 0; i < iv->n; i++)
    r->any_sat |= iv->saturated[i] != 0;
  if (iv->final) {
    copy_row(r, &r->final, iv);
    r->have_final = true;
    return;
  }
  if (r->o->show == UINT64_MAX && r->seen == r->head)
    grow_rows(r);
  if (r->seen < r->head)
    copy_row(r, &r->rows[r->seen], iv);
  else if (r->tail)
    copy_row(r, &r->rows[r->head + (r->seen - r->head) % r->tail], iv);
  r->seen++;
}

void count_free(count_run *r) {
  if (!r)
    return;
  tally_measure_free(r->m);
  for (uint64_t i = 0; r->rows && i < r->head + r->tail; i++) {
    free(r->rows[i].values);
    free(r->rows[i].sat);
  }
  free(r->rows);
  free(r->final.values);
  free(r->final.sat);
  if (r->csv && r->csv != stdout)
    fclose(r->csv);
  free(r);
}

static count_run *alloc_run(const count_opts *o) {
  count_run *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  r->o = o;
  r->cap = o->params.counters;
  if (o->show != UINT64_MAX) {
    r->head = (o->show + 1) / 2;
    r->tail = o->show / 2;
  }
  bool ok = alloc_row(&r->final, r->cap);
  if (ok && o->show != UINT64_MAX) {
    r->rows = calloc(r->head + r->tail ? r->head + r->tail : 1, sizeof *r->rows);
    ok = r->rows != NULL;
    for (uint64_t i = 0; ok && i < r->head + r->tail; i++)
      ok = alloc_row(&r->rows[i], r->cap);
  }
  if (!ok) {
    count_free(r);
    return NULL;
  }
  return r;
}

static void csv_header(count_run *r) {
  if (!r->csv)
    return;
  fprintf(r->csv, "interval,cycle_begin,cycle_end");
  for (uint32_t i = 0; i < columns(r); i++) {
    fputc(',', r->csv);
    tally_csv_field(r->csv, tally_measure_event(r->m, i)->label);
  }
  for (uint32_t i = 0; i < columns(r); i++) {
    char h[400];
    snprintf(h, sizeof h, "%s saturated", tally_measure_event(r->m, i)->label);
    fputc(',', r->csv);
    tally_csv_field(r->csv, h);
  }
  fputc('\n', r->csv);
}

/* ---- setup ---- */

static int exit_for(const tally_error *err) {
  switch (err->code) {
  case TALLY_E_USAGE: return EXIT_USAGE;
  case TALLY_E_INPUT: return EXIT_NOINPUT;
  case TALLY_E_CREATE: return EXIT_CANTCREAT;
  default: return EXIT_INTERNAL;
  }
}

static void on_warning(void *ctx, const char *msg) {
  (void)ctx;
  fprintf(stderr, "tally run: %s\n", msg);
}

/* Where the counts go: the embedded store unless --no-store, or a remote
 * collector; with --control, the board link taking control packets. */
static int open_destination(count_run *r, tally_error *err) {
  const count_opts *o = r->o;
  int rc = 0;
  if (o->collector)
    rc = tally_measure_collector(r->m, o->collector, err);
  else if (!o->no_store && (rc = tally_measure_store(r->m, o->db, err)) != 0 && err->code == TALLY_E_CREATE)
    snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg),
             " (choose another with --db FILE, or --no-store)");
  if (rc == 0 && (o->key || o->key_env))
    rc = tally_measure_key(r->m, o->key, o->key_env, err);
  if (rc == 0 && o->control)
    rc = tally_measure_control(r->m, o->control, NULL, err);
  return rc;
}

static int add_events(count_run *r, tally_error *err) {
  if (r->o->tasks && tally_measure_tasks(r->m, r->o->tasks, err) != 0)
    return -1;
  for (int i = 0; i < r->o->nspecs; i++) {
    if (tally_measure_add(r->m, r->o->specs[i], err) != 0) {
      if (err->msg[0] == '\'') { /* names the spec: say which option */
        char m[sizeof err->msg];
        snprintf(m, sizeof m, "--count %.490s", err->msg);
        snprintf(err->msg, sizeof err->msg, "%s", m);
      }
      return -1;
    }
  }
  return 0;
}

/* --at: each change scheduled, its option named in errors. */
static int schedule_changes(count_run *r, tally_error *err) {
  for (int i = 0; i < r->o->nats; i++) {
    uint64_t cycle = 0;
    const char *change = r->o->ats[i];
    at_cycle(r->o->ats[i], &cycle, &change); /* checked when parsed */
    if (tally_measure_at(r->m, cycle, change, err) < 0) {
      char m[sizeof err->msg];
      snprintf(m, sizeof m, "--at %.40s: %.440s", r->o->ats[i], err->msg);
      snprintf(err->msg, sizeof err->msg, "%s", m);
      return -1;
    }
  }
  return 0;
}

/* Where each --at took effect: the first instruction edge at or after its
 * cycle. */
static void say_changes(const count_run *r, FILE *f) {
  for (int i = 0; i < r->o->nats; i++) {
    uint64_t at = tally_measure_at_applied(r->m, (uint32_t)i);
    char n[32];
    if (at == UINT64_MAX)
      fprintf(f, "tally run: --at %s: not applied (the run ended first)\n", r->o->ats[i]);
    else
      fprintf(f, "tally run: --at %s: applied on cycle %s\n", r->o->ats[i], fmt_count(at, n, sizeof n));
  }
}

static void say_destination(const count_run *r) {
  uint64_t id = tally_measure_run_id(r->m);
  if (!id)
    return;
  if (r->o->collector)
    fprintf(stderr, "tally run: run 0x%016" PRIx64 ": sending to the collector at %s\n", id, r->o->collector);
  else
    fprintf(stderr, "tally run: run 0x%016" PRIx64 ": storing into %s\n", id,
            r->o->db ? r->o->db : tally_store_default_path());
}

/* --control: the configuration comes as control packets. 0, or the exit status (printed). */
static int wait_for_start(count_run *r, const char *program, const char *core, const volatile sig_atomic_t *cancel) {
  tally_error err;
  const char *addr = tally_measure_control_addr(r->m);
  fprintf(stderr, "tally run: waiting for the configuration on %s%s (tally config --board %s%s --timer CYCLES "
                  "--counter 0=SIGNAL ... --start)\n",
          addr, r->o->key || r->o->key_env ? ", authenticated" : "", addr,
          r->o->key ? " --key FILE" : r->o->key_env ? " --key-env VAR" : "");
  int rc = tally_measure_wait_start(r->m, program, core, (const volatile int *)cancel, &err);
  if (rc == 1) {
    const char *why = stopwatch_reason();
    bool timeout = why && !strcmp(why, "--timeout reached");
    fprintf(stderr, "tally run: %s while waiting for the configuration; nothing was run\n",
            timeout ? "--timeout reached" : "interrupted");
    return timeout ? EXIT_BOUND : EXIT_INTERRUPTED;
  }
  if (rc != 0) {
    fprintf(stderr, "tally run: %s\n", err.msg);
    return EXIT_INTERNAL;
  }
  return 0;
}

count_run *count_setup(tally_sim *sim, const count_opts *o, const char *program, const char *core,
                       const volatile sig_atomic_t *cancel, int *status) {
  tally_error err;
  *status = EXIT_INTERNAL;
  count_run *r = alloc_run(o);
  if (!r) {
    fprintf(stderr, "tally run: out of memory\n");
    return NULL;
  }
  int rc = (r->m = tally_measure_new(sim, &o->params, &err)) ? 0 : -1;
  if (rc == 0)
    rc = add_events(r, &err);
  if (rc == 0)
    rc = schedule_changes(r, &err);
  if (rc == 0)
    rc = tally_measure_on_interval(r->m, report_sink, r, &err);
  if (rc == 0 && o->csv && !(r->csv = strcmp(o->csv, "-") ? fopen(o->csv, "w") : stdout)) {
    fprintf(stderr, "tally run: --intervals-csv: cannot write %s: %s\n", o->csv, strerror(errno));
    count_free(r);
    return NULL;
  }
  if (rc == 0) {
    tally_measure_on_warning(r->m, on_warning, NULL);
    rc = open_destination(r, &err);
  }
  if (rc != 0) {
    fprintf(stderr, "tally run: %s\n", err.msg);
    *status = exit_for(&err);
    count_free(r);
    return NULL;
  }
  if (o->control) {
    *status = wait_for_start(r, program, core, cancel);
  } else if (tally_measure_start(r->m, program, core, &err) != 0) {
    fprintf(stderr, "tally run: %s\n", err.msg);
    *status = exit_for(&err);
  } else {
    *status = 0;
  }
  if (*status != 0) {
    count_free(r);
    return NULL;
  }
  say_destination(r);
  csv_header(r);
  return r;
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
  for (uint32_t i = 0; i < columns(r); i++)
    fprintf(f, "  %*s%s", w[i], fmt_count(row->values[i], a, sizeof a), row->sat[i] ? "*" : " ");
  fputc('\n', f);
}

static void print_table(const count_run *r, FILE *f) {
  char a[32], b[32];
  uint32_t n = columns(r);
  uint64_t kept = r->seen < r->head + r->tail ? r->seen : r->head + r->tail;
  uint64_t shown_head = r->seen < r->head ? r->seen : r->head;
  /* column widths: the numbers and the "#i" headers */
  int wi = (int)strlen("interval"), wc = (int)strlen("start");
  int *w = calloc(n ? n : 1, sizeof *w);
  if (!w)
    return;
  for (uint32_t i = 0; i < n; i++) {
    snprintf(a, sizeof a, "#%u", tally_measure_event(r->m, i)->counter);
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
    for (uint32_t i = 0; i < n; i++)
      if (width_of(row->values[i]) > w[i])
        w[i] = width_of(row->values[i]);
  }
  if (width_of(r->final.end) > wc)
    wc = width_of(r->final.end);

  tally_export_events(r->m, f);
  int wl = 6;
  for (uint32_t i = 0; i < n; i++)
    if ((int)strlen(tally_measure_event(r->m, i)->label) > wl)
      wl = (int)strlen(tally_measure_event(r->m, i)->label);
  fprintf(f, "\n  %*s  %*s  %*s", wi, "interval", wc, "start", wc, "end");
  for (uint32_t i = 0; i < n; i++) {
    snprintf(a, sizeof a, "#%u", tally_measure_event(r->m, i)->counter);
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
    uint32_t width = tally_measure_params_of(r->m)->width;
    uint64_t max = width == 64 ? UINT64_MAX : (1ull << width) - 1;
    fprintf(f, " * saturated: the counter reached %s (2^%u - 1) and stopped\n  counting in that interval; "
               "its total is then a lower bound.", fmt_count(max, a, sizeof a), width);
  }
  fprintf(f, "\n\n");
  /* totals in plain words */
  for (uint32_t i = 0; i < n; i++)
    fprintf(f, "  %-*s  %*s%s\n", wl, tally_measure_event(r->m, i)->label, w[i],
            fmt_count(r->final.values[i], a, sizeof a),
            r->final.sat[i] ? " (saturated in some interval: at least this many)" : "");
  free(w);
}

/* ---- the end ---- */

/* Where the run went and how to see it again. Returns 0, or EXIT_INTERNAL
 * when a run that ran to its end did not reach the store whole. */
static int say_verdict(const count_run *r, const tally_measure_result *res, const char *why) {
  char a[32], b[32];
  static const char *const words[] = {"", "complete", "incomplete", "still running"};
  if (!res->run_id)
    return 0;
  if (res->db) {
    fprintf(stderr, "tally run: run 0x%016" PRIx64 " stored in %s: %s, %s intervals%s%s\n", res->run_id, res->db,
            words[res->verdict], fmt_count(res->stored_intervals, a, sizeof a), res->note[0] ? ": " : "",
            res->note);
    fprintf(stderr, "tally run: 'tally report --db %s 0x%016" PRIx64 "' prints it again\n", res->db, res->run_id);
    if (res->verdict != TALLY_VERDICT_COMPLETE && !why) {
      fprintf(stderr, "tally run: the store did not get the whole run (the table above has every count)\n");
      return EXIT_INTERNAL;
    }
  } else if (res->verdict != TALLY_VERDICT_UNKNOWN) {
    fprintf(stderr, "tally run: run 0x%016" PRIx64 " sent to the collector at %s (%s packets, %s sent again on "
                    "request): it has it %s\n", res->run_id, res->collector,
            fmt_count(res->packets_sent, a, sizeof a), fmt_count(res->resent, b, sizeof b),
            res->verdict == TALLY_VERDICT_COMPLETE ? "complete"
                                                   : "incomplete ('tally report' there says what is missing)");
  }
  if (r->o->control)
    fprintf(stderr, "tally run: control: %u packets refused (%u bad tags, %u stale, %u malformed)\n",
            res->control_bad_tags + res->control_stale + res->control_malformed, res->control_bad_tags,
            res->control_stale, res->control_malformed);
  if (res->replies_refused) /* someone else answered for the collector, or it has another key */
    fprintf(stderr, "tally run: %u resend requests or acknowledgements refused (%s)\n", res->replies_refused,
            r->o->key || r->o->key_env ? "without this key's tag, or not answering this run's final packets"
                                       : "not answering this run's final packets");
  if (!res->db && res->verdict == TALLY_VERDICT_UNKNOWN) {
    bool keyed = r->o->key || r->o->key_env;
    fprintf(stderr, "tally run: run 0x%016" PRIx64 " sent to the collector at %s, which did not acknowledge its end "
                    "(is 'tally collect --listen %s%s' running%s?): the run is NOT known to be stored\n",
            res->run_id, res->collector, res->collector, keyed ? " --key FILE" : "", keyed ? ", with the same key" : "");
  }
  if (res->spool)
    fprintf(stderr, "tally run: its packets are kept in %s: 'tally collect --import %s --db FILE' stores them\n",
            res->spool, res->spool);
  if (!res->db && res->verdict == TALLY_VERDICT_UNKNOWN)
    return EXIT_UNAVAILABLE;
  return 0;
}

int count_finish(count_run *r, const char *why, FILE *f) {
  tally_error err;
  tally_measure_result res;
  int status = 0;
  int rc = tally_measure_finish(r->m, why, &res, &err);
  if (r->have_final)
    print_table(r, f);
  say_changes(r, f);
  if (r->csv) {
    if ((r->csv == stdout ? fflush(r->csv) : fclose(r->csv)) != 0)
      r->csv_failed = true;
    r->csv = NULL;
    if (r->csv_failed) {
      fprintf(stderr, "tally run: --intervals-csv: could not write all of %s\n", r->o->csv);
      status = EXIT_INTERNAL;
    }
  }
  if (rc != 0) {
    fprintf(stderr, "tally run: %s\n", err.msg);
    status = EXIT_INTERNAL;
  }
  if (tally_measure_check_tasks(r->m, &err) != 0) {
    fprintf(stderr, "tally run: --count %s\n", err.msg);
    if (!status)
      status = EXIT_USAGE;
  }
  int v = say_verdict(r, &res, why);
  return status ? status : v;
}
