/* rvc_split_decode.S -- a branch predicted taken (a backward bne, taken)
 * to a 32-bit instruction in a line's last halfword, its second half on
 * the next line, cached ([pipeline] redirect_split_target from decode:
 * exec_loop.inc's split_target_decode). rand_gen.py's seed 6 built
 * rv32imac: its loop sw at 0x4000097e, addi, bnez back at 0x40000986, 5
 * cycles a pass on VexRiscv_IMAC.v's retire trace, 6 in the model before.
 * Case A: that loop (the bne on the target's next line). Case B: the bne
 * two lines on. On the RTL each pass takes 6 cycles in both (sw, addi,
 * bne and 3 cycles between the bne and the sw: its taken bubble, one for
 * the split target, one for the 32-bit ret after the bne,
 * redirect_rvc_pair), where a redirect from memory (branch.S built
 * rv32imac, its mispredicted bgeu) takes the split twice. Built rv32imac;
 * the other variants stop at its first 16-bit instruction (illegal). */
#include "vex.h"
    .option norelax
    .text
    .balign 4096
    .option push
    .option norvc
    main_entry 12
    li s0, 4
pass:
    jal case_a
    jal case_b
    next_pass_return0
    .option pop

    /* A: loop: sw at the line's last halfword, addi, bne back (rand_6's) */
    .org 0x400
case_a:
    .option push
    .option norvc
    li s8, 9
    la a1, buf
    nops 4
    .option pop
    .option push
    .option rvc
    c.nop
    .option pop
    .option push
    .option norvc
1:  sw t1, 4(a1)
    addi s8, s8, -1
    bnez s8, 1b
    ret
    .option pop

    /* B: a loop whose backward bne is on a line after the next: the
     * target's second half on a line that is not the bne's */
    .org 0x480
case_b:
    .option push
    .option norvc
    li s8, 9
    la a1, buf
    nops 4
    .option pop
    .option push
    .option rvc
    c.nop
    .option pop
    .option push
    .option norvc
1:  sw t1, 4(a1)
    addi s8, s8, -1
    nops 8
    bnez s8, 1b
    ret
    .option pop

    .data
    .balign 32
buf:
    .word 1, 2, 3, 4, 5, 6, 7, 8
