/*
 * Writing runs: describing a run and its counters, adding interval chunks
 * (duplicates ignored and counted), and finishing a run with its verdict,
 * checked against what was stored.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_internal.h"
#include "store_read.h"

/* The in-memory record of a run known to exist in the file, creating the
 * row (status running) the first time the run is seen in this session.
 * Data for a run never described is kept, not refused: nothing measured is
 * lost because a configuration packet was. */
static store_run_delta *known_run(store *s, uint64_t run_id) {
  for (size_t i = s->nruns; i-- > 0;)
    if (s->runs[i].run_id == run_id) {
      if (i != s->nruns - 1) { /* the run in use stays at the end: found first */
        store_run_delta t = s->runs[i];
        memmove(&s->runs[i], &s->runs[i + 1], (s->nruns - 1 - i) * sizeof t);
        s->runs[s->nruns - 1] = t;
      }
      return &s->runs[s->nruns - 1];
    }
  if (s->nruns == s->caprun) {
    size_t cap = s->caprun ? s->caprun * 2 : 8;
    store_run_delta *r = realloc(s->runs, cap * sizeof *r);
    if (!r) {
      store_fail(s, "out of memory");
      return NULL;
    }
    s->runs = r;
    s->caprun = cap;
  }
  sqlite3_bind_int64(s->stmt[STMT_RUN_NEW], 1, store_i64(run_id));
  if (store_step_done(s, STMT_RUN_NEW, "record a run") < 0)
    return NULL;
  s->runs[s->nruns] = (store_run_delta){.run_id = run_id};
  return &s->runs[s->nruns++];
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *text) {
  if (text)
    sqlite3_bind_text(st, i, text, -1, SQLITE_STATIC);
  else
    sqlite3_bind_null(st, i);
}

int store_begin_run(store *s, const store_run_info *run) {
  if (store_txn_begin(s) < 0 || !known_run(s, run->run_id))
    return -1;
  sqlite3_stmt *st = s->stmt[STMT_RUN_DESCRIBE];
  sqlite3_bind_int64(st, 1, store_i64(run->run_id));
  bind_text_or_null(st, 2, run->program);
  bind_text_or_null(st, 3, run->core);
  /* 0 and NULL mean "not known here": a later, emptier description (a
   * collector that saw data before the run's description) keeps what is known */
  const uint64_t numbers[] = {run->counters, run->width, run->arrs, run->period};
  for (int i = 0; i < 4; i++)
    if (numbers[i])
      sqlite3_bind_int64(st, 4 + i, store_i64(numbers[i]));
    else
      sqlite3_bind_null(st, 4 + i);
  if (run->freq_mhz > 0)
    sqlite3_bind_double(st, 8, run->freq_mhz);
  else
    sqlite3_bind_null(st, 8);
  int rc = store_step_done(s, STMT_RUN_DESCRIBE, "describe a run");
  sqlite3_clear_bindings(st); /* the strings are the caller's */
  return rc < 0 ? -1 : store_txn_wrote(s);
}

int store_set_counter(store *s, uint64_t run_id, const store_counter_info *c) {
  if (!c->signal || !*c->signal)
    return store_fail(s, "run %llu counter %u: no signal name", (unsigned long long)run_id, c->index);
  if (store_txn_begin(s) < 0 || !known_run(s, run_id))
    return -1;
  sqlite3_stmt *st = s->stmt[STMT_COUNTER_SET];
  sqlite3_bind_int64(st, 1, store_i64(run_id));
  sqlite3_bind_int64(st, 2, c->index);
  sqlite3_bind_text(st, 3, c->signal, -1, SQLITE_STATIC);
  sqlite3_bind_int(st, 4, c->anywhere);
  if (c->anywhere) {
    sqlite3_bind_null(st, 5);
    sqlite3_bind_null(st, 6);
  } else {
    sqlite3_bind_int64(st, 5, c->lo);
    sqlite3_bind_int64(st, 6, c->hi);
  }
  bind_text_or_null(st, 7, c->where);
  bind_text_or_null(st, 8, c->label);
  sqlite3_bind_int(st, 9, c->enabled);
  int rc = store_step_done(s, STMT_COUNTER_SET, "record a counter");
  sqlite3_clear_bindings(st);
  return rc < 0 ? -1 : store_txn_wrote(s);
}

