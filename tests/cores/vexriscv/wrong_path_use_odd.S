/* wrong_path_use_odd.S -- [pipeline] wrong_path_use_hold after a 16-bit
 * jump at 2 mod 4 (issue 24, CoreMark built rv32imac: crcu16's, crcu32's and
 * crc16's `c.beqz a4` at 2 mod 4, taken forward, then
 * `slli a0, a1, 16; c.srli a0, 16` on its wrong path, the target a c.bnez
 * back). A 16-bit jump that redirects from memory at 2 mod 4, its first
 * wrong-path instruction a load or a shift, the next one reading its
 * result: decode holds that reader in the redirect's cycle and the target
 * comes a cycle later, as after a jump at 0 mod 4 (wrong_path_use_rvc.S).
 * Each case a loop of 8 passes, its line cached after the first:
 * - A: the crc loop: xor at 2 mod 4 (split), c.beqz at 2 mod 4, slli, then
 *   c.srli of it and the target c.bnez in one word;
 * - B: as A, the c.srli of another register (no reader): no hold;
 * - F: c.beqz at 2 mod 4, lbu, c.bnez of it, c.nop;
 * - G: c.beqz at 2 mod 4, lw, c.add of it, c.nop;
 * - H: c.beqz at 2 mod 4, slli, a 32-bit add of it;
 * - J: c.beqz at 2 mod 4, c.slli, c.add of it (a word of two);
 * - K: as H, the add of other registers: no hold;
 * - L: a c.jr at 2 mod 4 (the leaf's return), lbu, c.bnez of it;
 * - M: c.beqz at 2 mod 4, lbu, c.bnez of it, sb at 2 mod 4 before a
 *   c.nop: redirect_rvc_pair's cycle, the same one (no hold on top).
 * VexRiscv_IMAC.v's retire trace at W = 0: the target 5 cycles after the
 * branch in A, F, G, H, J and M, 4 in B and K; the c.jr's caller's next
 * instruction 6 cycles after it in L (5 with no reader). A 32-bit beq at
 * 2 mod 4 before lbu at 2 mod 4 and c.bnez of it holds as well on the
 * RTL (a probe): not this rule's (main's wrong_path_use_split).
 * Built rv32imac; the other variants stop at its first 16-bit
 * instruction (illegal). */
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
    rvc c.nop                /* std and min stop here (illegal), as on the RTL */
    li a0, 0
    li a1, 0
    li s0, 0
    li a2, 0
    mv a3, sp
    li a6, 0
    /* A: the crc loop */
    li a5, 8
    at_word 0
    nop
    rvc c.nop
loopA:
    xor a4, a2, a0           /* 2 mod 4, split */
    rvc c.addi a5, -1
    rvc c.srli a2, 1
    rvc c.addi a1, 1
    rvc c.nop
    rvc c.beqz s0, skipA     /* 2 mod 4, taken forward */
    slli a0, a1, 16
    rvc c.srli a0, 16
skipA:
    rvc c.bnez a5, loopA
    /* B: no reader on the wrong path */
    li a5, 8
    at_word 0
    nop
    rvc c.nop
loopB:
    xor a4, a2, a0
    rvc c.addi a5, -1
    rvc c.srli a2, 1
    rvc c.addi a1, 1
    rvc c.nop
    rvc c.beqz s0, skipB
    slli a0, a1, 16
    rvc c.srli a2, 16
skipB:
    rvc c.bnez a5, loopB
    /* F: lbu, c.bnez of it, c.nop */
    li a5, 8
    at_word 0
loopF:
    rvc c.addi a5, -1
    rvc c.beqz s0, skipF
    lbu a4, 0(a3)
    rvc c.bnez a4, skipF
    rvc c.nop
    addi a1, a1, 1
skipF:
    rvc c.bnez a5, loopF
    /* G: lw, c.add of it, c.nop */
    li a5, 8
    at_word 0
loopG:
    rvc c.addi a5, -1
    rvc c.beqz s0, skipG
    lw a4, 0(a3)
    rvc c.add a1, a4
    rvc c.nop
    addi a1, a1, 1
skipG:
    rvc c.bnez a5, loopG
    /* H: slli, a 32-bit add of it */
    li a5, 8
    at_word 0
loopH:
    rvc c.addi a5, -1
    rvc c.beqz s0, skipH
    slli a4, a1, 3
    add a2, a2, a4
    addi a1, a1, 1
skipH:
    rvc c.bnez a5, loopH
    /* J: c.slli, c.add of it */
    li a5, 8
    at_word 0
loopJ:
    rvc c.addi a5, -1
    rvc c.beqz s0, skipJ
    rvc c.slli a4, 3
    rvc c.add a2, a4
    addi a1, a1, 1
skipJ:
    rvc c.bnez a5, loopJ
    /* K: slli, an add of other registers */
    li a5, 8
    at_word 0
loopK:
    rvc c.addi a5, -1
    rvc c.beqz s0, skipK
    slli a4, a1, 3
    add a2, a2, a1
    addi a1, a1, 1
skipK:
    rvc c.bnez a5, loopK
    /* L: a c.jr at 2 mod 4, lbu, c.bnez of it */
    li a5, 8
loopL:
    call leafL
    addi a5, a5, -1
    bnez a5, loopL
    /* M: lbu, c.bnez of it, sb at 2 mod 4 before a c.nop */
    li a5, 8
    at_word 0
loopM:
    rvc c.addi a5, -1
    rvc c.beqz s0, skipM
    lbu a4, 0(a3)
    rvc c.bnez a4, skipM
    sb a6, 1(a3)
    rvc c.nop
skipM:
    rvc c.bnez a5, loopM
    add a0, a1, a2
    main_return 12, 1
    at_word 0
leafL:
    rvc c.addi a6, 1
    rvc c.jr ra              /* 2 mod 4 */
    lbu a4, 0(a3)
    rvc c.bnez a4, leafL
    rvc c.nop
    rvc c.nop
