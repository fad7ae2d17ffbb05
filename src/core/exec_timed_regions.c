/* The timed loop while address regions are installed (the statistics
 * module's range counters, regions.h): dynamic counts also go to the
 * current region's row, and entering a block of another region switches
 * that row. Apart so that the plain timed loop pays for neither (see
 * exec_loop.inc). */
#define TIMED 1
#define PROFILED 0
#define REGIONS 1
#define PMU_TRACK 1 /* the blocks entered are listed (a dispatch folds them, core_fold_dirty) */
#define TIMING_NO_ROWS /* timing_count never has a profile row to charge */
#define LOOP_NAME core_exec_timed_regions
#include "exec_loop.inc"
