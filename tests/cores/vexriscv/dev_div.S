/* dev_div.S -- a divide right after a load from the uncached IO region
 * (found on the RTL's retire trace of rand_gen.py's programs: std rand_43 at
 * 0x40001530, lb, divu; rand_24 at 0x40003cb4, sb, lbu, rem; rand_24 at
 * 0x400038f0, lh, rem of its result), each case a few times in a loop:
 * A: lb from IO, divu not reading it: the divide enters the memory stage as
 *    the load enters write-back, and its counter runs while the load waits
 *    for the device;
 * B: lw from IO, rem of the loaded register: the rem waits in execute for
 *    it, no overlap;
 * C: sw to RAM, lbu from IO (it waits for the write buffer too), remu not
 *    reading it: the longer wait overlaps;
 * D: lhu from IO, an ALU op, divu: the divide is still in execute during
 *    the wait, no overlap. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li t3, 7
    li s5, IO_SCRATCH
    la s4, data
    li s8, 3
    j loop

    .balign 32
loop:
    addi a0, a0, 9
    lb t0, 4(s5)          /* A */
    divu t1, a0, t3
    add a1, a1, t1
    lw t2, 8(s5)          /* B */
    rem t4, t2, t3
    add a1, a1, t4
    sw a0, 0(s4)          /* C */
    lbu t5, 12(s5)
    remu t6, a0, t3
    add a1, a1, t6
    lhu t0, 16(s5)        /* D */
    slli t2, a0, 3
    divu t4, t2, t3
    add a1, a1, t4
    addi s8, s8, -1
    bne s8, zero, loop
    add a0, a0, a1
    main_return 0

    .data
    .balign 4
data:
    .word 0
