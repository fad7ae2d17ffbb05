/*
 * Tests of src/store against real SQLite files: round trips of every field,
 * chunks put together, 64-bit values, repeated packets, finishing runs
 * complete or incomplete (and the store's own check of a "complete" claim),
 * reopening a file, batching seen from a second connection, and files that
 * are not tally stores or are damaged. Expected values are written here by
 * hand.
 *
 * usage: test_store DIR   (a scratch directory; files are made inside)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store.h"
#include "store/store_internal.h"
#include "store/store_read.h"

static int passed, failed;
static const char *dir;

static void check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(bool ok, const char *fmt, ...) {
  if (ok) {
    passed++;
    return;
  }
  failed++;
  va_list ap;
  va_start(ap, fmt);
  printf("FAIL: ");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
}

/* A fresh path in the scratch directory (old file and its WAL removed). */
static const char *fresh(const char *name) {
  static char path[4096];
  char p[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  unlink(path);
  snprintf(p, sizeof p, "%s-wal", path);
  unlink(p);
  snprintf(p, sizeof p, "%s-shm", path);
  unlink(p);
  return path;
}

static store *must_open(const char *path) {
  char err[600];
  store *s = store_open(path, err, sizeof err);
  if (!s) {
    printf("FATAL: store_open %s: %s\n", path, err);
    exit(1);
  }
  return s;
}

static void ok(store *s, int rc, const char *what) { check(rc == 0, "%s: %s", what, store_error(s)); }

/* Collects the intervals of a walk. */
#define MAXI 16
#define MAXC 8
typedef struct got {
  size_t n;
  store_interval_view iv[MAXI];
  uint64_t values[MAXI][MAXC];
  uint8_t sat[MAXI][MAXC], present[MAXI][MAXC];
} got;

static int collect(void *ctx, const store_interval_view *iv) {
  got *g = ctx;
  if (g->n == MAXI || iv->n > MAXC)
    return 99;
  g->iv[g->n] = *iv;
  memcpy(g->values[g->n], iv->values, iv->n * 8);
  memcpy(g->sat[g->n], iv->saturated, iv->n);
  memcpy(g->present[g->n], iv->present, iv->n);
  g->n++;
  return 0;
}

static void test_codec(void) {
  uint64_t v[4];
  check(store_decode_array("[]", 2, v, 4) == 0, "[] is empty");
  check(store_decode_array(" [ 1 , 22,333 ] ", 16, v, 4) == 3 && v[0] == 1 && v[1] == 22 && v[2] == 333,
        "spaces are allowed");
  check(store_decode_array("[18446744073709551615]", 22, v, 4) == 1 && v[0] == UINT64_MAX, "2^64 - 1 is exact");
  static const char *const bad[] = {"", "[", "]", "[1,]", "[,1]", "[01]", "[-1]", "[1.5]", "[1e3]",
                                    "[18446744073709551616]", "[1] x", "[1 2]", "[1,2,3,4,5]", "{}", "[\"1\"]"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    check(store_decode_array(bad[i], strlen(bad[i]), v, 4) == -1, "'%s' is refused", bad[i]);
}

static void test_round_trip(void) {
  const char *path = fresh("round.db");
  store *s = must_open(path);
  store_run_info run = {.run_id = 0x8000000000000005ull, .program = "aes.elf", .core = "tally5", .counters = 3,
                        .width = 64, .arrs = 2, .period = 1000, .freq_mhz = 50};
  ok(s, store_begin_run(s, &run), "begin");
  store_counter_info c0 = {.index = 0, .signal = "cycle", .anywhere = true, .where = "anywhere",
                           .label = "cycles anywhere", .enabled = true};
  store_counter_info c2 = {.index = 2, .signal = "dcache.read_miss", .lo = 0x80000100, .hi = 0xFFFFFFFF,
                           .where = "MixColumns", .label = "data-cache read misses in MixColumns"};
  store_run_info bare = {.run_id = run.run_id};
  ok(s, store_begin_run(s, &bare), "describe again, knowing nothing");
  ok(s, store_set_counter(s, run.run_id, &c0), "counter 0");
  ok(s, store_set_counter(s, run.run_id, &c2), "counter 2");
  /* interval 0 whole; interval 1 in two chunks sent out of order; a value above 2^63 */
  const uint64_t v0[] = {1000, 0, 9223372036854775813ull};
  const uint8_t s0[] = {0, 0, 1};
  const uint64_t v1a[] = {1000, 7}, v1b[] = {3};
  ok(s, store_add_interval(s, run.run_id, 0, 0, 0, 1000, 0, 3, v0, s0, NULL), "add 0");
  ok(s, store_add_interval(s, run.run_id, 2, 1, 1000, 2000, 2, 1, v1b, NULL, NULL), "add 1b");
  ok(s, store_add_interval(s, run.run_id, 1, 1, 1000, 2000, 0, 2, v1a, NULL, NULL), "add 1a");
  store_close(s);

  char err[600];
  s = store_open_existing(path, err, sizeof err);
  check(s != NULL, "reopen for reading: %s", err);
  if (!s)
    return;
  store_run_view r;
  check(store_get_run(s, run.run_id, &r) == 1, "run found");
  check(r.run_id == 0x8000000000000005ull, "64-bit run id comes back");
  check(r.program && !strcmp(r.program, "aes.elf") && r.core && !strcmp(r.core, "tally5"), "program and core");
  check(r.counters == 3 && r.width == 64 && r.arrs == 2 && r.period == 1000 && r.freq_mhz == 50, "parameters");
  check(r.status == STORE_RUN_RUNNING && !r.finished && !r.has_intervals_sent, "running, not finished");
  check(r.received == 3 && r.duplicates == 0 && r.intervals == 2, "3 packets, 2 intervals (got %llu, %llu)",
        (unsigned long long)r.received, (unsigned long long)r.intervals);
  check(r.started && strlen(r.started) == 24 && r.started[10] == 'T', "started is a UTC time: %s",
        r.started ? r.started : "(null)");
  store_run_view_clear(&r);

  store_counter_view *cv;
  size_t nc;
  ok(s, store_get_counters(s, run.run_id, &cv, &nc), "counters");
  check(nc == 2, "two counters configured");
  if (nc == 2) {
    check(cv[0].index == 0 && cv[0].anywhere && cv[0].enabled && !strcmp(cv[0].signal, "cycle"), "counter 0");
    check(cv[1].index == 2 && !cv[1].anywhere && !cv[1].enabled && cv[1].lo == 0x80000100 && cv[1].hi == 0xFFFFFFFF,
          "counter 2 range and enable");
    check(!strcmp(cv[1].label, "data-cache read misses in MixColumns") && !strcmp(cv[1].where, "MixColumns"),
          "counter 2 names");
  }
  store_counters_free(cv, nc);

  got g = {0};
  ok(s, store_each_interval(s, run.run_id, collect, &g), "walk");
  check(g.n == 2, "two intervals");
  if (g.n == 2) {
    check(g.iv[0].index == 0 && g.iv[0].cycle_begin == 0 && g.iv[0].cycle_end == 1000 && g.iv[0].whole, "interval 0");
    check(g.values[0][2] == 9223372036854775813ull && g.sat[0][2] == 1 && g.sat[0][0] == 0, "value above 2^63, saturated");
    check(g.iv[1].index == 1 && g.iv[1].whole && g.values[1][0] == 1000 && g.values[1][1] == 7 && g.values[1][2] == 3,
          "interval 1 put together from two chunks");
  }
  store_totals_view t;
  ok(s, store_get_totals(s, run.run_id, &t), "totals");
  check(t.n == 3 && t.stored[0] == 2000 && t.stored[1] == 7 && t.stored[2] == 9223372036854775816ull,
        "stored sums");
  check(t.saturated[2] == 1 && t.intervals_whole == 2 && !t.has_board && !t.whole, "not whole while running");
  store_totals_clear(&t);
  store_close(s);
}

static void test_duplicates(void) {
  store *s = must_open(fresh("dup.db"));
  const uint64_t a[] = {5, 6}, b[] = {50, 60};
  bool dup = true;
  ok(s, store_add_interval(s, 9, 0, 0, 0, 10, 0, 2, a, NULL, &dup), "first");
  check(!dup, "first copy is not a duplicate");
  ok(s, store_add_interval(s, 9, 0, 0, 0, 10, 0, 2, b, NULL, &dup), "repeat");
  check(dup, "repeat of (run, seq) is a duplicate");
  ok(s, store_flush(s), "flush");
  ok(s, store_add_interval(s, 9, 0, 0, 0, 10, 0, 2, b, NULL, &dup), "repeat after commit");
  check(dup, "repeat after a commit is a duplicate");
  ok(s, store_add_interval(s, 10, 0, 0, 0, 10, 0, 2, b, NULL, &dup), "same seq, other run");
  check(!dup, "the same seq in another run is not a duplicate");
  ok(s, store_add_interval(s, 9, 1, 1, 10, 20, 0, 2, b, NULL, NULL), "a NULL duplicate flag is allowed");
  store_run_view r;
  check(store_get_run(s, 9, &r) == 1 && r.received == 2 && r.duplicates == 2, "run 9: 2 received, 2 duplicates");
  check(r.status == STORE_RUN_RUNNING && r.program == NULL, "a run never described is kept, running");
  store_run_view_clear(&r);
  got g = {0};
  ok(s, store_each_interval(s, 9, collect, &g), "walk");
  check(g.n == 2 && g.values[0][0] == 5 && g.values[0][1] == 6, "the first copy's values stand");
  store_close(s);
}

/* A run of n counters with intervals [0, k) of value index+1 per counter,
 * leaving out `skip` (or none if skip >= k). */
static void fill(store *s, uint64_t id, uint32_t n, uint64_t k, uint64_t skip) {
  store_run_info run = {.run_id = id, .program = "p", .core = "c", .counters = n, .width = 32, .arrs = 1,
                        .period = 100};
  ok(s, store_begin_run(s, &run), "begin");
  uint64_t v[MAXC];
  for (uint64_t i = 0; i < k; i++) {
    if (i == skip)
      continue;
    for (uint32_t c = 0; c < n; c++)
      v[c] = i + 1;
    ok(s, store_add_interval(s, id, (uint32_t)i, i, i * 100, i * 100 + 100, 0, n, v, NULL, NULL), "add");
  }
}

static store_run_status status_of(store *s, uint64_t id, char *note, size_t size) {
  store_run_view r;
  store_run_status st = (store_run_status)-1;
  if (store_get_run(s, id, &r) == 1) {
    st = r.status;
    snprintf(note, size, "%s", r.note ? r.note : "");
  }
  store_run_view_clear(&r);
  return st;
}

static void test_finish(void) {
  store *s = must_open(fresh("finish.db"));
  char note[1024];
  /* complete: 5 intervals of 1..5 -> totals 15 per counter */
  fill(s, 1, 2, 5, 99);
  const uint64_t t15[] = {15, 15};
  ok(s, store_finish_run(s, 1, STORE_RUN_COMPLETE, t15, 2, 5, NULL), "finish 1");
  check(status_of(s, 1, note, sizeof note) == STORE_RUN_COMPLETE && !*note, "run 1 complete, no note (%s)", note);
  store_totals_view t;
  ok(s, store_get_totals(s, 1, &t), "totals 1");
  check(t.whole && t.has_board && t.board[0] == 15 && t.stored[1] == 15 && t.intervals_whole == 5, "run 1 whole");
  store_totals_clear(&t);
  store_run_status st;
  check(store_run_status_of(s, 1, &st) == 1 && st == STORE_RUN_COMPLETE, "status_of run 1");
  check(store_run_status_of(s, 77, &st) == 0, "status_of an unknown run: not found");

  /* said complete, interval 3 missing: recorded incomplete with the reason */
  fill(s, 2, 2, 5, 3);
  ok(s, store_finish_run(s, 2, STORE_RUN_COMPLETE, t15, 2, 5, NULL), "finish 2");
  check(status_of(s, 2, note, sizeof note) == STORE_RUN_INCOMPLETE, "run 2 downgraded to incomplete");
  check(strstr(note, "missing interval 3 (1 of 5)") != NULL, "run 2 note names the gap: %s", note);
  ok(s, store_get_totals(s, 2, &t), "totals 2");
  check(!t.whole && t.missing == 1 && t.first_missing == 3 && t.stored[0] == 11, "run 2 totals: 1 missing, sum 11");
  store_totals_clear(&t);

  /* every interval there, but the board's totals differ */
  fill(s, 3, 2, 5, 99);
  const uint64_t off[] = {15, 16};
  ok(s, store_finish_run(s, 3, STORE_RUN_COMPLETE, off, 2, 5, NULL), "finish 3");
  check(status_of(s, 3, note, sizeof note) == STORE_RUN_INCOMPLETE && strstr(note, "counter 1: stored sum 15, board total 16"),
        "run 3: sums differ -> incomplete: %s", note);

  /* the board says 6 intervals, 5 stored (the last one lost) */
  fill(s, 4, 2, 5, 99);
  ok(s, store_finish_run(s, 4, STORE_RUN_COMPLETE, t15, 2, 6, NULL), "finish 4");
  check(status_of(s, 4, note, sizeof note) == STORE_RUN_INCOMPLETE && strstr(note, "missing interval 5 (1 of 6)"),
        "run 4: a lost last interval is found: %s", note);

  /* incomplete with the collector's note */
  fill(s, 5, 2, 5, 2);
  const uint64_t t13[] = {15, 15};
  ok(s, store_finish_run(s, 5, STORE_RUN_INCOMPLETE, t13, 2, 5, "seq 2 never resent"), "finish 5");
  check(status_of(s, 5, note, sizeof note) == STORE_RUN_INCOMPLETE && !strncmp(note, "seq 2 never resent", 18),
        "run 5 keeps the collector's note: %s", note);

  /* sequence numbers not in interval order (and one interval in two
   * chunks far apart): the checks still see every interval */
  store_run_info r9 = {.run_id = 9, .counters = 2};
  ok(s, store_begin_run(s, &r9), "begin 9");
  const uint64_t x2[] = {3, 3}, x0[] = {1, 1}, x1a[] = {2}, x1b[] = {2};
  ok(s, store_add_interval(s, 9, 0, 2, 200, 300, 0, 2, x2, NULL, NULL), "seq 0 = interval 2");
  ok(s, store_add_interval(s, 9, 1, 1, 100, 200, 1, 1, x1b, NULL, NULL), "seq 1 = interval 1, counter 1");
  ok(s, store_add_interval(s, 9, 2, 0, 0, 100, 0, 2, x0, NULL, NULL), "seq 2 = interval 0");
  ok(s, store_add_interval(s, 9, 3, 1, 100, 200, 0, 1, x1a, NULL, NULL), "seq 3 = interval 1, counter 0");
  const uint64_t t9[] = {6, 6};
  ok(s, store_finish_run(s, 9, STORE_RUN_COMPLETE, t9, 2, 3, NULL), "finish 9");
  check(status_of(s, 9, note, sizeof note) == STORE_RUN_COMPLETE, "run 9: out-of-order packets, complete: %s", note);
  ok(s, store_get_totals(s, 9, &t), "totals 9");
  check(t.whole && t.intervals_whole == 3 && t.stored[0] == 6 && t.stored[1] == 6, "run 9 totals");
  store_totals_clear(&t);

  /* no final packet: no board totals */
  fill(s, 8, 2, 2, 99);
  ok(s, store_finish_run(s, 8, STORE_RUN_INCOMPLETE, NULL, 0, 2, "the board went silent"), "finish 8");
  check(status_of(s, 8, note, sizeof note) == STORE_RUN_INCOMPLETE &&
            !strcmp(note, "the board went silent; no totals from the board"),
        "run 8: no totals: %s", note);
  ok(s, store_get_totals(s, 8, &t), "totals 8");
  check(!t.has_board && !t.whole && t.stored[0] == 3, "run 8: board totals unknown, stored sum 3");
  store_totals_clear(&t);

  /* a partial interval: counter 1 of interval 2 never came */
  fill(s, 6, 2, 2, 99);
  const uint64_t v3[] = {3};
  ok(s, store_add_interval(s, 6, 2, 2, 200, 300, 0, 1, v3, NULL, NULL), "add a lone chunk");
  const uint64_t t6[] = {6, 6};
  ok(s, store_finish_run(s, 6, STORE_RUN_COMPLETE, t6, 2, 3, NULL), "finish 6");
  check(status_of(s, 6, note, sizeof note) == STORE_RUN_INCOMPLETE && strstr(note, "1 intervals lack some counters"),
        "run 6: a partial interval is found: %s", note);

  /* one counter carried twice for an interval (two seqs) */
  fill(s, 7, 1, 2, 99);
  const uint64_t again[] = {1};
  ok(s, store_add_interval(s, 7, 5, 0, 0, 100, 0, 1, again, NULL, NULL), "a second copy under a new seq");
  const uint64_t t7[] = {3};
  ok(s, store_finish_run(s, 7, STORE_RUN_COMPLETE, t7, 1, 2, NULL), "finish 7");
  check(status_of(s, 7, note, sizeof note) == STORE_RUN_INCOMPLETE && strstr(note, "stored twice"),
        "run 7: an overlap is found: %s", note);

  /* finishing again once the data is there makes it complete */
  const uint64_t v4[] = {4, 4};
  ok(s, store_add_interval(s, 2, 3, 3, 300, 400, 0, 2, v4, NULL, NULL), "late interval");
  ok(s, store_finish_run(s, 2, STORE_RUN_COMPLETE, t15, 2, 5, NULL), "finish 2 again");
  check(status_of(s, 2, note, sizeof note) == STORE_RUN_COMPLETE && !*note, "run 2 complete after the late interval");

  check(store_finish_run(s, 1, STORE_RUN_RUNNING, t15, 2, 5, NULL) == -1, "finishing as running is refused");
  const uint64_t v[] = {1};
  check(store_add_interval(s, 1, 100, 0, 0, 1, 0, 0, v, NULL, NULL) == -1, "an empty chunk is refused");
  check(store_add_interval(s, 1, 100, 0, 0, 1, UINT32_MAX, 2, v, NULL, NULL) == -1, "a counter range past 2^32 is refused");
  check(strstr(store_error(s), "bad counter range") != NULL, "and says why: %s", store_error(s));
  store_close(s);
}

static void test_reopen_and_batching(void) {
  const char *path = fresh("batch.db");
  char p[4096];
  snprintf(p, sizeof p, "%s", path);
  store *w = must_open(p);
  ok(w, store_set_batch(w, 3, 60000), "batch of 3");
  check(store_set_batch(w, 0, 1) == -1, "a batch of 0 is refused");
  char err[600];
  store *r = store_open_existing(p, err, sizeof err);
  check(r != NULL, "a reader beside the writer: %s", err);
  if (!r)
    return;
  const uint64_t v[] = {1};
  store_run_view rv;
  ok(w, store_add_interval(w, 1, 0, 0, 0, 1, 0, 1, v, NULL, NULL), "add 0");
  ok(w, store_add_interval(w, 1, 1, 1, 1, 2, 0, 1, v, NULL, NULL), "add 1");
  check(store_get_run(r, 1, &rv) == 0, "two writes: not yet committed, the reader sees no run");
  store_run_view_clear(&rv);
  ok(w, store_add_interval(w, 1, 2, 2, 2, 3, 0, 1, v, NULL, NULL), "add 2");
  check(store_get_run(r, 1, &rv) == 1 && rv.received == 3, "a full batch is committed (received %llu)",
        (unsigned long long)rv.received);
  store_run_view_clear(&rv);
  ok(w, store_add_interval(w, 1, 3, 3, 3, 4, 0, 1, v, NULL, NULL), "add 3");
  ok(w, store_flush(w), "flush");
  check(store_get_run(r, 1, &rv) == 1 && rv.received == 4 && rv.intervals == 4, "flush commits the rest");
  store_run_view_clear(&rv);
  /* age: a transaction older than the limit is committed at a write */
  ok(w, store_set_batch(w, 1000000, 50), "batch by age: 50 ms");
  for (uint32_t i = 4; i < 4 + 63; i++)
    ok(w, store_add_interval(w, 1, i, i, i, i + 1, 0, 1, v, NULL, NULL), "add");
  usleep(60 * 1000);
  ok(w, store_add_interval(w, 1, 67, 67, 67, 68, 0, 1, v, NULL, NULL), "add after 60 ms");
  check(store_get_run(r, 1, &rv) == 1 && rv.received == 68, "a transaction older than 50 ms is committed at a write "
        "(received %llu)", (unsigned long long)rv.received);
  store_run_view_clear(&rv);
  store_close(r);
  store_close(w); /* commits nothing pending, leaves a valid file */

  /* reopen for writing: the schema is kept, counts go on */
  w = must_open(p);
  bool dup = false;
  ok(w, store_add_interval(w, 1, 0, 0, 0, 1, 0, 1, v, NULL, &dup), "repeat after reopening");
  check(dup, "a repeat is known after reopening");
  ok(w, store_add_interval(w, 1, 100, 68, 68, 69, 0, 1, v, NULL, NULL), "add after reopening");
  store_close(w); /* close commits */
  r = store_open_existing(p, err, sizeof err);
  check(r && store_get_run(r, 1, &rv) == 1 && rv.received == 69 && rv.duplicates == 1,
        "reopened: received 69, duplicates 1");
  store_run_view_clear(&rv);
  store_close(r);
}

/* store_open_existing and store_open both refuse path with an error containing want. */
static void refused(const char *path, const char *want, bool also_create) {
  char err[600] = "";
  store *s = store_open_existing(path, err, sizeof err);
  check(!s && strstr(err, want), "%s: open_existing refuses with '%s' (got '%s')", path, want, err);
  store_close(s);
  if (also_create) {
    err[0] = '\0';
    s = store_open(path, err, sizeof err);
    check(!s && strstr(err, want), "%s: open refuses with '%s' (got '%s')", path, want, err);
    store_close(s);
  }
}

static void write_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, len, f) != len) {
    printf("FATAL: write %s\n", path);
    exit(1);
  }
  fclose(f);
}

