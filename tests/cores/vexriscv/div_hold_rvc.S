/* div_hold_rvc.S -- a divide right before a 32-bit branch at 2 mod 4 taken
 * against its prediction to the next line, which misses (the driver evicts
 * it before each call: a ret at its alias 4 KiB on): whether the branch's
 * third wrong-path word, the next line's first, is reached during the
 * divide's hold (exec_loop.inc's wrong_path_reach_hold). A: rem at byte
 * 18, the target of a loop's exit, bne at 22, csrr at 26, c.addi at 30
 * (rand_gen.py's rand_7 at 0x400018d2). B: the same with a 32-bit addi at
 * 30. C: A with a nop between the loop's exit and the rem. Built
 * rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal). */
#include "vex.h"
    .option norelax
    .text
    .balign 4096
    .option push
    .option norvc
    main_entry 12
    li s0, 4
    li a0, 0
    li t6, 1
    li t3, 0
    li a6, 3
    li t0, 100
pass:
    jal ev_a
    jal case_a
    jal ev_b
    jal case_b
    jal ev_c
    jal case_c
    jal ev_a
    addi s0, s0, -1
    bnez s0, pass
    main_return 12
    .org 0x400
case_a: li s8, 2
1:  nop
    nop
    rvc16 c.addi s8, -1
    bnez s8, 1b          /* 0x40e */
    rem t1, t0, a6       /* 0x412: the loop's exit target */
    bne t6, t3, 2f       /* 0x416 */
    csrr tp, mtvec       /* 0x41a */
    rvc16 c.addi tp, 1         /* 0x41e */
    nops 2
2:  addi a0, a0, 1       /* 0x428 */
    ret
    .org 0x500
case_b: li s8, 2
1:  nop
    nop
    rvc16 c.addi s8, -1
    bnez s8, 1b
    rem t1, t0, a6       /* 0x512 */
    bne t6, t3, 2f       /* 0x516 */
    csrr tp, mtvec       /* 0x51a */
    addi tp, tp, 1       /* 0x51e: 32-bit, split */
    nop
2:  addi a0, a0, 1       /* 0x526 */
    ret
    .org 0x600
case_c: li s8, 2
1:  nop
    rvc16 c.addi s8, -1
    bnez s8, 1b          /* 0x60a */
    nop                  /* 0x60e: the loop's exit target */
    rem t1, t0, a6       /* 0x612 */
    bne t6, t3, 2f       /* 0x616 */
    csrr tp, mtvec       /* 0x61a */
    rvc16 c.addi tp, 1         /* 0x61e */
    nops 2
2:  addi a0, a0, 1       /* 0x628 */
    ret
    .org 0x1420
ev_a: ret
    .org 0x1520
ev_b: ret
    .org 0x1620
ev_c: ret
    .option pop
