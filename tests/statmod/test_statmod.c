/*
 * The statistics module through its C interface (src/statmod/statmod.h),
 * on real runs of the simulator:
 *
 *   test_statmod DIV_SPLIT_ELF WORKLOAD_ELF [WORKLOAD_ARG]
 *
 * DIV_SPLIT_ELF is tests/statmod/div_split.S on the sram model, whose
 * cycles are derived by hand in its comment: li 0, li 1, div 2-34 (issue 2,
 * stall.muldiv 3-34, instret 34), then lui 35, lui 36, addi 37, sw 38
 * (store); 39 cycles. WORKLOAD_ELF is a longer program for the
 * reconfiguration and non-intrusion checks.
 *
 * Checks: parameter and control errors name what is wrong; records reach
 * every sink in order; control from inside a sink takes effect at the end
 * of the instruction the dispatch fell in; a counter changed while running
 * keeps what it had counted; stop and start again; the run's cycles and
 * every signal total do not change whatever the module does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "statmod/statmod.h"
#include "symbols/symtab.h"
#include "tally/tally.h"

#include "check.h"

/* ---- a sink that keeps what it gets ---- */

#define MAX_RECS 64
typedef struct rec {
  uint64_t index, begin, end, intervals;
  int final;
  uint64_t v[4];
  uint8_t sat[4];
} rec;

typedef struct log {
  rec r[MAX_RECS];
  int n;
  const char *name;
  /* a control call to make from inside the sink at record `at` */
  int at;
  int (*action)(struct log *, char *err, size_t errlen);
  statmod *m;
  int action_rc;
  char action_err[200];
  int *order;   /* shared sequence: which sink saw a record first */
  int *seq;
} log;

static void log_sink(void *ctx, const statmod_interval *iv) {
  log *l = ctx;
  if (l->order)
    l->order[(*l->seq)++] = l->name[0];
  if (l->n < MAX_RECS) {
    rec *r = &l->r[l->n];
    *r = (rec){iv->index, iv->cycle_begin, iv->cycle_end, iv->intervals, iv->final, {0}, {0}};
    for (uint32_t i = 0; i < iv->n && i < 4; i++) {
      r->v[i] = iv->values[i];
      r->sat[i] = iv->saturated[i];
    }
  }
  if (l->action && l->n == l->at)
    l->action_rc = l->action(l, l->action_err, sizeof l->action_err);
  l->n++;
}

/* ---- helpers ---- */

static FILE *devnull;

static tally_sim *load(const char *elf, const char *core, const char *arg) {
  tally_config cfg;
  tally_config_default(&cfg);
  cfg.out = devnull; /* the programs' output is not what is tested here */
  tally_sim *sim = tally_sim_new(&cfg);
  tally_error err;
  if (!sim || tally_load_elf(sim, elf, &err) != 0 || (core && tally_set_core(sim, core, NULL, 0, &err) != 0)) {
    printf("FAIL: cannot load %s: %s\n", elf, sim ? err.msg : "no memory");
    exit(1);
  }
  if (arg) {
    char *argv[2] = {(char *)elf, (char *)arg};
    tally_set_args(sim, 2, argv);
  }
  return sim;
}

static statmod *module(uint32_t counters, uint32_t width, uint32_t arrs) {
  statmod_params p;
  statmod_params_default(&p);
  p.counters = counters;
  p.width = width;
  p.arrs = arrs;
  char err[200];
  statmod *m = statmod_new(&p, err, sizeof err);
  if (!m) {
    printf("FAIL: statmod_new: %s\n", err);
    exit(1);
  }
  return m;
}

static statmod_counter_cfg ctr(const char *signal, unsigned arr) {
  int s = tally_signal_lookup(signal);
  if (s < 0) {
    printf("FAIL: no signal %s\n", signal);
    exit(1);
  }
  return (statmod_counter_cfg){.signal = (uint16_t)s, .arr = (uint16_t)arr, .enabled = true};
}

static void must(int rc, const char *what, const char *err) {
  if (rc != 0) {
    printf("FAIL: %s: %s\n", what, err);
    exit(1);
  }
}

static void attach(tally_sim *sim, statmod *m) {
  tally_error e;
  must(tally_statmod_attach(sim, m, &e), "attach", e.msg);
}

/* ---- the checks ---- */

