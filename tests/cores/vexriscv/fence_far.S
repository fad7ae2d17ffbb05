/* fence_far.S -- fence.i as the second word after a jump or a
 * mispredicted branch, on its wrong path, each case a few times in a loop
 * (found on the RTL's retire and bus trace of rand_gen.py's programs):
 * - a call by jalr, an ALU op, then fence.i, all on one line;
 * - a ret, an ALU op, then fence.i;
 * - a forward branch taken (predicted not taken), an ALU op, then fence.i;
 * - a forward branch taken, then fence.i (the flush from the first word,
 *   for comparison).
 * Each case on a line of its own, so that the words after the jump are
 * fetched from the jump's line. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li s8, 3
    .balign 32
loop:
    la t6, leaf
    jalr ra, 0(t6)
    addi a1, a1, 1
    fence.i
    addi a0, a0, 5
    jal ra, leaf_ret
    .balign 32
    addi a0, a0, 7
    bne s8, zero, 1f
    addi a1, a1, 2
    fence.i
1:  addi a0, a0, 11
    .balign 32
    addi a0, a0, 13
    bne s8, zero, 2f
    fence.i
    addi a1, a1, 4
2:  addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1

    .balign 64
leaf:
    addi a0, a0, 3
    ret
    .balign 32
leaf_ret:
    addi a0, a0, 1
    ret
    addi a1, a1, 3
    fence.i
    nop
