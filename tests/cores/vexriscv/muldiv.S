/* muldiv.S -- mul, mulh, mulhsu, mulhu, div, divu, rem, remu on signed and
 * unsigned operands, division by zero and the overflow case, results used at
 * once (mul-use, div-use) and later. The variant without M traps on the first
 * one (exit 0x102). */
#include "vex.h"
    main_entry
    li a0, 0
    li s0, 40
    li a1, 123456789
    li a2, -98765
1:  mul t0, a1, a2
    add a0, a0, t0        /* mul-use */
    mulh t1, a1, a2
    mulhsu t2, a2, a1
    mulhu t3, a1, a2
    add a0, a0, t1
    add a0, a0, t2
    add a0, a0, t3
    div t4, a1, a2
    add a0, a0, t4        /* div-use */
    divu t5, a1, s0
    rem t6, a2, s0
    remu a3, a1, a2
    add a0, a0, t5
    add a0, a0, t6
    add a0, a0, a3
    div a4, a1, zero      /* by zero: -1 */
    remu a5, a2, zero     /* by zero: the dividend */
    add a0, a0, a4
    add a0, a0, a5
    li a6, 0x80000000
    li a7, -1
    div a6, a6, a7        /* overflow */
    add a0, a0, a6
    mul a1, a1, s0
    addi a1, a1, 17
    addi a2, a2, -3
    addi s0, s0, -1
    bnez s0, 1b
    srli a1, a0, 16
    xor a0, a0, a1
    ret