static void expect_error(int rc, const char *err, const char *want, const char *what) {
  CHECK(rc == -1 && strstr(err, want), "%s: rc %d, message '%s', expected '%s'", what, rc, err, want);
}

static void test_errors(const char *elf) {
  char err[200];
  statmod_params p;
  statmod_params_default(&p);
  CHECK(p.counters == 16 && p.width == 32 && p.arrs == 16, "defaults %u/%u/%u", p.counters, p.width, p.arrs);
  statmod_params bad = p;
  bad.counters = 0;
  expect_error(statmod_params_check(&bad, err, sizeof err), err, "1 to 1024 counters, not 0", "0 counters");
  bad.counters = 1025;
  CHECK(statmod_new(&bad, err, sizeof err) == NULL && strstr(err, "not 1025"), "1025 counters: %s", err);
  bad = p;
  bad.width = 0;
  expect_error(statmod_params_check(&bad, err, sizeof err), err, "1 to 64 bits wide, not 0", "width 0");
  bad.width = 65;
  expect_error(statmod_params_check(&bad, err, sizeof err), err, "not 65", "width 65");
  bad = p;
  bad.arrs = 257;
  expect_error(statmod_params_check(&bad, err, sizeof err), err, "0 to 256 address range registers", "257 ARRs");

  statmod *m = module(16, 32, 16);
  statmod_counter_cfg c = ctr("cycle", STATMOD_ANYWHERE);
  expect_error(statmod_set_counter(m, 16, &c, err, sizeof err), err,
               "counter 16 does not exist: the module has 16 counters (0-15)", "counter index");
  c.signal = 999;
  expect_error(statmod_set_counter(m, 0, &c, err, sizeof err), err, "unknown signal 999", "signal");
  c = ctr("cycle", 16);
  expect_error(statmod_set_counter(m, 0, &c, err, sizeof err), err,
               "ARR 16 does not exist: the module has 16 address range registers (0-15)", "ARR index");
  expect_error(statmod_set_arr(m, 3, 0x100, 0x80, err, sizeof err), err, "ends before it starts", "lo > hi");
  expect_error(statmod_set_period(m, 0, err, sizeof err), err, "1 to 4,294,967,295 cycles", "period 0");
  expect_error(statmod_set_period(m, 1ull << 32, err, sizeof err), err, "not 4294967296", "period 2^32");
  expect_error(statmod_start(m, err, sizeof err), err, "not attached", "start unattached");
  expect_error(statmod_stop(m, err, sizeof err), err, "not running", "stop idle");
  statmod_free(m);

  statmod *none = module(4, 32, 0);
  c = ctr("cycle", 0);
  expect_error(statmod_set_counter(none, 0, &c, err, sizeof err), err, "has no address range registers", "0 ARRs");
  statmod_free(none);

  tally_sim *functional = load(elf, NULL, NULL);
  m = module(16, 32, 16);
  tally_error te;
  CHECK(tally_statmod_attach(functional, m, &te) == -1 && strstr(te.msg, "needs a core model"),
        "attach without a core model: %s", te.msg);
  tally_sim_free(functional);
  statmod_free(m);

  tally_sim *sim = load(elf, "sram", NULL);
  m = module(16, 32, 16);
  attach(sim, m);
  expect_error(statmod_start(m, err, sizeof err), err, "no dispatch period", "start without period");
  must(statmod_set_period(m, 10, err, sizeof err), "period", err);
  must(statmod_start(m, err, sizeof err), "start", err);
  expect_error(statmod_start(m, err, sizeof err), err, "already running", "start twice");
  tally_sim_free(sim); /* detaches: the run is abandoned */
  statmod_status st;
  statmod_query(m, &st);
  CHECK(st.state == STATMOD_STOPPED && st.cycle == 0, "after the sim is freed: state %d cycle %llu", st.state,
        (unsigned long long)st.cycle);
  statmod_free(m);
}

/* Two sinks, period 10: the hand-derived intervals in order, then the final
 * record, to both sinks, each record to the first sink first. */
