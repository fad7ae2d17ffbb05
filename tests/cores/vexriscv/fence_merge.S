/* fence_merge.S -- fence.i right after fence.i (found on the RTL's retire
 * trace of rand_gen.py's programs: rand_23's fence.i, fence.i, bge and
 * rand_42's chain of three), each case a few times in a loop:
 * - fence.i, fence.i, then ALU ops on the same line: the first sets the
 *   I-cache's flushPending, the flush begins once the fetch stage is
 *   empty, and the second, that stage's word, asks for it while it is
 *   still pending: one flush for the two;
 * - fence.i, fence.i, a branch taken forward on the same line;
 * - three in a row: the third was fetched after the flush began, and
 *   flushes again;
 * - fence.i at a line's end, fence.i first on the next line. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li s8, 3
    j loop

    .balign 32
loop:
    addi a0, a0, 1
    fence.i
    fence.i
    addi a0, a0, 2
    addi a0, a0, 3
    li a1, 1
    bnez a1, 1f
    addi a0, a0, 100
1:
    fence.i
    fence.i
    bnez a1, 2f
    addi a0, a0, 100
2:
    addi a0, a0, 4
    fence.i
    fence.i
    fence.i
    addi a0, a0, 5
    addi a0, a0, 6
    j 3f

    at_word 6
3:
    addi a0, a0, 7
    fence.i
    fence.i
    addi a0, a0, 8
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1
