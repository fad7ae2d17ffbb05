/* isa_a.S -- the A extension: lr.w/sc.w and AMOs. The variants without A
 * trap on the first one (exit 0x102). */
#include "vex.h"
    main_entry
    la a1, word
    li a0, 0
    li s0, 10
1:  li t0, 3
    amoadd.w t1, t0, (a1)
    add a0, a0, t1
    amoswap.w t2, s0, (a1)
    add a0, a0, t2
    amoxor.w t3, t0, (a1)
    amomax.w t4, t0, (a1)
    add a0, a0, t3
    add a0, a0, t4
2:  lr.w t5, (a1)
    addi t5, t5, 5
    sc.w t6, t5, (a1)
    bnez t6, 2b
    add a0, a0, t5
    addi s0, s0, -1
    bnez s0, 1b
    ret
    .data
    .balign 4
word:
    .word 7
