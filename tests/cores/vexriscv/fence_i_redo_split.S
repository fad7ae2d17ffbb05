/* fence_i_redo_split.S -- a 32-bit load in the last halfword of a line (its
 * second half on the next line) that misses the D-cache, fence.i close
 * behind it (found on rand_gen.py's rand_11 built rv32imac, lhu at
 * 0x4000095e, add, div, fence.i, on VexRiscv_IMAC.v's I-bus and retire
 * traces). fence.i reaches decode and starts the flush before the load's
 * redo from the fetch (fence_i_redo); the redo then refetches the load
 * from both lines, two refills, where a load within its line takes one
 * (fence_redo.S). Case A: lhu, add, div, fence.i (rand_11's shape); case
 * B: lhu, fence.i. Each pass loads from a line not read before. Built
 * rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal). */
#include "vex.h"
    .option norelax
    .text
    .option push
    .option norvc
    main_entry 0
    la s2, split_buf
    li a0, 0
    li a1, 100
    li a2, 7
    li s8, 3
    j loop_a

    .balign 32
loop_a:
    addi a0, a0, 1
    nops 6
    rvc16 c.nop
    lhu t0, 0(s2)
    add a4, a0, a1
    div a5, a1, a2
    fence.i
    addi s2, s2, 32
    add a0, a0, t0
    addi s8, s8, -1
    bne s8, zero, loop_a
    li s8, 3
    j loop_b

    .balign 32
loop_b:
    addi a0, a0, 1
    nops 6
    rvc16 c.nop
    lhu t0, 0(s2)
    fence.i
    addi s2, s2, 32
    add a0, a0, t0
    addi s8, s8, -1
    bne s8, zero, loop_b
    main_return 0, 1
    .option pop

    .bss
    .balign 32
split_buf:
    .space 512
