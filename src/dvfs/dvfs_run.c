/* Running an ELF on tally for tally dvfs: output captured, time and energy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dvfs.h"

enum { EXIT_BADDATA = 65, EXIT_NOINPUT_ = 66, EXIT_INTERNAL_ = 70 };

tally_sim *dvfs_new_sim(const dvfs_opts *o, const char *path, const char *dir, const char *const *sets,
                          int nsets, FILE *out, tally_error *err, int *rc) {
  tally_config cfg;
  tally_config_default(&cfg);
  cfg.out = out;
  cfg.in_fd = -1;
  uint64_t need = tally_elf_ram_needed(path);
  if (need > TALLY_RAM_SIZE_DEFAULT && need <= (256u << 20))
    cfg.ram_size = (uint32_t)need;
  tally_sim *sim = tally_sim_new(&cfg);
  if (!sim) {
    snprintf(err->msg, sizeof err->msg, "out of memory");
    *rc = EXIT_INTERNAL_;
    return NULL;
  }
  *rc = EXIT_NOINPUT_;
  if (tally_load_elf(sim, path, err) != 0)
    goto fail;
  *rc = EXIT_BADDATA;
  if (tally_set_core(sim, o->core, sets, nsets, err) != 0)
    goto fail;
  *rc = EXIT_INTERNAL_;
  if (dir && tally_set_host_files(sim, TALLY_HOST_FILES_RW, dir, err) != 0)
    goto fail;
  char *argv[64];
  int argc = 0;
  /* Every run gets IN.elf's name as argv[0]: start-up code that reads the
   * command line takes time by its length, which must not count as DVFS. */
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
    tally_stop st = acct ? dvfs_account_run(sim, acct->ranges, acct->nranges, acct->nrows, acct->rows)
                         : tally_run(sim, UINT64_MAX);
    if (st != TALLY_STOP_EXIT) {
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
