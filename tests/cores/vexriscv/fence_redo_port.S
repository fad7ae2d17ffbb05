/* fence_redo_port.S -- fence.i redoing a load that missed the D-cache
 * while a store's write still held the data bus, so the load's fill
 * waited for it (the shapes of rand_gen.py's std rand_33 at 0x40001174
 * and 0x400021ec), each case a few times in a loop, the loads' lines new
 * each time:
 * - A: sw to IO, addi, lw that misses, lhu on its line, fence.i;
 * - B: sw to RAM (a write miss: its write goes out), bnez not taken,
 *   lb that misses, fence.i.
 * The fill's wait for the bus passes under fence.i's flush, as the fill
 * does ([pipeline] fence_i_redo). */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    la s2, buf
    li s5, IO_SCRATCH
    li s8, 3
    j loop

    .balign 32
loop:
    sw a0, 52(s5)
    addi t6, a0, -5
    lw a6, 0(s2)
    lhu a2, 6(s2)
    fence.i
    add a0, a0, a6
    add a0, a0, a2
    sw a0, 100(s2)
    bnez zero, loop
    lb s1, 64(s2)
    fence.i
    add a0, a0, s1
    add a0, a0, t6
    addi s2, s2, 128
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1

    word_buf 512
