/* The functional loop: the semantics and nothing else (see exec_loop.inc). */
#define TIMED 0
#define PROFILED 0
#define REGIONS 0
#define LOOP_NAME core_exec_fast
#include "exec_loop.inc"
