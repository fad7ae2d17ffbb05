/* split_beside_fill.S -- two shapes of a 32-bit instruction at 2 mod 4 split
 * over a line's end, found on rand_gen.py's rand_7 built rv32imac
 * (VexRiscv_IMAC.v's I-bus, D-bus and retire traces). Case A (0x40001b3e
 * there): amoor.w in the last halfword of a line, the next line missing,
 * that misses the D-cache, lb that hits, lbu that misses, fence.i: fence.i
 * redoes both loads (fence_i_redo) and the amoor.w is refetched from both
 * its lines, 4 refills and 3 flushes a pass. Case B (0x400019d6 there):
 * lb at 2 mod 4 that misses, lhu from IO, then bge split onto a line that
 * misses: that line's refill goes out on the I-bus beside the lb's fill,
 * the beats interleaved, and the bge does not wait for it (fetch_ahead_data's
 * dmiss_two_refill at 2 mod 4; fence.i, four instructions before the lb
 * and out of reach of the bne's wrong path, empties the I-cache each
 * pass). Each pass reads lines not read before.
 * Built rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal). */
#include "vex.h"
    .option norelax
    .text
    .option push
    .option norvc
    main_entry 0
    la s2, amo_buf
    la s3, miss_buf
    la s4, hit_word
    la s6, b_buf
    li s5, IO_SCRATCH
    li a0, 0
    li t4, 5
    li s8, 3
    j loop_a

    .balign 32
loop_a:
    lw t0, 0(s4)
    add a0, a0, t0
    addi t6, s2, 0
    nops 3
    addi a1, a0, 1
    rvc16 c.nop
    amoor.w a6, t4, (t6)
    lb t1, 0(s4)
    lbu t2, 0(s3)
    fence.i
    add a0, a0, a6
    add a0, a0, t2
    addi s2, s2, 32
    addi s3, s3, 32
    addi s8, s8, -1
    bne s8, zero, loop_a
    li s8, 3
    j loop_b

    .balign 32
loop_b:
    addi a1, a0, 1
    addi a2, a0, 2
    addi a3, a0, 3
    addi a4, a0, 4
    fence.i
    rvc16 c.nop
    lb t0, 0(s6)
    lhu t3, 0(s5)
    bge zero, s8, 1f
    mul t1, a1, a2
    add a0, a0, t0
1:
    add a0, a0, t3
    addi s6, s6, 32
    addi s8, s8, -1
    bne s8, zero, loop_b
    main_return 0, 1
    .option pop

    .data
    .balign 32
    .space 1280 /* hit_word on a D-cache set no other line of this program takes */
hit_word:
    .word 3
    .bss
    .balign 32
amo_buf:
    .space 256
miss_buf:
    .space 256
b_buf:
    .space 256
