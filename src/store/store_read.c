/*
 * Reading the store back: runs, counters, intervals put together from their
 * chunks, totals and the checks that say whether a run is whole.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_internal.h"
#include "store_read.h"

static const char *const status_names[] = {
  [STORE_RUN_RUNNING] = "running", [STORE_RUN_COMPLETE] = "complete", [STORE_RUN_INCOMPLETE] = "incomplete"};

const char *store_status_name(store_run_status status) {
  return (unsigned)status < sizeof status_names / sizeof status_names[0] ? status_names[status] : "unknown";
}

static store_run_status status_from_text(const char *text) {
  for (unsigned i = 0; i < sizeof status_names / sizeof status_names[0]; i++)
    if (text && strcmp(text, status_names[i]) == 0)
      return (store_run_status)i;
  return STORE_RUN_INCOMPLETE; /* a status this code does not know is never shown as whole */
}

/* A prepared read statement; NULL with s->err on failure. */
static sqlite3_stmt *prepare(store *s, const char *sql) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
    store_fail_sql(s, "read");
    sqlite3_finalize(st);
    return NULL;
  }
  return st;
}

/* Finishes a read loop: SQLITE_DONE is success, anything else an error. */
static int finish_read(store *s, sqlite3_stmt *st, int rc, const char *what) {
  int ret = rc == SQLITE_DONE ? 0 : store_fail_sql(s, what);
  sqlite3_finalize(st);
  return ret;
}

static char *dup_column(sqlite3_stmt *st, int col, bool *oom) {
  const unsigned char *t = sqlite3_column_text(st, col);
  if (!t)
    return NULL;
  char *d = strdup((const char *)t);
  if (!d)
    *oom = true;
  return d;
}

static uint64_t column_u64(sqlite3_stmt *st, int col) { return store_u64(sqlite3_column_int64(st, col)); }

#define RUN_COLUMNS                                                                                           \
  "r.run_id, r.program, r.core, r.counters, r.width, r.arrs, r.period, r.freq_mhz, r.started, r.finished, " \
  "r.status, r.note, r.intervals_sent, r.received, r.duplicates, "                                          \
  "(SELECT count(DISTINCT interval) FROM intervals AS i WHERE i.run_id = r.run_id)"

static bool run_from_row(sqlite3_stmt *st, store_run_view *r) {
  bool oom = false;
  *r = (store_run_view){
    .run_id = column_u64(st, 0),
    .program = dup_column(st, 1, &oom),
    .core = dup_column(st, 2, &oom),
    .counters = (uint32_t)sqlite3_column_int64(st, 3),
    .width = (uint32_t)sqlite3_column_int64(st, 4),
    .arrs = (uint32_t)sqlite3_column_int64(st, 5),
    .period = column_u64(st, 6),
    .freq_mhz = sqlite3_column_double(st, 7),
    .started = dup_column(st, 8, &oom),
    .finished = dup_column(st, 9, &oom),
    .status = status_from_text((const char *)sqlite3_column_text(st, 10)),
    .note = dup_column(st, 11, &oom),
    .has_intervals_sent = sqlite3_column_type(st, 12) != SQLITE_NULL,
    .intervals_sent = column_u64(st, 12),
    .received = column_u64(st, 13),
    .duplicates = column_u64(st, 14),
    .intervals = column_u64(st, 15),
  };
  return !oom;
}

void store_run_view_clear(store_run_view *r) {
  if (!r)
    return;
  free(r->program);
  free(r->core);
  free(r->started);
  free(r->finished);
  free(r->note);
  memset(r, 0, sizeof *r);
}

void store_runs_free(store_run_view *runs, size_t n) {
  for (size_t i = 0; runs && i < n; i++)
    store_run_view_clear(&runs[i]);
  free(runs);
}

/* What a reader sees includes this handle's own unwritten counts. */
static void add_pending_counts(const store *s, store_run_view *r) {
  for (size_t i = 0; i < s->nruns; i++)
    if (s->runs[i].run_id == r->run_id) {
      r->received += s->runs[i].received;
      r->duplicates += s->runs[i].duplicates;
    }
}

