/* The helpers of translated code in a timed run with address regions and
 * no profile (the statistics module's range counters): jit_rows.inc with
 * the regions loop's rules. */
#define PROFILED 0
#define TIMING_NO_ROWS /* timing_count never has a profile row to charge */
#define JR(name) core_jr_##name
#include "jit_rows.inc"
