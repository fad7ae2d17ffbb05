/*
 * One point of a sweep: one simulation on its own tally_sim, run to its
 * end (or to the sweep's max_insns or max_cycles), with the program's output thrown away
 * and no host file open to it (a sweep's programs are untrusted input).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tally/run.h"
#include "sweep_int.h"

/* tally run's slice: short enough to see a stop request promptly */
#define SLICE 20000000ull

static bool cancelled(const tally_sweep *s) { return s->cancel && *s->cancel; }

static tally_stop run_to_end(const tally_sweep *s, tally_sim *sim, uint64_t max_insns) {
  tally_stop why;
  for (;;) {
    uint64_t left = max_insns ? max_insns - tally_instret(sim) : SLICE;
    why = tally_run(sim, left < SLICE ? left : SLICE);
    if (why != TALLY_STOP_LIMIT)
      return why;
    if ((max_insns && tally_instret(sim) >= max_insns) || cancelled(s))
      return why;
  }
}

static tally_sim *board(const sw_point *p, FILE *sink, tally_error *err) {
  tally_config cfg;
  tally_config_default(&cfg);
  cfg.out = cfg.err = sink;
  cfg.in_fd = -1;
  cfg.board = p->board;
  tally_sim *sim = tally_sim_open(&cfg, err);
  if (!sim)
    return NULL;
  const char *elf = p->prog->argv.v[0];
  /* argv[0] goes in as the ELF's base name (tally_set_args), as for tally run */
  int bad = tally_set_host_files(sim, TALLY_HOST_FILES_NONE, NULL, err) != 0 ||
            tally_load_elf(sim, elf, err) != 0 ||
            tally_set_core(sim, p->core, (const char *const *)p->sets.v, (int)p->sets.n, err) != 0 ||
            tally_set_args(sim, (int)p->prog->argv.n, p->prog->argv.v) != 0;
  if (bad) {
    if (err && err->code == TALLY_E_UNSPECIFIED)
      err->code = TALLY_E_INPUT;
    tally_sim_free(sim);
    return NULL;
  }
  return sim;
}

/* The point's statistics-module counters on sim: 64-bit counters (no
 * saturation) dispatched as rarely as the module allows, kept nowhere but
 * in the results; NULL without counters, or with err. */
static tally_measure *counters_on(tally_sim *sim, const sw_point *p, tally_error *err) {
  if (p->counters.n == 0)
    return NULL;
  tally_measure_params mp;
  tally_measure_params_default(&mp);
  mp.counters = mp.arrs = (uint32_t)p->counters.n;
  mp.width = 64;
  mp.interval = TALLY_MAX_INTERVAL;
  tally_measure *m = tally_measure_new(sim, &mp, err);
  for (size_t i = 0; m && i < p->counters.n; i++)
    if (tally_measure_add(m, p->counters.v[i], err) != 0)
      tally_measure_free(m), m = NULL;
  if (m && tally_measure_start(m, NULL, NULL, err) != 0)
    tally_measure_free(m), m = NULL;
  return m;
}

/* run_to_end through the statistics module, then its totals into r. */
static tally_stop measured_to_end(const tally_sweep *s, tally_measure *m, tally_sim *sim, uint64_t max_insns,
                                  sw_result *r, tally_error *err) {
  tally_stop why;
  for (;;) {
    uint64_t left = max_insns ? max_insns - tally_instret(sim) : SLICE;
    why = tally_measure_run(m, left < SLICE ? left : SLICE);
    if (why != TALLY_STOP_LIMIT || (max_insns && tally_instret(sim) >= max_insns) || cancelled(s))
      break;
  }
  tally_measure_result res;
  if (tally_measure_finish(m, why == TALLY_STOP_EXIT ? NULL : "stopped", &res, err) != 0)
    return TALLY_STOP_ERROR;
  for (uint32_t i = 0; i < tally_measure_events(m) && i < SW_MAX_COUNTERS; i++)
    r->counts[i] = tally_measure_event(m, i)->total;
  return why;
}

int sw_point_run(const tally_sweep *s, const sw_point *p, sw_result *r, uint64_t *signals, tally_error *err) {
  return sw_point_run_observed(s, p, NULL, r, signals, err);
}

int sw_point_run_observed(const tally_sweep *s, const sw_point *p, const sw_observers *o, sw_result *r,
                          uint64_t *signals, tally_error *err) {
  FILE *sink = fopen("/dev/null", "w");
  if (!sink) {
    sw_err(err, TALLY_E_INTERNAL, "cannot open /dev/null");
    return -1;
  }
  tally_error e = {{0}, TALLY_E_UNSPECIFIED};
  tally_sim *sim = board(p, sink, &e);
  if (sim && o &&
      ((o->icache && tally_on_icache_miss(sim, o->icache, o->ictx) != 0) ||
       (o->dcache && tally_on_dcache_miss(sim, o->dcache, o->dctx) != 0))) {
    snprintf(e.msg, sizeof e.msg, "core model %s has no timing", p->core);
    e.code = TALLY_E_USAGE;
    tally_sim_free(sim);
    sim = NULL;
  }
  if (!sim) {
    sw_err(err, e.code, "point %zu (%s): %s", p->index, p->prog->name, e.msg);
    fclose(sink);
    return -1;
  }
  memset(r, 0, sizeof *r);
  tally_set_max_cycles(sim, s->max_cycles);
  char *model = malloc(65536);
  if (model) {
    tally_core_describe(sim, model, 65536);
    r->cache_bytes = sw_cache_bytes(model);
    free(model);
  }
  tally_measure *m = counters_on(sim, p, &e);
  if (p->counters.n && !m) {
    sw_err(err, e.code == TALLY_E_UNSPECIFIED ? TALLY_E_USAGE : e.code, "point %zu (%s): %s", p->index,
           p->prog->name, e.msg);
    tally_sim_free(sim);
    fclose(sink);
    return -1;
  }
  tally_stop why = m ? measured_to_end(s, m, sim, s->max_insns, r, &e) : run_to_end(s, sim, s->max_insns);
  tally_measure_free(m);
  if (why == TALLY_STOP_LIMIT && cancelled(s) && !(s->max_insns && tally_instret(sim) >= s->max_insns)) {
    /* stopped half-way: not a result, never kept */
    sw_err(err, TALLY_E_INTERNAL, "point %zu (%s): interrupted", p->index, p->prog->name);
    tally_sim_free(sim);
    fclose(sink);
    return -1;
  }
  if (why == TALLY_STOP_ERROR && m) {
    sw_err(err, TALLY_E_INTERNAL, "point %zu (%s): %s", p->index, p->prog->name, e.msg);
    tally_sim_free(sim);
    fclose(sink);
    return -1;
  }
  r->exit_code = why == TALLY_STOP_EXIT ? tally_exit_code(sim) : -1;
  snprintf(r->stop, sizeof r->stop, "%s",
           why == TALLY_STOP_LIMIT ? "max_insns reached" : why == TALLY_STOP_CYCLES ? "max_cycles reached"
           : tally_stop_detail(sim));
  r->cycles = tally_cycles(sim);
  r->instret = tally_instret(sim);
  r->energy_j = tally_energy_now(sim).total_j;
  r->nsignals = tally_signal_count();
  tally_signal_totals(sim, signals);
  r->signals = signals;
  tally_sim_free(sim);
  fclose(sink);
  return 0;
}
