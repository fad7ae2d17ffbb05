/* loop_exit_held.S -- a backward branch predicted taken that falls through
 * (a loop's exit), its target a 32-bit instruction at 2 mod 4 followed by a
 * 16-bit one (the decompressor holds the word after the target as the
 * branch redirects: [pipeline] redirect_rvc_pair, predicted_rvc_pair).
 * Case A: the branch in its line's last word, the fall-through first on the
 * next line, which hits (qrduino built rv32imac: bnez a7 at 0x40000e5c back
 * to sll, c.srai at 0x40000dd6). Case B: the branch mid-line. Case C: the
 * target's next instruction 32-bit (no word held). */
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
    li a7, 5             /* word 0 */
    j loopA
    .option rvc
    c.nop
loopA:
    slli a5, a7, 24      /* 2 mod 4 */
    c.addi a0, 1
    .option norvc
    addi a7, a7, -1
    addi a0, a0, 2
    andi a6, a0, 255
    bnez a7, loopA       /* word 7: falls through to the next line */
    addi a0, a0, 3       /* word 0 of the next line */
    addi s0, s0, -1
    bnez s0, outerA
    li s0, 20
    at_word 0
outerB:
    li a7, 5
    j loopB
    .option rvc
    c.nop
loopB:
    slli a5, a7, 24      /* 2 mod 4 */
    c.addi a0, 1
    .option norvc
    addi a7, a7, -1
    addi a0, a0, 2
    bnez a7, loopB       /* word 6 */
    addi a0, a0, 3
    addi s0, s0, -1
    bnez s0, outerB
    li s0, 20
    at_word 0
outerC:
    li a7, 5
    j loopC
    .option rvc
    c.nop
loopC:
    slli a5, a7, 24      /* 2 mod 4 */
    .option norvc
    addi a0, a0, 1
    addi a7, a7, -1
    rvc16 c.addi a0, 2
    andi a6, a0, 255
    bnez a7, loopC
    addi a0, a0, 3
    addi s0, s0, -1
    bnez s0, outerC
    andi a0, a0, 0x7ff
    ret
