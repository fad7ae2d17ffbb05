/*
 * include/tally/export.h: profile exports (src/report's writers) and
 * stored-run exports (src/report/run_export.c), to a FILE* or into memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../report/csv.h"
#include "../report/export.h"
#include "../report/json.h"
#include "../report/profile_text.h"
#include "../report/run_export.h"
#include "api_internal.h"
#include "tally/export.h"

static const char *const format_names[] = {
  [TALLY_PROFILE_JSON] = "json",           [TALLY_PROFILE_CSV] = "csv",
  [TALLY_PROFILE_LINES_CSV] = "lines-csv", [TALLY_PROFILE_FOLDED] = "folded",
  [TALLY_PROFILE_SPEEDSCOPE] = "speedscope", [TALLY_PROFILE_CALLGRIND] = "callgrind",
  [TALLY_PROFILE_GMON] = "gmon",           [TALLY_PROFILE_GMON_CYCLES] = "gmon-cycles",
};

int tally_profile_format_lookup(const char *name) {
  for (size_t i = 0; i < sizeof format_names / sizeof *format_names; i++)
    if (strcmp(name, format_names[i]) == 0)
      return (int)i;
  return -1;
}

static const char *stop_word(tally_stop s) {
  switch (s) {
  case TALLY_STOP_EXIT: return "exit";
  case TALLY_STOP_TRAP: return "trap";
  case TALLY_STOP_LIMIT: return "limit";
  case TALLY_STOP_CANCELLED: return "limit";
  case TALLY_STOP_HALT: return "halt";
  case TALLY_STOP_CYCLES: return "cycles";
  default: return "error";
  }
}

void tally_run_info_from(tally_sim *sim, tally_stop stop, int exit_status, tally_run_info *info) {
  tally_energy e = tally_energy_now(sim);
  *info = (tally_run_info){.core = tally_core_name(sim), .clock_hz = e.frequency_mhz * 1e6,
                           .cycles = tally_cycles(sim), .instret = tally_instret(sim), .stop = stop_word(stop),
                           .stop_detail = tally_stop_detail(sim), .exit_status = exit_status};
}

static int write_gmon(const tally_profile *p, const report_run *run, report_gmon_unit unit, const size_t *task,
                      FILE *f, tally_error *err) {
  report_gmon_layout layout;
  report_gmon_opts gopts = {.unit = unit, .one_task = task != NULL, .task = task ? *task : 0};
  int rc = report_write_gmon(p, run, &gopts, f, &layout);
  if (rc == 0 && layout.divisor > 1)
    snprintf(err->msg, sizeof err->msg, "histogram scaled to fit gprof's 16-bit bins: one count is %llu cycles "
             "(rate %u per second); self times are rounded to that", (unsigned long long)layout.divisor, layout.rate);
  else if (rc != 0 && errno == EFBIG)
    return api_fail(err, TALLY_E_USAGE, "an instruction has too many cycles for a histogram counted in cycles "
                    "(gprof's bins would overflow)");
  return rc;
}

int tally_export_profile(const tally_profile *p, const tally_run_info *info, tally_profile_format fmt, FILE *f,
                         tally_error *err) {
  tally_error scratch;
  if (!err)
    err = &scratch;
  err->msg[0] = '\0';
  err->code = TALLY_E_UNSPECIFIED;
  tally_run_info none = {0};
  if (!info)
    info = &none;
  const report_run *run = info;
  int rc;
  errno = 0; /* the writers set it when the stream fails */
  switch (fmt) {
  case TALLY_PROFILE_JSON: rc = report_write_json(p, run, f); break;
  case TALLY_PROFILE_CSV: rc = report_write_csv(p, f); break;
  case TALLY_PROFILE_LINES_CSV: rc = report_write_lines_csv(p, f); break;
  case TALLY_PROFILE_FOLDED: rc = report_write_folded(p, f); break;
  case TALLY_PROFILE_SPEEDSCOPE: rc = report_write_speedscope(p, run, f); break;
  case TALLY_PROFILE_CALLGRIND: rc = report_write_callgrind(p, run, f); break;
  case TALLY_PROFILE_GMON: return write_gmon(p, run, REPORT_GMON_SECONDS, NULL, f, err) ? -1 : 0;
  case TALLY_PROFILE_GMON_CYCLES: return write_gmon(p, run, REPORT_GMON_CYCLES, NULL, f, err) ? -1 : 0;
  default: return api_fail(err, TALLY_E_USAGE, "unknown profile format %d", (int)fmt);
  }
  if (rc != 0)
    return api_error(err, "%s", errno ? strerror(errno) : "out of memory");
  return 0;
}

int tally_export_profile_task(const tally_profile *p, const tally_run_info *info, tally_profile_format fmt,
                              size_t task, FILE *f, tally_error *err) {
  tally_error scratch;
  if (!err)
    err = &scratch;
  err->msg[0] = '\0';
  err->code = TALLY_E_UNSPECIFIED;
  const tally_task_profile *t;
  size_t n = tally_profile_tasks(p, &t);
  if (task >= n)
    return api_fail(err, TALLY_E_USAGE, "no task %zu: the profile has %zu", task, n);
  if (fmt != TALLY_PROFILE_GMON && fmt != TALLY_PROFILE_GMON_CYCLES)
    return api_fail(err, TALLY_E_USAGE, "per task: only gmon.out (the other exports have the task as their root frame)");
  tally_run_info none = {0};
  errno = 0;
  int rc = write_gmon(p, info ? info : &none, fmt == TALLY_PROFILE_GMON ? REPORT_GMON_SECONDS : REPORT_GMON_CYCLES,
                      &task, f, err);
  if (rc != 0 && err->code == TALLY_E_UNSPECIFIED)
    return api_error(err, "%s", errno ? strerror(errno) : "out of memory");
  return rc ? -1 : 0;
}

