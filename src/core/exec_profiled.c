/* The timed loop with an exact profile being gathered: dynamic charges go
 * to the current instruction's row too, and calls and returns drive the
 * shadow call stack (see exec_loop.inc). */
#define TIMED 1
#define PROFILED 1
#define REGIONS 1 /* a profile may run beside range counters */
#define LOOP_NAME core_exec_profiled
#include "exec_loop.inc"
