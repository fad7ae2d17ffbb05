/* replay_shift.S -- a load replayed after a store of its word ([dcache]
 * store_load_replay) with one of the instructions after it waiting in
 * decode for a shift's result (shift_use_penalty): the fetch stage holds the
 * word after the waiting one, not the word after the three (found on
 * CoreMark built rv32imac: main's c.sw a5, 8(sp), c.lui, c.lw a4, 8(sp),
 * slli, c.add of its result, c.slli at 0x4000052a on VexRiscv_IMAC.v's
 * retire trace). Built rv32imac; the buffer's line cached first.
 * A: c.sw, c.lui, c.lw at 2 mod 4, slli, c.add of it (waits), then c.slli at
 *    2 mod 4: no more (the word after the three, a word of two, not held).
 * B: c.sw, c.lw at 0 mod 4, slli split, c.add of it (waits) at 2 mod 4, then
 *    a word of two: 1 more.
 * C: A with the c.add not reading the shift's result: 1 more, as before.
 * A and C 20 passes, B 10. */
#include "vex.h"
    main_entry
    .option rvc
    c.nop                /* std and min stop here (illegal), as on the RTL */
    c.nop
    .option norvc
    la a1, buf
    lw t0, 0(a1)
    li s0, 20
    li a0, 1
    .option rvc
    .balign 4
1:  c.nop
    c.sw a0, 0(a1)
    c.lui s2, 1
    c.lw a4, 0(a1)       /* A */
    slli a5, s0, 4
    c.add a5, s0
    c.slli a5, 2
    c.add a5, a4
    c.nop
    c.nop
    .balign 4
    c.nop
    c.sw a0, 0(a1)
    c.lui s2, 1
    c.lw a4, 0(a1)       /* C */
    slli a5, s0, 4
    c.add a3, s0
    c.slli a5, 2
    c.add a5, a4
    c.nop
    c.nop
    .option norvc
    addi s0, s0, -1
    bnez s0, 1b
    li s0, 10
    .option rvc
    .balign 4
2:  c.nop
    c.sw a0, 0(a1)
    c.lw a4, 0(a1)       /* B */
    slli a5, s0, 4
    c.add a5, s0
    c.slli a5, 2
    c.add a5, a4
    c.nop
    c.nop
    .option norvc
    addi s0, s0, -1
    bnez s0, 2b
    ret
    .data
    .balign 64
buf: .word 0, 0, 0, 0
