/* loop_exit_rvc_split.S -- a backward branch predicted taken that falls
 * through (a loop's exit), its target a 16-bit instruction at 0 mod 4
 * followed by a 32-bit one at 2 mod 4 and a 16-bit one (the decompressor
 * holds the word after the target's as the branch redirects: [pipeline]
 * redirect_rvc_pair, predicted_rvc_pair). Case A: a 32-bit bnez (nettle-aes
 * built rv32imac: _aes_set_key's bgeu at 0x4000014c back to c.lw, add,
 * c.addi; wikisort's bne at 0x40001318 back to c.mv, li, c.jalr). Case B:
 * two such branches back to back, the first one's target 32-bit (nettle-aes's
 * beq, bgeu). Case C: a c.bnez. Case D: the 32-bit instruction followed by a
 * 32-bit one (no word held; all three split over two words, the bnez too:
 * exact before and after). VexRiscv_IMAC.v's retire trace, W = 0: the
 * fall-through 1 + 5 cycles after the instruction before the branch in A,
 * 1 + 6 in C; in B the beq, bgeu, bne 1, 4, 5 cycles apart. */
#include "vex.h"
    fixed_layout
    main_entry
    .option rvc
    c.nop                /* std and min stop here (illegal), as on the RTL */
    c.nop
    .option norvc
    li a0, 0
    li s0, 20
    at_word 0
outerA:
    li a7, 5
loopA:
    rvc16 c.addi a0, 1         /* 0 mod 4 */
    addi a7, a7, -1      /* 2 mod 4 */
    rvc16 c.addi a0, 2
    andi a6, a0, 255
    bnez a7, loopA       /* falls through at the end */
    addi a0, a0, 3
    addi s0, s0, -1
    bnez s0, outerA
    li s0, 20
    li t5, 6
    li t6, 8
    at_word 0
outerB:
    li a7, 5
    j loopB
tgtB:
    addi a0, a0, 5       /* the first branch's target: 32-bit */
    addi a0, a0, 7
loopB:
    rvc16 c.addi a0, 1
    addi a7, a7, -1      /* 2 mod 4 */
    rvc16 c.addi a0, 2
    beq a7, t6, tgtB     /* predicted taken, falls through (never equal) */
    bgeu t5, t6, loopB   /* predicted taken, falls through */
    bnez a7, loopB
    addi a0, a0, 3
    addi s0, s0, -1
    bnez s0, outerB
    li s0, 20
    at_word 0
outerC:
    li a5, 5
loopC:
    rvc16 c.addi a0, 1
    addi a5, a5, -1
    rvc16 c.addi a0, 2
    andi a6, a0, 255
    rvc16 c.bnez a5, loopC
    addi a0, a0, 3
    addi s0, s0, -1
    bnez s0, outerC
    li s0, 20
    at_word 0
outerD:
    li a7, 5
loopD:
    rvc16 c.addi a0, 1
    addi a7, a7, -1
    addi a0, a0, 2
    andi a6, a0, 255
    bnez a7, loopD
    addi a0, a0, 3
    addi s0, s0, -1
    bnez s0, outerD
    andi a0, a0, 0x7ff
    ret
