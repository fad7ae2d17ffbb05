/* The timed loop with an exact profile being gathered: dynamic charges go
 * to the current instruction's row and calling context too, and calls and
 * returns drive the shadow call stack (see exec_loop.inc). It counts each
 * block's executions per calling context as well (ctx_count.h). Its extra
 * code made the compiler call the cache hit tests out of line (twice the
 * calls of the timed loop, measured): they are forced inline here. */
#define TIMING_HIT_INLINE inline __attribute__((always_inline))
#define TIMED 1
#define PROFILED 1
#define REGIONS 1 /* a profile may run beside range counters */
#define LOOP_NAME core_exec_profiled
#include "exec_loop.inc"