int store_list_runs(store *s, store_run_view **runs, size_t *n) {
  *runs = NULL;
  *n = 0;
  sqlite3_stmt *st = prepare(s, "SELECT " RUN_COLUMNS " FROM runs AS r ORDER BY r.ord");
  if (!st)
    return -1;
  store_run_view *v = NULL;
  size_t count = 0, cap = 0;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (count == cap) {
      cap = cap ? cap * 2 : 16;
      store_run_view *nv = realloc(v, cap * sizeof *nv);
      if (!nv)
        goto oom;
      v = nv;
    }
    if (!run_from_row(st, &v[count++]))
      goto oom;
    add_pending_counts(s, &v[count - 1]);
  }
  if (finish_read(s, st, rc, "list runs") < 0) {
    store_runs_free(v, count);
    return -1;
  }
  *runs = v;
  *n = count;
  return 0;
oom:
  sqlite3_finalize(st);
  store_runs_free(v, count);
  return store_fail(s, "out of memory");
}

int store_get_run(store *s, uint64_t run_id, store_run_view *run) {
  memset(run, 0, sizeof *run);
  sqlite3_stmt *st = prepare(s, "SELECT " RUN_COLUMNS " FROM runs AS r WHERE r.run_id = ?1");
  if (!st)
    return -1;
  sqlite3_bind_int64(st, 1, store_i64(run_id));
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    bool ok = run_from_row(st, run);
    sqlite3_finalize(st);
    if (!ok) {
      store_run_view_clear(run);
      return store_fail(s, "out of memory");
    }
    add_pending_counts(s, run);
    return 1;
  }
  return finish_read(s, st, rc, "read a run") < 0 ? -1 : 0;
}

/* One integer from a one-row query with an optional run id bound to ?1:
 * 1 and *out if a non-NULL row came back, 0 if none. */
static int query_u64(store *s, const char *sql, const uint64_t *run_id, uint64_t *out, const char *what) {
  sqlite3_stmt *st = prepare(s, sql);
  if (!st)
    return -1;
  if (run_id)
    sqlite3_bind_int64(st, 1, store_i64(*run_id));
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    int found = sqlite3_column_type(st, 0) != SQLITE_NULL;
    *out = column_u64(st, 0);
    sqlite3_finalize(st);
    return found;
  }
  return finish_read(s, st, rc, what) < 0 ? -1 : 0;
}

int store_latest_run(store *s, uint64_t *run_id) {
  return query_u64(s, "SELECT run_id FROM runs ORDER BY ord DESC LIMIT 1", NULL, run_id, "find the latest run");
}

