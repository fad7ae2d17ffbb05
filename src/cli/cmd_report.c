/*
 * tally report: the runs kept in a store (tally run, tally collect), and one
 * run's per-interval counts and totals, as a table, CSV or JSON. A run that
 * is not whole (incomplete, or never finished) is always printed as such:
 * a banner in the table, "whole": false in JSON, a banner on stderr with
 * CSV, and exit status 2.
 *
 * Listing runs is here; one run's output is in report_run.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../report/csv.h"
#include "../report/json.h"
#include "../store/store_read.h"
#include "cli.h"
#include "report_run.h"

static void report_usage(FILE *f) {
  fprintf(f,
          "usage: tally report [options] [RUN_ID | latest]\n"
          "\n"
          "Prints what a store holds. With no run: the list of runs (id, program,\n"
          "core, start date, intervals, status). With a run (its id in decimal or\n"
          "0x-hex, or 'latest' for the run seen last): its counters with their plain\n"
          "names, one row per dispatch interval, and the totals beside the board's\n"
          "own, with the verdict. A run that is not whole (intervals missing, or\n"
          "never finished) is printed under an INCOMPLETE banner, never as whole.\n"
          "\n"
          "options:\n"
          "      --db FILE      the store (default: $TALLY_DB, else ./" STORE_DEFAULT_PATH ")\n"
          "      --csv          comma-separated values: the interval rows, or with\n"
          "                     --totals the totals (a banner on stderr if not whole)\n"
          "      --json         one JSON object (\"whole\": false if not whole)\n"
          "      --intervals    only the per-interval rows\n"
          "      --totals       only the totals and the verdict\n"
          "  -h, --help         show this help\n"
          "\n"
          "exit status: 0; 2 when the run printed is not whole; 64 for usage errors;\n"
          "66 when the store cannot be read or has no such run.\n"
          "docs/tally-report.md describes every column.\n");
}

/* "1234" or "0x4d2"; nothing else. */
static bool parse_run_id(const char *s, uint64_t *out) {
  if (!s || !*s || *s == '-' || *s == '+')
    return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || end == s || *end)
    return false;
  *out = v;
  return true;
}

/* "2026-11-22T07:29:00.123Z" -> "2026-11-22 07:29" */
static const char *short_date(const char *iso, char *buf, size_t size) {
  if (!iso || strlen(iso) < 16) {
    snprintf(buf, size, "%s", iso ? iso : "-");
    return buf;
  }
  snprintf(buf, size, "%.10s %.5s", iso, iso + 11);
  return buf;
}

static const char *base_name(const char *path) {
  if (!path)
    return "-";
  const char *slash = strrchr(path, '/');
  return slash && slash[1] ? slash + 1 : path;
}

/* The intervals column of the list: "153", or "16 of 20" when the board's
 * count is known and not all are there. */
static const char *intervals_text(const store_run_view *r, char *buf, size_t size) {
  char a[32], b[32];
  fmt_count(r->intervals, a, sizeof a);
  if (r->has_intervals_sent && r->intervals_sent != r->intervals)
    snprintf(buf, size, "%s of %s", a, fmt_count(r->intervals_sent, b, sizeof b));
  else
    snprintf(buf, size, "%s", a);
  return buf;
}

static void list_table(const char *db, const store_run_view *runs, size_t n) {
  if (n == 0) {
    printf("%s: no runs stored\n", db);
    return;
  }
  int wid = 6, wprog = 7, wcore = 4, wint = 9;
  char buf[64];
  for (size_t i = 0; i < n; i++) {
    int l = snprintf(buf, sizeof buf, "0x%016llx", (unsigned long long)runs[i].run_id);
    wid = l > wid ? l : wid;
    l = (int)strlen(base_name(runs[i].program));
    wprog = l > wprog ? l : wprog;
    l = (int)strlen(runs[i].core ? runs[i].core : "-");
    wcore = l > wcore ? l : wcore;
    l = (int)strlen(intervals_text(&runs[i], buf, sizeof buf));
    wint = l > wint ? l : wint;
  }
  printf("%-*s  %-*s  %-*s  %-16s  %*s  %s\n", wid, "run id", wprog, "program", wcore, "core", "started (UTC)", wint,
         "intervals", "status");
  for (size_t i = 0; i < n; i++) {
    const store_run_view *r = &runs[i];
    char date[40], iv[64];
    printf("0x%0*llx  %-*s  %-*s  %-16s  %*s  %s\n", wid - 2, (unsigned long long)r->run_id, wprog, base_name(r->program),
           wcore, r->core ? r->core : "-", short_date(r->started, date, sizeof date), wint,
           intervals_text(r, iv, sizeof iv), store_status_name(r->status));
  }
}

