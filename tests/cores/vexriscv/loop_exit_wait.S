/* loop_exit_wait.S -- a backward branch predicted taken that falls through
 * (a loop's exit) and waits in decode for the load right before it, its
 * target followed by a word of two 16-bit instructions: the prediction
 * sends the fetch to the target in the branch's first cycle in decode, and
 * the decompressor holds that word as the branch redirects from memory
 * ([pipeline] redirect_rvc_pair, predicted_rvc_pair: the wait excepts only
 * decode_rvc_pair's case, D). Case A: c.lwsp, beq on its result at 0 mod 4 back to a c.li at
 * 2 mod 4 before the word of two (CoreMark built rv32imac: core_bench_list's
 * find loop, c.lw a5, beqz a5 at 0x40000a9c back to c.li, c.j, c.mv at
 * 0x40000956). Case B: the same target, the branch reads a register written
 * long before (no wait). Case C: the wait, the target's next instruction
 * 32-bit (no word held). In A and C a 32-bit instruction follows the
 * branch. Case D: a word of two after the branch and at its target
 * (decode_rvc_pair's case, which the wait passes: no cycle more; slre built
 * rv32imac: c.lwsp, bltz at 0x400004ec back to c.li, c.j). */
#include "vex.h"
    fixed_layout
    main_entry
    .option rvc
    c.nop                /* std and min stop here (illegal), as on the RTL */
    c.nop
    .option norvc
    addi sp, sp, -16
    li t0, 1
    sw t0, 0(sp)
    li a0, 0
    li s0, 20
    j loopA
    at_word 0
    .option rvc
    c.nop
targetA:
    c.li a3, 0           /* 2 mod 4 */
    c.addi a0, 3         /* a word of two 16-bit instructions */
    c.addi a0, 5
    .option norvc
    j failA
loopA:
    .option rvc
    c.addi s0, -1
    c.lwsp a5, 0(sp)     /* 2 mod 4 */
    .option norvc
    beq a5, zero, targetA /* 0 mod 4: waits for the c.lwsp, falls through */
    addi a0, a0, 1       /* 32-bit: the word after the branch no word of two */
    bnez s0, loopA
failA:
    li s0, 20
    j loopB
    at_word 0
    .option rvc
    c.nop
targetB:
    c.li a3, 0           /* 2 mod 4 */
    c.addi a0, 3
    c.addi a0, 5
    .option norvc
    j failB
loopB:
    .option rvc
    c.addi s0, -1
    c.lwsp a5, 0(sp)     /* 2 mod 4 */
    .option norvc
    beq t0, zero, targetB /* no wait: t0 written long before */
    .option rvc
    c.addi a0, 1
    c.nop
    .option norvc
    bnez s0, loopB
failB:
    li s0, 20
    j loopC
    at_word 0
    .option rvc
    c.nop
targetC:
    c.li a3, 0           /* 2 mod 4 */
    .option norvc
    addi a0, a0, 3       /* 32-bit: no word of two */
    .option rvc
    c.addi a0, 5
    c.nop
    .option norvc
    j failC
loopC:
    .option rvc
    c.addi s0, -1
    c.lwsp a5, 0(sp)     /* 2 mod 4 */
    .option norvc
    beq a5, zero, targetC
    addi a0, a0, 1       /* 32-bit: the word after the branch no word of two */
    bnez s0, loopC
failC:
    li s0, 20
    j loopD
    at_word 0
targetD:
    .option rvc
    c.li a3, 0           /* 0 mod 4: a word of two */
    c.j failD
    .option norvc
    nop
loopD:
    .option rvc
    c.addi s0, -1
    c.lwsp a5, 0(sp)     /* 2 mod 4 */
    .option norvc
    beq a5, zero, targetD
    .option rvc
    c.addi a0, 1         /* a word of two */
    c.nop
    .option norvc
    bnez s0, loopD
failD:
    addi sp, sp, 16
    andi a0, a0, 0x7ff
    ret
