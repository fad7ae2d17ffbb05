/*
 * tally run --inst-cost ORIG.elf (run_inst_cost.h). Two runs, both exact:
 *
 *  - ORIG.elf, first, on a board of its own with the same core model and
 *    the same command line (argv[0] included: start-up code walks it), its
 *    output discarded: the run's signal totals are what the program costs
 *    uninstrumented;
 *  - PROGRAM (the instrumented ELF), the run tally run makes anyway, with
 *    statistics-module counters for each signal below anywhere, @program
 *    (addresses below the first trampoline: all of the program's code) and
 *    @inst (the trampolines up to the end of the analysis region: the
 *    runtime and the tool's code; src/api/measure.c). Every cycle belongs to one instruction, so program
 *    + analysis = anywhere is a law the table checks, not a subtraction.
 *
 * The cost is instrumented - original: the analysis region's own counts
 * plus what changed in the program's (its sites' traps instead of its
 * instructions, and the cache misses the analysis caused it).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "run_inst_cost.h"
#include "tally/inst.h"
#include "tally/run.h"

static const char *const cost_signals[] = {"cycle", "instret", "icache.miss", "dcache.read_miss",
                                           "dcache.write_miss", "writeback"};
static const char *const cost_names[] = {"cycles", "instructions", "I-cache misses", "D-cache read misses",
                                         "D-cache write misses", "D-cache writebacks"};
#define NSIG (sizeof cost_signals / sizeof cost_signals[0])
static const char *const cost_where[] = {"", "@program", "@inst"};

struct inst_cost {
  tally_measure *m;
  const char *orig;
  int orig_status;          /* the original's exit status, -1 when it did not exit */
  uint64_t orig_totals[NSIG];
};

void inst_cost_free(inst_cost *c) {
  if (!c)
    return;
  tally_measure_free(c->m);
  free(c);
}

/* The original's run: its totals of the cost signals and its exit status. */
static int run_original(inst_cost *c, const char *board, const char *core, const char *const *sets, int nsets,
                        const host_files_opts *files, int argc, char **argv) {
  tally_config cfg;
  tally_config_default(&cfg);
  int bst = cli_board_config(&cfg, board, c->orig, false, 0, NULL, "run");
  if (bst != 0)
    return bst;
  FILE *null = fopen("/dev/null", "w");
  if (!null) {
    fprintf(stderr, "tally run: --inst-cost: cannot open /dev/null\n");
    return EXIT_INTERNAL;
  }
  cfg.out = cfg.err = null;
  cfg.in_fd = -1;
  tally_sim *sim = tally_sim_new(&cfg);
  tally_error err;
  int st = sim ? 0 : EXIT_INTERNAL;
  if (!st && tally_load_elf(sim, c->orig, &err) != 0) {
    fprintf(stderr, "tally run: --inst-cost: %s\n", err.msg);
    st = EXIT_NOINPUT;
  }
  if (!st)
    st = cli_set_core(sim, core, sets, nsets, "run");
  if (!st && host_files_apply(files, sim, "run") != 0)
    st = EXIT_NOINPUT;
  if (!st)
    st = host_files_set_args(files, sim, "run", argc, argv);
  if (!st) {
    tally_stop s;
    while ((s = tally_run(sim, 20000000)) == TALLY_STOP_LIMIT)
      ;
    c->orig_status = s == TALLY_STOP_EXIT ? tally_exit_code(sim) : -1;
    uint64_t *all = calloc((size_t)tally_signal_count(), sizeof *all);
    if (!all) {
      st = EXIT_INTERNAL;
    } else {
      tally_signal_totals(sim, all);
      for (size_t i = 0; i < NSIG; i++)
        c->orig_totals[i] = all[tally_signal_lookup(cost_signals[i])];
      free(all);
    }
  }
  tally_sim_free(sim);
  fclose(null);
  return st;
}

