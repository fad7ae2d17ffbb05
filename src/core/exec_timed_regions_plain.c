/* exec_timed_regions.c's loop for a model with neither the VexRiscv rules
 * (timing.vex_rules) nor micro_arch vexriscv-min: their per-instruction
 * checks compiled out, as in exec_timed.c; run.c picks it for such a
 * model. */
#define TIMED 1
#define PROFILED 0
#define REGIONS 1
#define PMU_TRACK 1 /* the blocks entered are listed (a dispatch folds them, core_fold_dirty) */
#define VEX_RULES 0
#define VEXMIN 0
#define TIMING_NO_ROWS /* timing_count never has a profile row to charge */
#define LOOP_NAME core_exec_timed_regions_plain
#include "exec_loop.inc"
