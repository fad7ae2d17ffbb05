/* dev_div_use.S -- a divide after a load from the uncached IO region that
 * waits in decode for a late result of an instruction before the load
 * (found on the RTL's retire trace of rand_gen.py's imac rand_21 at
 * 0x40001450: amominu.w t1, a device lhu, remu of t1), each case a few
 * times in a loop:
 * A: mul, lhu from IO, divu of the mul's result: the divu waits in decode,
 *    a bubble follows the load into memory and is stuck there with it, the
 *    divide still in execute: no overlap (device_div_overlap);
 * B: lw from RAM (a hit), lbu from IO, remu of the lw's result: the same;
 * C: mul, lb from IO, divu not reading the mul: the divide enters memory
 *    as the load enters write-back, its counter runs during the wait. */
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
    mul t1, a0, t3        /* A */
    lhu t0, 16(s5)
    divu t4, t1, t3
    add a1, a1, t4
    lw t2, 0(s4)          /* B */
    lbu t5, 12(s5)
    remu t6, t2, t3
    add a1, a1, t6
    mul t1, a0, a0        /* C */
    lb t0, 4(s5)
    divu t4, a0, t3
    add a1, a1, t4
    sw a0, 0(s4)
    addi s8, s8, -1
    bne s8, zero, loop
    add a0, a0, a1
    main_return 0

    .data
    .balign 4
data:
    .word 0
