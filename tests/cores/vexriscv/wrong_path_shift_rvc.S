/* wrong_path_shift_rvc.S -- wrong_path_shift_hold.S in compressed form:
 * a jump that redirects from memory (a branch taken against its
 * prediction, or ret) at 0 mod 4 whose next word holds two 16-bit
 * instructions, a c.slli and a reader of its result (Embench md5sum built
 * rv32imac: md5's `bltu s3, a2` at 0x400002c4, taken forward;
 * `c.slli a3, 2; c.add a3, s0` after it). Three times each:
 *   A  beq taken forward at a line's first word; c.slli, c.add of its result
 *   B  ret; c.slli, c.add of its result
 *   C  beq taken forward; c.slli, c.add of other registers (control)
 *   D  beq taken forward; slli, c.add of its result at pc + 8
 *   E  beq taken forward; c.slli, a 32-bit add of its result at pc + 6
 * On VexRiscv_IMAC.v the target retires a cycle later in A, B, D and E
 * than in C (its retire trace at W = 0: 5 cycles after the branch or ret,
 * 4 in C): decode is held for the shift's result in the redirect's cycle
 * whatever the two instructions' lengths. Built rv32imac. */
#include "vex.h"
/* one 16-bit instruction, spelt out, in fixed_layout's norvc */
    .macro rvc insn:vararg
    .option push
    .option rvc
    \insn
    .option pop
    .endm
    fixed_layout
    main_entry 12
    li a3, 3
    li a4, 5
    .rept 3                 /* A */
    at_word 0
    beq zero, zero, 1f
    rvc c.slli a3, 2
    rvc c.add a3, s0
    nops 2
1:  addi a2, a2, 1
    .endr
    .rept 3                 /* B */
    call leafB
    bne zero, zero, .
    .endr
    .rept 3                 /* C */
    at_word 0
    beq zero, zero, 1f
    rvc c.slli a3, 2
    rvc c.add a4, s0
    nops 2
1:  addi a2, a2, 1
    .endr
    .rept 3                 /* D */
    at_word 0
    beq zero, zero, 1f
    slli a3, a3, 2
    rvc c.add a3, s0
    rvc c.nop
    nops 2
1:  addi a2, a2, 1
    .endr
    .rept 3                 /* E */
    at_word 0
    beq zero, zero, 1f
    rvc c.slli a3, 2
    add a3, a3, s0
    rvc c.nop
    nops 2
1:  addi a2, a2, 1
    .endr
    main_return 12, 1

    at_word 2
leafB:
    addi a2, a2, 1
    ret
    rvc c.slli a3, 2
    rvc c.add a3, s0
    nops 2
