/*
 * Inside the store: the handle, its prepared statements, the open
 * transaction and the per-run counts not yet written. Shared by the files of
 * src/store only.
 */
#ifndef TALLY_STORE_STORE_INTERNAL_H
#define TALLY_STORE_STORE_INTERNAL_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

#define STORE_SCHEMA_VERSION 1

/* The prepared statements kept for the life of the handle. One list, so that
 * preparing and finalizing cannot miss one. */
#define STORE_STATEMENTS(X)                                                                                  \
  X(BEGIN, "BEGIN IMMEDIATE")                                                                                \
  X(COMMIT, "COMMIT")                                                                                        \
  X(ROLLBACK, "ROLLBACK")                                                                                    \
  X(RUN_NEW, "INSERT OR IGNORE INTO runs(run_id, started, status) "                                          \
             "VALUES(?1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'running')")                                 \
  X(RUN_DESCRIBE, "UPDATE runs SET program = coalesce(?2, program), core = coalesce(?3, core), "            \
                  "counters = coalesce(?4, counters), width = coalesce(?5, width), arrs = coalesce(?6, arrs), " \
                  "period = coalesce(?7, period), freq_mhz = coalesce(?8, freq_mhz) WHERE run_id = ?1")      \
  X(RUN_COUNTS, "UPDATE runs SET received = received + ?2, duplicates = duplicates + ?3 WHERE run_id = ?1")  \
  X(RUN_FINISH, "UPDATE runs SET status = ?2, note = ?3, intervals_sent = ?4, "                              \
                "finished = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE run_id = ?1")                        \
  X(COUNTER_SET, "INSERT OR REPLACE INTO counters(run_id, counter, signal, anywhere, lo, hi, location, "     \
                 "label, enabled) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")                               \
  X(INTERVAL_ADD, "INSERT OR IGNORE INTO intervals(run_id, seq, interval, cycle_begin, cycle_end, "          \
                  "first_counter, n, vals, saturated) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")           \
  X(TOTALS_CLEAR, "DELETE FROM totals WHERE run_id = ?1")                                                    \
  X(TOTAL_SET, "INSERT INTO totals(run_id, counter, board_total, stored_sum) VALUES(?1, ?2, ?3, ?4)")

enum {
#define X(name, sql) STMT_##name,
  STORE_STATEMENTS(X)
#undef X
  STMT_COUNT
};

/* Counts of one run kept in memory until the transaction commits. */
typedef struct store_run_delta {
  uint64_t run_id;
  uint64_t received, duplicates;
} store_run_delta;

struct store {
  sqlite3 *db;
  char *path;
  sqlite3_stmt *stmt[STMT_COUNT];
  char err[512];
  /* batching */
  uint32_t batch_rows;        /* commit after this many writes */
  uint32_t batch_ms;          /* or when the transaction is this old */
  uint32_t pending;           /* writes in the open transaction */
  int in_txn;
  double txn_started;         /* monotonic seconds */
  /* runs known to exist in the file (this session), with uncommitted counts */
  store_run_delta *runs;
  size_t nruns, caprun;
  /* scratch for encoding values */
  char *text;
  size_t textcap;
};

/* Sets s->err from a printf format; returns -1. */
int store_fail(store *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sets s->err to "what: <SQLite's message>"; returns -1. */
int store_fail_sql(store *s, const char *what);

/* Runs a kept statement to completion and resets it (bindings stay). */
int store_step_done(store *s, int stmt, const char *what);
/* Opens a transaction if none is open. */
int store_txn_begin(store *s);
/* Counts one write; commits when the batch is full or old. */
int store_txn_wrote(store *s);
/* Commits the open transaction, if any, with the pending run counts. */
int store_txn_commit(store *s);

/* uint64 <-> SQLite's signed 64-bit integers, bit for bit. */
static inline int64_t store_i64(uint64_t v) { return (int64_t)v; }
static inline uint64_t store_u64(int64_t v) { return (uint64_t)v; }

/* Values of a chunk as a JSON array of decimal integers, "[12,0,345]".
 * Returns the length; the text is in s->text (NUL-terminated). -1 if out of
 * memory. */
int store_encode_values(store *s, const uint64_t *values, uint32_t n);
/* The saturated counters of a chunk as a JSON array of their indexes
 * ("[17,20]"), or length 0 when none saturated. */
int store_encode_saturated(store *s, uint32_t first, const uint8_t *saturated, uint32_t n);
/* Parses a JSON array of non-negative integers into out[0..cap); returns
 * the count, or -1 if the text is not such an array or has more than cap. */
long store_decode_array(const char *text, size_t len, uint64_t *out, size_t cap);

struct store_totals_view;
/* Walks the run's stored chunks: sums, saturations, whole and partial
 * intervals, overlaps, and the indexes missing below `expected` (the
 * board's interval count; with expected == UINT64_MAX, below the highest
 * index stored), described in gaps ("missing intervals 3, 7-9 (4 of 20)").
 * *counters is the run's configured counter count (0 if unknown). The view's
 * board fields are left empty. */
int store_scan_run(store *s, uint64_t run_id, uint64_t expected, struct store_totals_view *t, uint32_t *counters,
                   char *gaps, size_t gapsize);

#endif
