/* fence_dev_next.S -- fence.i first on its line, a load from the uncached
 * IO region right after it, then the instructions to the end of the line
 * and one more on the next line, which misses (found on the RTL's retire
 * and bus traces of rand_gen.py's std rand_34 at 0x40003660), each case a
 * few times in a loop:
 * - lh from IO, an ALU op, a csrr among the ALU ops;
 * - lw from IO, ALU ops only.
 * The load's wait passes during the flush (fence_i_overlap): the refill of
 * the next line comes after the load's retire as after any instruction,
 * none of it during the load's wait. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li s5, IO_SCRATCH
    li s8, 3
    j loop

    .balign 32
loop:
    nops 8
    fence.i
    lh t3, 52(s5)
    addi a0, a0, 9
    sra t1, a3, t4
    csrr tp, mstatus
    auipc a1, 0
    slt t2, a6, t3
    addi a1, a1, 1
    add a0, a0, t2
    .balign 32
    fence.i
    lw t3, 52(s5)
    addi a0, a0, 9
    sra t1, a3, t4
    addi tp, a0, 1
    auipc a1, 0
    slt t2, a6, t3
    addi a1, a1, 1
    add a0, a0, t2
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1
