/* wp_use_shift_word.S -- a 16-bit jump at 2 mod 4 that redirects from
 * memory (a c.jr, or a c.beqz taken forward against its prediction) whose
 * first wrong-path instruction is a 32-bit shift (at 0 mod 4) and whose
 * second reads its result ([pipeline] wrong_path_use_word): on
 * VexRiscv_IMAC.v the target comes a cycle later, as after a jump at
 * 0 mod 4 (wrong_path_use_hold). CoreMark built rv32imac: calc_func's
 * c.jr ra at 0x40000776, srai a4, s0, 3, then c.andi a4, 15 and c.mv
 * (1 + 5 cycles from the c.addi16sp before the ret to its target on the
 * retire trace, 1 + 4 without the hold). Each case nine times a pass, four
 * passes, lines cached after the first:
 * A: calc_func's return copied (c.jr at 2 mod 4, srai, c.andi of it).
 * B: c.beqz taken forward at 2 mod 4, srai, c.andi of it.
 * C (control): A with the c.andi reading another register.
 * D (control): A with an addi in place of the srai.
 * E (control): A with an lbu in place of the srai (a load there: no
 * hold on the RTL's retire trace).
 * Built rv32imac; std and min stop at the first 16-bit instruction
 * (illegal), as the RTL does. */
#include "vex.h"
    .option norelax
    .text
    .balign 4096
    .option push
    .option norvc
    main_entry 12
    li s0, 4
pass:
    call_cases a, b, c, d, e
    addi s0, s0, -1
    bnez s0, pass
    add a0, a2, a3
    main_return 12, 1
    .option pop

    /* A: calc_func's return: c.jr at 2 mod 4, srai, c.andi of it */
    .org 0x200
case_a:
    .option push
    .option norvc
    mv s9, ra
    addi sp, sp, -16
    li t1, 0x80
    sh t1, 0(sp)
    li s8, 9
1:  mv a0, sp
    mv s1, sp
    rvc16 c.jal leaf_a
    addi s8, s8, -1
    bnez s8, 1b
    addi sp, sp, 16
    mv ra, s9
    ret
    .option pop
    .org 0x24e
leaf_a:
    .option push
    .option rvc
    c.addi sp, -32
    c.swsp s0, 24(sp)
    .option norvc
    lh s0, 0(a0)
    .option rvc
    c.swsp ra, 28(sp)
    c.swsp s1, 20(sp)
    .option norvc
    srai a5, s0, 7
    .option rvc
    c.swsp s2, 16(sp)
    c.swsp s3, 12(sp)
    c.andi a5, 1
    c.beqz a5, 2f
    c.lwsp ra, 28(sp)
    .option norvc
    andi a0, s0, 127
    .option rvc
    c.lwsp s0, 24(sp)
    c.lwsp s1, 20(sp)
    c.lwsp s2, 16(sp)
    c.lwsp s3, 12(sp)
    c.addi16sp sp, 32
    c.jr ra
2:  .option norvc
    srai a4, s0, 3
    .option rvc
    c.andi a4, 15
    c.mv s1, a1
    c.nop
    c.nop
    .option pop

    /* B: c.beqz zero forward (taken, predicted not) at 2 mod 4 */
    .org 0x300
case_b:
    .option push
    .option norvc
    li s8, 9
    li a4, 0
1:
    .option rvc
    c.addi a2, 1
    c.beqz a4, 2f
    .option norvc
    srai a5, a2, 3
    .option rvc
    c.andi a5, 15
    c.addi a3, 7
    c.nop
    c.nop
2:  .option norvc
    addi s8, s8, -1
    bnez s8, 1b
    ret
    .option pop

    /* C (control): the c.andi reads another register */
    
    .org 0x400
case_c:
    .option push
    .option norvc
    mv s9, ra
    addi sp, sp, -16
    li t1, 0x80
    sh t1, 0(sp)
    li s8, 9
1:  mv a0, sp
    mv s1, sp
    rvc16 c.jal leaf_c
    addi s8, s8, -1
    bnez s8, 1b
    addi sp, sp, 16
    mv ra, s9
    ret
    .option pop
    .org 0x44e
