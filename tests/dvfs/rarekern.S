/*
 * rare_kernel(buf, lines): the sum of one word per 64-byte line of buf,
 * loaded at a 64-byte stride (every load a new line: memory-bound). Built
 * so that the loop's way out is the case tally dvfs must not make slow:
 * its back edge is a 4-byte bne (assembled with norvc) and the only
 * instruction after it is a 2-byte c.ret, alone in its block. The switch
 * back up sits before that c.ret, and a jal for it cannot go there (a
 * c.ret is too short) nor over it and a neighbour (none in its block);
 * the only other place, the bne that falls into it, runs every iteration.
 * The sum is of words the start-up code cleared (0), so the output does
 * not depend on how many lines were read.
 */
        .text
        .globl  rare_kernel, rare_loop, rare_back, rare_ret
        .type   rare_kernel, @function
rare_kernel:
        mv      a2, a0
        li      a0, 0
rare_loop:
        lw      t1, 0(a2)
        add     a0, a0, t1
        addi    a2, a2, 64
        addi    a1, a1, -1
        .option push
        .option norvc
rare_back:
        bne     a1, zero, rare_loop
        .option pop
rare_ret:
        c.jr    ra
        .size   rare_kernel, . - rare_kernel
