/*
 * A sweep's SQLite file: one row per finished point (keyed by what the
 * point is) and its metrics, written in one transaction so that a sweep
 * killed at any moment leaves whole points or none. Two points of one key
 * (an axis value given twice) are one simulation, kept once.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweep_int.h"

struct sw_db {
  sqlite3 *db;
  sqlite3_stmt *has, *put, *metric, *get;
};

static const char SCHEMA[] =
    "PRAGMA busy_timeout=10000;"
    "CREATE TABLE IF NOT EXISTS sweep_point(key TEXT PRIMARY KEY, program TEXT NOT NULL, config TEXT,"
    " sets TEXT NOT NULL, exit_code INTEGER NOT NULL, stop TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS sweep_metric(key TEXT NOT NULL REFERENCES sweep_point(key), name TEXT NOT NULL,"
    " value REAL NOT NULL, PRIMARY KEY(key, name)) WITHOUT ROWID;"
    /* the sweeps whose points the file holds, described (sweep_stored.c) */
    "CREATE TABLE IF NOT EXISTS sweep_spec(id INTEGER PRIMARY KEY, spec TEXT NOT NULL UNIQUE);";

static int prep(sw_db *d, const char *sql, sqlite3_stmt **st) {
  return sqlite3_prepare_v2(d->db, sql, -1, st, NULL) == SQLITE_OK ? 0 : -1;
}

sw_db *sw_db_open(const char *path, tally_error *err) {
  sw_db *d = calloc(1, sizeof *d);
  if (!d) {
    sw_err(err, TALLY_E_INTERNAL, "out of memory");
    return NULL;
  }
  if (sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK ||
      sqlite3_exec(d->db, SCHEMA, NULL, NULL, NULL) != SQLITE_OK ||
      prep(d, "SELECT 1 FROM sweep_point WHERE key=?", &d->has) ||
      prep(d, "INSERT OR IGNORE INTO sweep_point VALUES(?,?,?,?,?,?)", &d->put) ||
      prep(d, "INSERT OR IGNORE INTO sweep_metric VALUES(?,?,?)", &d->metric) ||
      prep(d, "SELECT value FROM sweep_metric WHERE key=? AND name=?", &d->get)) {
    sw_err(err, TALLY_E_INPUT, "%s: not a sweep file SQLite can open (%s)", path,
           d->db ? sqlite3_errmsg(d->db) : "out of memory");
    sw_db_close(d);
    return NULL;
  }
  return d;
}

void sw_db_close(sw_db *d) {
  if (!d)
    return;
  sqlite3_finalize(d->has);
  sqlite3_finalize(d->put);
  sqlite3_finalize(d->metric);
  sqlite3_finalize(d->get);
  sqlite3_close(d->db);
  free(d);
}

