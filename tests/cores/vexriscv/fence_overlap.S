/* fence_overlap.S -- the instruction after fence.i, fetched before the
 * I-cache's flush, stalling in execute (found on the RTL's retire trace of
 * rand_gen.py's programs), each case a few times in a loop:
 * - fence.i, div, and a branch on the same line: the divide runs during
 *   the flush, and the branch (refilled after it) retires as long after
 *   the fence.i as with no divide;
 * - fence.i, a load from the uncached IO region, an ALU op on the same
 *   line: the load's bus wait passes during the flush the same way;
 * - fence.i the line's second-last word, div its last: the next line is
 *   looked up after the flush. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li a1, 100
    li a2, 7
    li s5, IO_SCRATCH
    li s8, 3
    j loop

    .balign 32
loop:
    addi a0, a0, 1
    fence.i
    div a3, a1, a2
    beq a3, zero, 1f
    add a0, a0, a3
    fence.i
    lhu t0, 4(s5)
    slli t1, a0, 3
1:  add a0, a0, t1
    at_word 6
    fence.i
    divu a4, a1, a2
    add a0, a0, a4
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1
