/*
 * The JSON API under the page (docs/tally-serve.md lists it): routes a
 * request to programs.c, jobs.c or stored.c. Paths are under /api.
 */
#include <dirent.h>
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
  return json_pack("{s:s,s:o,s:o,s:o,s:{s:I,s:I,s:i,s:i,s:i},s:s}", "version", "0.1.0", "cores", cores(), "boards",
                   boards(), "signals",
                   catalog(), "limits", "max_upload", (json_int_t)c->lim.max_upload, "max_insns",
                   (json_int_t)c->lim.max_insns, "cpu_seconds", c->lim.cpu_seconds, "wall_seconds",
                   c->lim.wall_seconds, "max_jobs", c->lim.max_jobs, "db", c->db);
}

/* "/jobs/12/stop" with prefix "/jobs/" -> 12, rest "/stop". */
static bool number_after(const char *path, const char *prefix, unsigned long long *n, const char **rest) {
  size_t pl = strlen(prefix);
  if (strncmp(path, prefix, pl) != 0 || path[pl] < '0' || path[pl] > '9')
    return false;
  char *end;
  *n = strtoull(path + pl, &end, 10);
  *rest = end;
  return true;
}

static void jobs(serve_ctx *c, const char *method, const char *path, serve_query_fn q, void *conn,
                 const char *body, serve_reply *r) {
  unsigned long long id;
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
  if (!number_after(path, "/jobs/", &id, &rest) || id > 0xffffffffull)
    return serve_error(r, 404, "no such API path: %s", path);
  if (*rest == 0 && strcmp(method, "GET") == 0) {
    const char *since = q(conn, "since");
    r->json = serve_job_poll(c, (unsigned)id, since ? strtoull(since, NULL, 10) : 0);
    if (!r->json)
      serve_error(r, 404, "no run %llu", id);
  } else if (strcmp(rest, "/stop") == 0 && strcmp(method, "POST") == 0) {
    if (serve_job_stop(c, (unsigned)id) != 0)
      return serve_error(r, 404, "no run %llu", id);
    r->json = json_pack("{s:b}", "stopping", 1);
  } else if (strcmp(rest, "/profile") == 0 && strcmp(method, "GET") == 0) {
    r->body = serve_job_file(c, (unsigned)id, "profile.json", &r->len);
    r->type = "application/json";
    if (!r->body)
      serve_error(r, 404, "run %llu has no profile (still running, or run without one)", id);
  } else {
    serve_error(r, 405, "%s %s is not part of the API", method, path);
  }
}

void serve_api(serve_ctx *c, const char *method, const char *path, serve_query_fn q, void *conn,
               const char *body, size_t len, serve_reply *r) {
  (void)len;
  unsigned long long id;
  const char *rest;
  r->status = 200;
  if (strcmp(path, "/info") == 0 && strcmp(method, "GET") == 0) {
    r->json = info(c);
  } else if (number_after(path, "/programs/", &id, &rest) && !*rest && strcmp(method, "GET") == 0) {
    r->json = id <= 0xffffffffull ? serve_program_json(c, (unsigned)id) : NULL;
    if (!r->json)
      serve_error(r, 404, "no program %llu", id);
  } else if (strcmp(path, "/programs") == 0) {
    serve_error(r, 400, "upload a program as multipart/form-data (fields elf, or bin + map + load_addr)");
  } else if (strncmp(path, "/jobs", 5) == 0) {
    jobs(c, method, path, q, conn, body, r);
  } else if (strncmp(path, "/runs", 5) == 0) {
    serve_stored(c, method, path + 5, q, conn, r);
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
