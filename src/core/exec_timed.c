/* The timed loop: the same semantics with the timing model's charges
 * (see exec_loop.inc), and no profiling work on its path. */
#define TIMED 1
#define PROFILED 0
#define TIMING_NO_ROWS /* timing_count never has a profile row to charge */
#define LOOP_NAME core_exec_timed
#include "exec_loop.inc"
