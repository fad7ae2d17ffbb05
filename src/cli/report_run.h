/* tally report's printing of one stored run (report_run.c) and the pieces
 * of it the run listing shares (cmd_report.c). */
#ifndef TALLY_CLI_REPORT_RUN_H
#define TALLY_CLI_REPORT_RUN_H

#include <stdio.h>

#include "../store/store_read.h"

typedef enum { REPORT_TABLE, REPORT_CSV, REPORT_JSON } report_format;
enum { REPORT_INTERVALS = 1, REPORT_TOTALS = 2 };

typedef struct report_opts {
  report_format format;
  unsigned parts;                  /* REPORT_INTERVALS | REPORT_TOTALS */
} report_opts;

/* Prints one run; returns the exit status (0 whole, 2 not whole, 66 when
 * it cannot be read). */
int report_run(store *s, const char *db, uint64_t run_id, const report_opts *o);

/* The members describing a run, as one JSON object. */
void json_run_fields(FILE *f, const store_run_view *r);

#endif
