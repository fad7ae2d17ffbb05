/*
 * The store's handle: opening a file (and making or checking the schema),
 * errors, the batching of writes into transactions, closing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "store_internal.h"
#include "store_read.h"

/* Version 1. A table per thing kept; values of an interval chunk as one
 * JSON array (measured faster than a row per value; bench/collector), which
 * any SQLite reader takes apart with json_each (the interval_values view). */
static const char schema_sql[] =
  "CREATE TABLE tally_schema(version INTEGER NOT NULL);"
  "CREATE TABLE runs("
  " ord INTEGER PRIMARY KEY,"          /* the order runs were first seen */
  " run_id INTEGER NOT NULL UNIQUE,"   /* the board's 64-bit id, two's complement */
  " program TEXT, core TEXT,"
  " counters INTEGER, width INTEGER, arrs INTEGER,"
  " period INTEGER, freq_mhz REAL,"
  " started TEXT NOT NULL, finished TEXT,"
  " status TEXT NOT NULL CHECK(status IN ('running', 'complete', 'incomplete')),"
  " note TEXT,"
  " intervals_sent INTEGER,"           /* the board's count, from its final packet */
  " received INTEGER NOT NULL DEFAULT 0,"
  " duplicates INTEGER NOT NULL DEFAULT 0);"
  "CREATE TABLE counters("
  " run_id INTEGER NOT NULL, counter INTEGER NOT NULL,"
  " signal TEXT NOT NULL, anywhere INTEGER NOT NULL, lo INTEGER, hi INTEGER,"
  " location TEXT, label TEXT, enabled INTEGER NOT NULL,"
  " PRIMARY KEY(run_id, counter)) WITHOUT ROWID;"
  "CREATE TABLE intervals("
  " run_id INTEGER NOT NULL, seq INTEGER NOT NULL, interval INTEGER NOT NULL,"
  " cycle_begin INTEGER NOT NULL, cycle_end INTEGER NOT NULL,"
  " first_counter INTEGER NOT NULL, n INTEGER NOT NULL,"
  " vals TEXT NOT NULL,"               /* [v_first, ..., v_first+n-1] */
  " saturated TEXT,"                   /* [counter, ...] that hit 2^width - 1, NULL if none */
  " PRIMARY KEY(run_id, seq)) WITHOUT ROWID;"
  "CREATE TABLE totals("
  " run_id INTEGER NOT NULL, counter INTEGER NOT NULL,"
  " board_total INTEGER,"              /* from the board's final packet */
  " stored_sum INTEGER NOT NULL,"      /* sum of the stored intervals when finished */
  " PRIMARY KEY(run_id, counter)) WITHOUT ROWID;"
  "CREATE VIEW interval_values AS"
  " SELECT i.run_id, i.seq, i.interval, i.cycle_begin, i.cycle_end,"
  "  i.first_counter + v.key AS counter, v.value AS value"
  " FROM intervals AS i, json_each(i.vals) AS v;"
  "INSERT INTO tally_schema(version) VALUES(1);";

const char *store_default_path(void) {
  const char *env = getenv("TALLY_DB");
  return env && *env ? env : STORE_DEFAULT_PATH;
}

const char *store_error(const store *s) { return s ? s->err : "no store"; }

int store_fail(store *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->err, sizeof s->err, fmt, ap);
  va_end(ap);
  return -1;
}