leaf_c:
    .option push
    .option rvc
    c.addi sp, -32
    c.swsp s0, 24(sp)
    .option norvc
    lh s0, 0(a0)
    .option rvc
    c.swsp ra, 28(sp)
    c.swsp s1, 20(sp)
    .option norvc
    srai a5, s0, 7
    .option rvc
    c.swsp s2, 16(sp)
    c.swsp s3, 12(sp)
    c.andi a5, 1
    c.beqz a5, 2f
    c.lwsp ra, 28(sp)
    .option norvc
    andi a0, s0, 127
    .option rvc
    c.lwsp s0, 24(sp)
    c.lwsp s1, 20(sp)
    c.lwsp s2, 16(sp)
    c.lwsp s3, 12(sp)
    c.addi16sp sp, 32
    c.jr ra
2:  .option norvc
    srai a4, s0, 3
    .option rvc
    c.andi a5, 15
    c.mv s1, a1
    c.nop
    c.nop
    .option pop


    /* D (control): addi in place of the srai */
    
    .org 0x500
case_d:
    .option push
    .option norvc
    mv s9, ra
    addi sp, sp, -16
    li t1, 0x80
    sh t1, 0(sp)
    li s8, 9
1:  mv a0, sp
    mv s1, sp
    rvc16 c.jal leaf_d
    addi s8, s8, -1
    bnez s8, 1b
    addi sp, sp, 16
    mv ra, s9
    ret
    .option pop
    .org 0x54e
leaf_d:
    .option push
    .option rvc
    c.addi sp, -32
    c.swsp s0, 24(sp)
    .option norvc
    lh s0, 0(a0)
    .option rvc
    c.swsp ra, 28(sp)
    c.swsp s1, 20(sp)
    .option norvc
    srai a5, s0, 7
    .option rvc
    c.swsp s2, 16(sp)
    c.swsp s3, 12(sp)
    c.andi a5, 1
    c.beqz a5, 2f
    c.lwsp ra, 28(sp)
    .option norvc
    andi a0, s0, 127
    .option rvc
    c.lwsp s0, 24(sp)
    c.lwsp s1, 20(sp)
    c.lwsp s2, 16(sp)
    c.lwsp s3, 12(sp)
    c.addi16sp sp, 32
    c.jr ra
2:  .option norvc
    addi a4, s0, 3
    .option rvc
    c.andi a4, 15
    c.mv s1, a1
    c.nop
    c.nop
    .option pop


    /* E (control): lbu in place of the srai */
    
    .org 0x600
case_e:
    .option push
    .option norvc
    mv s9, ra
    addi sp, sp, -16
    li t1, 0x80
    sh t1, 0(sp)
    li s8, 9
1:  mv a0, sp
    mv s1, sp
    rvc16 c.jal leaf_e
    addi s8, s8, -1
    bnez s8, 1b
    addi sp, sp, 16
    mv ra, s9
    ret
    .option pop
    .org 0x64e
leaf_e:
    .option push
    .option rvc
    c.addi sp, -32
    c.swsp s0, 24(sp)
    .option norvc
    lh s0, 0(a0)
    .option rvc
    c.swsp ra, 28(sp)
    c.swsp s1, 20(sp)
    .option norvc
    srai a5, s0, 7
    .option rvc
    c.swsp s2, 16(sp)
    c.swsp s3, 12(sp)
    c.andi a5, 1
    c.beqz a5, 2f
    c.lwsp ra, 28(sp)
    .option norvc
    andi a0, s0, 127
    .option rvc
    c.lwsp s0, 24(sp)
    c.lwsp s1, 20(sp)
    c.lwsp s2, 16(sp)
    c.lwsp s3, 12(sp)
    c.addi16sp sp, 32
    c.jr ra
2:  .option norvc
    lbu a4, 0(a0)
    .option rvc
    c.andi a4, 15
    c.mv s1, a1
    c.nop
    c.nop
    .option pop

