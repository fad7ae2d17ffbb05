/* branch.S -- static prediction: backward branches (predicted taken) taken
 * and falling through, forward branches (predicted not taken) taken and not
 * taken, every condition, with the compared register written just before
 * (a branch needing a bypassed value). */
#include "vex.h"
    main_entry
    li a0, 0
    li s0, 300
    li s1, 0
outer:
    addi s1, s1, 1
    andi t0, s1, 3
    beqz t0, f1          /* forward, taken 1 in 4 */
    addi a0, a0, 1
f1: andi t1, s1, 1
    bnez t1, f2          /* forward, taken 1 in 2 */
    addi a0, a0, 3
f2: slti t2, s1, 150
    blt t2, zero, f3     /* forward, never taken */
    bge s1, s0, f3       /* forward, never taken */
    bltu s0, s1, f3
    addi a0, a0, 5
f3: li t3, 3
inner:
    addi t3, t3, -1
    bgeu t3, t3, 2f      /* forward, always taken */
    nop
2:  bne t3, zero, inner  /* backward: taken twice, falls through once */
    blt s1, s0, outer    /* backward, taken 299 times */
    ret
