/* The timed loop: the same semantics with the timing model's charges
 * (see exec_loop.inc). */
#define TIMED 1
#define LOOP_NAME core_exec_timed
#include "exec_loop.inc"