int store_run_status_of(store *s, uint64_t run_id, store_run_status *status) {
  sqlite3_stmt *st = prepare(s, "SELECT status FROM runs WHERE run_id = ?1");
  if (!st)
    return -1;
  sqlite3_bind_int64(st, 1, store_i64(run_id));
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *status = status_from_text((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return 1;
  }
  return finish_read(s, st, rc, "read a run's status") < 0 ? -1 : 0;
}

int store_get_counters(store *s, uint64_t run_id, store_counter_view **counters, size_t *n) {
  *counters = NULL;
  *n = 0;
  sqlite3_stmt *st = prepare(s, "SELECT counter, signal, anywhere, lo, hi, location, label, enabled "
                                "FROM counters WHERE run_id = ?1 ORDER BY counter");
  if (!st)
    return -1;
  sqlite3_bind_int64(st, 1, store_i64(run_id));
  store_counter_view *v = NULL;
  size_t count = 0, cap = 0;
  bool oom = false;
  int rc;
  while (!oom && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (count == cap) {
      cap = cap ? cap * 2 : 16;
      store_counter_view *nv = realloc(v, cap * sizeof *nv);
      if (!nv) {
        oom = true;
        break;
      }
      v = nv;
    }
    v[count++] = (store_counter_view){
      .index = (uint32_t)sqlite3_column_int64(st, 0),
      .signal = dup_column(st, 1, &oom),
      .anywhere = sqlite3_column_int(st, 2) != 0,
      .lo = (uint32_t)sqlite3_column_int64(st, 3),
      .hi = (uint32_t)sqlite3_column_int64(st, 4),
      .where = dup_column(st, 5, &oom),
      .label = dup_column(st, 6, &oom),
      .enabled = sqlite3_column_int(st, 7) != 0,
    };
    const char *pct = v[count - 1].where ? strchr(v[count - 1].where, '%') : NULL;
    v[count - 1].task = pct && pct[1] ? pct + 1 : NULL;
  }
  if (oom) {
    sqlite3_finalize(st);
    store_counters_free(v, count);
    return store_fail(s, "out of memory");
  }
  if (finish_read(s, st, rc, "read a run's counters") < 0) {
    store_counters_free(v, count);
    return -1;
  }
  *counters = v;
  *n = count;
  return 0;
}

void store_counters_free(store_counter_view *c, size_t n) {
  for (size_t i = 0; c && i < n; i++) {
    free(c[i].signal);
    free(c[i].where);
    free(c[i].label);
  }
  free(c);
}

/* ---- intervals, put together from their chunks ---- */

/* A run with more counters than this is not believed (the module's limit
 * is far below); it bounds what a damaged file can make us allocate. */
#define MAX_READ_COUNTERS (1u << 20)

/* The number of counters to put an interval together over: the run's, or
 * the highest any chunk carries when that is larger or the run's unknown. */
static int run_width(store *s, uint64_t run_id, uint32_t *n, uint32_t *configured) {
  uint64_t conf = 0, chunks = 0;
  if (query_u64(s, "SELECT counters FROM runs WHERE run_id = ?1", &run_id, &conf, "read a run") < 0 ||
      query_u64(s, "SELECT max(first_counter + n) FROM intervals WHERE run_id = ?1", &run_id, &chunks,
                "read a run's intervals") < 0)
    return -1;
  if (conf > MAX_READ_COUNTERS || chunks > MAX_READ_COUNTERS)
    return store_fail(s, "%s: run %llu claims %llu counters: the store is damaged", s->path,
                      (unsigned long long)run_id, (unsigned long long)(conf > chunks ? conf : chunks));
  *configured = (uint32_t)conf;
  *n = (uint32_t)(conf > chunks ? conf : chunks);
  return 0;
}

typedef struct walker {
  uint32_t n;
  uint64_t *values, *chunk;
  uint8_t *saturated, *present;
  uint64_t overlaps;               /* across the whole walk */
} walker;

static void walker_free(walker *w) {
  free(w->values);
  free(w->chunk);
  free(w->saturated);
  free(w->present);
}

static int walker_init(store *s, walker *w, uint32_t n) {
  size_t k = n ? n : 1;
  *w = (walker){.n = n, .values = calloc(k, 8), .chunk = calloc(k, 8), .saturated = calloc(k, 1),
                .present = calloc(k, 1)};
  if (!w->values || !w->chunk || !w->saturated || !w->present) {
    walker_free(w);
    *w = (walker){0};
    return store_fail(s, "out of memory");
  }
  return 0;
}

static void walker_reset(walker *w) {
  memset(w->values, 0, (size_t)w->n * 8);
  memset(w->saturated, 0, w->n);
  memset(w->present, 0, w->n);
}

/* Adds one chunk's row into the interval being put together. */
static int walker_add(store *s, walker *w, sqlite3_stmt *st, uint64_t run_id) {
  uint64_t seq = column_u64(st, 7);
  int64_t first = sqlite3_column_int64(st, 3), count = sqlite3_column_int64(st, 4);
  const char *vals = (const char *)sqlite3_column_text(st, 5);
  long k = vals ? store_decode_array(vals, (size_t)sqlite3_column_bytes(st, 5), w->chunk, w->n) : -1;
  if (first < 0 || count < 1 || first + count > w->n || k != count)
    return store_fail(s, "%s: run %llu seq %llu: damaged interval values", s->path, (unsigned long long)run_id,
                      (unsigned long long)seq);
  for (int64_t i = 0; i < count; i++) {
    uint32_t c = (uint32_t)(first + i);
    if (w->present[c]) {
      w->overlaps++; /* the first stored value stands; the verdict says there was a second */
      continue;
    }
    w->present[c] = 1;
    w->values[c] = w->chunk[i];
  }
  const char *sat = (const char *)sqlite3_column_text(st, 6);
  if (sat) {
    long m = store_decode_array(sat, (size_t)sqlite3_column_bytes(st, 6), w->chunk, w->n);
    if (m < 0)
      return store_fail(s, "%s: run %llu seq %llu: damaged saturation list", s->path, (unsigned long long)run_id,
                        (unsigned long long)seq);
    for (long i = 0; i < m; i++)
      if (w->chunk[i] < w->n)
        w->saturated[w->chunk[i]] = 1;
  }
  return 0;
}

#define WALK_UNORDERED (-2)

/* Calls fn with each interval of the run, put together, in index order.
 * by_seq: read the chunks in the table's own order (sequence numbers),
 * which saves SQLite a sort and is index order whenever the board numbered
 * its packets in interval order, as boards do; if an index goes backwards
 * the walk stops with WALK_UNORDERED (fn has been called for some
 * intervals) and the caller walks again sorted. */
static int walk(store *s, uint64_t run_id, uint32_t n, walker *w, bool by_seq, store_interval_fn fn, void *ctx) {
  if (walker_init(s, w, n) < 0)
    return -1;
  sqlite3_stmt *st = prepare(s, by_seq ? "SELECT interval, cycle_begin, cycle_end, first_counter, n, vals, "
                                         "saturated, seq FROM intervals WHERE run_id = ?1 ORDER BY seq"
                                       : "SELECT interval, cycle_begin, cycle_end, first_counter, n, vals, "
                                         "saturated, seq FROM intervals WHERE run_id = ?1 "
                                         "ORDER BY interval, first_counter, seq");
  if (!st)
    return -1;
  sqlite3_bind_int64(st, 1, store_i64(run_id));
  store_interval_view iv = {.n = n, .values = w->values, .saturated = w->saturated, .present = w->present};
  bool open = false;
  uint64_t overlaps = 0; /* w->overlaps when the interval began */
  int rc, stop = 0;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    uint64_t index = column_u64(st, 0);
    if (by_seq && open && index < iv.index) {
      sqlite3_finalize(st);
      return WALK_UNORDERED;
    }
    if (open && index != iv.index) {
      iv.whole = memchr(w->present, 0, n) == NULL && w->overlaps == overlaps;
      if ((stop = fn(ctx, &iv)) != 0)
        break;
      open = false;
    }
    if (!open) {
      walker_reset(w);
      iv.index = index;
      iv.cycle_begin = column_u64(st, 1);
      iv.cycle_end = column_u64(st, 2);
      overlaps = w->overlaps;
      open = true;
    }
    if (walker_add(s, w, st, run_id) < 0) {
      sqlite3_finalize(st);
      return -1;
    }
  }
  if (stop) {
    sqlite3_finalize(st);
    return stop;
  }
  if (finish_read(s, st, rc, "read a run's intervals") < 0)
    return -1;
  if (open) {
    iv.whole = memchr(w->present, 0, n) == NULL && w->overlaps == overlaps;
    return fn(ctx, &iv);
  }
  return 0;
}