static void test_sinks(const char *elf) {
  tally_sim *sim = load(elf, "sram", NULL);
  statmod *m = module(4, 32, 4);
  char err[200];
  int order[64], seq = 0;
  log a = {.name = "a", .at = -1, .order = order, .seq = &seq};
  log b = {.name = "b", .at = -1, .order = order, .seq = &seq};
  attach(sim, m);
  must(statmod_add_sink(m, log_sink, &a, err, sizeof err), "sink a", err);
  must(statmod_add_sink(m, log_sink, &b, err, sizeof err), "sink b", err);
  statmod_counter_cfg c0 = ctr("cycle", STATMOD_ANYWHERE), c1 = ctr("stall.muldiv", STATMOD_ANYWHERE),
                      c2 = ctr("div", 0), c3 = ctr("instret", 0);
  must(statmod_set_arr(m, 0, 0x80000008, 0x8000000c, err, sizeof err), "arr", err);
  must(statmod_set_counter(m, 0, &c0, err, sizeof err), "c0", err);
  must(statmod_set_counter(m, 1, &c1, err, sizeof err), "c1", err);
  must(statmod_set_counter(m, 2, &c2, err, sizeof err), "c2", err);
  must(statmod_set_counter(m, 3, &c3, err, sizeof err), "c3", err);
  must(statmod_set_period(m, 10, err, sizeof err), "period", err);
  must(statmod_start(m, err, sizeof err), "start", err);
  tally_run(sim, UINT64_MAX);
  must(statmod_stop(m, err, sizeof err), "stop", err);
  /* cycle / stall.muldiv (3-34) / div@divide (cycle 2) / instret@divide (cycle 34) */
  static const uint64_t want[4][4] = {{10, 7, 1, 0}, {10, 10, 0, 0}, {10, 10, 0, 0}, {9, 5, 0, 1}};
  CHECK(a.n == 5 && b.n == 5, "records: %d and %d, expected 4 intervals and the final", a.n, b.n);
  for (int k = 0; k < 4 && k < a.n; k++) {
    CHECK(a.r[k].index == (uint64_t)k && a.r[k].begin == 10u * k && a.r[k].end == 10u * k + 10 && !a.r[k].final,
          "interval %d: #%llu [%llu, %llu)", k, (unsigned long long)a.r[k].index,
          (unsigned long long)a.r[k].begin, (unsigned long long)a.r[k].end);
    for (int i = 0; i < 4; i++)
      CHECK(a.r[k].v[i] == want[k][i] && b.r[k].v[i] == want[k][i], "interval %d counter %d: %llu / %llu, want %llu",
            k, i, (unsigned long long)a.r[k].v[i], (unsigned long long)b.r[k].v[i], (unsigned long long)want[k][i]);
  }
  if (a.n == 5) {
    rec *f = &a.r[4];
    CHECK(f->final && f->intervals == 4 && f->begin == 0 && f->end == 40, "final: final %d intervals %llu [%llu, %llu)",
          f->final, (unsigned long long)f->intervals, (unsigned long long)f->begin, (unsigned long long)f->end);
    CHECK(f->v[0] == 39 && f->v[1] == 32 && f->v[2] == 1 && f->v[3] == 1, "final totals %llu %llu %llu %llu",
          (unsigned long long)f->v[0], (unsigned long long)f->v[1], (unsigned long long)f->v[2],
          (unsigned long long)f->v[3]);
  }
  for (int k = 0; k + 1 < seq; k += 2)
    CHECK(order[k] == 'a' && order[k + 1] == 'b', "record %d reached sink %c first", k / 2, order[k]);
  statmod_status st;
  statmod_query(m, &st);
  CHECK(st.state == STATMOD_STOPPED && st.intervals == 4 && st.inexact == 0 && st.enabled == 4,
        "after stop: state %d, %llu intervals, %llu inexact, %u enabled", st.state, (unsigned long long)st.intervals,
        (unsigned long long)st.inexact, st.enabled);
  /* a stopped module starts again: a new run, numbered from 0 */
  tally_sim_free(sim);
  statmod_free(m);
}

/* From inside a sink: at the dispatch on cycle 10 (inside the divide,
 * cycles 2-34), counter 1 changes from cycle to store; the change takes
 * effect at the end of the divide, cycle 35. */
static int change_counter(log *l, char *err, size_t errlen) {
  statmod_counter_cfg c = ctr("store", STATMOD_ANYWHERE);
  return statmod_set_counter(l->m, 1, &c, err, errlen);
}

