/* The helpers of translated code in a timed run with a profile (and
 * address regions beside it, if any): jit_rows.inc with the profiled
 * loop's rules. The cache hit tests are forced inline, as in
 * exec_profiled.c. */
#define TIMING_HIT_INLINE inline __attribute__((always_inline))
#define PROFILED 1
#define JR(name) core_jp_##name
#include "jit_rows.inc"
