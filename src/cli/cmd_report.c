/*
 * tally report: the runs kept in a store (tally run, tally collect), and one
 * run's per-interval counts and totals, as a table, CSV or JSON. A run that
 * is not whole (incomplete, or never finished) is always printed as such:
 * a banner in the table, "whole": false in JSON, a banner on stderr with
 * CSV, and exit status 2.
 *
 * Options in, the library's calls (include/tally/store.h, export.h), text
 * out.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report_perfetto.h"
#include "tally/export.h"
#include "tally/store.h"

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
          "      --db FILE      the store (default: $TALLY_DB, else ./tally.db)\n"
          "      --csv          comma-separated values: the interval rows, or with\n"
          "                     --totals the totals (a banner on stderr if not whole)\n"
          "      --json         one JSON object (\"whole\": false if not whole)\n"
          "      --intervals    only the per-interval rows\n"
          "      --totals       only the totals and the verdict\n"
          "      --perfetto FILE  the run's intervals as counter tracks for\n"
          "                     ui.perfetto.dev or chrome://tracing (Chrome JSON\n"
          "                     trace events; docs/tally-trace.md)\n"
          "  -h, --help         show this help\n"
          "\n"
          "exit status: 0; 2 when the run printed is not whole; 64 for usage errors;\n"
          "66 when the store cannot be read or has no such run; 73 when the\n"
          "--perfetto FILE cannot be created.\n"
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

int cmd_report(int argc, char **argv) {
  static const struct option longs[] = {
    {"db", required_argument, NULL, 'd'},  {"csv", no_argument, NULL, 'c'},
    {"json", no_argument, NULL, 'j'},      {"intervals", no_argument, NULL, 'i'},
    {"totals", no_argument, NULL, 't'},    {"help", no_argument, NULL, 'h'},
    {"perfetto", required_argument, NULL, 'p'},
    {NULL, 0, NULL, 0},
  };
  tally_run_format format = TALLY_RUN_TABLE;
  unsigned parts = 0;
  const char *db = tally_store_default_path();
  const char *perfetto = NULL;
  optind = 1;
  int c;
  while ((c = getopt_long(argc, argv, "h", longs, NULL)) != -1) {
    switch (c) {
    case 'd': db = optarg; break;
    case 'c':
    case 'j':
      if (format != TALLY_RUN_TABLE) {
        fprintf(stderr, "tally report: --csv and --json: choose one\n");
        return EXIT_USAGE;
      }
      format = c == 'c' ? TALLY_RUN_CSV : TALLY_RUN_JSON;
      break;
    case 'i': parts |= TALLY_RUN_INTERVALS; break;
    case 't': parts |= TALLY_RUN_TOTALS; break;
    case 'p': perfetto = optarg; break;
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
  if (!which && parts) {
    fprintf(stderr, "tally report: --intervals and --totals want a run (an id or 'latest')\n");
    return EXIT_USAGE;
  }
  if (perfetto && (!which || parts || format != TALLY_RUN_TABLE)) {
    fprintf(stderr, "tally report: --perfetto FILE wants a run (an id or 'latest'), and no other format\n");
    return EXIT_USAGE;
  }
  if (format == TALLY_RUN_CSV && parts == (TALLY_RUN_INTERVALS | TALLY_RUN_TOTALS)) {
    fprintf(stderr, "tally report: --csv prints one table: --intervals or --totals, not both\n");
    return EXIT_USAGE;
  }
  tally_error err;
  tally_store *s = tally_store_open(db, false, &err);
  if (!s) {
    fprintf(stderr, "tally report: %s\n", err.msg);
    if (strcmp(db, tally_store_default_path()) == 0 && strstr(err.msg, "No such file"))
      fprintf(stderr, "(runs are stored by 'tally run' and 'tally collect'; --db FILE or TALLY_DB names another store)\n");
    return EXIT_NOINPUT;
  }
  int status = 0;
  int found = 1;
  if (!which) {
    if (tally_export_runs(s, db, format, stdout, &err) != 0)
      found = -1;
  } else if (latest && (found = tally_store_latest(s, &run_id, &err)) == 0) {
    fprintf(stderr, "tally report: %s: no runs stored\n", db);
    status = EXIT_NOINPUT;
  } else if (found > 0 && perfetto) {
    status = report_perfetto(s, run_id, perfetto);
  } else if (found > 0) {
    int rc = tally_export_run(s, db, run_id, format, parts, stdout, &err);
    if (rc < 0)
      found = -1;
    else if (rc == TALLY_EXPORT_NOT_WHOLE && format == TALLY_RUN_CSV) /* the CSV cannot say it: stderr does */
      fprintf(stderr, "tally report: run %llu: %s\n", (unsigned long long)run_id, err.msg);
    status = rc == TALLY_EXPORT_NOT_WHOLE ? 2 : 0;
  }
  if (found < 0) {
    fprintf(stderr, "tally report: %s\n", err.msg);
    status = EXIT_NOINPUT;
  }
  tally_store_close(s);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "tally report: writing the report failed: %s\n", strerror(errno));
    return EXIT_INTERNAL;
  }
  return status;
}
