/*
 * Stored runs (the store `tally report` reads): /api/runs lists them,
 * /api/runs/ID gives one (counters in plain words, totals and their
 * verification, the intervals for the plot), DELETE removes one,
 * /api/runs/ID/export?format=csv|json downloads it as `tally report` would
 * write it. Each request opens its own connection to the store. Run ids
 * travel as "0x" + 16 hex digits (as tally prints them): JSON numbers lose
 * digits past 2^53.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"
#include "tally/export.h"
#include "tally/store.h"

#define MAX_ROWS 100000 /* intervals sent for a plot */

json_t *serve_run_id(uint64_t id) {
  char s[24];
  snprintf(s, sizeof s, "0x%016" PRIx64, id);
  return json_string(s);
}

static json_t *run_json(const tally_store_run *r) {
  return json_pack("{s:o,s:s?,s:s?,s:I,s:I,s:I,s:I,s:s?,s:s?,s:s,s:s?,s:I}", "id", serve_run_id(r->run_id),
                   "program", r->program, "core", r->core, "counters", (json_int_t)r->counters, "width",
                   (json_int_t)r->width, "arrs", (json_int_t)r->arrs, "period", (json_int_t)r->period, "started",
                   r->started, "finished", r->finished, "status", tally_store_status_name(r->status), "note",
                   r->note, "intervals", (json_int_t)r->intervals);
}

static void list(tally_store *s, serve_reply *r) {
  tally_store_run *runs;
  size_t n;
  tally_error err;
  if (tally_store_list(s, &runs, &n, &err) != 0)
    return serve_error(r, 500, "%s", err.msg);
  json_t *a = json_array();
  for (size_t i = n; i-- > 0;) /* newest first */
    json_array_append_new(a, run_json(&runs[i]));
  tally_store_list_free(runs, n);
  r->json = json_pack("{s:o}", "runs", a);
}

static int add_interval(void *ctx, const tally_store_interval *iv) {
  json_t *rows = ctx;
  if (json_array_size(rows) >= MAX_ROWS)
    return 1;
  json_t *row = json_pack("[I,I]", (json_int_t)iv->index, (json_int_t)iv->cycle_end);
  for (uint32_t i = 0; i < iv->n; i++)
    json_array_append_new(row, json_integer((json_int_t)iv->values[i]));
  json_array_append_new(rows, row);
  return 0;
}

static json_t *totals_json(const tally_store_totals *t) {
  json_t *stored = json_array(), *board = json_array();
  for (uint32_t i = 0; i < t->n; i++)
    json_array_append_new(stored, json_integer((json_int_t)t->stored[i]));
  for (uint32_t i = 0; t->has_board && i < t->nboard; i++)
    json_array_append_new(board, json_integer((json_int_t)t->board[i]));
  return json_pack("{s:o,s:o,s:b,s:I,s:I}", "stored", stored, "board", board, "whole", t->whole, "missing",
                   (json_int_t)t->missing, "partial", (json_int_t)t->intervals_partial);
}

static void one(tally_store *s, uint64_t id, serve_reply *r) {
  tally_store_run run;
  tally_error err;
  int f = tally_store_get_run(s, id, &run, &err);
  if (f <= 0)
    return f == 0 ? serve_error(r, 404, "no run 0x%016" PRIx64 " in the store", id) : serve_error(r, 500, "%s", err.msg);
  json_t *j = run_json(&run);
  tally_store_run_clear(&run);
  tally_store_counter *c;
  size_t n;
  tally_store_totals t;
  json_t *rows = json_array();
  if (tally_store_counters(s, id, &c, &n, &err) != 0 || tally_store_get_totals(s, id, &t, &err) != 0 ||
      tally_store_each_interval(s, id, add_interval, rows, &err) < 0) {
    json_decref(j), json_decref(rows);
    return serve_error(r, 500, "%s", err.msg);
  }
  json_t *cs = json_array();
  for (size_t i = 0; i < n; i++)
    json_array_append_new(cs, json_pack("{s:I,s:s?,s:s?,s:s?,s:b}", "index", (json_int_t)c[i].index, "signal",
                                        c[i].signal, "where", c[i].where, "label", c[i].label, "enabled",
                                        c[i].enabled));
  tally_store_counters_free(c, n);
  json_object_set_new(j, "events", cs);
  json_object_set_new(j, "totals", totals_json(&t));
  json_object_set_new(j, "rows", rows);
  tally_store_totals_clear(&t);
  r->json = j;
}

static void export(serve_ctx *c, tally_store *s, uint64_t id, const char *fmt, serve_reply *r) {
  tally_error err;
  bool csv = fmt && strcmp(fmt, "csv") == 0;
  if (!fmt || (!csv && strcmp(fmt, "json") != 0))
    return serve_error(r, 400, "export format must be csv or json");
  int rc = tally_export_run_mem(s, c->db, id, csv ? TALLY_RUN_CSV : TALLY_RUN_JSON, 0, &r->body, &r->len, &err);
  if (rc < 0)
    return serve_error(r, 500, "%s", err.msg);
  r->type = csv ? "text/csv; charset=utf-8" : "application/json";
  snprintf(r->disposition, sizeof r->disposition, "attachment; filename=\"run-0x%016" PRIx64 ".%s\"", id,
           csv ? "csv" : "json");
}

void serve_stored(serve_ctx *c, const char *method, const char *path, serve_query_fn q, void *conn,
                  serve_reply *r) {
  tally_error err;
  tally_store *s = tally_store_open(c->db, true, &err);
  if (!s)
    return serve_error(r, 500, "the store %s: %s", c->db, err.msg);
  uint64_t id;
  const char *rest;
  bool get = strcmp(method, "GET") == 0;
  if (*path == 0 && get) {
    list(s, r);
  } else if (*path != '/') {
    serve_error(r, 404, "no such API path: /runs%s", path);
  } else if (!serve_path_id(path + 1, "run id", true, UINT64_MAX, &id, &rest, r)) {
    /* 400, said */
  } else if (*rest == 0 && get) {
    one(s, id, r);
  } else if (*rest == 0 && strcmp(method, "DELETE") == 0) {
    int f = tally_store_delete(s, id, &err);
    if (f < 0)
      serve_error(r, 500, "%s", err.msg);
    else if (f == 0)
      serve_error(r, 404, "no run 0x%016" PRIx64 " in the store", id);
    else
      r->json = json_pack("{s:o}", "deleted", serve_run_id(id));
  } else if (strcmp(rest, "/export") == 0 && get) {
    export(c, s, id, q(conn, "format"), r);
  } else {
    serve_error(r, 405, "%s /api/runs%s is not part of the API", method, path);
  }
  tally_store_close(s);
}
