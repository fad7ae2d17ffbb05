/* fence_dev_miss.S -- a load from the uncached IO region right after
 * fence.i, fetched before the flush: its read on the D-bus is over during
 * the flush, and a load that misses the D-cache one or two instructions
 * after it waits for no port (the shapes of rand_gen.py's std rand_6 at
 * 0x40000878 and rand_43 at 0x400000c4), each case a few times in a loop,
 * the missing load's line new each time:
 * - A: fence.i, lhu from IO, two ALU ops, lw that misses;
 * - B: fence.i, lbu from IO, an ALU op, lbu that misses. */
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
    fence.i
    lhu t1, 8(s5)
    addi t3, a0, 5
    lui t4, 0x12345
    lw t2, 0(s2)
    add a0, a0, t1
    add a0, a0, t2
    add a0, a0, t3
    fence.i
    lbu t5, 15(s5)
    xori t6, a0, -143
    lbu t2, 64(s2)
    add a0, a0, t5
    add a0, a0, t2
    add a0, a0, t6
    addi s2, s2, 128
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1

    word_buf 512
