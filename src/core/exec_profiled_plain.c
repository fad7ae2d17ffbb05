/* exec_profiled.c's loop for a model with neither the VexRiscv rules
 * (timing.vex_rules) nor micro_arch vexriscv-min: their per-instruction
 * checks compiled out, as in exec_timed.c; run.c picks it for such a
 * model. */
#define TIMING_HIT_INLINE inline __attribute__((always_inline))
#define TIMED 1
#define PROFILED 1
#define REGIONS 1 /* a profile may run beside range counters */
#define VEX_RULES 0
#define VEXMIN 0
#define LOOP_NAME core_exec_profiled_plain
#include "exec_loop.inc"
