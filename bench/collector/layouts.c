/*
 * Which table layout stores a dispatch interval fastest? The same intervals
 * (16 counters each, values of a realistic spread) written through plain
 * SQLite into a fresh file per layout, with the store's settings (WAL,
 * synchronous=NORMAL, one prepared statement per table, a transaction
 * committed every BATCH intervals):
 *
 *   rows  one row per interval + one row per (interval, counter) value
 *   blob  one row per interval, values as 8-byte little-endian integers
 *   json  one row per interval, values as a JSON array of integers
 *
 * Usage: layouts DIR [INTERVALS] [RUNS]; prints, per layout, the median
 * intervals/s over RUNS runs (layouts alternate inside each run).
 */
#define _GNU_SOURCE
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NCOUNTERS 16
#define BATCH 4096

typedef enum { ROWS, BLOB, JSON, NLAYOUTS } layout;
static const char *const layout_names[NLAYOUTS] = {"rows", "blob", "json"};
static const char *const layout_schema[NLAYOUTS] = {
  "CREATE TABLE intervals(run INTEGER, seq INTEGER, idx INTEGER, cb INTEGER, ce INTEGER, first INTEGER, n INTEGER,"
  " PRIMARY KEY(run, seq)) WITHOUT ROWID;"
  "CREATE TABLE vals(run INTEGER, seq INTEGER, counter INTEGER, value INTEGER, PRIMARY KEY(run, seq, counter))"
  " WITHOUT ROWID;",
  "CREATE TABLE intervals(run INTEGER, seq INTEGER, idx INTEGER, cb INTEGER, ce INTEGER, first INTEGER, n INTEGER,"
  " vals BLOB, PRIMARY KEY(run, seq)) WITHOUT ROWID;",
  "CREATE TABLE intervals(run INTEGER, seq INTEGER, idx INTEGER, cb INTEGER, ce INTEGER, first INTEGER, n INTEGER,"
  " vals TEXT, PRIMARY KEY(run, seq)) WITHOUT ROWID;",
};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Decimal digits of v at out (no terminator); returns how many. */
static size_t put_u64(char *out, uint64_t v) {
  char tmp[20];
  size_t n = 0;
  do
    tmp[n++] = (char)('0' + v % 10);
  while ((v /= 10) != 0);
  for (size_t i = 0; i < n; i++)
    out[i] = tmp[n - 1 - i];
  return n;
}

static void check(int rc, sqlite3 *db, const char *what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    fprintf(stderr, "layouts: %s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
  }
}

static sqlite3_stmt *prep(sqlite3 *db, const char *sql) {
  sqlite3_stmt *st;
  check(sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL), db, sql);
  return st;
}

static void step(sqlite3_stmt *st, sqlite3 *db) {
  check(sqlite3_step(st), db, "step");
  sqlite3_reset(st);
}

/* Intervals per second writing `count` intervals in layout `l` into a new file. */
static double measure(const char *dir, layout l, uint32_t count) {
  char path[4096];
  snprintf(path, sizeof path, "%s/layout-%s.db", dir, layout_names[l]);
  for (const char *suffix = ""; suffix; suffix = *suffix ? (suffix[1] == 'w' ? "-shm" : NULL) : "-wal") {
    char p[4200];
    snprintf(p, sizeof p, "%s%s", path, suffix);
    unlink(p);
  }
  sqlite3 *db;
  check(sqlite3_open(path, &db), db, path);
  check(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL, NULL), db, "pragma");
  check(sqlite3_exec(db, layout_schema[l], NULL, NULL, NULL), db, "schema");
  sqlite3_stmt *begin = prep(db, "BEGIN"), *commit = prep(db, "COMMIT");
  sqlite3_stmt *ins = prep(db, l == ROWS ? "INSERT OR IGNORE INTO intervals VALUES(?1,?2,?3,?4,?5,?6,?7)"
                                         : "INSERT OR IGNORE INTO intervals VALUES(?1,?2,?3,?4,?5,?6,?7,?8)");
  sqlite3_stmt *val = l == ROWS ? prep(db, "INSERT INTO vals VALUES(?1,?2,?3,?4)") : NULL;
  uint64_t values[NCOUNTERS];
  uint64_t rng = 0x9E3779B97F4A7C15ull;
  double t0 = now();
  uint32_t pending = 0;
  for (uint32_t seq = 0; seq < count; seq++) {
    for (int i = 0; i < NCOUNTERS; i++) {
      rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
      /* a mix like real counters: cycles near the period, misses small, some zero */
      values[i] = i == 0 ? 100000 - (rng & 63) : (i % 4 == 3 ? 0 : rng % (i < 4 ? 60000 : 900));
    }
    if (pending == 0)
      step(begin, db);
    sqlite3_bind_int64(ins, 1, 7);
    sqlite3_bind_int64(ins, 2, seq);
    sqlite3_bind_int64(ins, 3, seq);
    sqlite3_bind_int64(ins, 4, (int64_t)seq * 100000);
    sqlite3_bind_int64(ins, 5, (int64_t)seq * 100000 + 100000);
    sqlite3_bind_int64(ins, 6, 0);
    sqlite3_bind_int64(ins, 7, NCOUNTERS);
    if (l == BLOB) {
      unsigned char b[NCOUNTERS * 8];
      for (int i = 0; i < NCOUNTERS; i++)
        for (int k = 0; k < 8; k++)
          b[i * 8 + k] = (unsigned char)(values[i] >> (8 * k));
      sqlite3_bind_blob(ins, 8, b, sizeof b, SQLITE_TRANSIENT);
    } else if (l == JSON) {
      char t[NCOUNTERS * 21 + 2];
      size_t o = 0;
      t[o++] = '[';
      for (int i = 0; i < NCOUNTERS; i++) {
        if (i)
          t[o++] = ',';
        o += put_u64(t + o, values[i]);
      }
      t[o++] = ']';
      sqlite3_bind_text(ins, 8, t, (int)o, SQLITE_TRANSIENT);
    }
    step(ins, db);
    if (val)
      for (int i = 0; i < NCOUNTERS; i++) {
        sqlite3_bind_int64(val, 1, 7);
        sqlite3_bind_int64(val, 2, seq);
        sqlite3_bind_int64(val, 3, i);
        sqlite3_bind_int64(val, 4, (int64_t)values[i]);
        step(val, db);
      }
    if (++pending == BATCH) {
      step(commit, db);
      pending = 0;
    }
  }
  if (pending)
    step(commit, db);
  double dt = now() - t0;
  sqlite3_finalize(begin);
  sqlite3_finalize(commit);
  sqlite3_finalize(ins);
  sqlite3_finalize(val);
  sqlite3_close(db);
  return count / dt;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: layouts DIR [INTERVALS] [RUNS]\n");
    return 64;
  }
  uint32_t count = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 200000;
  int runs = argc > 3 ? atoi(argv[3]) : 5;
  if (runs < 1 || runs > 99 || count == 0) {
    fprintf(stderr, "layouts: bad INTERVALS or RUNS\n");
    return 64;
  }
  double rate[NLAYOUTS][99];
  for (int r = 0; r < runs; r++)
    for (int l = 0; l < NLAYOUTS; l++)
      rate[l][r] = measure(argv[1], (layout)l, count);
  for (int l = 0; l < NLAYOUTS; l++) {
    qsort(rate[l], (size_t)runs, sizeof rate[l][0], cmp_double);
    printf("%s %.0f\n", layout_names[l], rate[l][runs / 2]);
  }
  return 0;
}