int store_each_interval(store *s, uint64_t run_id, store_interval_fn fn, void *ctx) {
  uint32_t n, configured;
  if (run_width(s, run_id, &n, &configured) < 0)
    return -1;
  walker w;
  int rc = walk(s, run_id, n, &w, false, fn, ctx);
  walker_free(&w);
  return rc;
}

int store_each_chunk(store *s, uint64_t run_id, uint32_t max_counters, store_chunk_fn fn, void *ctx) {
  uint64_t *vals = calloc(max_counters ? max_counters : 1, sizeof *vals);
  if (!vals)
    return store_fail(s, "out of memory");
  sqlite3_stmt *st = prepare(s, "SELECT seq, interval, first_counter, n, vals FROM intervals "
                                "WHERE run_id = ?1 ORDER BY seq");
  if (!st) {
    free(vals);
    return -1;
  }
  sqlite3_bind_int64(st, 1, store_i64(run_id));
  int rc, stop = 0;
  while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    uint64_t seq = column_u64(st, 0);
    int64_t first = sqlite3_column_int64(st, 2), count = sqlite3_column_int64(st, 3);
    const char *text = (const char *)sqlite3_column_text(st, 4);
    long k = text ? store_decode_array(text, (size_t)sqlite3_column_bytes(st, 4), vals, max_counters) : -1;
    if (seq > UINT32_MAX || first < 0 || count < 1 || (uint64_t)first + (uint64_t)count > max_counters ||
        k != count) {
      sqlite3_finalize(st);
      free(vals);
      return store_fail(s, "%s: run %llu seq %llu: damaged interval values", s->path, (unsigned long long)run_id,
                        (unsigned long long)seq);
    }
    store_chunk_view ch = {.seq = (uint32_t)seq, .index = column_u64(st, 1), .first = (uint32_t)first,
                           .n = (uint32_t)count, .values = vals};
    stop = fn(ctx, &ch);
  }
  if (stop) {
    sqlite3_finalize(st);
    free(vals);
    return stop;
  }
  free(vals);
  return finish_read(s, st, rc, "read a run's intervals");
}