/* The counters on the instrumented run: each signal anywhere, @program, @inst. */
static int attach_counters(inst_cost *c, tally_sim *sim, const char *core) {
  tally_measure_params p;
  tally_measure_params_default(&p);
  p.counters = 3 * NSIG;
  p.arrs = 2;
  p.width = 64;
  p.interval = TALLY_MAX_INTERVAL;
  tally_error err;
  if (!(c->m = tally_measure_new(sim, &p, &err))) {
    fprintf(stderr, "tally run: --inst-cost: %s\n", err.msg);
    return EXIT_INTERNAL;
  }
  for (size_t w = 0; w < 3; w++)
    for (size_t i = 0; i < NSIG; i++) {
      char spec[64];
      snprintf(spec, sizeof spec, "%s%s", cost_signals[i], cost_where[w]);
      if (tally_measure_add(c->m, spec, &err) != 0) {
        fprintf(stderr, "tally run: --inst-cost: %s\n", err.msg);
        return EXIT_USAGE; /* a function of the program named "program" or "inst" shadows the region */
      }
    }
  if (tally_measure_start(c->m, NULL, core, &err) != 0) {
    fprintf(stderr, "tally run: --inst-cost: %s\n", err.msg);
    return EXIT_INTERNAL;
  }
  return 0;
}

inst_cost *inst_cost_setup(tally_sim *sim, const char *orig, const char *board, const char *core,
                           const char *const *sets, int nsets, const host_files_opts *files, int argc, char **argv,
                           int *status) {
  inst_cost *c = calloc(1, sizeof *c);
  if (!c) {
    *status = EXIT_INTERNAL;
    return NULL;
  }
  c->orig = orig;
  if ((*status = run_original(c, board, core, sets, nsets, files, argc, argv)) != 0 ||
      (*status = attach_counters(c, sim, core)) != 0) {
    inst_cost_free(c);
    return NULL;
  }
  return c;
}

static void print_row(FILE *f, const char *name, const uint64_t v[4]) {
  char a[4][32];
  for (int k = 0; k < 4; k++)
    tally_format_count(v[k], a[k], sizeof a[k]);
  int64_t d = (int64_t)(v[1] - v[0]);
  char s[33];
  tally_format_count(d < 0 ? (uint64_t)-d : (uint64_t)d, s, sizeof s);
  fprintf(f, "  %-22s %15s %15s %15s %15s   %c%s\n", name, a[0], a[1], a[2], a[3], d < 0 ? '-' : '+', s);
}

int inst_cost_finish(inst_cost *c, const char *why, int status, FILE *f) {
  tally_measure_result res;
  tally_error err;
  if (tally_measure_finish(c->m, why, &res, &err) != 0) {
    fprintf(stderr, "tally run: --inst-cost: %s\n", err.msg);
    return EXIT_INTERNAL;
  }
  fprintf(f, "\ninstrumentation cost (against %s, the same core and arguments):\n", c->orig);
  fprintf(f, "  %-22s %15s %15s %15s %15s   %s\n", "", "original", "instrumented", "in the program",
          "in inst", "cost");
  bool law = true, any = false;
  for (size_t i = 0; i < NSIG; i++) {
    uint64_t v[4] = {c->orig_totals[i]};
    for (size_t w = 0; w < 3; w++)
      v[1 + w] = tally_measure_event(c->m, (uint32_t)(w * NSIG + i))->total;
    law &= v[2] + v[3] == v[1];
    any |= v[3] != 0;
    print_row(f, cost_names[i], v);
  }
  fprintf(f, "  cost = instrumented - original: the analysis region's own counts, plus what changed in the\n"
             "  program's (each site's trap or jump instead of its instruction, the misses the analysis caused it)\n");
  int rc = 0;
  if (!law) {
    fprintf(stderr, "tally run: --inst-cost: internal error: program + inst differs from the run's total\n");
    rc = EXIT_INTERNAL;
  }
  if (!any)
    fprintf(f, "  note: no analysis code ran: is the program an output of tally inst?\n");
  if (why)
    fprintf(f, "  note: the instrumented run did not end (%s): the costs are up to there\n", why);
  else if (c->orig_status != status)
    fprintf(f, "  note: the original %s, the instrumented program exited %d: the runs did not do the same work\n",
            c->orig_status < 0 ? "did not exit" : "exited otherwise", status);
  return rc;
}
