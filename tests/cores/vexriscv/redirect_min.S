/* redirect_min.S -- vexriscv-min's redirects and its shifter next to a
 * held stage, each case a few times in a loop (found on the RTL's stage
 * trace of rand_gen.py's programs):
 * - a taken branch to pc + 4 still redirects (the instruction there is
 *   fetched again), before fence.i and before an ALU op;
 * - a jump held in execute behind a load waiting in memory: the wrong
 *   path's first instruction is held in decode with it, which delays the
 *   second wrong-path beat;
 * - the wrong path's first instruction halted in decode by a register not
 *   yet written back (a load's result) while the second wrong-path beat's
 *   response waits behind it: the target's beat goes out a row later
 *   (after a call, and after a taken branch with a shift by a register);
 * - a shift by 19 right behind a load waiting in memory: the shifter
 *   counts only in rows execute is not held by memory. */
#include "vex.h"
    fixed_layout
    main_entry 0
    sw zero, 4(sp)
    li a0, 0
    li s1, 0x1234567
    li s8, 4
loop:
    /* a taken branch to pc + 4 */
    beq zero, zero, 1f
1:  fence.i
    bne s8, zero, 2f
2:  addi a0, a0, 1
    /* a jump held in execute behind a load held in memory */
    lw t4, 4(sp)
    lbu a4, 5(sp)
    jal zero, 3f
3:  csrr tp, mstatus
    add a0, a0, a4
    /* the wrong path's first instruction halted by a load's result */
    lw a1, 4(sp)
    jal ra, leaf
    xor a3, a1, a3
    lh t6, 4(sp)
    li t1, 0
    bgeu s8, t1, 4f
    srl t6, t6, a1
4:  sb a4, 6(sp)
    /* a shift behind a load held in memory */
    lw a2, 4(sp)
    lw t1, 8(sp)
    slli t4, s1, 19
    slli a5, t2, 5
    add a0, a0, t4
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1

leaf:
    addi a0, a0, 3
    ret
