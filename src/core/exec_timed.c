/* The timed loop: the same semantics with the timing model's charges
 * (see exec_loop.inc), and no profiling or address-region work on its
 * path (exec_timed_regions.c has the latter), nor any check of the
 * VexRiscv rules (exec_timed_vex.c has them). */
#define TIMED 1
#define VEX_RULES 0
#define VEXMIN 0 /* exec_timed_vexmin.c */
#define PROFILED 0
#define REGIONS 0
#define TIMING_NO_ROWS /* timing_count never has a profile row to charge */
#define TIMING_NO_REGIONS /* ... nor a region row (core_exec) */
#define LOOP_NAME core_exec_timed
#include "exec_loop.inc"
