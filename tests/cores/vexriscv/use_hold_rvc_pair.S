/* use_hold_rvc_pair.S -- [pipeline] redirect_rvc_pair with
 * wrong_path_use_hold (issue 24, Embench tarfind built rv32imac:
 * benchmark_body's `bne a2, a4` at 0x400001cc, taken forward). A 32-bit
 * branch at 0 mod 4 taken against its prediction, its wrong path lbu a4
 * and c.beqz a4 (a reader of the load: wrong_path_use_hold's cycle) and
 * then a word of two (lbu at 2 mod 4, c.addi: redirect_rvc_pair's
 * cycle): the target comes 1 + 3 + 1 cycles after the branch, the two
 * holds the same cycle. Each case is called three times, its lines cached
 * after the first pass:
 * - A: tarfind's byte compare: c.bnez at the line's last halfword,
 *   predicted taken back to the bne, which is taken forward on the fourth
 *   byte;
 * - B: the same loop, its bne reached in sequence (lbu, lbu, mv before it)
 *   and taken forward on the first byte.
 * VexRiscv_IMAC.v's retire trace at W = 0..3: A and B a cycle over a pass
 * each before the rule, exact with it. Built rv32imac; the other variants
 * stop at its first 16-bit instruction (illegal). */
#include "vex.h"
/* one 16-bit instruction, spelt out, in fixed_layout's norvc */
    .macro rvc insn:vararg
    .option push
    .option rvc
    \insn
    .option pop
    .endm
    fixed_layout
    main_entry 0
    li s9, 0
    li s8, 3
    j loop

    at_word 0
loop:
    la a1, strA1
    la a0, strA2
    jal caseA
    add s9, s9, t0
    la a1, strB1
    la a0, strB2
    jal caseB
    add s9, s9, t0
    addi s8, s8, -1
    bnez s8, loop
    mv a0, s9
    main_return 0, mask=1

    at_word 0                 /* A */
caseA:
    lbu a4, 0(a1)
    rvc c.mv a3, a1
    rvc c.mv a5, a0
    rvc c.bnez a4, 2f
    rvc c.j 3f
1:  bne a2, a4, 3f
    lbu a4, 0(a3)
    rvc c.beqz a4, 3f
2:  lbu a2, 0(a5)
    rvc c.addi a3, 1
    rvc c.addi a5, 1
    rvc c.bnez a2, 1b
3:  addi t0, a3, 0
    ret

    at_word 0                 /* B */
caseB:
    lbu a4, 0(a1)
    lbu a2, 0(a0)
    mv a3, a1
1:  bne a2, a4, 3f
    lbu a4, 0(a3)
    rvc c.beqz a4, 3f
    lbu a2, 0(a5)
    rvc c.addi a3, 1
    rvc c.addi a5, 1
    rvc c.bnez a2, 1b
3:  addi t0, a3, 0
    ret

    .data
strA1: .asciz "abcX"
strA2: .asciz "abcY"
strB1: .asciz "Q"
strB2: .asciz "R"
