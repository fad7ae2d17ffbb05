/* fence_branch.S -- a branch right after fence.i, fetched before the flush
 * (found on the RTL's retire trace of rand_gen.py's rand_23: fence.i, blt
 * not taken, sltu on the same line), each case a few times in a loop:
 * - fence.i, a forward branch not taken, ALU ops on the same line: the
 *   branch goes on down the pipeline during the flush, the word after it
 *   is looked up after the flush, misses, and its line is refilled;
 * - fence.i, a forward branch taken to a word on the same line. */
#include "vex.h"
    .option norvc
    .option norelax
    .text
    main_entry 0
    li a0, 0
    li a1, 1
    li s8, 3
    j loop

    .balign 32
loop:
    addi a0, a0, 1
    fence.i
    beqz a1, 1f
    addi a0, a0, 2
    addi a0, a0, 3
1:
    addi a0, a0, 4
    j 2f

    .balign 32
2:
    addi a0, a0, 5
    fence.i
    bnez a1, 3f
    addi a0, a0, 100
3:
    addi a0, a0, 6
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, 1