int store_fail_sql(store *s, const char *what) {
  return store_fail(s, "%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

/* After a failed statement: if SQLite rolled the open transaction back
 * (disk full, I/O error), the writes in it are gone; the error says how
 * many, and the next write starts a new transaction. */
static void check_rollback(store *s) {
  if (!s->in_txn || !sqlite3_get_autocommit(s->db))
    return;
  size_t len = strlen(s->err);
  snprintf(s->err + len, sizeof s->err - len, " (rolled back: the last %u writes were not stored)", s->pending);
  for (size_t i = 0; i < s->nruns; i++)
    s->runs[i].received = s->runs[i].duplicates = 0;
  s->in_txn = 0;
  s->pending = 0;
}

int store_step_done(store *s, int stmt, const char *what) {
  sqlite3_stmt *st = s->stmt[stmt];
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
    store_fail_sql(s, what);
    check_rollback(s);
    return -1;
  }
  return 0;
}

static double monotonic_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int store_txn_begin(store *s) {
  if (s->in_txn)
    return 0;
  if (store_step_done(s, STMT_BEGIN, "begin a transaction") < 0)
    return -1;
  s->in_txn = 1;
  s->pending = 0;
  s->txn_started = monotonic_seconds();
  return 0;
}

int store_txn_commit(store *s) {
  if (!s->in_txn)
    return 0;
  sqlite3_stmt *st = s->stmt[STMT_RUN_COUNTS];
  for (size_t i = 0; i < s->nruns; i++) {
    store_run_delta *r = &s->runs[i];
    if (!r->received && !r->duplicates)
      continue;
    sqlite3_bind_int64(st, 1, store_i64(r->run_id));
    sqlite3_bind_int64(st, 2, (int64_t)r->received);
    sqlite3_bind_int64(st, 3, (int64_t)r->duplicates);
    if (store_step_done(s, STMT_RUN_COUNTS, "count received packets") < 0)
      return -1;
  }
  /* Busy: the transaction stays open and the next commit tries again
   * (a rollback by SQLite is reported by store_step_done). */
  if (store_step_done(s, STMT_COMMIT, "commit") < 0)
    return -1;
  for (size_t i = 0; i < s->nruns; i++)
    s->runs[i].received = s->runs[i].duplicates = 0;
  s->in_txn = 0;
  s->pending = 0;
  return 0;
}

int store_txn_wrote(store *s) {
  /* the clock is read at every write: a vDSO call, tens of nanoseconds
   * against microseconds for the insert */
  if (++s->pending >= s->batch_rows || monotonic_seconds() - s->txn_started >= s->batch_ms * 1e-3)
    return store_txn_commit(s);
  return 0;
}

int store_flush(store *s) { return store_txn_commit(s); }

int store_set_batch(store *s, uint32_t rows, uint32_t ms) {
  if (rows == 0)
    return store_fail(s, "batch size must be at least 1 row");
  s->batch_rows = rows;
  s->batch_ms = ms;
  return 0;
}

/* The schema version in the file: 0 when the file has no tables at all,
 * -1 (with s->err) when it has tables but is not a tally store, or on error. */
static int schema_version(store *s) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(s->db, "SELECT count(*), sum(name = 'tally_schema') FROM sqlite_schema", -1, &st, NULL) !=
      SQLITE_OK)
    return store_fail(s, "%s: not a tally store (%s)", s->path, sqlite3_errmsg(s->db));
  int rc = sqlite3_step(st);
  int tables = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
  int ours = rc == SQLITE_ROW ? sqlite3_column_int(st, 1) : 0;
  sqlite3_finalize(st);
  if (rc != SQLITE_ROW)
    return store_fail(s, "%s: not a tally store (%s)", s->path, sqlite3_errmsg(s->db));
  if (tables == 0)
    return 0;
  if (!ours)
    return store_fail(s, "%s: an SQLite database, but not a tally store (no tally_schema table)", s->path);
  if (sqlite3_prepare_v2(s->db, "SELECT max(version) FROM tally_schema", -1, &st, NULL) != SQLITE_OK)
    return store_fail_sql(s, "read the schema version");
  rc = sqlite3_step(st);
  int version = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
  sqlite3_finalize(st);
  if (version < 1)
    return store_fail(s, "%s: a damaged tally store (no schema version)", s->path);
  if (version > STORE_SCHEMA_VERSION)
    return store_fail(s, "%s: written by a newer tally (store schema %d; this one reads up to %d)", s->path,
                      version, STORE_SCHEMA_VERSION);
  return version;
}

/* True when the first read fails because SQLite may not create or open the
 * files beside a WAL store (PATH-shm, PATH-wal): a permission problem, not a
 * damaged or foreign file. */
static bool read_denied(store *s) {
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_schema", -1, &st, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_step(st);
  sqlite3_finalize(st);
  int primary = rc & 0xff;
  return primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY || primary == SQLITE_PERM;
}

/* A store a reader may not write (another user's, or on read-only media):
 * SQLite reads a WAL store only through its PATH-shm file, which it cannot
 * create here. When there is no PATH-wal either, no writer has the store
 * open and every committed row is in the main file, so it is read as an
 * immutable file. Otherwise the error says it is permission, and what to do. */
static int reopen_unwritable(store *s) {
  if (!read_denied(s))
    return 0;
  char *wal = sqlite3_mprintf("%s-wal", s->path);
  struct stat sb;
  bool has_wal = wal && stat(wal, &sb) == 0;
  sqlite3_free(wal);
  if (has_wal)
    return store_fail(s, "%s: cannot read it: no permission to open or create %s-shm beside it (a store in WAL "
                         "mode needs it; run as a user who may write its directory, or copy the store with its "
                         "-wal file)", s->path, s->path);
  char *uri = sqlite3_mprintf("file:%s?immutable=1", s->path);
  if (!uri)
    return store_fail(s, "%s: out of memory", s->path);
  /* the path's own '?' and '#' must not end it inside the URI */
  sqlite3_close(s->db);
  s->db = NULL;
  int rc = strpbrk(s->path, "?#%") ? SQLITE_CANTOPEN
                                   : sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
                                                                      SQLITE_OPEN_NOMUTEX, NULL);
  sqlite3_free(uri);
  if (rc != SQLITE_OK || read_denied(s))
    return store_fail(s, "%s: cannot read it: permission denied (the store is read-only to this user and SQLite "
                         "cannot open it without writing beside it)", s->path);
  sqlite3_extended_result_codes(s->db, 1);
  return 0;
}

