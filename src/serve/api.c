/*
 * The JSON API under the page (docs/tally-serve.md lists it): routes a
 * request to programs.c, jobs.c or stored.c. Paths are under /api.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"
#include "tally/tally.h"

void serve_error(serve_reply *r, int status, const char *fmt, ...) {
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  r->status = status;
  r->json = json_pack("{s:s}", "error", msg);
}

/* The shipped core models: the .ini files of the first cores folder. */
static json_t *cores(void) {
  json_t *a = json_array();
  char dir[512];
  snprintf(dir, sizeof dir, "%s", tally_core_dirs());
  char *colon = strchr(dir, ':');
  if (colon)
    *colon = 0;
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n > 4 && strcmp(e->d_name + n - 4, ".ini") == 0)
      json_array_append_new(a, json_stringn(e->d_name, n - 4));
  }
  if (d)
    closedir(d);
  return a;
}

/* The boards a run may name (docs/boards.md). */
static json_t *boards(void) {
  json_t *a = json_array();
  char names[2048];
  tally_board_names(names, sizeof names);
  char *save = NULL;
  for (char *t = strtok_r(names, ", ", &save); t; t = strtok_r(NULL, ", ", &save))
    json_array_append_new(a, json_string(t));
  return a;
}

static json_t *catalog(void) {
  json_t *a = json_array();
  for (int i = 0; i < tally_signal_count(); i++)
    json_array_append_new(a, json_pack("{s:i,s:s,s:s,s:s}", "id", i, "name", tally_signal_name(i), "meaning",
                                       tally_signal_meaning(i), "noun", tally_signal_noun(i)));
  return a;
}

static json_t *info(serve_ctx *c) {
  return json_pack("{s:s,s:o,s:o,s:o,s:{s:I,s:I,s:I,s:I,s:i,s:i,s:i},s:s}", "version", "0.1.0", "cores", cores(), "boards", boards(),
                   "signals", catalog(), "limits", "max_upload", (json_int_t)c->lim.max_upload, "max_insns",
                   (json_int_t)c->lim.max_insns, "max_cycles", (json_int_t)c->lim.max_cycles, "max_intervals",
                   (json_int_t)c->lim.max_intervals, "cpu_seconds", c->lim.cpu_seconds, "wall_seconds",
                   c->lim.wall_seconds, "max_jobs", c->lim.max_jobs, "db", c->db);
}

bool serve_parse_u64(const char *s, size_t n, bool hex, uint64_t max, uint64_t *out) {
  uint64_t v = 0;
  unsigned base = 10;
  if (hex && n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s += 2, n -= 2, base = 16;
    if (n > 16)
      return false;
  }
  if (n == 0 || n > 20)
    return false;
  for (size_t i = 0; i < n; i++) {
    char ch = s[i];
    unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0')
               : base == 16 && ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
               : base == 16 && ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10) : 99;
    if (d >= base || v > (UINT64_MAX - d) / base)
      return false;
    v = v * base + d;
  }
  if (v > max)
    return false;
  *out = v;
  return true;
}

/* What a bad number is said to be instead. */
static const char *expected(bool hex) {
  return hex ? "a decimal number or 0x and up to 16 hex digits" : "a decimal number";
}

bool serve_path_id(const char *path, const char *what, bool hex, uint64_t max, uint64_t *id, const char **rest,
                   serve_reply *r) {
  size_t n = strcspn(path, "/");
  if (serve_parse_u64(path, n, hex, max, id)) {
    *rest = path + n;
    return true;
  }
  char range[48] = "";
  if (max < UINT64_MAX)
    snprintf(range, sizeof range, " from 0 to %llu", (unsigned long long)max);
  serve_error(r, 400, "%s '%.*s' is not %s%s", what, (int)(n > 40 ? 40 : n), path, expected(hex), range);
  return false;
}

bool serve_query_u64(serve_query_fn q, void *conn, const char *key, uint64_t max, uint64_t *out, serve_reply *r) {
  const char *v = q(conn, key);
  if (!v)
    return true;
  if (serve_parse_u64(v, strlen(v), false, max, out))
    return true;
  serve_error(r, 400, "?%s='%.40s' is not a decimal number from 0 to %llu", key, v, (unsigned long long)max);
  return false;
}

