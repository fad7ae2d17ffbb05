/* fence_load_next.S -- fence.i, then a load that misses the D-cache, then
 * an instruction that is not a load (found on the RTL's retire trace of
 * rand_gen.py's std programs: rand_24's fence.i at 0x40000a14 and
 * 0x40000e2c, and the same shape at 198 passes of eleven programs). The
 * load's fill goes out as fence.i retires and the load is redone after the
 * flush: it retires 128 + 8 (W + 2) + 9 cycles after fence.i (less a
 * device load's overlap), a cycle later than the instruction after a hit's
 * would, whatever follows it. Each case three times in a loop, each pass
 * loading from a line not read before:
 * - P: fence.i, lw that misses, sll, and;
 * - D: lh from IO, fence.i, lw that misses, fence.i, j (the device load's
 *   wait passes during the flush, fence_dev.S);
 * - F: fence.i, lw that misses, fence.i, j;
 * - R: a call whose ret lands on fence.i (its line refilled), lw that
 *   misses, sll;
 * - X: beq taken to pc + 4, fence.i there, lhu that misses, xor: the
 *   wrong path's fence.i flushes first, and that flush's fitted cycle
 *   (WRONG_PATH_FENCE_I_AT_TARGET) is this one: no cycle more. */
#include "vex.h"
    fixed_layout
    main_entry 0
    la s2, fln_buf
    li s5, IO_SCRATCH
    li a0, 0
    li s8, 3
    j loop_p

    .balign 32
loop_p:
    addi a0, a0, 1
    nop
    fence.i
    lw t0, 0(s2)
    sll t5, a0, a0
    and t1, a0, a0
    addi s2, s2, 32
    add a0, a0, t0
    addi s8, s8, -1
    bne s8, zero, loop_p
    li s8, 3
    j loop_d

    .balign 32
loop_d:
    addi a0, a0, 1
    nop
    lh a4, 24(s5)
    fence.i
    lw t3, 0(s2)
    fence.i
    j 1f
    nop
1:  addi s2, s2, 32
    add a0, a0, t3
    addi s8, s8, -1
    bne s8, zero, loop_d
    li s8, 3
    j loop_f

    .balign 32
loop_f:
    addi a0, a0, 1
    nops 2
    fence.i
    lw t3, 0(s2)
    fence.i
    j 1f
    nop
1:  addi s2, s2, 32
    add a0, a0, t3
    addi s8, s8, -1
    bne s8, zero, loop_f
    li s8, 3
    j loop_r

    .balign 32
loop_r:
    addi a0, a0, 1
    jal ra, fln_leaf
    fence.i
    lw t0, 0(s2)
    sll t5, a0, a0
    and t1, a0, a0
    addi s2, s2, 32
    add a0, a0, t0
    addi s8, s8, -1
    bne s8, zero, loop_r
    li s8, 3
    j loop_x

    .balign 32
loop_x:
    addi a0, a0, 1
    nop
    beq zero, zero, 1f
1:  fence.i
    lhu t6, 0(s2)
    xor t4, a0, a0
    addi s2, s2, 32
    add a0, a0, t6
    addi s8, s8, -1
    bne s8, zero, loop_x
    main_return 0, mask=1

    .balign 32
    nops 5
fln_leaf:
    add t3, a3, a6
    add a4, t1, a3
    ret

    .bss
    .balign 32
fln_buf:
    .space 1024
