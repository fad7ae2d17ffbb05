/* The timed loop of micro_arch vexriscv-min: the plain timed loop with
 * the model's call as each instruction starts (vexmin.h, exec_loop.inc's
 * VEXMIN), apart so that the plain one pays nothing for it. */
#define TIMED 1
#define VEXMIN 1
#define PROFILED 0
#define REGIONS 0
#define TIMING_NO_ROWS /* timing_count never has a profile row to charge */
#define TIMING_NO_REGIONS /* ... nor a region row (core_exec) */
#define LOOP_NAME core_exec_timed_vexmin
#include "exec_loop.inc"