int sw_db_has(sw_db *d, const char *key) {
  sqlite3_reset(d->has);
  sqlite3_bind_text(d->has, 1, key, -1, SQLITE_TRANSIENT);
  int rc = sqlite3_step(d->has);
  return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static int put_metric(sw_db *d, const char *key, const char *name, double v) {
  sqlite3_reset(d->metric);
  sqlite3_bind_text(d->metric, 1, key, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(d->metric, 2, name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_double(d->metric, 3, v);
  return sqlite3_step(d->metric) == SQLITE_DONE ? 0 : -1;
}

static int put_all(sw_db *d, const sw_point *p, const sw_result *r) {
  char sets[4096] = "";
  size_t n = 0;
  for (size_t i = 0; i < p->sets.n && n < sizeof sets; i++)
    n += (size_t)snprintf(sets + n, sizeof sets - n, "%s%s", i ? " " : "", p->sets.v[i]);
  sqlite3_reset(d->put);
  sqlite3_bind_text(d->put, 1, p->key, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(d->put, 2, p->prog->name, -1, SQLITE_TRANSIENT);
  if (p->cfg)
    sqlite3_bind_text(d->put, 3, p->cfg->name, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null(d->put, 3);
  sqlite3_bind_text(d->put, 4, sets, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int(d->put, 5, r->exit_code);
  sqlite3_bind_text(d->put, 6, r->stop, -1, SQLITE_TRANSIENT);
  if (sqlite3_step(d->put) != SQLITE_DONE)
    return -1;
  /* counts are exact integers: below 2^53 a double holds them exactly */
  if (put_metric(d, p->key, "cycles", (double)r->cycles) || put_metric(d, p->key, "instructions", (double)r->instret) ||
      put_metric(d, p->key, "energy_uj", r->energy_j * 1e6) || put_metric(d, p->key, "exit", r->exit_code) ||
      put_metric(d, p->key, "cache_bytes", (double)r->cache_bytes))
    return -1;
  for (int i = 0; i < r->nsignals; i++)
    if (put_metric(d, p->key, tally_signal_name(i), (double)r->signals[i]))
      return -1;
  for (size_t i = 0; i < p->counters.n && i < SW_MAX_COUNTERS; i++)
    if (put_metric(d, p->key, p->counters.v[i], (double)r->counts[i]))
      return -1;
  return 0;
}

int sw_db_put(sw_db *d, const sw_point *p, const sw_result *r, tally_error *err) {
  if (sqlite3_exec(d->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK || put_all(d, p, r) != 0 ||
      sqlite3_exec(d->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
    sw_err(err, TALLY_E_INTERNAL, "cannot store point %zu: %s", p->index, sqlite3_errmsg(d->db));
    sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
  }
  return 0;
}

int sw_db_metric(sw_db *d, const char *key, const char *metric, double *v) {
  sqlite3_reset(d->get);
  sqlite3_bind_text(d->get, 1, key, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(d->get, 2, metric, -1, SQLITE_TRANSIENT);
  int rc = sqlite3_step(d->get);
  if (rc == SQLITE_ROW)
    *v = sqlite3_column_double(d->get, 0);
  return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int sw_db_note(sw_db *d, const tally_sweep *s, tally_error *err) {
  char *text = sw_spec_text(s);
  sqlite3_stmt *st = NULL;
  int rc = -1;
  if (text && prep(d, "INSERT OR IGNORE INTO sweep_spec(spec) VALUES(?)", &st) == 0) {
    sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
  }
  if (rc != 0)
    sw_err(err, TALLY_E_INTERNAL, "cannot record the sweep in its file: %s",
           text ? sqlite3_errmsg(d->db) : "out of memory");
  sqlite3_finalize(st);
  free(text);
  return rc;
}

/* The src file's sweep descriptions too, when it has them (a file of an
 * older tally has none). */
static const char MERGE_SPECS[] =
    "INSERT OR IGNORE INTO main.sweep_spec(spec) SELECT spec FROM src.sweep_spec ORDER BY id;";

static int src_has_specs(sw_db *d) {
  sqlite3_stmt *st = NULL;
  int has = prep(d, "SELECT 1 FROM src.sqlite_master WHERE type='table' AND name='sweep_spec'", &st) == 0 &&
            sqlite3_step(st) == SQLITE_ROW;
  sqlite3_finalize(st);
  return has;
}

long sw_db_merge(sw_db *d, const char *src, tally_error *err) {
  sqlite3_stmt *att = NULL;
  long before = 0, after = 0;
  sqlite3_stmt *cnt = NULL;
  if (prep(d, "ATTACH ? AS src", &att) != 0)
    goto fail;
  sqlite3_bind_text(att, 1, src, -1, SQLITE_TRANSIENT);
  int rc = sqlite3_step(att);
  sqlite3_finalize(att);
  if (rc != SQLITE_DONE || prep(d, "SELECT count(*) FROM main.sweep_point", &cnt) != 0)
    goto fail;
  if (sqlite3_step(cnt) == SQLITE_ROW)
    before = sqlite3_column_int64(cnt, 0);
  if (sqlite3_exec(d->db,
                   "BEGIN IMMEDIATE;"
                   "INSERT INTO main.sweep_metric SELECT * FROM src.sweep_metric WHERE key NOT IN"
                   " (SELECT key FROM main.sweep_point);"
                   "INSERT OR IGNORE INTO main.sweep_point SELECT * FROM src.sweep_point;",
                   NULL, NULL, NULL) != SQLITE_OK ||
      (src_has_specs(d) && sqlite3_exec(d->db, MERGE_SPECS, NULL, NULL, NULL) != SQLITE_OK) ||
      sqlite3_exec(d->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
    sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
    goto fail;
  }
  sqlite3_reset(cnt);
  if (sqlite3_step(cnt) == SQLITE_ROW)
    after = sqlite3_column_int64(cnt, 0);
  sqlite3_finalize(cnt);
  sqlite3_exec(d->db, "DETACH src", NULL, NULL, NULL);
  return after - before;
fail:
  sw_err(err, TALLY_E_INPUT, "cannot merge %s: %s", src, sqlite3_errmsg(d->db));
  sqlite3_finalize(cnt);
  sqlite3_exec(d->db, "DETACH src", NULL, NULL, NULL);
  return -1;
}

long tally_sweep_stored(const char *db, tally_error *err) {
  sqlite3 *h = NULL;
  sqlite3_stmt *st = NULL;
  long n = -1;
  int rc = sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL);
  if (rc == SQLITE_CANTOPEN) {
    sqlite3_close(h);
    return 0;
  }
  if (rc == SQLITE_OK && sqlite3_prepare_v2(h, "SELECT count(*) FROM sweep_point", -1, &st, NULL) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    n = (long)sqlite3_column_int64(st, 0);
  if (n < 0)
    sw_err(err, TALLY_E_INPUT, "%s: not a sweep file (%s)", db, h ? sqlite3_errmsg(h) : "out of memory");
  sqlite3_finalize(st);
  sqlite3_close(h);
  return n;
}
