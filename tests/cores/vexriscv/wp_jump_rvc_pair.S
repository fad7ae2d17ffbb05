/* wp_jump_rvc_pair.S -- a branch taken against its prediction (forward)
 * followed by a c.j (its wrong path: [pipeline] wrong_path_jump), the c.j's
 * target cached: the word the fetch stage holds as the branch redirects is
 * the c.j's target's ([pipeline] redirect_rvc_pair). Case A: blt at 2 mod 4,
 * c.j, a 32-bit addi, the c.j's target a word of two c.addi (wikisort built
 * rv32imac: InsertionSort's blt at 0x400002da, c.j to c.lw, c.addi at
 * 0x40000308). B: the c.j's target a 32-bit addi. C: a c.addi before an addi
 * at 2 mod 4 and a c.addi. D: at 2 mod 4, an addi before a c.addi. E: as B,
 * a word of two c.addi after the addi after the c.j. F: blt at 0 mod 4, c.j
 * at 0 mod 4 before a c.addi, its target a word of two. VexRiscv_IMAC.v's
 * retire trace, W = 0: the blt's target 1 + 5 cycles after the instruction
 * before the blt in A (2 + 5 in F, after the loop's bnez), 1 + 4 in B to E. */
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
    .macro wcase name, pre
    li s0, 20
    at_word 0
loop\name:
    .if \pre
    rvc16 c.addi a0, 1         /* 0 mod 4: the blt at 2 mod 4 */
    .endif
    blt t5, t6, tgt\name /* taken forward: mispredicted */
    rvc16 c.j wp\name          /* its wrong path: a jump */
    .endm

    /* A: blt at 2 mod 4, c.j, a 32-bit addi; c.j's target a word of two */
    wcase A, 1
    addi a0, a0, 3
    addi a0, a0, 5
tgtA:
    addi a0, a0, 7
    addi s0, s0, -1
    bnez s0, loopA
    j doneA
wpA:
    .option rvc
    c.addi a1, 1
    c.addi a1, 2
    .option norvc
    j doneA
doneA:
    /* B: the same, c.j's target a 32-bit addi */
    wcase B, 1
    addi a0, a0, 3
    addi a0, a0, 5
tgtB:
    addi a0, a0, 7
    addi s0, s0, -1
    bnez s0, loopB
    j doneB
wpB:
    addi a1, a1, 1
    addi a1, a1, 2
    j doneB
doneB:
    /* C: c.j's target a 16-bit c.addi, then an addi at 2 mod 4, a c.addi */
    wcase C, 1
    addi a0, a0, 3
    addi a0, a0, 5
tgtC:
    addi a0, a0, 7
    addi s0, s0, -1
    bnez s0, loopC
    j doneC
wpC:
    rvc16 c.addi a1, 1
    addi a1, a1, 2
    .option rvc
    c.addi a1, 3
    c.nop
    .option norvc
    j doneC
doneC:
    /* D: c.j's target at 2 mod 4: an addi, then a c.addi */
    wcase D, 1
    addi a0, a0, 3
    addi a0, a0, 5
tgtD:
    addi a0, a0, 7
    addi s0, s0, -1
    bnez s0, loopD
    j doneD
    .option rvc
    c.nop
wpD:
    .option norvc
    addi a1, a1, 1
    rvc16 c.addi a1, 2
    j doneD
doneD:
    /* E: after c.j a 32-bit addi and a word of two (the sequential words'
     * held word), c.j's target a 32-bit addi */
    wcase E, 1
    addi a0, a0, 3
    .option rvc
    c.addi a0, 5
    c.addi a0, 6
    .option norvc
tgtE:
    addi a0, a0, 7
    addi s0, s0, -1
    bnez s0, loopE
    j doneE
wpE:
    addi a1, a1, 1
    addi a1, a1, 2
    j doneE
doneE:
    /* F: blt at 0 mod 4, c.j at 0 mod 4, a c.addi and a 32-bit addi after
     * it; c.j's target a word of two */
    wcase F, 0
    rvc16 c.addi a0, 3
    addi a0, a0, 5
tgtF:
    addi a0, a0, 7
    addi s0, s0, -1
    bnez s0, loopF
    j doneF
wpF:
    .option rvc
    c.addi a1, 1
    c.addi a1, 2
    .option norvc
    j doneF
doneF:
    add a0, a0, a1
    andi a0, a0, 0x7ff
    ret
