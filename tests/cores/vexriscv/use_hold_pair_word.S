/* use_hold_pair_word.S -- wrong_path_use_hold and redirect_rvc_pair on
 * one redirect: a 32-bit branch at 0 mod 4 taken forward (against its
 * prediction), a shift at pc + 4, a 32-bit reader of its result at pc + 8
 * and a word of two 16-bit instructions at pc + 12, every line cached
 * after the first pass. On VexRiscv_IMAC.v decode holds the reader in the
 * redirect's cycle and the fetch stage holds the word of two in that same
 * cycle: the target comes 1 + 3 + 1 cycles after the branch, as with
 * either alone, not 1 + 3 + 2 (use_hold_rvc_pair). Embench slre built
 * rv32imac: slre_match's loop at 0x4000096c (sw, sw, bge a3, a0 taken
 * forward; slli a4, a3, 3; addi a4, a4, 1604; c.add a4, a6; c.j), laid
 * out as there in case A. Cases, each in a loop of 8 passes:
 *   A  slre's loop, two inner passes a pass (bge at byte 20)
 *   B  bge at byte 20, slli, addi of it, c.add, c.j (the next line's word)
 *   C  (control) B with a 32-bit nop at pc + 12: the hold alone
 *   D  (control) B with an addi of other registers at pc + 8: the word of
 *      two alone
 * std and min stop at the first 16-bit instruction (illegal there), as
 * the RTL does. */
#include "vex.h"
    fixed_layout
    main_entry 12
    li s2, 8
    li a0, 0
    li t1, 2
    la a5, data
    li a4, 0
    /* A */
    at_word 0
0:  add a6, a5, a4
    addi a2, a6, 12
    .option rvc
    c.li a3, 0
    c.li a1, 0
    .option norvc
1:  sw zero, 0(a2)           /* 0x0c */
    sw a3, -4(a2)
    bge a3, a0, 3f           /* 0x14 */
    slli a4, a3, 3
    addi a4, a4, 16
    .option rvc
    c.add a4, a6
    c.j 2f
5:  c.lw a5, 0(a2)
    c.addi a3, 1
    c.addi a5, 1
    c.sw a5, 0(a2)
    .option norvc
    beq a3, a0, 3f
2:  .option rvc
    c.lw a5, 0(a4)
    c.addi a4, 8
    .option norvc
    beq a1, a5, 5b
3:  .option rvc
    c.addi a1, 1
    c.addi a2, 16
    .option norvc
    bne a1, t1, 1b           /* 0x3c */
    la a5, data
    li a4, 0
    addi s2, s2, -1
    bnez s2, 0b
    /* B */
    li s2, 8
    at_word 0
0:  nops 5
    bge a3, a0, 1f           /* 0x14 */
    slli a4, a3, 3
    addi a4, a4, 16
    .option rvc
    c.add a4, a6
    c.j 1f
    .option norvc
    nops 3
1:  addi a1, a1, 1
    addi s2, s2, -1
    bnez s2, 0b
    /* C */
    li s2, 8
    at_word 0
0:  nops 5
    bge a3, a0, 1f           /* 0x14 */
    slli a4, a3, 3
    addi a4, a4, 16
    nop
    nops 3
1:  addi a1, a1, 1
    addi s2, s2, -1
    bnez s2, 0b
    /* D */
    li s2, 8
    at_word 0
0:  nops 5
    bge a3, a0, 1f           /* 0x14 */
    slli a4, a3, 3
    addi t4, a3, 16
    .option rvc
    c.add a4, a6
    c.j 1f
    .option norvc
    nops 3
1:  addi a1, a1, 1
    addi s2, s2, -1
    bnez s2, 0b
    li a0, 0
    main_return 12, 1
    .data
    .balign 32
data:
    .rept 32
    .word 0
    .endr
