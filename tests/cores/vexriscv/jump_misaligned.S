/* jump_misaligned.S -- jumps to 2 mod 4 targets: without C (the standard
 * and Min variants) a taken one raises instruction-address-misaligned
 * (mcause 0, mepc the jump, mtval the target) and does not write rd; with C
 * (IMAC) it runs on at the target. A jal, a beq taken forward, a bne not
 * taken, a beq taken backward, a jalr and a jalr whose rs1 + imm is odd
 * (the target with bit 0 cleared), three passes. The handler adds 4 when
 * mcause, mepc and mtval are the expected ones (64 when not) and returns
 * past the jump; a target adds 16 and jumps back past it; a jump that
 * wrote rd adds 1. Exit code: 3 x 5 x 4 = 60 without C, 3 x (5 x 16 + 3)
 * = 249 with it. */
#include "vex.h"
    fixed_layout
    main_entry 0
    csrr s3, mtvec
    la t0, handler
    csrw mtvec, t0
    li a0, 0
    li s0, 3
    li s2, 0x55           /* rd's value before a jump */
    j loop

    .balign 4
    .2byte 0x0001         /* c.nop: to 2 mod 4 */
tf: addi a0, a0, 16       /* F's target */
    j rf
    .2byte 0x0001         /* to 0 mod 4 again */

loop:
    /* A: jal */
    mv t0, s2
    la t5, ja
    la t4, ta
ja: jal t0, ta
ra_:
    sub t1, t0, s2
    snez t1, t1
    add a0, a0, t1
    /* B: beq taken forward */
    la t5, jb
    la t4, tb
jb: beq zero, zero, tb
rb:
    /* C: bne not taken */
    li t5, 0
jc: bne zero, zero, tb
    /* D: jalr */
    mv t0, s2
    la s1, td
    la t5, jd
    mv t4, s1
jd: jalr t0, 0(s1)
rd_:
    sub t1, t0, s2
    snez t1, t1
    add a0, a0, t1
    /* E: jalr, rs1 + imm odd */
    mv t0, s2
    la s1, td
    addi s1, s1, -2
    la t5, je
    la t4, td
je: jalr t0, 3(s1)
re:
    sub t1, t0, s2
    snez t1, t1
    add a0, a0, t1
    /* F: beq taken backward */
    la t5, jf
    la t4, tf
jf: beq zero, zero, tf
rf:
    addi s0, s0, -1
    bnez s0, loop
    csrw mtvec, s3
    main_return 0

    .balign 4
    .2byte 0x0001         /* c.nop: to 2 mod 4 */
ta: addi a0, a0, 16       /* A's target */
    j ra_
tb: addi a0, a0, 16       /* B's target (C's) */
    j rb
td: addi a0, a0, 16       /* D's and E's target */
    jr t0                 /* back past the jalr (its rd) */
    .2byte 0x0001

handler:
    csrr t1, mcause
    csrr t2, mepc
    csrr t3, mtval
    xor t2, t2, t5
    xor t3, t3, t4
    or t1, t1, t2
    or t1, t1, t3
    li t2, 4
    beqz t1, 1f
    li t2, 64
1:  add a0, a0, t2
    csrr t2, mepc
    addi t2, t2, 4
    csrw mepc, t2
    mret
