/* The timed loop with an exact profile being gathered: dynamic charges go
 * to the current instruction's row too, and calls and returns drive the
 * shadow call stack (see exec_loop.inc). It lists the blocks it enters
 * (PMU_TRACK), so that a call folds only those to read the signal totals
 * of the context it leaves (core_fold_now). */
#define TIMED 1
#define PROFILED 1
#define REGIONS 1 /* a profile may run beside range counters */
#define PMU_TRACK 1
#define LOOP_NAME core_exec_profiled
#include "exec_loop.inc"
