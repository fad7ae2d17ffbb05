/*
 * gmon_scaled ELF OUT MAX_BYTES: profiles ELF on tally5 (argv = ELF's base
 * name, as `tally profile ELF` gives it) and writes its gmon.out with a histogram budget
 * of MAX_BYTES, small enough to force the scaled layout that real runs only
 * reach after ~10^8 cycles at one instruction. Prints the layout:
 *   divisor D rate R records N lo 0x... hi 0x...
 * check_profile.py (case gmon-scaled) checks the file against the profile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/report/export.h"
#include "tally/tally.h"

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: gmon_scaled ELF OUT MAX_BYTES\n");
    return 64;
  }
  tally_sim *sim = tally_sim_new(NULL);
  tally_error err;
  char *slash = strrchr(argv[1], '/');
  char *args[] = {slash && slash[1] ? slash + 1 : argv[1], NULL};
  if (!sim || tally_load_elf(sim, argv[1], &err) != 0 || tally_set_core(sim, "tally5", NULL, 0, &err) != 0 ||
      tally_set_args(sim, 1, args) != 0 || tally_profile_enable(sim, 0, &err) != 0) {
    fprintf(stderr, "gmon_scaled: %s\n", sim ? err.msg : "out of memory");
    return 66;
  }
  double hz = tally_energy_now(sim).frequency_mhz * 1e6;
  tally_stop s = tally_run(sim, UINT64_MAX);
  tally_profile *p = tally_profile_take(sim);
  FILE *f = fopen(argv[2], "wb");
  if (s != TALLY_STOP_EXIT || !p || !f) {
    fprintf(stderr, "gmon_scaled: run or output failed\n");
    return 70;
  }
  report_run run = {.program = argv[1], .argc = 1, .argv = args, .core = "tally5", .clock_hz = hz,
                    .cycles = tally_cycles(sim), .instret = tally_instret(sim), .stop = "exit"};
  report_gmon_opts opts = {.unit = REPORT_GMON_SECONDS, .max_bytes = strtoull(argv[3], NULL, 0)};
  report_gmon_layout lay;
  int rc = report_write_gmon(p, &run, &opts, f, &lay);
  if (fclose(f) != 0 || rc != 0) {
    fprintf(stderr, "gmon_scaled: writing %s failed\n", argv[2]);
    return 70;
  }
  printf("divisor %llu rate %u records %u lo 0x%x hi 0x%x\n", (unsigned long long)lay.divisor, lay.rate,
         lay.records, lay.lo, lay.hi);
  tally_profile_free(p);
  tally_sim_free(sim);
  return 0;
}
