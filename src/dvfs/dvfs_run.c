/* Running an ELF on tally for tally dvfs: output captured, time and energy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dvfs.h"

enum { EXIT_BADDATA = 65, EXIT_NOINPUT_ = 66, EXIT_INTERNAL_ = 70, EXIT_BOUND_ = 124, EXIT_INTERRUPTED_ = 130,
       EXIT_CYCLES = 123 /* as tally run's */ };

#define DVFS_SLICE 20000000ull   /* instructions between looks at the bounds */

const char *dvfs_bound(const dvfs_opts *o, const tally_sim *sim) {
  if (o->stop && *o->stop)
    return "interrupted";
  if (o->deadline > 0) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    if ((double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 >= o->deadline)
      return "--timeout reached";
  }
  if (o->max_insns && tally_instret(sim) >= o->max_insns)
    return "--max-insns reached";
  return NULL;
}

/* tally_run to the end, in slices, until a bound */
static tally_stop run_bounded(const dvfs_opts *o, tally_sim *sim) {
  for (;;) {
    uint64_t slice = DVFS_SLICE, done = tally_instret(sim);
    if (o->max_insns && o->max_insns - done < slice)
      slice = o->max_insns > done ? o->max_insns - done : 0;
    tally_stop st = slice ? tally_run(sim, slice) : TALLY_STOP_LIMIT;
    if (st != TALLY_STOP_LIMIT || dvfs_bound(o, sim))
      return st;
  }
}

tally_sim *dvfs_new_sim(const dvfs_opts *o, const char *path, const char *dir, const char *const *sets,
                          int nsets, FILE *out, tally_error *err, int *rc) {
  tally_config cfg;
  tally_config_default(&cfg);
  cfg.out = out;
  cfg.in_fd = -1;
  cfg.board = o->board; /* checked by cmd_dvfs.c */
  tally_board_info info;
  *rc = EXIT_INTERNAL_;
  if (tally_board_lookup(o->board, &info, err) != 0)
    return NULL;
  uint64_t need = tally_elf_ram_needed_at(path, info.ram_base);
  if (need > info.ram_size && need <= 2ull * info.ram_size)
    cfg.ram_size = (uint32_t)need;
  tally_sim *sim = tally_sim_open(&cfg, err);
  if (!sim)
    return NULL;
  *rc = EXIT_NOINPUT_;
  if (tally_load_elf(sim, path, err) != 0)
    goto fail;
  *rc = EXIT_BADDATA;
  if (tally_set_core(sim, o->core, sets, nsets, err) != 0)
    goto fail;
  tally_set_max_cycles(sim, o->max_cycles);
  *rc = EXIT_INTERNAL_;
  if (dir && tally_set_host_files(sim, TALLY_HOST_FILES_RW, dir, err) != 0)
    goto fail;
  char *argv[64];
  int argc = 0;
  /* tally_set_args passes IN.elf's base name as argv[0], as tally run
   * does: the folder's length must not count as DVFS */
  argv[argc++] = (char *)o->in;
  for (int i = 0; i < o->argc && argc < 63; i++)
    argv[argc++] = o->argv[i];
  argv[argc] = NULL;
  if (tally_set_args(sim, argc, argv) != 0) {
    snprintf(err->msg, sizeof err->msg, "%.400s: the program's arguments do not fit", path);
    goto fail;
  }
  *rc = 0;
  return sim;
fail:
  tally_sim_free(sim);
  return NULL;
}

int dvfs_run_elf(const dvfs_opts *o, const char *path, const char *dir, const char *const *sets, int nsets,
                 dvfs_acct *acct, dvfs_run *r, tally_error *err) {
  memset(r, 0, sizeof *r);
  FILE *out = open_memstream(&r->out, &r->out_len);
  if (!out) {
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return EXIT_INTERNAL_;
  }
  int rc;
  tally_sim *sim = dvfs_new_sim(o, path, dir, sets, nsets, out, err, &rc);
  if (sim) {
    tally_stop st = acct ? dvfs_account_run(o, sim, acct->ranges, acct->nranges, acct->nrows, acct->rows)
                      : run_bounded(o, sim);
    const char *bound = st == TALLY_STOP_LIMIT ? dvfs_bound(o, sim) : NULL;
    if (bound) {
      snprintf(err->msg, sizeof err->msg, "%.300s: %s after %llu instructions", path, bound,
               (unsigned long long)tally_instret(sim));
      rc = strcmp(bound, "interrupted") ? EXIT_BOUND_ : EXIT_INTERRUPTED_;
      r->stopped = true;
    } else if (st == TALLY_STOP_CYCLES) {
      snprintf(err->msg, sizeof err->msg, "%.300s: --max-cycles reached (%llu cycles) before the program exited", path,
               (unsigned long long)o->max_cycles);
      rc = EXIT_CYCLES;
    } else if (st != TALLY_STOP_EXIT) {
      snprintf(err->msg, sizeof err->msg, "%.300s: the run did not end by exiting: %.150s", path, tally_stop_detail(sim));
      rc = EXIT_BADDATA;
    }
    r->exit_code = tally_exit_code(sim);
    r->cycles = tally_cycles(sim);
    r->instret = tally_instret(sim);
    r->e = tally_energy_now(sim);
    tally_sim_free(sim);
  }
  fclose(out);
  return rc;
}

void dvfs_run_free(dvfs_run *r) {
  free(r->out);
  r->out = NULL;
}
