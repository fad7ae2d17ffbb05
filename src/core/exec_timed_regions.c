/* The timed loop while address regions are installed (the statistics
 * module's range counters, regions.h): entering a block of another region
 * moves the dynamic counts so far to the region being left. Apart so that
 * the plain timed loop does not pay for that check (see exec_loop.inc). */
#define TIMED 1
#define PROFILED 0
#define REGIONS 1
#define TIMING_NO_ROWS /* timing_count never has a profile row to charge */
#define LOOP_NAME core_exec_timed_regions
#include "exec_loop.inc"
