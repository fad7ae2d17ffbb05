/*
 * Board and collector on real loopback sockets, into a real SQLite file
 * (and then the same through an in-process pipe too small for the runs,
 * which loses packets that resends must bring back):
 * the synthetic board feeds known intervals through the board link, the
 * collector runs in its own thread (as in tally run), and afterwards the
 * database is read with plain SQL, not through the store's code: every
 * counter's stored sum must equal the known total, every interval must be
 * there once, and the run must be marked complete.
 */
#include <inttypes.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collector_thread.h"
#include "net/board_link.h"
#include "net/pipe.h"
#include "synth.h"

#include "check.h"

typedef struct known {
  uint64_t run_id;
  uint32_t counters;
  uint64_t intervals;
  uint64_t *totals;
  const char *label0;
} known;

/* One run of the synthetic board to the collector at `collector`, or
 * through `pipe` when it is not NULL. */
static void board_run(const char *collector, net_pipe *pipe, uint32_t counters, uint32_t width, uint64_t intervals,
                      uint64_t seed, known *k) {
  char err[300];
  net_board_cfg cfg = {.collector = collector, .pipe = pipe,
                       .params = {.counters = counters, .width = width, .arrs = 4}, .linger_ms = 3000};
  net_board *b = net_board_open(&cfg, err, sizeof err);
  if (!b) {
    CHECK(0, "board: %s", err);
    return;
  }
  net_counter_label *labels = calloc(counters, sizeof *labels);
  for (uint32_t i = 0; i < counters; i++)
    labels[i] = (net_counter_label){.signal = i % 7, .arr = STATMOD_ANYWHERE, .enabled = true, .name = "cycle",
                                    .where = "anywhere", .label = i == 0 ? k->label0 : "cycles anywhere"};
  net_run_desc d = {.period = 1000, .freq_mhz = 100, .program = "loopback", .core = "tally5", .counters = labels};
  CHECK(net_board_describe(b, &d) == 0, "describe: %s", net_board_error(b));
  synth s;
  synth_init(&s, counters, width, 1000, seed);
  statmod_interval iv;
  for (uint64_t i = 0; i < intervals; i++) {
    synth_next(&s, &iv);
    net_board_sink(b, &iv);
  }
  synth_final(&s, &iv);
  net_board_sink(b, &iv);
  net_board_stats st;
  net_board_get_stats(b, &st);
  CHECK(st.acked && st.verdict == 1, "run of %u counters: board acked %d, verdict %u", counters, st.acked, st.verdict);
  CHECK(st.intervals == intervals, "board sent %" PRIu64 " intervals", st.intervals);
  if (pipe)
    CHECK(st.resent > 0, "nothing was lost in the pipe and sent again: the repair was not exercised");
  k->run_id = net_board_run_id(b);
  k->counters = counters;
  k->intervals = intervals;
  k->totals = malloc(counters * sizeof *k->totals);
  memcpy(k->totals, s.totals, counters * sizeof *k->totals);
  synth_free(&s);
  free(labels);
  net_board_close(b);
}

static void check_db(const char *path, const known *k) {
  sqlite3 *db;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
    CHECK(0, "cannot open %s", path);
    return;
  }
  sqlite3_stmt *st;
  sqlite3_prepare_v2(db,
                     "SELECT counter, SUM(value), COUNT(*) FROM interval_values WHERE run_id = ?1 "
                     "GROUP BY counter ORDER BY counter",
                     -1, &st, NULL);
  sqlite3_bind_int64(st, 1, (int64_t)k->run_id);
  uint32_t rows = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    uint32_t c = (uint32_t)sqlite3_column_int64(st, 0);
    uint64_t sum = (uint64_t)sqlite3_column_int64(st, 1);
    int64_t count = sqlite3_column_int64(st, 2);
    CHECK(c == rows, "counter %u stored, expected %u", c, rows);
    if (c < k->counters) {
      CHECK(sum == k->totals[c], "counter %u: stored sum %" PRIu64 ", known total %" PRIu64, c, sum, k->totals[c]);
      CHECK(count == (int64_t)k->intervals, "counter %u: %" PRId64 " values stored, %" PRIu64 " intervals", c, count,
            k->intervals);
    }
    rows++;
  }
  sqlite3_finalize(st);
  CHECK(rows == k->counters, "%u counters stored, expected %u", rows, k->counters);
  sqlite3_prepare_v2(db, "SELECT status FROM runs WHERE run_id = ?1", -1, &st, NULL);
  sqlite3_bind_int64(st, 1, (int64_t)k->run_id);
  CHECK(sqlite3_step(st) == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0), "complete") == 0,
        "run %016" PRIx64 " not stored as complete", k->run_id);
  sqlite3_finalize(st);
  sqlite3_prepare_v2(db, "SELECT label FROM counters WHERE run_id = ?1 AND counter = 0", -1, &st, NULL);
  sqlite3_bind_int64(st, 1, (int64_t)k->run_id);
  CHECK(sqlite3_step(st) == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0), k->label0) == 0,
        "counter 0's label not stored");
  sqlite3_finalize(st);
  sqlite3_close(db);
}

int main(int argc, char **argv) {
  char path[4096];
  snprintf(path, sizeof path, "%s/loopback.db", argc > 1 ? argv[1] : ".");
  unlink(path);
  collector_thread ct;
  if (collector_thread_start(&ct, path, "127.0.0.1:0", NULL) != 0)
    return 1;
  known k[3] = {{.label0 = "cycles anywhere, 32 bits"}, {.label0 = "1,024 counters of 64 bits"},
                {.label0 = "saturating 12-bit counters"}};
  board_run(ct.addr, NULL, 16, 32, 300, 7, &k[0]);
  board_run(ct.addr, NULL, 1024, 64, 20, 8, &k[1]);
  board_run(ct.addr, NULL, 24, 12, 200, 9, &k[2]);
  collector_thread_stop(&ct);
  CHECK(ct.complete == 3 && ct.incomplete == 0, "collector: %d complete, %d incomplete (%s)", ct.complete,
        ct.incomplete, ct.last_note);
  for (int i = 0; i < 3; i++) {
    check_db(path, &k[i]);
    free(k[i].totals);
  }

  /* The pipe holds 32 packets; the runs send hundreds at once, so most
   * are lost on the first try and come back through resend requests. */
  snprintf(path, sizeof path, "%s/pipe.db", argc > 1 ? argv[1] : ".");
  unlink(path);
  net_pipe *pipe = net_pipe_new(32, 32);
  CHECK(pipe != NULL, "pipe: out of memory");
  if (!pipe || collector_thread_start(&ct, path, "127.0.0.1:0", pipe) != 0)
    return 1;
  known kp[2] = {{.label0 = "through a pipe"}, {.label0 = "1,024 counters through a pipe"}};
  board_run(NULL, pipe, 16, 32, 300, 10, &kp[0]);
  board_run(NULL, pipe, 1024, 64, 20, 11, &kp[1]);
  collector_thread_stop(&ct);
  net_pipe_free(pipe);
  CHECK(ct.complete == 2 && ct.incomplete == 0, "pipe collector: %d complete, %d incomplete (%s)", ct.complete,
        ct.incomplete, ct.last_note);
  for (int i = 0; i < 2; i++) {
    check_db(path, &kp[i]);
    free(kp[i].totals);
  }
  printf("loopback: %d failures\n", failures);
  return failures ? 1 : 0;
}
