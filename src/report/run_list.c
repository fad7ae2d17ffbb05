/*
 * The list of stored runs (run_export.h): one line per run for people, or
 * CSV, or JSON; `tally report` with no run, tally_export_runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "run_export.h"
#include "tally/tally.h"

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
  tally_format_count(r->intervals, a, sizeof a);
  if (r->has_intervals_sent && r->intervals_sent != r->intervals)
    snprintf(buf, size, "%s of %s", a, tally_format_count(r->intervals_sent, b, sizeof b));
  else
    snprintf(buf, size, "%s", a);
  return buf;
}

int run_list_check(store *s, store_run_view *runs, size_t n) {
  for (size_t i = 0; i < n; i++) {
    store_run_view *r = &runs[i];
    if (r->status != STORE_RUN_COMPLETE)
      continue; /* already not whole; the check can only take wholeness away */
    store_totals_view t;
    if (store_get_totals(s, r->run_id, &t) < 0)
      return -1;
    bool whole = t.whole;
    store_totals_clear(&t);
    if (whole)
      continue;
    r->status = STORE_RUN_INCOMPLETE;
    char *note = strdup("marked complete, but the stored rows do not check (the run's detail says what is lacking)");
    if (note) { /* out of memory: the status alone still says it */
      free(r->note);
      r->note = note;
    }
  }
  return 0;
}

void run_list_table(FILE *out, const char *db, const store_run_view *runs, size_t n) {
  if (n == 0) {
    fprintf(out, "%s: no runs stored\n", db);
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
  fprintf(out, "%-*s  %-*s  %-*s  %-16s  %*s  %s\n", wid, "run id", wprog, "program", wcore, "core", "started (UTC)", wint,
         "intervals", "status");
  for (size_t i = 0; i < n; i++) {
    const store_run_view *r = &runs[i];
    char date[40], iv[64];
    fprintf(out, "0x%0*llx  %-*s  %-*s  %-16s  %*s  %s\n", wid - 2, (unsigned long long)r->run_id, wprog, base_name(r->program),
           wcore, r->core ? r->core : "-", short_date(r->started, date, sizeof date), wint,
           intervals_text(r, iv, sizeof iv), store_status_name(r->status));
  }
}

void run_list_csv(FILE *out, const store_run_view *runs, size_t n) {
  fprintf(out, "run_id,program,core,started,finished,intervals_stored,intervals_sent,received,duplicates,status,note\n");
  for (size_t i = 0; i < n; i++) {
    const store_run_view *r = &runs[i];
    fprintf(out, "0x%016llx,", (unsigned long long)r->run_id); /* as the table and the JSON print it */
    report_csv_field(out, r->program);
    fputc(',', out);
    report_csv_field(out, r->core);
    fprintf(out, ",%s,%s,%llu,", r->started ? r->started : "", r->finished ? r->finished : "",
           (unsigned long long)r->intervals);
    if (r->has_intervals_sent)
      fprintf(out, "%llu", (unsigned long long)r->intervals_sent);
    fprintf(out, ",%llu,%llu,%s,", (unsigned long long)r->received, (unsigned long long)r->duplicates,
           store_status_name(r->status));
    report_csv_field(out, r->note);
    fputc('\n', out);
  }
}

void run_list_json(FILE *out, const store_run_view *runs, size_t n) {
  fprintf(out, "{\"runs\": [");
  for (size_t i = 0; i < n; i++) {
    fprintf(out, "%s\n  ", i ? "," : "");
    json_run_fields(out, &runs[i]);
  }
  fprintf(out, "%s]}\n", n ? "\n" : "");
}