int store_add_interval(store *s, uint64_t run_id, uint32_t seq, uint64_t index, uint64_t cycle_begin,
                       uint64_t cycle_end, uint32_t first, uint32_t n, const uint64_t *values,
                       const uint8_t *saturated, bool *duplicate) {
  if (duplicate)
    *duplicate = false;
  if (n == 0 || !values || first > UINT32_MAX - n)
    return store_fail(s, "run %llu seq %u: bad counter range (first %u, n %u)", (unsigned long long)run_id, seq,
                      first, n);
  if (store_txn_begin(s) < 0)
    return -1;
  store_run_delta *r = known_run(s, run_id);
  if (!r)
    return -1;
  int len = store_encode_values(s, values, n);
  if (len < 0)
    return store_fail(s, "out of memory");
  sqlite3_stmt *st = s->stmt[STMT_INTERVAL_ADD];
  sqlite3_bind_int64(st, 1, store_i64(run_id));
  sqlite3_bind_int64(st, 2, seq);
  sqlite3_bind_int64(st, 3, store_i64(index));
  sqlite3_bind_int64(st, 4, store_i64(cycle_begin));
  sqlite3_bind_int64(st, 5, store_i64(cycle_end));
  sqlite3_bind_int64(st, 6, first);
  sqlite3_bind_int64(st, 7, n);
  /* SQLITE_TRANSIENT: one copy into SQLite, as the scratch is reused */
  sqlite3_bind_text(st, 8, s->text, len, SQLITE_TRANSIENT);
  int slen = saturated ? store_encode_saturated(s, first, saturated, n) : 0;
  if (slen < 0)
    return store_fail(s, "out of memory");
  if (slen > 0)
    sqlite3_bind_text(st, 9, s->text, slen, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null(st, 9);
  if (store_step_done(s, STMT_INTERVAL_ADD, "store an interval") < 0)
    return -1;
  if (sqlite3_changes(s->db) == 0) { /* (run, seq) already stored */
    r->duplicates++;
    if (duplicate)
      *duplicate = true;
    return 0;
  }
  r->received++;
  return store_txn_wrote(s);
}

/* Appends a printf-formatted piece to a note, keeping it terminated. */
static void note_add(char *note, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note_add(char *note, size_t size, const char *fmt, ...) {
  size_t len = strlen(note);
  if (len + 1 >= size)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(note + len, size - len, fmt, ap);
  va_end(ap);
}

/* Why the stored data does not make the run whole, in a line; "" if it does. */
static void check_whole(const store_totals_view *t, uint32_t counters, const uint64_t *totals, uint32_t n,
                        uint64_t intervals, const char *gaps, char *why, size_t size) {
  why[0] = '\0';
  if (n == 0)
    note_add(why, size, "%sno totals from the board", *why ? "; " : "");
  else if (counters && n != counters)
    note_add(why, size, "%sthe board sent %u totals for %u counters", *why ? "; " : "", n, counters);
  if (t->missing)
    note_add(why, size, "%s%s", *why ? "; " : "", gaps);
  if (t->intervals_partial)
    note_add(why, size, "%s%llu intervals lack some counters", *why ? "; " : "",
             (unsigned long long)t->intervals_partial);
  if (t->overlaps)
    note_add(why, size, "%s%llu counter values stored twice for one interval", *why ? "; " : "",
             (unsigned long long)t->overlaps);
  if (t->beyond)
    note_add(why, size, "%s%llu intervals stored past the board's count of %llu", *why ? "; " : "",
             (unsigned long long)t->beyond, (unsigned long long)intervals);
  uint32_t upto = n == 0 ? 0 : n > t->n ? n : t->n;
  for (uint32_t i = 0; i < upto; i++) {
    uint64_t stored = i < t->n ? t->stored[i] : 0, board = i < n ? totals[i] : 0;
    if (stored != board) {
      note_add(why, size, "%scounter %u: stored sum %llu, board total %llu", *why ? "; " : "", i,
               (unsigned long long)stored, (unsigned long long)board);
      break;
    }
  }
}

int store_finish_run(store *s, uint64_t run_id, store_run_status status, const uint64_t *totals, uint32_t n,
                     uint64_t intervals, const char *note) {
  if (status != STORE_RUN_COMPLETE && status != STORE_RUN_INCOMPLETE)
    return store_fail(s, "run %llu: a run finishes complete or incomplete", (unsigned long long)run_id);
  if (n && !totals)
    return store_fail(s, "run %llu: no totals", (unsigned long long)run_id);
  if (store_txn_begin(s) < 0 || !known_run(s, run_id))
    return -1;
  /* The verdict is checked against the stored data inside the same
   * transaction: a run said complete but not whole here is recorded
   * incomplete, with the reason. */
  store_totals_view t;
  uint32_t counters;
  char gaps[200];
  if (store_scan_run(s, run_id, intervals, &t, &counters, gaps, sizeof gaps) < 0)
    return -1;
  char why[400], text[1024];
  check_whole(&t, counters, totals, n, intervals, gaps, why, sizeof why);
  snprintf(text, sizeof text, "%s", note ? note : "");
  if (*why) {
    if (status == STORE_RUN_COMPLETE)
      note_add(text, sizeof text, "%sstore: said complete, but %s", *text ? "; " : "", why);
    else
      note_add(text, sizeof text, "%s%s", *text ? "; " : "", why);
    status = STORE_RUN_INCOMPLETE;
  }
  int rc = 0;
  sqlite3_stmt *st = s->stmt[STMT_RUN_FINISH];
  sqlite3_bind_int64(st, 1, store_i64(run_id));
  sqlite3_bind_text(st, 2, store_status_name(status), -1, SQLITE_STATIC);
  bind_text_or_null(st, 3, *text ? text : NULL);
  sqlite3_bind_int64(st, 4, store_i64(intervals));
  if (store_step_done(s, STMT_RUN_FINISH, "finish a run") < 0)
    rc = -1;
  sqlite3_clear_bindings(st);
  sqlite3_bind_int64(s->stmt[STMT_TOTALS_CLEAR], 1, store_i64(run_id));
  if (rc == 0)
    rc = store_step_done(s, STMT_TOTALS_CLEAR, "clear old totals");
  uint32_t rows = n > t.n ? n : t.n;
  st = s->stmt[STMT_TOTAL_SET];
  for (uint32_t i = 0; rc == 0 && i < rows; i++) {
    sqlite3_bind_int64(st, 1, store_i64(run_id));
    sqlite3_bind_int64(st, 2, i);
    if (i < n)
      sqlite3_bind_int64(st, 3, store_i64(totals[i]));
    else
      sqlite3_bind_null(st, 3);
    sqlite3_bind_int64(st, 4, store_i64(i < t.n ? t.stored[i] : 0));
    rc = store_step_done(s, STMT_TOTAL_SET, "store the totals");
  }
  store_totals_clear(&t);
  if (rc < 0)
    return -1;
  return store_txn_commit(s); /* the verdict is durable when this returns */
}
