/* fence_dev.S -- fence.i one or two instructions after a load from the
 * uncached IO region (found on the RTL's retire trace of rand_gen.py's
 * programs, std rand_41 and rand_44), each case a few times in a loop:
 * - lw from IO, fence.i: fence.i is in decode, and has asked for the
 *   I-cache's flush, while the load waits for the device, so the wait
 *   passes during the flush;
 * - lhu from IO, an ALU op, fence.i: the same;
 * - lbu from IO, two ALU ops, fence.i: fence.i still in fetch during the
 *   wait, no overlap. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li s5, IO_SCRATCH
    li s8, 3
    j loop

    .balign 32
loop:
    addi a0, a0, 1
    lw t0, 4(s5)
    fence.i
    add a0, a0, t0
    lhu t1, 8(s5)
    slli t2, a0, 3
    fence.i
    add a0, a0, t2
    lbu t3, 12(s5)
    slli t4, a0, 2
    xori t5, a0, 5
    fence.i
    add a0, a0, t4
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1
