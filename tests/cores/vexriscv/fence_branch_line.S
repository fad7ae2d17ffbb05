/* fence_branch_line.S -- a branch right after fence.i, fetched before the
 * flush, taken against its prediction to another line (found on the RTL's
 * retire trace of rand_gen.py's rand_34: a jal to fence.i, then bge in
 * its line's last word taken to the next line; sb, fence.i, beq in the
 * line's second-last word taken to the next line), each case a few times
 * in a loop:
 * - fence.i in a line's second-last word, bne in its last taken forward
 *   to word 3 of the next line;
 * - fence.i, bne in the line's second-last word (pc + 8 the next line's
 *   first) taken to word 3 of the next line;
 * - fence.i, bne at word 3 taken to word 3 of the next line;
 * - fence.i, bne at word 3 taken to word 5 of the line after the next.
 * The flush, pending from fence.i in decode, halts the fetch behind the
 * branch: no word after it is looked up, and the target is fetched after
 * the flush, as the word after a plain fence.i would be. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li a1, 1
    li s8, 3
    j loop

    .balign 32
loop:
    addi a0, a0, 1
    at_word 6
    fence.i
    bne a1, zero, 1f
    at_word 3
1:
    addi a0, a0, 2
    at_word 5
    fence.i
    bne a1, zero, 2f
    addi a0, a0, 100
    at_word 3
2:
    addi a0, a0, 3
    at_word 2
    fence.i
    bne a1, zero, 3f
    addi a0, a0, 100
    at_word 3
3:
    addi a0, a0, 4
    at_word 2
    fence.i
    bne a1, zero, 4f
    addi a0, a0, 100
    .balign 32
    nops 8
    nops 5
4:
    addi a0, a0, 5
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1