/* From inside a sink at the dispatch on cycle 20: stop, at cycle 35. */
static int stop_now(log *l, char *err, size_t errlen) { return statmod_stop(l->m, err, errlen); }

static void test_control_in_sink(const char *elf) {
  char err[200];
  for (int which = 0; which < 2; which++) {
    tally_sim *sim = load(elf, "sram", NULL);
    statmod *m = module(2, 32, 0);
    log l = {.name = "l", .at = which == 0 ? 0 : 1, .action = which == 0 ? change_counter : stop_now, .m = m};
    attach(sim, m);
    must(statmod_add_sink(m, log_sink, &l, err, sizeof err), "sink", err);
    statmod_counter_cfg c = ctr("cycle", STATMOD_ANYWHERE);
    must(statmod_set_counter(m, 0, &c, err, sizeof err), "c0", err);
    must(statmod_set_counter(m, 1, &c, err, sizeof err), "c1", err);
    must(statmod_set_period(m, 10, err, sizeof err), "period", err);
    must(statmod_start(m, err, sizeof err), "start", err);
    tally_run(sim, UINT64_MAX);
    statmod_status st;
    statmod_query(m, &st);
    if (st.state == STATMOD_RUNNING)
      must(statmod_stop(m, err, sizeof err), "stop", err);
    CHECK(l.action_rc == 0, "control from the sink: %s", l.action_err);
    if (which == 0) {
      /* counter 1: cycles up to 35, then stores (cycle 38): 10, 10, 10, 5 + 1 */
      static const uint64_t want[4] = {10, 10, 10, 6};
      CHECK(l.n == 5, "%d records", l.n);
      for (int k = 0; k < 4 && k < l.n; k++)
        CHECK(l.r[k].v[0] == (k < 3 ? 10u : 9u) && l.r[k].v[1] == want[k], "interval %d: %llu %llu, want %llu", k,
              (unsigned long long)l.r[k].v[0], (unsigned long long)l.r[k].v[1], (unsigned long long)want[k]);
    } else {
      /* stopped at cycle 35: the dispatch at 30 still happens (the divide
       * is one instruction), the last interval [30, 40) holds 30-34 */
      CHECK(l.n == 5 && l.r[4].final && l.r[3].v[0] == 5 && l.r[4].v[0] == 35 && l.r[4].end == 40,
            "stop from a sink: %d records, last interval %llu, total %llu, end %llu", l.n,
            (unsigned long long)l.r[3].v[0], (unsigned long long)l.r[4].v[0], (unsigned long long)l.r[4].end);
      CHECK(tally_cycles(sim) == 39, "the program ran on to its end: %llu cycles", (unsigned long long)tally_cycles(sim));
    }
    tally_sim_free(sim);
    statmod_free(m);
  }
}

/* Changed while running (between runs of 3 instructions: cycle 35, the end
 * of the divide), one interval of 100 cycles:
 *   counter 0: cycle@divide (33 cycles) -> instret anywhere (35-38: 4) = 37
 *   counter 1: cycle@ARR0, ARR0 moved from divide to EXIT_PASS
 *              (0x8000000c-0x8000001c, cycles 35-38: 4) = 37
 *   counter 2: stall.muldiv, disabled at 35 -> keeps its 32
 *   counter 3: disabled, enabled as store at 35 -> 1 */
