/* The timed loop with an exact profile being gathered: dynamic charges go
 * to the current instruction's row too, and calls and returns drive the
 * shadow call stack (see exec_loop.inc). It lists the blocks it enters
 * since the last call, return or trap, so that the next one adds up only
 * those for the context it leaves (core_fold_context). */
#define TIMED 1
#define PROFILED 1
#define REGIONS 1 /* a profile may run beside range counters */
#define LOOP_NAME core_exec_profiled
#include "exec_loop.inc"
