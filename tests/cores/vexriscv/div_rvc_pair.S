/* div_rvc_pair.S -- a branch predicted taken (backward) at 2 mod 4, the
 * word after it a word of two (a 32-bit instruction begun at 2 mod 4, then
 * a 16-bit one: redirect_rvc_pair's cycle), held in decode by a divide two
 * before it (found on rand_gen.py's rand_24 built rv32imac: div, remu,
 * c.addi, bnez back at 0x4000095a, then and, c.xor, on VexRiscv_IMAC.v's
 * retire trace: the loop's div retires 35 cycles after the bnez, 1 + 34).
 * - A: div, remu, c.addi, bnez back, then and split over a word and
 *   c.xor: the divide holds memory, c.addi execute, bnez decode; the word
 *   of two's cycle passes during the hold;
 * - B: c.addi, divu, bnez back, the same words after it: the divide right
 *   before the branch, which waits in execute, not decode: the cycle
 *   comes after the hold (3 cycles to the target, as without a divide).
 * Built rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal). */
#include "vex.h"
    .option norelax
    .text
    .option push
    .option norvc
    main_entry 0
    li a0, 0
    li a3, 55
    li t3, 6
    li s1, 1000
    li a6, 9
    li a5, 3
    li a4, 4
    j la

    /* A */
    .balign 32
la:
    nop
    rvc16 c.nop
    rem t6, a3, t3
    or a2, a5, a4
    rvc16 c.li s7, 12
a_loop:
    div t2, s1, a6
    remu a1, t2, t6
    rvc16 c.addi s7, -1
    bne s7, zero, a_loop
    and s1, t6, a0
    .option rvc
    c.xor a3, a5
    c.xor a3, a5
    c.addi a0, 9
    c.mv a0, a3
    c.add a0, a1
    .option norvc

    /* B */
    li s7, 12
    j lb
    .balign 32
lb:
    nops 4
b_loop:
    rvc16 c.addi s7, -1
    divu t2, s1, a6
    bne s7, zero, b_loop
    and s1, t6, a0
    .option rvc
    c.xor a3, a5
    c.xor a3, a5
    c.add a0, a3
    .option norvc
    main_return 0, 1
    .option pop