/* ---- totals and the checks ---- */

typedef struct scan {
  store_totals_view *t;
  uint64_t next;                   /* the index expected next */
  uint64_t expected;
  char *gaps;
  size_t gapsize;
  unsigned ranges;                 /* gap ranges written */
} scan;

/* Notes the missing indexes [lo, hi). */
static void gap(scan *sc, uint64_t lo, uint64_t hi) {
  if (lo >= hi)
    return;
  store_totals_view *t = sc->t;
  if (!t->missing)
    t->first_missing = lo;
  t->missing += hi - lo;
  size_t len = strlen(sc->gaps);
  if (sc->ranges < 8 && len + 48 < sc->gapsize) {
    if (hi - lo == 1)
      snprintf(sc->gaps + len, sc->gapsize - len, "%s%llu", sc->ranges ? ", " : "", (unsigned long long)lo);
    else
      snprintf(sc->gaps + len, sc->gapsize - len, "%s%llu-%llu", sc->ranges ? ", " : "", (unsigned long long)lo,
               (unsigned long long)(hi - 1));
  } else if (sc->ranges == 8 && len + 6 < sc->gapsize) {
    snprintf(sc->gaps + len, sc->gapsize - len, ", ...");
  }
  sc->ranges++;
}

static int scan_interval(void *ctx, const store_interval_view *iv) {
  scan *sc = ctx;
  store_totals_view *t = sc->t;
  if (iv->index >= sc->expected)
    t->beyond++;
  else if (iv->index > sc->next)
    gap(sc, sc->next, iv->index);
  if (iv->index >= sc->next)
    sc->next = iv->index + 1;
  if (iv->whole)
    t->intervals_whole++;
  else if (memchr(iv->present, 0, iv->n)) /* not only an overlap: counters lacking */
    t->intervals_partial++;
  for (uint32_t i = 0; i < iv->n; i++) {
    t->stored[i] += iv->values[i];
    t->saturated[i] += iv->saturated[i];
  }
  return 0;
}

