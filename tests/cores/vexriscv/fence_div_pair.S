/* fence_div_pair.S -- fence.i right after fence.i, right after a divide
 * (found on the RTL's retire trace of rand_gen.py's rand_43 on VexRiscv.v:
 * xor, rem, fence.i, fence.i, addi on one line, the addi 34 cycles later
 * than charged). The first fence.i asks for the flush from decode during
 * the divide's hold, and the flush begins then; the second reaches decode
 * after the hold, the flush no longer pending, and flushes again. Each
 * case a few times in a loop; every fence.i drops every line:
 * - A: rem, fence.i, fence.i, then ALU ops on the same line;
 * - B: divu, fence.i, fence.i (the line's last word), then an addi first
 *   on the next line;
 * - C: div and three fence.i in a row. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li a1, 100
    li a2, 7
    li s8, 3
    j loop

    .balign 32
loop:
    /* A */
    addi a0, a0, 1
    xor a3, a0, a1
    nop                   /* (VexRiscv_Min.v traps at rem: 1 cycle off right after xor) */
    rem t6, a1, a2
    fence.i
    fence.i
    addi a0, a0, 3
    add a0, a0, t6
    /* B */
    at_word 5
    divu t5, a1, a2
    fence.i
    fence.i
    addi a0, a0, 5
    add a0, a0, t5
    /* C */
    at_word 1
    div t4, a1, a2
    fence.i
    fence.i
    fence.i
    addi a0, a0, 7
    add a0, a0, t4
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1
