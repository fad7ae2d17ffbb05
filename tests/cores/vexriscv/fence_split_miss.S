/* fence_split_miss.S -- a divide, then fence.i split over two lines (at
 * its line's last halfword, its second half on the next line), the next
 * line missing (found on rand_gen.py's rand_24 built rv32imac: remu at
 * 0x40000cba, fence.i at 0x40000cbe, jal after it, on VexRiscv_IMAC.v's
 * bus and retire traces). The next line is refilled during the divide's
 * hold; fence.i reaches decode, and asks for the flush, only after that
 * refill, so the flush runs after the hold, as for a fence.i first on a
 * line that missed (fence_first.S), not during it (fence_hold.S).
 * - A: rem, fence.i split, in a loop whose tail is on the next line: that
 *   line missing on the first pass, cached on the next ones (the
 *   instructions after fence.i refill it after the flush);
 * - B: divu, fence.i split, and a second fence.i on a later line that
 *   drops the next line again: a miss on every pass;
 * - C: remu, fence.i split, then a jal to a leaf on another line (the
 *   random program's shape).
 * Built rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal). */
#include "vex.h"
    .option norelax
    .text
    .option push
    .option norvc
    main_entry 0
    li a0, 0
    li a1, 100
    li a2, 7
    li s8, 3
    j loop_a

    /* A */
    .balign 32
loop_a:
    addi a0, a0, 1
    xor a3, a0, a1
    nops 4
    rvc16 c.nop
    rem t6, a1, a2
    fence.i
    addi a0, a0, 3
    add a0, a0, t6
    addi s8, s8, -1
    bne s8, zero, loop_a

    li s8, 3
    j loop_b
    /* B */
    .balign 32
loop_b:
    addi a0, a0, 5
    nops 5
    rvc16 c.nop
    divu t5, a1, a2
    fence.i
    addi a0, a0, 7
    add a0, a0, t5
    j b_tail
    .balign 32
b_tail:
    fence.i
    addi s8, s8, -1
    bne s8, zero, loop_b

    li s8, 3
    j loop_c
    /* C */
    .balign 32
loop_c:
    addi a0, a0, 9
    nops 4
    srl a4, a1, a2
    rvc16 c.nop
    remu a3, a1, a2
    fence.i
    jal ra, leaf
    add a0, a0, a3
    addi s8, s8, -1
    bne s8, zero, loop_c

    main_return 0, 1

    .balign 32
leaf:
    lbu t0, 0(sp)
    rvc16 c.jr ra
    .option pop
