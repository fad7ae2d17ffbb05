/*
 * A client of the public API only (include/tally/): runs a program with two
 * counters into a store, reads the totals back, and checks them against the
 * program's hand-derived timeline.
 *
 * The program is tests/statmod/markers.S on the sram model; its header
 * derives, cycle by cycle: 18 cycles; `work` ([0x80000024, 0x8000003c))
 * owns cycles 5-12; marker 0 is high on cycles 2-12. At a dispatch every 5
 * cycles the intervals are [0,5) [5,10) [10,15) [15,20) (the last ends at
 * its natural boundary after the program's end, with the counters frozen):
 *   cycle@work  0 5 3 0   total  8
 *   marker0     3 5 3 0   total 11
 * A second run is cancelled before it starts: the store must keep it as
 * incomplete (a program that did not run to its end is never whole), and
 * deleting it must leave the first run alone.
 *
 * usage: test_api_two_counters markers.elf DB
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "tally/export.h"
#include "tally/run.h"
#include "tally/store.h"

enum { INTERVALS = 4 };
static const uint64_t work_cycles[INTERVALS] = {0, 5, 3, 0};
static const uint64_t marker0[INTERVALS] = {3, 5, 3, 0};

typedef struct seen {
  uint64_t n;                    /* data intervals */
  uint64_t v[8][2];
  uint64_t begin[8], end[8];
  bool final;
  uint64_t totals[2], intervals;
} seen;

static void on_interval(void *ctx, const tally_interval *iv) {
  seen *s = ctx;
  CHECK(iv->n == 2, "an interval carries %u events, not 2", iv->n);
  if (iv->final) {
    s->final = true;
    s->totals[0] = iv->values[0];
    s->totals[1] = iv->values[1];
    s->intervals = iv->intervals;
  } else if (s->n < 8) {
    s->v[s->n][0] = iv->values[0];
    s->v[s->n][1] = iv->values[1];
    s->begin[s->n] = iv->cycle_begin;
    s->end[s->n] = iv->cycle_end;
    s->n++;
  }
}

static tally_sim *board(const char *elf) {
  tally_error err;
  tally_sim *sim = tally_sim_new(NULL);
  if (!sim || tally_load_elf(sim, elf, &err) != 0 || tally_set_core(sim, "sram", NULL, 0, &err) != 0) {
    fprintf(stderr, "cannot set up %s: %s\n", elf, sim ? err.msg : "no memory");
    exit(2);
  }
  return sim;
}

static tally_measure *measure(tally_sim *sim, const char *db) {
  tally_error err;
  tally_measure_params p;
  tally_measure_params_default(&p);
  p.interval = 5;
  tally_measure *m = tally_measure_new(sim, &p, &err);
  CHECK(m, "tally_measure_new: %s", err.msg);
  if (!m)
    exit(1);
  CHECK(tally_measure_add(m, "cycle@work", &err) == 0, "cycle@work: %s", err.msg);
  CHECK(tally_measure_add(m, "marker0", &err) == 0, "marker0: %s", err.msg);
  CHECK(tally_measure_store(m, db, &err) == 0, "store: %s", err.msg);
  return m;
}

/* Bad specs are refused with a usage error and change nothing. */
static void check_refusals(tally_measure *m) {
  tally_error err;
  CHECK(tally_measure_add(m, "no.such.signal", &err) != 0 && err.code == TALLY_E_USAGE &&
            strstr(err.msg, "unknown signal"), "an unknown signal is refused: %s", err.msg);
  CHECK(tally_measure_add(m, "cycle@no_such_function", &err) != 0 && err.code == TALLY_E_USAGE,
        "an unknown function is refused: %s", err.msg);
  CHECK(tally_measure_events(m) == 2, "refusals changed the events: %u", tally_measure_events(m));
}

/* The whole run: results, callback intervals, the store's totals. */
static uint64_t whole_run(const char *elf, const char *db) {
  tally_error err;
  tally_sim *sim = board(elf);
  tally_measure *m = measure(sim, db);
  check_refusals(m);
  seen s = {0};
  CHECK(tally_measure_on_interval(m, on_interval, &s, &err) == 0, "on_interval: %s", err.msg);
  CHECK(tally_measure_start(m, "markers.elf", "sram", &err) == 0, "start: %s", err.msg);
  tally_stop why = tally_measure_run(m, 1000);
  CHECK(why == TALLY_STOP_EXIT, "the program did not exit: stop %d", (int)why);
  tally_measure_result res;
  CHECK(tally_measure_finish(m, NULL, &res, &err) == 0, "finish: %s", err.msg);
  CHECK(res.verdict == TALLY_VERDICT_COMPLETE, "verdict %d: %s", (int)res.verdict, res.note);
  CHECK(res.intervals == INTERVALS && res.stored_intervals == INTERVALS, "intervals %" PRIu64 " / stored %" PRIu64,
        res.intervals, res.stored_intervals);
  tally_progress pr;
  tally_measure_progress(m, &pr);
  CHECK(pr.cycles == 18 && pr.intervals == INTERVALS, "progress: %" PRIu64 " cycles, %" PRIu64 " intervals",
        pr.cycles, pr.intervals);

  CHECK(s.n == INTERVALS && s.final, "callback saw %" PRIu64 " intervals, final %d", s.n, s.final);
  for (uint64_t i = 0; i < s.n && i < INTERVALS; i++) {
    CHECK(s.begin[i] == 5 * i && s.end[i] == 5 * i + 5, "interval %" PRIu64 " is [%" PRIu64 ", %" PRIu64 ")", i,
          s.begin[i], s.end[i]);
    CHECK(s.v[i][0] == work_cycles[i] && s.v[i][1] == marker0[i],
          "interval %" PRIu64 ": %" PRIu64 " %" PRIu64 ", expected %" PRIu64 " %" PRIu64, i, s.v[i][0], s.v[i][1],
          work_cycles[i], marker0[i]);
  }
  const tally_event_info *a = tally_measure_event(m, 0), *b = tally_measure_event(m, 1);
  CHECK(a && a->total == 8 && !a->anywhere && a->lo == 0x80000024 && a->hi == 0x8000003c,
        "cycle@work: total %" PRIu64 ", range 0x%08x-0x%08x", a ? a->total : 0, a ? a->lo : 0, a ? a->hi : 0);
  CHECK(b && b->total == 11 && b->anywhere, "marker0: total %" PRIu64, b ? b->total : 0);
  CHECK(a && strcmp(a->where, "work") == 0 && strcmp(a->signal, "cycle") == 0 && strstr(a->label, "work"),
        "plain words of cycle@work: '%s' '%s' '%s'", a ? a->label : "", a ? a->where : "", a ? a->signal : "");
  uint64_t id = res.run_id;
  CHECK(id != 0 && id == tally_measure_run_id(m), "run id");
  tally_measure_free(m);
  tally_sim_free(sim);
  return id;
}