static void sql(const char *path, const char *text) {
  sqlite3 *db;
  char *msg = NULL;
  if (sqlite3_open(path, &db) != SQLITE_OK || sqlite3_exec(db, text, NULL, NULL, &msg) != SQLITE_OK) {
    printf("FATAL: %s: %s\n", text, msg ? msg : sqlite3_errmsg(db));
    exit(1);
  }
  sqlite3_close(db);
}

static void test_bad_files(void) {
  char err[600];
  refused(fresh("missing.db"), "No such file", false);
  refused(dir, "not a regular file", true);

  const char *p = fresh("text.db");
  char text[4096];
  memset(text, 'x', sizeof text);
  write_file(p, text, sizeof text);
  refused(p, "file is not a database", true);

  p = fresh("empty.db");
  write_file(p, "", 0);
  refused(p, "not a tally store (an empty database)", false);

  p = fresh("other.db");
  sql(p, "CREATE TABLE songs(title TEXT)");
  refused(p, "not a tally store (no tally_schema table)", true);

  p = fresh("newer.db");
  store *s = must_open(p);
  store_close(s);
  sql(p, "UPDATE tally_schema SET version = 99");
  refused(p, "written by a newer tally (store schema 99", true);

  /* damaged values inside a good file: the read says which packet */
  p = fresh("damaged.db");
  s = must_open(p);
  fill(s, 42, 2, 3, 99);
  store_close(s);
  sql(p, "UPDATE intervals SET vals = '[1,x]' WHERE seq = 1");
  s = store_open_existing(p, err, sizeof err);
  check(s != NULL, "a damaged value still opens: %s", err);
  if (s) {
    got g = {0};
    check(store_each_interval(s, 42, collect, &g) == -1 && strstr(store_error(s), "run 42 seq 1: damaged interval values"),
          "a damaged value is an error naming the packet: %s", store_error(s));
    store_totals_view t;
    check(store_get_totals(s, 42, &t) == -1, "totals of a damaged run fail");
    store_totals_clear(&t);
    store_close(s);
  }
  sql(p, "UPDATE intervals SET vals = '[1,1]', n = 5 WHERE seq = 1");
  s = store_open_existing(p, err, sizeof err);
  if (s) {
    got g = {0};
    check(store_each_interval(s, 42, collect, &g) == -1, "a chunk whose n disagrees with its values is refused");
    store_close(s);
  }

  /* a store with its middle overwritten: errors, never a crash */
  p = fresh("torn.db");
  s = must_open(p);
  fill(s, 43, 4, 3000, 99);
  store_close(s);
  struct stat sb;
  check(stat(p, &sb) == 0 && sb.st_size > 8192, "the torn file has several pages");
  int fd = open(p, O_WRONLY);
  memset(text, 0xA5, sizeof text);
  if (fd >= 0) {
    check(pwrite(fd, text, sizeof text, 4096) == (ssize_t)sizeof text, "overwrite a page");
    close(fd);
  }
  s = store_open_existing(p, err, sizeof err);
  if (s) {
    got g = {0};
    store_run_view *runs = NULL;
    size_t n = 0;
    int a = store_list_runs(s, &runs, &n);
    store_runs_free(runs, n);
    int b = store_each_interval(s, 43, collect, &g);
    check(a == -1 || b != 0, "a torn file gives an error somewhere (list %d, walk %d)", a, b);
    if (a == -1 || b == -1)
      check(strstr(store_error(s), "torn.db") != NULL, "the error names the file: %s", store_error(s));
    store_close(s);
  } else {
    check(strstr(err, "torn.db") != NULL, "refused, naming the file: %s", err);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_store DIR\n");
    return 64;
  }
  dir = argv[1];
  mkdir(dir, 0755);
  test_codec();
  test_round_trip();
  test_duplicates();
  test_finish();
  test_reopen_and_batching();
  test_bad_files();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
