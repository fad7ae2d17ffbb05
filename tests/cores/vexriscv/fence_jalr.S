/* fence_jalr.S -- fence.i right after a jump, on the jump's wrong path,
 * each case a few times in a loop (found on the RTL's retire trace of
 * rand_gen.py's programs):
 * - a call by jalr to a line that misses, fence.i after it: VexRiscv.v's
 *   decode asks for the I-cache flush while the jalr is in execute, so the
 *   target is refilled after the flush; in the first pass the wrong path's
 *   next line misses too, and its refill runs during the flush;
 * - a ret with fence.i after it (the flush before the return's target);
 * - a jal with fence.i after it: the jal redirects from decode, so the
 *   fence.i never reaches decode and nothing is flushed. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li s8, 3
loop:
    la t6, leaf
    jalr ra, 0(t6)
    fence.i
    addi a0, a0, 5
    jal ra, leaf_ret
    addi a0, a0, 7
    jal zero, 1f
    fence.i
1:  addi a0, a0, 11
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1

    .balign 64
leaf:
    addi a0, a0, 3
    ret
leaf_ret:
    addi a0, a0, 1
    ret
    fence.i
    nop
