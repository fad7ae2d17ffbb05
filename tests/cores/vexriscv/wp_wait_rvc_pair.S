/* wp_wait_rvc_pair.S -- a branch taken against its prediction (forward)
 * whose two wrong-path instructions end before a word of two 16-bit ones
 * ([pipeline] redirect_rvc_pair), the first of them reading, or not, a
 * late result of the instruction right before the branch
 * (redirect_rvc_pair's wrong_path_first_waits). Shape P (Embench
 * huffbench built rv32imac, heap_adjust's lw t2 and blt at 0x4000010e):
 * c.addi at 0 mod 4, lw, blt at 2 mod 4, slli at 2 mod 4, c.add, then
 * c.j and c.mv in a word. Shape Q (CoreMark built rv32imac, puts's
 * c.lwsp a1 and bgez a0 at 0x40001832): c.lwsp at 0 mod 4, bgez at 2 mod
 * 4 to the lbu two instructions on, c.li, lbu, then c.addi and c.mv in a
 * word. Cases: A (P) the slli reads the lw's result; B (P) it does not;
 * C (P) an addi in the lw's place; D (P) a mul in its place, read;
 * E (P) the lw two before the blt, read; F (Q) the c.li reads nothing;
 * G (Q) a c.mv of the c.lwsp's result in its place; shape R: lw and blt
 * at 0 mod 4, slli, c.add, a 32-bit instruction at 2 mod 4, a 16-bit one
 * in the next word: H the slli reads the lw's result, I not; J (P) an
 * slli (a late result with shift_use_penalty) in the lw's place, read. */
#include "vex.h"
    fixed_layout
    main_entry
    .option rvc
    c.nop                /* std and min stop here (illegal), as on the RTL */
    c.nop
    .option norvc
    li a0, 0
    li a1, 0
    li t5, 1
    li t6, 2
    li t3, 5
    addi sp, sp, -16
    sw zero, 0(sp)
    sw zero, 4(sp)

    /* shape P; pre: 0 c.addi then the producer, 1 the lw then c.addi */
    .macro casep name, pre, src
    li s0, 20
    at_word 0
loop\name:
    .if \pre == 1
    lw t2, 0(sp)         /* 0 mod 4, two before the blt */
    rvc16 c.addi a0, 1
    .elseif \pre == 2
    rvc16 c.addi a0, 1
    addi t2, a0, 4       /* 2 mod 4 */
    .elseif \pre == 3
    rvc16 c.addi a0, 1
    mul t2, a0, a0       /* 2 mod 4 */
    .elseif \pre == 4
    rvc16 c.addi a0, 1
    slli t2, a0, 1       /* 2 mod 4 */
    .else
    rvc16 c.addi a0, 1
    lw t2, 0(sp)         /* 2 mod 4 */
    .endif
    blt t5, t6, tgt\name /* 2 mod 4, taken forward: mispredicted */
    slli t0, \src, 2     /* 2 mod 4 */
    .option rvc
    c.add t0, a0         /* the word's upper half */
    c.j wp\name          /* a word of two: c.j, c.mv */
    c.mv a7, a3
    .option norvc
tgt\name:
    sw a0, 4(sp)
    addi s0, s0, -1
    bnez s0, loop\name
    j done\name
wp\name:
    addi a1, a1, 3       /* never reached: the wrong path's c.j target */
done\name:
    .endm

    /* shape Q; rd: 0 c.li s1, -1, 1 c.mv s1, a2 (the c.lwsp's result) */
    .macro caseq name, rd
    li s0, 20
    at_word 0
loop\name:
    rvc16 c.lwsp a2, 0(sp)     /* 0 mod 4 */
    bgez a0, tgt\name    /* 2 mod 4, taken forward: mispredicted */
    .option rvc
    .if \rd
    c.mv s1, a2
    .else
    c.li s1, -1
    .endif
    .option norvc
tgt\name:
    lbu a4, 4(sp)        /* 0 mod 4 */
    .option rvc
    c.addi a0, 1         /* a word of two: c.addi, c.mv */
    c.mv a7, a3
    .option norvc
    addi s0, s0, -1
    bnez s0, loop\name
done\name:
    .endm

    /* shape R: lw and blt at 0 mod 4, slli, c.add, then a 32-bit
     * instruction at 2 mod 4 and a 16-bit one in the next word */
    .macro caser name, src
    li s0, 20
    at_word 0
loop\name:
    .option rvc
    c.addi a0, 1
    c.mv a6, a0
    .option norvc
    lw t2, 0(sp)         /* 0 mod 4 */
    blt t5, t6, tgt\name /* 0 mod 4, taken forward: mispredicted */
    slli t0, \src, 2
    rvc16 c.add t0, a0
    addi a1, a1, 3       /* 2 mod 4: never retires */
    rvc16 c.mv a7, a3
tgt\name:
    sw a0, 4(sp)
    addi s0, s0, -1
    bnez s0, loop\name
done\name:
    .endm

    casep A, 0, t2
    casep B, 0, t3
    casep C, 2, t2
    casep D, 3, t2
    casep E, 1, t2
    caseq F, 0
    caseq G, 1
    caser H, t2
    caser I, t3
    casep J, 4, t2
    addi sp, sp, 16
    add a0, a0, a1
    andi a0, a0, 0x7ff
    ret