static void jobs(serve_ctx *c, const char *method, const char *path, serve_query_fn q, void *conn,
                 const char *body, serve_reply *r) {
  uint64_t id;
  const char *rest;
  char msg[600];
  if (strcmp(path, "/jobs") == 0 && strcmp(method, "POST") == 0) {
    json_error_t je;
    json_t *req = json_loads(body, 0, &je);
    if (!req)
      return serve_error(r, 400, "the request is not JSON: %s (line %d)", je.text, je.line);
    int status;
    r->json = serve_job_start(c, req, &status, msg, sizeof msg);
    json_decref(req);
    if (!r->json)
      serve_error(r, status, "%s", msg);
    return;
  }
  if (strncmp(path, "/jobs/", 6) != 0)
    return serve_error(r, 404, "no such API path: %s", path);
  if (!serve_path_id(path + 6, "run number", false, UINT32_MAX, &id, &rest, r))
    return;
  if (*rest == 0 && strcmp(method, "GET") == 0) {
    uint64_t since = 0, limit = SERVE_POLL_EVENTS;
    if (!serve_query_u64(q, conn, "since", UINT64_MAX, &since, r) ||
        !serve_query_u64(q, conn, "limit", SERVE_POLL_EVENTS, &limit, r))
      return;
    int f = serve_job_poll(c, (unsigned)id, since, limit, &r->body, &r->len);
    r->type = "application/json";
    if (f == -1)
      serve_error(r, 404, "no run %llu", (unsigned long long)id);
    else if (f != 0)
      serve_error(r, 500, "out of memory");
  } else if (strcmp(rest, "/stop") == 0 && strcmp(method, "POST") == 0) {
    if (serve_job_stop(c, (unsigned)id) != 0)
      return serve_error(r, 404, "no run %llu", (unsigned long long)id);
    r->json = json_pack("{s:b}", "stopping", 1);
  } else if (strcmp(rest, "/profile") == 0 && strcmp(method, "GET") == 0) {
    r->body = serve_job_file(c, (unsigned)id, "profile.json", &r->len);
    r->type = "application/json";
    if (!r->body && errno == EFBIG)
      serve_error(r, 500, "run %llu's profile is larger than %zu MiB", (unsigned long long)id, SERVE_MAX_FILE >> 20);
    else if (!r->body)
      serve_error(r, 404, "run %llu has no profile (still running, or run without one)", (unsigned long long)id);
  } else {
    serve_error(r, 405, "%s %s is not part of the API", method, path);
  }
}

void serve_api(serve_ctx *c, const char *method, const char *path, serve_query_fn q, void *conn,
               const char *body, size_t len, serve_reply *r) {
  (void)len;
  uint64_t id;
  const char *rest;
  r->status = 200;
  if (strcmp(path, "/info") == 0 && strcmp(method, "GET") == 0) {
    r->json = info(c);
  } else if (strncmp(path, "/programs/", 10) == 0) {
    if (!serve_path_id(path + 10, "program number", false, UINT32_MAX, &id, &rest, r))
      return;
    if (*rest || strcmp(method, "GET") != 0)
      return serve_error(r, 405, "%s %s is not part of the API", method, path);
    r->json = serve_program_json(c, (unsigned)id);
    if (!r->json)
      serve_error(r, 404, "no program %llu", (unsigned long long)id);
  } else if (strcmp(path, "/programs") == 0) {
    serve_error(r, 400, "upload a program as multipart/form-data (fields elf, or bin + map + load_addr)");
  } else if (strncmp(path, "/jobs", 5) == 0) {
    jobs(c, method, path, q, conn, body, r);
  } else if (strncmp(path, "/runs", 5) == 0) {
    serve_stored(c, method, path + 5, q, conn, body, r);
  } else if (strncmp(path, "/sweeps", 7) == 0) {
    serve_sweeps(c, method, path + 7, r);
  } else {
    serve_error(r, 404, "no such API path: %s", path);
  }
}

void serve_api_upload(serve_ctx *c, const char *path, const serve_upload *u, serve_reply *r) {
  char msg[600];
  if (strcmp(path, "/programs") != 0)
    return serve_error(r, 404, "uploads go to /api/programs");
  r->json = serve_program_add(c, u, msg, sizeof msg);
  r->status = r->json ? 201 : 0;
  if (!r->json)
    serve_error(r, 422, "%s", msg);
}