static void test_reconfigure(const char *elf) {
  tally_sim *sim = load(elf, "sram", NULL);
  statmod *m = module(4, 32, 2);
  char err[200];
  log l = {.name = "l", .at = -1};
  attach(sim, m);
  must(statmod_add_sink(m, log_sink, &l, err, sizeof err), "sink", err);
  must(statmod_set_arr(m, 0, 0x80000008, 0x8000000c, err, sizeof err), "arr", err);
  must(statmod_set_arr(m, 1, 0x80000008, 0x8000000c, err, sizeof err), "arr 1", err);
  statmod_counter_cfg c0 = ctr("cycle", 1), c1 = ctr("cycle", 0), c2 = ctr("stall.muldiv", STATMOD_ANYWHERE);
  must(statmod_set_counter(m, 0, &c0, err, sizeof err), "c0", err);
  must(statmod_set_counter(m, 1, &c1, err, sizeof err), "c1", err);
  must(statmod_set_counter(m, 2, &c2, err, sizeof err), "c2", err);
  must(statmod_set_period(m, 100, err, sizeof err), "period", err);
  must(statmod_start(m, err, sizeof err), "start", err);
  tally_run(sim, 3);
  CHECK(tally_cycles(sim) == 35, "after 3 instructions: cycle %llu", (unsigned long long)tally_cycles(sim));
  statmod_counter_cfg n0 = ctr("instret", STATMOD_ANYWHERE), n2 = c2, n3 = ctr("store", STATMOD_ANYWHERE);
  n2.enabled = false;
  must(statmod_set_counter(m, 0, &n0, err, sizeof err), "n0", err);
  must(statmod_set_arr(m, 0, 0x8000000c, 0x8000001c, err, sizeof err), "move arr", err);
  must(statmod_set_counter(m, 2, &n2, err, sizeof err), "n2", err);
  must(statmod_set_counter(m, 3, &n3, err, sizeof err), "n3", err);
  tally_run(sim, UINT64_MAX);
  must(statmod_stop(m, err, sizeof err), "stop", err);
  CHECK(l.n == 2 && l.r[0].v[0] == 37 && l.r[0].v[1] == 37 && l.r[0].v[2] == 32 && l.r[0].v[3] == 1,
        "reconfigured: %d records, %llu %llu %llu %llu (want 37 37 32 1)", l.n, (unsigned long long)l.r[0].v[0],
        (unsigned long long)l.r[0].v[1], (unsigned long long)l.r[0].v[2], (unsigned long long)l.r[0].v[3]);
  CHECK(tally_cycles(sim) == 39, "cycles %llu", (unsigned long long)tally_cycles(sim));
  /* started again: a new run, numbered from 0, counting from now */
  l.n = 0;
  must(statmod_start(m, err, sizeof err), "restart", err);
  must(statmod_stop(m, err, sizeof err), "stop again", err);
  CHECK(l.n == 1 && l.r[0].final && l.r[0].intervals == 0 && l.r[0].begin == 39,
        "a run of no cycles: %d records, intervals %llu, begin %llu", l.n, (unsigned long long)l.r[0].intervals,
        (unsigned long long)l.r[0].begin);
  tally_sim_free(sim);
  statmod_free(m);
}

/* The module never changes the run: a workload in slices, the module
 * reconfigured, stopped and started between them, against the same
 * workload without it. */
static void test_nonintrusive(const char *elf, const char *arg) {
  int n = tally_signal_count();
  uint64_t *t0 = calloc((size_t)n, sizeof *t0), *t1 = calloc((size_t)n, sizeof *t1);
  tally_sim *plain = load(elf, "tally5", arg);
  tally_stop s0 = tally_run(plain, UINT64_MAX);
  tally_signal_totals(plain, t0);

  tally_sim *sim = load(elf, "tally5", arg);
  statmod *m = module(8, 8, 4);
  char err[200];
  log l = {.name = "l", .at = -1};
  attach(sim, m);
  must(statmod_add_sink(m, log_sink, &l, err, sizeof err), "sink", err);
  must(statmod_set_period(m, 997, err, sizeof err), "period", err);
  static const char *const sigs[] = {"cycle", "dcache.read_miss", "stall", "icache.miss", "instret", "load"};
  tally_stop s1;
  int round = 0;
  do {
    for (uint32_t i = 0; i < 8; i++) {
      statmod_counter_cfg c = ctr(sigs[(i + (uint32_t)round) % 6], (i + (uint32_t)round) % 5 == 4 ? STATMOD_ANYWHERE
                                                                                       : (i + (uint32_t)round) % 4);
      c.enabled = (i + (uint32_t)round) % 3 != 0;
      must(statmod_set_counter(m, i, &c, err, sizeof err), "counter", err);
    }
    for (uint32_t a = 0; a < 4; a++) {
      uint32_t lo = 0x80000000u + 0x400u * (uint32_t)((round * 7 + (int)a * 3) % 16);
      must(statmod_set_arr(m, a, lo, lo + 0x300u * (a + 1), err, sizeof err), "arr", err);
    }
    must(statmod_set_period(m, 1 + (uint64_t)(round * 7919) % 5000, err, sizeof err), "period", err);
    statmod_status st;
    statmod_query(m, &st);
    if (round % 5 == 4 && st.state == STATMOD_RUNNING)
      must(statmod_stop(m, err, sizeof err), "stop", err);
    else if (st.state != STATMOD_RUNNING)
      must(statmod_start(m, err, sizeof err), "start", err);
    s1 = tally_run(sim, 7777);
    round++;
  } while (s1 == TALLY_STOP_LIMIT);
  statmod_status st;
  statmod_query(m, &st);
  if (st.state == STATMOD_RUNNING)
    must(statmod_stop(m, err, sizeof err), "stop", err);
  statmod_query(m, &st);
  tally_signal_totals(sim, t1);
  int diff = 0;
  for (int i = 0; i < n; i++)
    diff += t0[i] != t1[i];
  CHECK(s0 == s1 && tally_exit_code(plain) == tally_exit_code(sim) && tally_cycles(plain) == tally_cycles(sim) &&
            tally_instret(plain) == tally_instret(sim) && diff == 0,
        "with the module reconfigured %d times: stop %d/%d, exit %d/%d, cycles %llu/%llu, %d signals differ", round,
        s0, s1, tally_exit_code(plain), tally_exit_code(sim), (unsigned long long)tally_cycles(plain),
        (unsigned long long)tally_cycles(sim), diff);
  CHECK(st.inexact == 0, "%llu inexact dispatches", (unsigned long long)st.inexact);
  printf("non-intrusive: %d reconfigurations over %llu cycles, the run unchanged\n", round,
         (unsigned long long)tally_cycles(sim));
  tally_sim_free(plain);
  tally_sim_free(sim);
  statmod_free(m);
  free(t0);
  free(t1);
}

