/* jalr_wait_rvc_pair.S -- a jalr (ret) whose two wrong-path instructions
 * end before a word of two 16-bit ones ([pipeline] redirect_rvc_pair),
 * the first of them reading, or not, a late result of the instruction
 * right before the jalr (redirect_rvc_pair's jalr_first_waits). The
 * callee: c.addi at 0 mod 4, lw, ret at 2 mod 4, slli at 2 mod 4, c.add,
 * then c.j and c.mv in a word. Cases: A the slli reads the lw's result;
 * B it does not; C an addi in the lw's place, read; D a mul in its
 * place, read. */
#include "vex.h"
    fixed_layout
    main_entry
    .option rvc
    c.nop                /* std and min stop here (illegal), as on the RTL */
    c.nop
    .option norvc
    li a0, 0
    li a1, 0
    li t3, 5
    addi sp, sp, -16
    sw zero, 0(sp)
    mv s1, ra

    /* pre: 0 lw, 2 addi, 3 mul (the producer right before the ret) */
    .macro casej name, pre, src
    li s0, 20
loop\name:
    jal ra, f\name
    addi s0, s0, -1
    bnez s0, loop\name
    j done\name
    at_word 0
f\name:
    rvc16 c.addi a0, 1
    .if \pre == 2
    addi t2, a0, 4       /* 2 mod 4 */
    .elseif \pre == 3
    mul t2, a0, a0       /* 2 mod 4 */
    .else
    lw t2, 0(sp)         /* 2 mod 4 */
    .endif
    jalr zero, 0(ra)     /* 2 mod 4 */
    slli t0, \src, 2     /* 2 mod 4: the first wrong-path instruction */
    .option rvc
    c.add t0, a0         /* the word's upper half */
    c.j wp\name          /* a word of two: c.j, c.mv */
    c.mv a7, a3
    .option norvc
wp\name:
    addi a1, a1, 3       /* never reached */
    ret
done\name:
    .endm

    casej A, 0, t2
    casej B, 0, t3
    casej C, 2, t2
    casej D, 3, t2
    addi sp, sp, 16
    mv ra, s1
    add a0, a0, a1
    andi a0, a0, 0x7ff
    ret