int store_scan_run(store *s, uint64_t run_id, uint64_t expected, store_totals_view *t, uint32_t *counters,
                   char *gaps, size_t gapsize) {
  memset(t, 0, sizeof *t);
  uint32_t n;
  if (run_width(s, run_id, &n, counters) < 0)
    return -1;
  t->n = n;
  t->stored = calloc(n ? n : 1, 8);
  t->saturated = calloc(n ? n : 1, 8);
  t->board = calloc(n ? n : 1, 8);
  if (!t->stored || !t->saturated || !t->board) {
    store_totals_clear(t);
    return store_fail(s, "out of memory");
  }
  walker w;
  scan sc;
  int rc = WALK_UNORDERED;
  for (int sorted = 0; rc == WALK_UNORDERED && sorted < 2; sorted++) {
    memset(t->stored, 0, (size_t)n * 8);
    memset(t->saturated, 0, (size_t)n * 8);
    t->intervals_whole = t->intervals_partial = t->missing = t->first_missing = t->beyond = 0;
    gaps[0] = '\0';
    sc = (scan){.t = t, .expected = expected, .gaps = gaps, .gapsize = gapsize};
    rc = walk(s, run_id, n, &w, !sorted, scan_interval, &sc);
    t->overlaps = w.overlaps;
    walker_free(&w);
  }
  if (rc < 0) {
    store_totals_clear(t);
    return -1;
  }
  gap(&sc, sc.next, expected == UINT64_MAX ? sc.next : expected);
  if (t->missing) {
    char list[160];
    snprintf(list, sizeof list, "%s", gaps);
    uint64_t of = expected == UINT64_MAX ? sc.next : expected;
    snprintf(gaps, gapsize, "missing interval%s %s (%llu of %llu)", t->missing == 1 ? "" : "s", list,
             (unsigned long long)t->missing, (unsigned long long)of);
  }
  return 0;
}

int store_get_totals(store *s, uint64_t run_id, store_totals_view *t) {
  store_run_view run;
  int found = store_get_run(s, run_id, &run);
  if (found <= 0) {
    memset(t, 0, sizeof *t);
    return found < 0 ? -1 : store_fail(s, "%s: no run %llu", s->path, (unsigned long long)run_id);
  }
  uint32_t counters;
  char gaps[200];
  uint64_t expected = run.has_intervals_sent ? run.intervals_sent : UINT64_MAX;
  int rc = store_scan_run(s, run_id, expected, t, &counters, gaps, sizeof gaps);
  if (rc < 0) {
    store_run_view_clear(&run);
    return -1;
  }
  sqlite3_stmt *st = prepare(s, "SELECT counter, board_total FROM totals WHERE run_id = ?1 "
                                "AND board_total IS NOT NULL ORDER BY counter");
  if (!st) {
    store_run_view_clear(&run);
    store_totals_clear(t);
    return -1;
  }
  sqlite3_bind_int64(st, 1, store_i64(run_id));
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    int64_t c = sqlite3_column_int64(st, 0);
    t->has_board = true;
    if (c >= 0 && c < t->n)
      t->board[c] = column_u64(st, 1);
    if (c >= 0 && (uint64_t)c + 1 > t->nboard)
      t->nboard = (uint32_t)(c + 1 > UINT32_MAX ? UINT32_MAX : c + 1);
  }
  if (finish_read(s, st, rc, "read a run's totals") < 0) {
    store_run_view_clear(&run);
    store_totals_clear(t);
    return -1;
  }
  bool sums = t->has_board && t->nboard <= t->n;
  for (uint32_t i = 0; sums && i < t->n; i++)
    sums = t->board[i] == t->stored[i];
  t->whole = run.status == STORE_RUN_COMPLETE && run.has_intervals_sent && sums && !t->missing &&
             !t->intervals_partial && !t->overlaps && !t->beyond;
  store_run_view_clear(&run);
  return 0;
}

void store_totals_clear(store_totals_view *t) {
  if (!t)
    return;
  free(t->stored);
  free(t->saturated);
  free(t->board);
  memset(t, 0, sizeof *t);
}
