/* fence_jal.S -- a jal right after fence.i (found on the RTL's retire
 * trace of rand_gen.py's rand_20: fence.i, jal to a line that misses),
 * each case a few times in a loop:
 * - an ALU op, fence.i, jal forward to another line: the jal, fetched
 *   before the flush, redirects from decode while the flush runs, and its
 *   target is fetched after the flush, as a jalr's would be;
 * - the same with a jal backward, to the line before;
 * - fence.i, jal to the next word on its own line (also invalid after
 *   the flush);
 * - a call: fence.i, jal ra to a leaf whose ret comes back. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li s8, 3
    j loop

    .balign 32
back:
    addi a0, a0, 3
    j 2f

    .balign 32
loop:
    addi a0, a0, 1
    fence.i
    j 1f
    addi a0, a0, 100

    at_word 2
1:
    addi a0, a0, 2
    fence.i
    j back
2:
    addi a0, a0, 4
    fence.i
    j 3f
3:
    addi a0, a0, 5
    fence.i
    jal ra, leaf
    addi a0, a0, 6
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1

    at_word 3
leaf:
    addi a0, a0, 7
    ret
