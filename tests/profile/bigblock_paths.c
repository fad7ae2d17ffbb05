/*
 * bigblock.elf profiled under the translator reaches the way out that
 * translate takes for a block whose code is larger than the scratch for
 * one block (src/core/jit.c, translate): its loop's block is lowered again
 * without the loop copy (the translator's lowered_no_loop count). That the
 * profile is the interpreter's is profile.engines_all's to check.
 *
 * usage: test_profile_bigblock_paths BIGBLOCK.ELF CORE
 * Exit status 77 (skipped) when the translator is not supported here.
 */
#include <inttypes.h>
#include <stdio.h>

#include "api/api_internal.h"
#include "core/cpu.h"
#include "core/jit.h"
#include "tally/tally.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_profile_bigblock_paths ELF CORE\n");
    return 2;
  }
  tally_error err;
  tally_sim *sim = tally_sim_new(NULL);
  if (sim && tally_set_engine(sim, TALLY_ENGINE_JIT, &err) != 0) {
    printf("bigblock_paths: the translator is not supported here: skipped\n");
    tally_sim_free(sim);
    return 77;
  }
  if (!sim || tally_load_elf(sim, argv[1], &err) != 0 || tally_set_core(sim, argv[2], NULL, 0, &err) != 0 ||
      tally_profile_enable(sim, 0, &err) != 0) {
    fprintf(stderr, "bigblock_paths: %s: %s\n", argv[1], sim ? err.msg : "out of memory");
    return 2;
  }
  tally_stop stop = tally_run(sim, UINT64_MAX);
  const core_jit *j = api_sim_cpu(sim)->jit;
  int bad = stop != TALLY_STOP_EXIT || tally_exit_code(sim) != 0;
  if (bad)
    fprintf(stderr, "bigblock_paths: the program did not exit with 0 (stop %d)\n", (int)stop);
  if (!j || tally_engine_running(sim) != TALLY_ENGINE_JIT) {
    fprintf(stderr, "bigblock_paths: the translator did not run\n");
    bad = 1;
  } else {
    printf("bigblock_paths: %" PRIu64 " blocks translated, %" PRIu64 " without the loop copy, %" PRIu64
           " as a call of interp_block, %" PRIu64 " full flushes\n",
           j->translated, j->lowered_no_loop, j->lowered_call, j->flushes_full);
    if (j->lowered_no_loop < 1) {
      fprintf(stderr, "bigblock_paths: no block was lowered again without its loop copy\n");
      bad = 1;
    }
  }
  tally_sim_free(sim);
  return bad;
}
