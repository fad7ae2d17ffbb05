/* fence_held_redo.S -- fence.i, then a 32-bit instruction at 2 mod 4
 * whose last word holds the first half of a load after it, at its line's
 * last halfword (timing_fence_i's refill-first `after`: the decompressor
 * keeps that half through the flush, and the fetch after the flush begins
 * on the next line, fence_held_half.S). A: the load, lh, misses the
 * D-cache (a new line each pass): its redo from the fetch misses its own
 * line, which the flush dropped and nothing refilled (timing_fence_held_redo;
 * rand_gen.py's rand_21 built rv32imac at 0x40000276: fence.i, srai, lh).
 * B: the same with a lw that hits (its line read before the call): no
 * redo. Built rv32imac; the other variants stop at its first 16-bit
 * instruction (illegal). */
#include "vex.h"
    .option norelax
    .text
    .balign 4096
    .option push
    .option norvc
    main_entry 12
    li s0, 4
    li a0, 0
    la s4, data
    la s5, data_hit
pass:
    jal case_a
    lw t0, 0(s5)
    nops 4
    jal case_b
    addi s4, s4, 64
    addi s0, s0, -1
    bnez s0, pass
    main_return 12
    .org 0x400
case_a: addi a0, a0, 1
    nops 4
    rvc16 c.nop
    fence.i              /* byte 22 */
    srai a1, a0, 1       /* byte 26, 32-bit */
    lh a2, 2(s4)         /* byte 30, split over the next line */
    add a0, a0, a2
    ret
    nops 8
    .org 0x480
case_b: addi a0, a0, 1
    nops 4
    rvc16 c.nop
    fence.i              /* byte 22 */
    srai a1, a0, 1       /* byte 26, 32-bit */
    lw a2, 4(s5)         /* byte 30, split over the next line */
    add a0, a0, a2
    ret
    nops 8
    .option pop

    .data
    .balign 64
data:
    .space 256
data_hit:
    .word 1, 2
