/*
 * Stored runs written out: one run (run_export.c) as the table `tally
 * report RUN` prints, CSV or JSON, and the list of runs (run_list.c). The
 * public form is include/tally/export.h (tally_export_run, tally_export_runs).
 */
#ifndef TALLY_REPORT_RUN_EXPORT_H
#define TALLY_REPORT_RUN_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../store/store_read.h"

typedef enum { REPORT_TABLE, REPORT_CSV, REPORT_JSON } report_format;
enum { REPORT_INTERVALS = 1, REPORT_TOTALS = 2 };

typedef struct run_export_opts {
  report_format format;
  unsigned parts;                  /* REPORT_INTERVALS | REPORT_TOTALS */
} run_export_opts;

#define RUN_EXPORT_ERR 900         /* bytes of err */
#define RUN_EXPORT_NOT_WHOLE 2

/* Writes one run to out. Returns 0 when the run is whole,
 * RUN_EXPORT_NOT_WHOLE when it is not (err then holds the banner: why),
 * -1 when it cannot be read or written (err says why; db names the store
 * in it, may be NULL). */
int run_export(store *s, const char *db, uint64_t run_id, const run_export_opts *o, FILE *out, char *err);

/* The list of runs (as store_list_runs returns them). */
/* Puts every run the store marks complete through the same check as the
 * detail view (store_get_totals): one that fails it is listed incomplete,
 * with a note saying so, so the list never calls whole what the detail
 * calls INCOMPLETE (rows edited or deleted after the run was closed).
 * 0, or -1 on a read error (store_error says why). */
int run_list_check(store *s, store_run_view *runs, size_t n);
void run_list_table(FILE *out, const char *db, const store_run_view *runs, size_t n);
void run_list_csv(FILE *out, const store_run_view *runs, size_t n);
void run_list_json(FILE *out, const store_run_view *runs, size_t n);

/* The members describing a run, as one JSON object. */
void json_run_fields(FILE *f, const store_run_view *r);

#endif
