/* fence_held_half.S -- fence.i, then a 32-bit instruction at 2 mod 4
 * whose last word holds the first half of the instruction after it, at
 * its line's last halfword (timing_fence_i's refill-first `after`): the
 * decompressor keeps that half through the flush, and the fetch after
 * the flush begins on the next line. A: fence.i at byte 22, addi at 26,
 * a 32-bit addi at 30 split over the next line (rand_gen.py's rand_21's
 * fence.i at 0x40001396). B: the same with a c.addi at 30, the ret after
 * it first on the next line. Built rv32imac; the other variants stop at
 * its first 16-bit instruction (illegal). */
#include "vex.h"
    .option norelax
    .text
    .balign 4096
    .option push
    .option norvc
    main_entry 12
    li s0, 4
    li a0, 0
pass:
    jal case_a
    jal case_b
    addi s0, s0, -1
    bnez s0, pass
    main_return 12
    .org 0x400
case_a: addi a0, a0, 1
    nops 4
    rvc16 c.nop
    fence.i              /* byte 22 */
    addi a1, a0, 1       /* byte 26, 32-bit */
    addi a2, a0, 2       /* byte 30, split over the next line */
    ret
    nops 8
    .org 0x480
case_b: addi a0, a0, 1
    nops 4
    rvc16 c.nop
    fence.i              /* byte 22 */
    addi a1, a0, 1       /* byte 26, 32-bit */
    rvc16 c.addi a0, 1         /* byte 30 */
    ret                  /* the next line's first word */
    nops 8
    .option pop
