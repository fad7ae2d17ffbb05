/*
 * Sweeps (`tally sweep`'s results) for the page: /api/sweeps lists the
 * sweeps of the file given with --sweep-db, /api/sweeps/ID is one of them
 * exactly as `tally sweep --json` writes it (its name, axes, metrics, and
 * every stored point with its Pareto membership). The file is read per
 * request, so a sweep still running shows the points finished so far.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"
#include "tally/sweep.h"

static void list(serve_ctx *c, serve_reply *r) {
  if (!c->sweep_db) {
    r->json = json_pack("{s:n,s:[]}", "db", "sweeps");
    return;
  }
  tally_sweep_entry *v;
  size_t n;
  tally_error err;
  if (tally_sweep_list(c->sweep_db, &v, &n, &err) != 0)
    return serve_error(r, 500, "%s", err.msg);
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++)
    json_array_append_new(a, json_pack("{s:I,s:s,s:I,s:I}", "id", (json_int_t)v[i].id, "name", v[i].name, "points",
                                       (json_int_t)v[i].points, "stored", (json_int_t)v[i].stored));
  tally_sweep_list_free(v, n);
  r->json = json_pack("{s:s,s:o}", "db", c->sweep_db, "sweeps", a);
}

/* The sweep's JSON export, written into memory and sent as it is. */
static void one(serve_ctx *c, long id, serve_reply *r) {
  if (!c->sweep_db)
    return serve_error(r, 404, "no sweep file: start tally serve with --sweep-db FILE");
  tally_sweep *s = tally_sweep_new();
  tally_error err = {{0}, TALLY_E_INTERNAL};
  char *buf = NULL;
  size_t len = 0;
  FILE *f = s ? open_memstream(&buf, &len) : NULL;
  int rc = f ? tally_sweep_load_stored(s, c->sweep_db, id, &err) : (snprintf(err.msg, sizeof err.msg, "out of memory"), -1);
  if (rc == 0)
    rc = tally_sweep_write(s, c->sweep_db, TALLY_SWEEP_JSON, f, &err);
  if (f && fclose(f) != 0 && rc == 0)
    rc = (snprintf(err.msg, sizeof err.msg, "out of memory"), -1);
  tally_sweep_free(s);
  if (rc != 0) {
    free(buf);
    return serve_error(r, err.code == TALLY_E_USAGE ? 404 : 500, "%s", err.msg);
  }
  r->body = buf;
  r->len = len;
  r->type = "application/json";
}

void serve_sweeps(serve_ctx *c, const char *method, const char *path, serve_reply *r) {
  if (strcmp(method, "GET") != 0)
    return serve_error(r, 405, "%s /api/sweeps%s is not part of the API", method, path);
  if (*path == 0)
    return list(c, r);
  uint64_t id;
  const char *rest;
  if (path[0] != '/')
    return serve_error(r, 404, "no such API path: /sweeps%s", path);
  if (!serve_path_id(path + 1, "sweep id", false, LONG_MAX, &id, &rest, r))
    return;
  if (*rest)
    return serve_error(r, 404, "no such API path: /sweeps%s", path);
  one(c, (long)id, r);
}