static int prepare_all(store *s) {
  static const char *const sql[STMT_COUNT] = {
#define X(name, text) [STMT_##name] = text,
    STORE_STATEMENTS(X)
#undef X
  };
  for (int i = 0; i < STMT_COUNT; i++)
    if (sqlite3_prepare_v3(s->db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->stmt[i], NULL) != SQLITE_OK)
      return store_fail_sql(s, "prepare a statement");
  return 0;
}

/* Common part of both opens. create: make the file and schema if needed. */
static store *open_file(const char *path, bool create, char *err, unsigned errlen) {
  store *s = calloc(1, sizeof *s);
  if (s)
    s->path = strdup(path);
  if (!s || !s->path) {
    snprintf(err, errlen, "%s: out of memory", path);
    free(s);
    return NULL;
  }
  s->batch_rows = 4096;
  s->batch_ms = 200;
  struct stat sb;
  if (!create && stat(path, &sb) != 0) {
    store_fail(s, "%s: %s", path, strerror(errno));
    goto fail;
  }
  if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
    store_fail(s, "%s: not a regular file", path);
    goto fail;
  }
  /* NOMUTEX: a handle is used by one thread at a time, so SQLite's own
   * per-call locking is pure cost (measured: about 5% of a store's time) */
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
  int rc = sqlite3_open_v2(path, &s->db, flags, NULL);
  if (rc == SQLITE_READONLY || rc == SQLITE_CANTOPEN || rc == SQLITE_PERM) {
    if (!create) { /* reading a file we may not write */
      sqlite3_close(s->db);
      rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
    }
  }
  if (rc != SQLITE_OK) {
    store_fail(s, "%s: cannot open: %s", path, s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
    goto fail;
  }
  sqlite3_extended_result_codes(s->db, 1);
  sqlite3_busy_timeout(s->db, 5000);
  if (!create && reopen_unwritable(s) < 0)
    goto fail;
  /* A store to write into that this user may only read: SQLite opens it
   * read-only without a word, and the first write (the journal mode) would
   * fail as if the file were something else. Say what it is. */
  if (create && (sqlite3_db_readonly(s->db, "main") == 1 || read_denied(s))) {
    store_fail(s, "%s: cannot write it: the store is read-only to this user (tally writes runs into it, and its "
                  "-wal and -shm files beside it: it needs write permission on the file and its directory)", path);
    goto fail;
  }
  int version = schema_version(s);
  if (version < 0)
    goto fail;
  if (version == 0 && !create) {
    store_fail(s, "%s: not a tally store (an empty database)", path);
    goto fail;
  }
  if (create) {
    /* WAL: readers (tally report) never block the collector, and a commit
     * is one append. NORMAL sync: a committed transaction survives the
     * process dying; the last ones may be lost on power failure. */
    char *msg = NULL;
    if (sqlite3_exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL, &msg) !=
        SQLITE_OK) {
      store_fail(s, "%s: set up the journal: %s", path, msg ? msg : sqlite3_errmsg(s->db));
      sqlite3_free(msg);
      goto fail;
    }
    if (version == 0 && sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK) {
      /* another process may have made the schema since we looked */
      version = schema_version(s);
      if (version == 0 && sqlite3_exec(s->db, schema_sql, NULL, NULL, &msg) != SQLITE_OK) {
        store_fail(s, "%s: create the tables: %s", path, msg ? msg : sqlite3_errmsg(s->db));
        sqlite3_free(msg);
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        goto fail;
      }
      if (version < 0 || sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        if (version >= 0)
          store_fail_sql(s, "create the tables");
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        goto fail;
      }
    } else if (version == 0) {
      store_fail_sql(s, "create the tables");
      goto fail;
    }
  }
  if (prepare_all(s) < 0)
    goto fail;
  return s;
fail:
  snprintf(err, errlen, "%s", s->err);
  store_close(s);
  return NULL;
}

store *store_open(const char *path, char *err, unsigned errlen) { return open_file(path, true, err, errlen); }

store *store_open_existing(const char *path, char *err, unsigned errlen) {
  return open_file(path, false, err, errlen);
}

void store_close(store *s) {
  if (!s)
    return;
  if (s->in_txn && s->stmt[STMT_COMMIT] && store_txn_commit(s) < 0)
    fprintf(stderr, "tally: store: %s\n", s->err); /* nothing else can be told at close */
  for (int i = 0; i < STMT_COUNT; i++)
    sqlite3_finalize(s->stmt[i]);
  sqlite3_close(s->db);
  free(s->runs);
  free(s->text);
  free(s->path);
  free(s);
}
