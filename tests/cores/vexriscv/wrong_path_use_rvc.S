/* wrong_path_use_rvc.S -- [pipeline] wrong_path_use_hold after a 16-bit
 * jump (issue 24, Embench statemate built rv32imac:
 * generic_BLOCK_ERKENNUNG_CTRL's `lbu a4, 21(a5); c.beqz a4` at
 * 0x40000d44, taken forward, then `lbu a4, 20(a5); c.bnez a4` on its wrong
 * path). A jump at 0 mod 4 that redirects from memory (a compressed branch
 * taken forward against its prediction, or a c.jr), its first wrong-path
 * instruction at pc + 2 a load or a multiply (16-bit or 32-bit), the next
 * one reading its result: decode holds that reader in the redirect's
 * cycle, and the target comes a cycle later, as after a 32-bit jump
 * (wrong_path_use_hold.S, wrong_path_shift_rvc.S). Each case is called
 * three times, its lines cached after the first pass:
 * - A: lbu; c.beqz (load-use) at 0 mod 4; lbu at 2 mod 4, c.bnez of it,
 *   sb, c.jr; the target a c.jr at the line's last halfword (statemate's);
 * - B: as A, the branch's operand loaded three before;
 * - C: as A, the target an addi at 0 mod 4;
 * - D: addi, addi after the c.beqz (no reader): no hold;
 * - E: the c.beqz at 2 mod 4 (lbu at 0 mod 4, c.bnez of it): no hold, the
 *   sb at 2 mod 4 before a c.jr its redirect_rvc_pair;
 * - F: as B, the target a 32-bit addi at 2 mod 4;
 * - G: as C, a word of two c.nop after the c.bnez: redirect_rvc_pair's
 *   cycle, the same one (no hold on top);
 * - I: a 32-bit beq at 0 mod 4, c.nop, c.nop, addi: no reader;
 * - J: as C, a c.addi of another register after the lbu: no hold;
 * - K: c.lw at 2 mod 4, c.bnez of it;
 * - L: lbu at 2 mod 4, a 32-bit bnez of it;
 * - M: lbu at 2 mod 4, a c.addi of it (not a branch);
 * - N: a c.jr at 0 mod 4, lbu, c.bnez of it;
 * - P: mul at 2 mod 4, c.bnez of it.
 * VexRiscv_IMAC.v's retire trace at W = 0..3: A, B, C, F, K, L, M, N and P
 * a cycle short a pass each before the rule, the target retiring 5 cycles
 * after the branch (4 after D's, J's); exact with it. Built rv32imac; the
 * other variants stop at its first 16-bit instruction (illegal). */
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
    la s2, data
    mv a5, s2
    li a0, 0
    li s8, 3
    j loop

    at_word 0
loop:
    jal caseA
    jal caseB
    jal caseC
    jal caseD
    jal caseE
    jal caseF
    jal caseG
    jal caseN
    jal caseI
    jal caseJ
    jal caseK
    jal caseL
    jal caseM
    jal caseP
    addi s8, s8, -1
    bnez s8, loop
    main_return 0, mask=1

    at_word 0                 /* A */
caseA:
    lbu a4, 0(s2)
    rvc c.beqz a4, 1f
    lbu a4, 1(s2)
    rvc c.bnez a4, 1f
    sb zero, 2(s2)
    rvc c.jr ra
    nops 3
1:  rvc c.jr ra
    at_word 0                 /* B */
caseB:
    lbu a4, 0(s2)
    addi a1, a1, 0
    addi a1, a1, 0
    rvc c.beqz a4, 1f
    lbu a4, 1(s2)
    rvc c.bnez a4, 1f
    sb zero, 2(s2)
    rvc c.jr ra
    nops 1
1:  rvc c.jr ra
    at_word 0                 /* C */
caseC:
    lbu a4, 0(s2)
    rvc c.beqz a4, 1f
    lbu a4, 1(s2)
    rvc c.bnez a4, 1f
    sb zero, 2(s2)
    rvc c.jr ra
    nops 1
    rvc c.nop
1:  addi a0, a0, 1
    ret
    at_word 0                 /* D */
caseD:
    lbu a4, 0(s2)
    rvc c.beqz a4, 1f
    addi a1, a1, 0
    addi a1, a1, 0
    rvc c.jr ra
    nops 3
    rvc c.nop
1:  rvc c.jr ra
    at_word 0                 /* E */
caseE:
    rvc c.nop
    lbu a4, 0(s2)
    rvc c.beqz a4, 1f
    lbu a4, 1(s2)
    rvc c.bnez a4, 1f
    sb zero, 2(s2)
    rvc c.jr ra
    nops 2
1:  rvc c.jr ra
    at_word 0                 /* F */
caseF:
    lbu a4, 0(s2)
    addi a1, a1, 0
    addi a1, a1, 0
    rvc c.beqz a4, 1f
    lbu a4, 1(s2)
    rvc c.bnez a4, 1f
    sb zero, 2(s2)
    rvc c.jr ra
1:  addi a0, a0, 1
    ret
    at_word 0                 /* G */
caseG:
    lbu a4, 0(s2)
    rvc c.beqz a4, 1f
    lbu a4, 1(s2)
    rvc c.bnez a4, 1f
    rvc c.nop
    rvc c.nop
    rvc c.jr ra
    rvc c.nop
    nops 1
1:  addi a0, a0, 1
    ret
    at_word 0                 /* N */
caseN:
    rvc c.jr ra
    lbu a4, 1(s2)
    rvc c.bnez a4, 1f
    sb zero, 2(s2)
1:  rvc c.jr ra
    at_word 0                 /* I */
caseI:
    lbu a4, 0(s2)
    beq a4, zero, 1f
    rvc c.nop
    rvc c.nop
    addi a1, a1, 0
    rvc c.jr ra
    rvc c.nop
1:  addi a0, a0, 1
    ret
    at_word 0                 /* J */
caseJ:
    lbu a4, 0(s2)
    rvc c.beqz a4, 1f
    lbu a4, 1(s2)
    rvc c.addi a1, 1
    sb zero, 2(s2)
    rvc c.jr ra
    nops 1
    rvc c.nop
1:  addi a0, a0, 1
    ret
    at_word 0                 /* K */
caseK:
    lbu a4, 0(s2)
    rvc c.beqz a4, 1f
    rvc c.lw a4, 0(a5)
    rvc c.bnez a4, 1f
    rvc c.jr ra
    nops 2
1:  addi a0, a0, 1
    ret
    at_word 0                 /* L */
caseL:
    lbu a4, 0(s2)
    rvc c.beqz a4, 1f
    lbu a4, 1(s2)
    bne a4, zero, 1f
    rvc c.jr ra
    rvc c.nop
1:  addi a0, a0, 1
    ret
    at_word 0                 /* M */
caseM:
    lbu a4, 0(s2)
    rvc c.beqz a4, 1f
    lbu a4, 1(s2)
    rvc c.addi a4, 1
    sb zero, 2(s2)
    rvc c.jr ra
    nops 1
    rvc c.nop
1:  addi a0, a0, 1
    ret
    at_word 1                 /* P (a nop first: M's ret's wrong path no load) */
caseP:
    lbu a4, 0(s2)
    rvc c.beqz a4, 1f
    mul a4, a4, s8
    rvc c.bnez a4, 1f
    sb zero, 2(s2)
    rvc c.jr ra
    rvc c.nop
1:  addi a0, a0, 1
    ret


    .data
    .balign 4
data: .word 0