static void list_csv(const store_run_view *runs, size_t n) {
  printf("run_id,program,core,started,finished,intervals_stored,intervals_sent,received,duplicates,status,note\n");
  for (size_t i = 0; i < n; i++) {
    const store_run_view *r = &runs[i];
    printf("%llu,", (unsigned long long)r->run_id);
    report_csv_field(stdout, r->program);
    putchar(',');
    report_csv_field(stdout, r->core);
    printf(",%s,%s,%llu,", r->started ? r->started : "", r->finished ? r->finished : "",
           (unsigned long long)r->intervals);
    if (r->has_intervals_sent)
      printf("%llu", (unsigned long long)r->intervals_sent);
    printf(",%llu,%llu,%s,", (unsigned long long)r->received, (unsigned long long)r->duplicates,
           store_status_name(r->status));
    report_csv_field(stdout, r->note);
    putchar('\n');
  }
}

static void list_json(const store_run_view *runs, size_t n) {
  printf("{\"runs\": [");
  for (size_t i = 0; i < n; i++) {
    printf("%s\n  ", i ? "," : "");
    json_run_fields(stdout, &runs[i]);
  }
  printf("%s]}\n", n ? "\n" : "");
}

int cmd_report(int argc, char **argv) {
  static const struct option longs[] = {
    {"db", required_argument, NULL, 'd'},  {"csv", no_argument, NULL, 'c'},
    {"json", no_argument, NULL, 'j'},      {"intervals", no_argument, NULL, 'i'},
    {"totals", no_argument, NULL, 't'},    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
  };
  report_opts o = {.format = REPORT_TABLE, .parts = 0};
  const char *db = store_default_path();
  optind = 1;
  int c;
  while ((c = getopt_long(argc, argv, "h", longs, NULL)) != -1) {
    switch (c) {
    case 'd': db = optarg; break;
    case 'c':
    case 'j':
      if (o.format != REPORT_TABLE) {
        fprintf(stderr, "tally report: --csv and --json: choose one\n");
        return EXIT_USAGE;
      }
      o.format = c == 'c' ? REPORT_CSV : REPORT_JSON;
      break;
    case 'i': o.parts |= REPORT_INTERVALS; break;
    case 't': o.parts |= REPORT_TOTALS; break;
    case 'h': report_usage(stdout); return 0;
    default: fprintf(stderr, "(try 'tally report --help')\n"); return EXIT_USAGE;
    }
  }
  if (argc - optind > 1) {
    fprintf(stderr, "tally report: one run at a time (try 'tally report --help')\n");
    return EXIT_USAGE;
  }
  const char *which = optind < argc ? argv[optind] : NULL;
  uint64_t run_id = 0;
  bool latest = which && strcmp(which, "latest") == 0;
  if (which && !latest && !parse_run_id(which, &run_id)) {
    fprintf(stderr, "tally report: '%s' is not a run id (a number, or 'latest')\n", which);
    return EXIT_USAGE;
  }
  if (!which && o.parts) {
    fprintf(stderr, "tally report: --intervals and --totals want a run (an id or 'latest')\n");
    return EXIT_USAGE;
  }
  if (o.format == REPORT_CSV && o.parts == (REPORT_INTERVALS | REPORT_TOTALS)) {
    fprintf(stderr, "tally report: --csv prints one table: --intervals or --totals, not both\n");
    return EXIT_USAGE;
  }
  if (!o.parts)
    o.parts = o.format == REPORT_CSV ? REPORT_INTERVALS : REPORT_INTERVALS | REPORT_TOTALS;

  char err[600];
  store *s = store_open_existing(db, err, sizeof err);
  if (!s) {
    fprintf(stderr, "tally report: %s\n", err);
    if (strcmp(db, store_default_path()) == 0 && strstr(err, "No such file"))
      fprintf(stderr, "(runs are stored by 'tally run' and 'tally collect'; --db FILE or TALLY_DB names another store)\n");
    return EXIT_NOINPUT;
  }
  int status = 0;
  if (!which) {
    store_run_view *runs;
    size_t n;
    if (store_list_runs(s, &runs, &n) < 0) {
      fprintf(stderr, "tally report: %s\n", store_error(s));
      status = EXIT_NOINPUT;
    } else {
      if (o.format == REPORT_TABLE)
        list_table(db, runs, n);
      else if (o.format == REPORT_CSV)
        list_csv(runs, n);
      else
        list_json(runs, n);
      store_runs_free(runs, n);
    }
  } else {
    int found = latest ? store_latest_run(s, &run_id) : 1;
    if (found < 0) {
      fprintf(stderr, "tally report: %s\n", store_error(s));
      status = EXIT_NOINPUT;
    } else if (found == 0) {
      fprintf(stderr, "tally report: %s: no runs stored\n", db);
      status = EXIT_NOINPUT;
    } else {
      status = report_run(s, db, run_id, &o);
    }
  }
  store_close(s);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "tally report: writing the report failed: %s\n", strerror(errno));
    return EXIT_INTERNAL;
  }
  return status;
}