/* Task counters, the switches told by hand at instruction edges of
 * div_split: no task for li, li (cycles 0-1), task A for the divide
 * (2-34, stall.muldiv 3-34), task B for lui, lui, addi, sw (35-38); period
 * 10, so three dispatches fall inside the divide. */
static void test_tasks(const char *elf) {
  char err[200];
  statmod *m = module(4, 32, 4);
  statmod_counter_cfg c = ctr("cycle", STATMOD_ANYWHERE);
  c.task = 17;
  expect_error(statmod_set_counter(m, 0, &c, err, sizeof err), err, "task register 17 does not exist", "task 17");
  expect_error(statmod_set_task(m, 0, "A", err, sizeof err), err, "task register 0 does not exist", "register 0");
  expect_error(statmod_set_task(m, 17, "A", err, sizeof err), err, "task register 17 does not exist", "register 17");
  char longname[80];
  memset(longname, 'x', sizeof longname - 1);
  longname[sizeof longname - 1] = 0;
  expect_error(statmod_set_task(m, 1, longname, err, sizeof err), err, "longer than 63 bytes", "a long name");
  tally_sim *sim = load(elf, "sram", NULL);
  log l = {.name = "t", .at = -1};
  attach(sim, m);
  must(statmod_add_sink(m, log_sink, &l, err, sizeof err), "sink", err);
  must(statmod_set_task(m, 1, "A", err, sizeof err), "task 1", err);
  must(statmod_set_task(m, 2, "B", err, sizeof err), "task 2", err);
  statmod_counter_cfg c0 = ctr("cycle", STATMOD_ANYWHERE), c1 = c0, c2 = c0, c3 = ctr("stall.muldiv", STATMOD_ANYWHERE);
  c1.task = 1;
  c2.task = 2;
  c3.task = 1;
  must(statmod_set_counter(m, 0, &c0, err, sizeof err), "c0", err);
  must(statmod_set_counter(m, 1, &c1, err, sizeof err), "c1", err);
  must(statmod_set_counter(m, 2, &c2, err, sizeof err), "c2", err);
  must(statmod_set_counter(m, 3, &c3, err, sizeof err), "c3", err);
  must(statmod_set_period(m, 10, err, sizeof err), "period", err);
  must(statmod_start(m, err, sizeof err), "start", err);
  expect_error(statmod_set_task(m, 3, "C", err, sizeof err), err, "before the run starts", "a task while running");
  tally_run(sim, 2);
  statmod_task_switch(m, "A");
  tally_run(sim, 1);
  statmod_task_switch(m, "B");
  tally_run(sim, UINT64_MAX);
  must(statmod_stop(m, err, sizeof err), "stop", err);
  static const uint64_t want[5][4] = {{10, 8, 0, 7}, {10, 10, 0, 10}, {10, 10, 0, 10}, {9, 5, 4, 5}, {39, 33, 4, 32}};
  CHECK(l.n == 5, "records: %d, expected 4 intervals and the final", l.n);
  for (int k = 0; k < 5 && k < l.n; k++)
    for (int i = 0; i < 4; i++)
      CHECK(l.r[k].v[i] == want[k][i], "tasks: record %d counter %d: %llu, by hand %llu", k, i,
            (unsigned long long)l.r[k].v[i], (unsigned long long)want[k][i]);
  CHECK(statmod_task_inexact(m) == 0, "tasks: %llu inexact", (unsigned long long)statmod_task_inexact(m));
  tally_sim_free(sim);
  statmod_free(m);
  char label[200] = "cycles in main's own code", where[100] = "main";
  statmod_task_words("alpha", false, label, sizeof label, where, sizeof where);
  CHECK(!strcmp(label, "cycles in main's own code while alpha runs") && !strcmp(where, "main%alpha"), "%s / %s", label,
        where);
  snprintf(label, sizeof label, "cycles");
  snprintf(where, sizeof where, "anywhere");
  statmod_task_words("irq:7", true, label, sizeof label, where, sizeof where);
  CHECK(!strcmp(label, "cycles while irq:7 runs") && !strcmp(where, "%irq:7"), "%s / %s", label, where);
}

