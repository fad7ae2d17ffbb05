/*
 * Stored runs (the store `tally report` reads): /api/runs lists them,
 * /api/runs/ID gives one (counters in plain words, totals and their
 * verification, the intervals for the plot), DELETE removes one,
 * /api/runs/ID/export?format=csv|json downloads it as `tally report` would
 * write it. Each request opens its own connection to the store. A run of
 * the page also has what the store does not keep, in DIR/runs/ (the
 * request's overrides and pairs, the end's cycles, the user's note, the
 * exact profile): merged into the list and the run, the profile at
 * /api/runs/ID/profile, the note set by PUT /api/runs/ID/note. Run ids
 * travel as "0x" + 16 hex digits (as tally prints them): JSON numbers lose
 * digits past 2^53.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve.h"
#include "tally/export.h"
#include "tally/store.h"

#define MAX_ROWS 100000 /* intervals sent for a plot */

json_t *serve_run_id(uint64_t id) {
  char s[24];
  snprintf(s, sizeof s, "0x%016" PRIx64, id);
  return json_string(s);
}

#define MAX_NOTE 500 /* bytes of a user's note */

static void kept_path(serve_ctx *c, uint64_t id, const char *suffix, char *out, size_t size) {
  snprintf(out, size, "%s/runs/0x%016" PRIx64 "%s", c->dir, id, suffix);
}

