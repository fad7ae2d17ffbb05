/* The timed loop of a program that has touched the PMU: the plain timed
 * loop that also lists the cached blocks it enters with no executions left
 * to fold (core_track), so that a PMU access folds those instead of
 * walking the whole block cache (timing/pmu.h, run.c). Apart so that the
 * plain timed loop pays nothing for it (see exec_loop.inc). */
#define TIMED 1
#define PROFILED 0
#define REGIONS 0
#define PMU_TRACK 1
#define TIMING_NO_ROWS /* timing_count never has a profile row to charge */
#define TIMING_NO_REGIONS /* ... nor a region row (core_exec) */
#define LOOP_NAME core_exec_timed_pmu
#include "exec_loop.inc"
