/* The timed loop of a model with any of the VexRiscv rules
 * (timing.vex_rules): the plain timed loop (exec_timed.c) with their
 * checks, apart so that the plain one pays nothing for them (see
 * exec_loop.inc). */
#define TIMED 1
#define PROFILED 0
#define REGIONS 0
#define VEX_RULES 1
#define VEXMIN 0 /* exec_timed_vexmin.c */
#define TIMING_NO_ROWS /* timing_count never has a profile row to charge */
#define TIMING_NO_REGIONS /* ... nor a region row (core_exec) */
#define LOOP_NAME core_exec_timed_vex
#include "exec_loop.inc"