int tally_export_profile_text(const tally_sim *sim, const tally_profile *p, const tally_profile_text_opts *o,
                              FILE *f, tally_error *err) {
  char e[300];
  if (report_profile_text(sim, p, o, f, e, sizeof e) != 0) {
    api_fail(err, TALLY_E_USAGE, "%s", e);
    return 1;
  }
  return 0;
}

/* Runs `write` on a memory stream and hands back its buffer. */
typedef int (*writer)(void *ctx, FILE *f, tally_error *err);

static int to_memory(writer write, void *ctx, char **buf, size_t *len, tally_error *err) {
  *buf = NULL;
  *len = 0;
  FILE *f = open_memstream(buf, len);
  if (!f)
    return api_error(err, "out of memory");
  int rc = write(ctx, f, err);
  if (fclose(f) != 0 && rc >= 0)
    rc = api_error(err, "out of memory");
  if (rc < 0) {
    free(*buf);
    *buf = NULL;
    *len = 0;
  }
  return rc;
}

typedef struct profile_job {
  const tally_profile *p;
  const tally_run_info *info;
  tally_profile_format fmt;
} profile_job;

static int write_profile(void *ctx, FILE *f, tally_error *err) {
  profile_job *j = ctx;
  return tally_export_profile(j->p, j->info, j->fmt, f, err);
}

int tally_export_profile_mem(const tally_profile *p, const tally_run_info *info, tally_profile_format fmt,
                             char **buf, size_t *len, tally_error *err) {
  profile_job j = {p, info, fmt};
  return to_memory(write_profile, &j, buf, len, err);
}

int tally_export_profile_diff(const char *a_json, const char *b_json, tally_diff_measure measure, const char *signal,
                              uint64_t top, FILE *f, tally_error *err) {
  char e[600];
  diff_measure m = measure == TALLY_DIFF_INCLUSIVE ? BY_INCLUSIVE : measure == TALLY_DIFF_CALLS ? BY_CALLS : BY_SIGNAL;
  int rc = report_profile_diff(a_json, b_json, m, signal ? signal : "cycle", top, f, e, sizeof e);
  if (rc == REPORT_DIFF_INPUT)
    return api_fail(err, TALLY_E_INPUT, "%s", e);
  if (rc != 0)
    return api_error(err, "%s", e);
  return 0;
}

/* ---- stored runs ---- */

static report_format format_of(tally_run_format fmt) {
  return fmt == TALLY_RUN_CSV ? REPORT_CSV : fmt == TALLY_RUN_JSON ? REPORT_JSON : REPORT_TABLE;
}

int tally_export_run(tally_store *s, const char *db, uint64_t run_id, tally_run_format fmt, unsigned parts, FILE *f,
                     tally_error *err) {
  char e[RUN_EXPORT_ERR];
  if (fmt == TALLY_RUN_CSV && parts == (TALLY_RUN_INTERVALS | TALLY_RUN_TOTALS))
    return api_fail(err, TALLY_E_USAGE, "CSV is one table: the intervals or the totals, not both");
  if (!parts)
    parts = fmt == TALLY_RUN_CSV ? TALLY_RUN_INTERVALS : TALLY_RUN_INTERVALS | TALLY_RUN_TOTALS;
  run_export_opts o = {.format = format_of(fmt), .parts = parts};
  int rc = run_export(s->st, db, run_id, &o, f, e);
  if (rc < 0)
    return api_fail(err, TALLY_E_INPUT, "%s", e);
  if (err) {
    snprintf(err->msg, sizeof err->msg, "%.500s", e);
    err->code = TALLY_E_UNSPECIFIED;
  }
  return rc == RUN_EXPORT_NOT_WHOLE ? TALLY_EXPORT_NOT_WHOLE : 0;
}

typedef struct run_job {
  tally_store *s;
  const char *db;
  uint64_t run_id;
  tally_run_format fmt;
  unsigned parts;
} run_job;

static int write_run(void *ctx, FILE *f, tally_error *err) {
  run_job *j = ctx;
  return tally_export_run(j->s, j->db, j->run_id, j->fmt, j->parts, f, err);
}

int tally_export_run_mem(tally_store *s, const char *db, uint64_t run_id, tally_run_format fmt, unsigned parts,
                         char **buf, size_t *len, tally_error *err) {
  run_job j = {s, db, run_id, fmt, parts};
  return to_memory(write_run, &j, buf, len, err);
}

int tally_export_runs(tally_store *s, const char *db, tally_run_format fmt, FILE *f, tally_error *err) {
  store_run_view *runs;
  size_t n;
  if (store_list_runs(s->st, &runs, &n) < 0)
    return api_fail(err, TALLY_E_INPUT, "%s", store_error(s->st));
  if (run_list_check(s->st, runs, n) < 0) {
    store_runs_free(runs, n);
    return api_fail(err, TALLY_E_INPUT, "%s", store_error(s->st));
  }
  if (fmt == TALLY_RUN_TABLE)
    run_list_table(f, db ? db : "the store", runs, n);
  else if (fmt == TALLY_RUN_CSV)
    run_list_csv(f, runs, n);
  else
    run_list_json(f, runs, n);
  store_runs_free(runs, n);
  return ferror(f) ? api_error(err, "could not write the list of runs") : 0;
}

void tally_json_string(FILE *f, const char *s) {
  if (s)
    json_write_string(f, s);
  else
    fputs("null", f);
}

void tally_csv_field(FILE *f, const char *s) { report_csv_field(f, s); }