void serve_run_keep(serve_ctx *c, const char *jobdir, json_t *end) {
  const char *rid = json_string_value(json_object_get(end, "run_id"));
  uint64_t id;
  if (!rid || !serve_parse_u64(rid, strlen(rid), true, UINT64_MAX, &id) || id == 0)
    return;
  char path[PATH_MAX + 64], to[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/job.json", jobdir);
  json_t *job = json_load_file(path, 0, NULL);
  if (!job)
    return;
  json_t *k = json_object();
  const char *from_job[] = {"name", "core", "board", "sets", "pairs", "args", "interval", "counters", "width", "arrs"};
  for (size_t i = 0; i < sizeof from_job / sizeof from_job[0]; i++)
    if (json_object_get(job, from_job[i]))
      json_object_set(k, from_job[i], json_object_get(job, from_job[i]));
  const char *from_end[] = {"cycles", "insns", "stop", "exit_code"};
  for (size_t i = 0; i < sizeof from_end / sizeof from_end[0]; i++)
    if (json_object_get(end, from_end[i]))
      json_object_set(k, from_end[i], json_object_get(end, from_end[i]));
  json_decref(job);
  snprintf(path, sizeof path, "%s/profile.json", jobdir);
  kept_path(c, id, ".profile.json", to, sizeof to);
  unlink(to);
  json_object_set_new(k, "profile", json_boolean(link(path, to) == 0));
  kept_path(c, id, ".json", to, sizeof to);
  json_dump_file(k, to, JSON_COMPACT);
  json_decref(k);
}

static json_t *kept(serve_ctx *c, uint64_t id) {
  char path[PATH_MAX + 64];
  kept_path(c, id, ".json", path, sizeof path);
  return json_load_file(path, 0, NULL);
}

/* The kept fields join the run's (the store's win where both have one). */
static void add_kept(serve_ctx *c, uint64_t id, json_t *run) {
  json_t *k = kept(c, id);
  if (!json_is_object(k)) {
    json_decref(k);
    return;
  }
  const char *key;
  json_t *v;
  json_object_foreach(k, key, v) {
    if (strcmp(key, "note") == 0)
      json_object_set(run, "user_note", v);
    else if (!json_object_get(run, key) || json_is_null(json_object_get(run, key)))
      json_object_set(run, key, v);
  }
  json_decref(k);
}

char *serve_read_file(const char *path, size_t max_bytes, size_t *len) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  struct stat st;
  char *buf = NULL;
  size_t n = 0;
  int err = 0;
  if (fstat(fd, &st) != 0)
    err = errno;
  else if (!S_ISREG(st.st_mode))
    err = EINVAL; /* never a FIFO or a device, which may have no end */
  else if ((uint64_t)st.st_size > max_bytes)
    err = EFBIG;
  else if (!(buf = malloc((size_t)st.st_size + 1)))
    err = ENOMEM;
  /* read at most the size fstat gave, plus one byte to see that it grew */
  for (size_t want = err ? 0 : (size_t)st.st_size + 1; !err && n < want;) {
    ssize_t got = read(fd, buf + n, want - n);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      err = errno;
    else if (got == 0)
      break;
    else
      n += (size_t)got;
  }
  if (!err && n > (size_t)st.st_size)
    err = EFBIG; /* written to while read: refused rather than cut */
  close(fd);
  if (err) {
    free(buf);
    errno = err;
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

static void set_note(serve_ctx *c, tally_store *s, uint64_t id, const char *body, serve_reply *r) {
  tally_store_run run;
  tally_error err;
  int f = tally_store_get_run(s, id, &run, &err);
  if (f <= 0)
    return f == 0 ? serve_error(r, 404, "no run 0x%016" PRIx64 " in the store", id) : serve_error(r, 500, "%s", err.msg);
  tally_store_run_clear(&run);
  json_error_t je;
  json_t *req = body ? json_loads(body, 0, &je) : NULL;
  json_t *note = json_object_get(req, "note");
  if (!json_is_string(note) || json_string_length(note) > MAX_NOTE) {
    json_decref(req);
    return serve_error(r, 400, "the request must be {\"note\": a string of at most %d bytes}", MAX_NOTE);
  }
  json_t *k = kept(c, id);
  if (!json_is_object(k)) {
    json_decref(k);
    k = json_object();
  }
  json_object_set(k, "note", note);
  char path[PATH_MAX + 64];
  kept_path(c, id, ".json", path, sizeof path);
  int rc = json_dump_file(k, path, JSON_COMPACT);
  json_decref(k);
  if (rc != 0) {
    json_decref(req);
    return serve_error(r, 500, "cannot keep the note: %s", strerror(errno));
  }
  r->json = json_pack("{s:o,s:O}", "id", serve_run_id(id), "note", note);
  json_decref(req);
}

static json_t *run_json(const tally_store_run *r) {
  return json_pack("{s:o,s:s?,s:s?,s:I,s:I,s:I,s:I,s:s?,s:s?,s:s,s:s?,s:I}", "id", serve_run_id(r->run_id),
                   "program", r->program, "core", r->core, "counters", (json_int_t)r->counters, "width",
                   (json_int_t)r->width, "arrs", (json_int_t)r->arrs, "period", (json_int_t)r->period, "started",
                   r->started, "finished", r->finished, "status", tally_store_status_name(r->status), "note",
                   r->note, "intervals", (json_int_t)r->intervals);
}

static void list(serve_ctx *c, tally_store *s, serve_reply *r) {
  tally_store_run *runs;
  size_t n;
  tally_error err;
  if (tally_store_list(s, &runs, &n, &err) != 0)
    return serve_error(r, 500, "%s", err.msg);
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++) { /* oldest first, as tally report lists them */
    json_t *j = run_json(&runs[i]);
    add_kept(c, runs[i].run_id, j);
    json_array_append_new(a, j);
  }
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

static void one(serve_ctx *ctx, tally_store *s, uint64_t id, serve_reply *r) {
  tally_store_run run;
  tally_error err;
  int f = tally_store_get_run(s, id, &run, &err);
  if (f <= 0)
    return f == 0 ? serve_error(r, 404, "no run 0x%016" PRIx64 " in the store", id) : serve_error(r, 500, "%s", err.msg);
  json_t *j = run_json(&run);
  tally_store_run_clear(&run);
  add_kept(ctx, id, j);
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
    json_array_append_new(cs, json_pack("{s:I,s:s?,s:s?,s:s?,s:b,s:s?}", "index", (json_int_t)c[i].index, "signal",
                                        c[i].signal, "where", c[i].where, "label", c[i].label, "enabled",
                                        c[i].enabled, "task", c[i].task));
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
                  const char *body, serve_reply *r) {
  tally_error err;
  tally_store *s = tally_store_open(c->db, true, &err);
  if (!s)
    return serve_error(r, 500, "the store %s: %s", c->db, err.msg);
  uint64_t id;
  const char *rest;
  bool get = strcmp(method, "GET") == 0;
  if (*path == 0 && get) {
    list(c, s, r);
  } else if (*path != '/') {
    serve_error(r, 404, "no such API path: /runs%s", path);
  } else if (!serve_path_id(path + 1, "run id", true, UINT64_MAX, &id, &rest, r)) {
    /* 400, said */
  } else if (*rest == 0 && get) {
    one(c, s, id, r);
  } else if (*rest == 0 && strcmp(method, "DELETE") == 0) {
    int f = tally_store_delete(s, id, &err);
    if (f < 0)
      serve_error(r, 500, "%s", err.msg);
    else if (f == 0)
      serve_error(r, 404, "no run 0x%016" PRIx64 " in the store", id);
    else {
      char kp[PATH_MAX + 64];
      kept_path(c, id, ".json", kp, sizeof kp);
      unlink(kp);
      kept_path(c, id, ".profile.json", kp, sizeof kp);
      unlink(kp);
      r->json = json_pack("{s:o}", "deleted", serve_run_id(id));
    }
  } else if (strcmp(rest, "/profile") == 0 && get) {
    char kp[PATH_MAX + 64];
    kept_path(c, id, ".profile.json", kp, sizeof kp);
    r->body = serve_read_file(kp, SERVE_MAX_FILE, &r->len);
    r->type = "application/json";
    if (!r->body && errno == EFBIG)
      serve_error(r, 500, "run 0x%016" PRIx64 "'s profile is larger than %zu MiB", id, SERVE_MAX_FILE >> 20);
    else if (!r->body)
      serve_error(r, 404, "run 0x%016" PRIx64 " has no profile kept (run from the page with the exact profile)", id);
  } else if (strcmp(rest, "/note") == 0 && strcmp(method, "PUT") == 0) {
    set_note(c, s, id, body, r);
  } else if (strcmp(rest, "/export") == 0 && get) {
    export(c, s, id, q(conn, "format"), r);
  } else {
    serve_error(r, 405, "%s /api/runs%s is not part of the API", method, path);
  }
  tally_store_close(s);
}
