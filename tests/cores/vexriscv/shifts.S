/* shifts.S -- sll/srl/sra and their immediate forms by 0, 1, 31 and by
 * register amounts 0..31, each result used by the next instruction
 * (shift-use). */
#include "vex.h"
    main_entry
    li a0, 0
    li s0, 0
    li a1, 0x87654321
1:  sll t0, a1, s0
    add a0, a0, t0        /* shift-use */
    srl t1, a1, s0
    add a0, a0, t1
    sra t2, a1, s0
    xor a0, a0, t2
    slli t3, a1, 0
    srli t4, a1, 31
    srai t5, a1, 1
    add a0, a0, t3
    add a0, a0, t4
    add a0, a0, t5
    slli t6, a0, 7
    srai t6, t6, 3
    srli t6, t6, 5
    xor a0, a0, t6
    addi s0, s0, 1
    li t0, 32
    blt s0, t0, 1b
    srli a1, a0, 16
    xor a0, a0, a1
    ret