static void check_stored(const char *db, uint64_t id) {
  tally_error err;
  tally_store *st = tally_store_open(db, false, &err);
  CHECK(st, "open %s: %s", db, err.msg);
  if (!st)
    return;
  tally_store_totals t;
  CHECK(tally_store_get_totals(st, id, &t, &err) == 0, "totals: %s", err.msg);
  CHECK(t.whole && t.has_board && t.n >= 2 && t.missing == 0 && t.intervals_whole == INTERVALS,
        "stored run not whole: whole %d board %d n %u missing %" PRIu64, t.whole, t.has_board, t.n, t.missing);
  CHECK(t.n >= 2 && t.stored[0] == 8 && t.board[0] == 8 && t.stored[1] == 11 && t.board[1] == 11,
        "stored totals %" PRIu64 "/%" PRIu64 " %" PRIu64 "/%" PRIu64, t.n ? t.stored[0] : 0, t.n ? t.board[0] : 0,
        t.n > 1 ? t.stored[1] : 0, t.n > 1 ? t.board[1] : 0);
  tally_store_totals_clear(&t);
  tally_store_counter *c;
  size_t n;
  CHECK(tally_store_counters(st, id, &c, &n, &err) == 0 && n >= 2, "counters: %s", err.msg);
  CHECK(n >= 2 && strcmp(c[0].signal, "cycle") == 0 && c[0].where && strcmp(c[0].where, "work") == 0 &&
            strcmp(c[1].signal, "marker0") == 0 && c[1].anywhere,
        "stored counters are not cycle@work and marker0");
  tally_store_counters_free(c, n);
  char *buf;
  size_t len;
  CHECK(tally_export_run_mem(st, db, id, TALLY_RUN_CSV, TALLY_RUN_TOTALS, &buf, &len, &err) == 0,
        "CSV export: %s", err.msg);
  CHECK(buf && strstr(buf, ",8,8,0\n") && strstr(buf, ",11,11,0\n"), "CSV totals:\n%s", buf ? buf : "");
  free(buf);
  tally_store_close(st);
}

/* Cancelled before the first instruction: stored, never whole; then deleted. */
static void cancelled_run(const char *elf, const char *db, uint64_t keep) {
  tally_error err;
  tally_sim *sim = board(elf);
  tally_measure *m = measure(sim, db);
  CHECK(tally_measure_start(m, "markers.elf", "sram", &err) == 0, "start: %s", err.msg);
  tally_measure_cancel(m);
  CHECK(tally_measure_run(m, 1000) == TALLY_STOP_CANCELLED, "cancel did not stop the run");
  tally_measure_result res;
  tally_measure_finish(m, "cancelled", &res, &err);
  CHECK(res.verdict == TALLY_VERDICT_INCOMPLETE && strstr(res.note, "cancelled"),
        "a cancelled run is stored %d: %s", (int)res.verdict, res.note);
  uint64_t id = res.run_id;
  tally_measure_free(m);
  tally_sim_free(sim);

  tally_store *st = tally_store_open(db, false, &err);
  CHECK(st, "open: %s", err.msg);
  if (!st)
    return;
  tally_store_run r;
  CHECK(tally_store_get_run(st, id, &r, &err) == 1 && r.status == TALLY_STORE_INCOMPLETE, "cancelled run status");
  tally_store_run_clear(&r);
  CHECK(tally_store_delete(st, id, &err) == 1, "delete: %s", err.msg);
  CHECK(tally_store_get_run(st, id, &r, &err) == 0, "the deleted run is still there");
  CHECK(tally_store_delete(st, id, &err) == 0, "deleting twice");
  tally_store_run *runs;
  size_t n;
  CHECK(tally_store_list(st, &runs, &n, &err) == 0 && n == 1 && runs[0].run_id == keep,
        "after the delete the store lists %zu runs", n);
  tally_store_list_free(runs, n);
  tally_store_close(st);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s markers.elf DB\n", argv[0]);
    return 2;
  }
  unlink(argv[2]);
  uint64_t id = whole_run(argv[1], argv[2]);
  check_stored(argv[2], id);
  cancelled_run(argv[1], argv[2], id);
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