static void test_words(void) {
  char label[200], where[100];
  statmod_counter_cfg c = ctr("dcache.read_miss", 0);
  statmod_arr a = {0x80000100, 0x80000180};
  const char *name = statmod_words(&c, &a, "MixColumns", label, sizeof label, where, sizeof where);
  CHECK(name && !strcmp(name, "dcache.read_miss") && !strcmp(label, "data-cache read misses in MixColumns's own code") &&
            !strcmp(where, "MixColumns"), "%s / %s / %s", name, label, where);
  /* a call counter counts the calls made from the function, not into it */
  c = ctr("call", 0);
  statmod_words(&c, &a, "MixColumns", label, sizeof label, where, sizeof where);
  CHECK(!strcmp(label, "calls made from MixColumns's own code"), "%s", label);
  c = ctr("cycle", 0);
  statmod_words(&c, &a, NULL, label, sizeof label, where, sizeof where);
  CHECK(!strcmp(label, "cycles at 0x80000100-0x80000180") && !strcmp(where, "0x80000100-0x80000180"), "%s / %s",
        label, where);
  c = ctr("instret", STATMOD_ANYWHERE);
  statmod_words(&c, NULL, NULL, label, sizeof label, where, sizeof where);
  CHECK(!strcmp(label, "instructions retired") && !strcmp(where, "anywhere"), "%s / %s", label, where);
  c.signal = 999;
  CHECK(statmod_words(&c, NULL, NULL, label, sizeof label, where, sizeof where) == NULL && strstr(label, "unknown"),
        "unknown signal: %s", label);
  sym_table t;
  sym_table_init(&t);
  sym_table_add(&t, 0x80000100, 0x80, "MixColumns");
  sym_table_add(&t, 0x80000180, 0x40, "ShiftRows");
  sym_table_finish(&t);
  const char *n1 = statmod_range_name(&t, 0x80000100, 0x80000180), *n2 = statmod_range_name(&t, 0x80000100, 0x80000170);
  CHECK(n1 && !strcmp(n1, "MixColumns") && n2 == NULL, "range names: %s, %s", n1 ? n1 : "NULL", n2 ? n2 : "NULL");
  sym_table_free(&t);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: test_statmod DIV_SPLIT_ELF WORKLOAD_ELF [ARG]\n");
    return 2;
  }
  devnull = fopen("/dev/null", "w");
  if (!devnull)
    return 2;
  test_errors(argv[1]);
  test_sinks(argv[1]);
  test_control_in_sink(argv[1]);
  test_reconfigure(argv[1]);
  test_words();
  test_tasks(argv[1]);
  test_nonintrusive(argv[2], argc > 3 ? argv[3] : NULL);
  fclose(devnull);
  if (failures)
    printf("%d failures\n", failures);
  else
    printf("all statistics-module API checks passed\n");
  return failures != 0;
}
