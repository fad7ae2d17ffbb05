/* alu.S -- ALU register and immediate operations in dependent chains (each
 * result used by the next instruction: full bypass) and independent ones,
 * lui/auipc, slt/sltu, in a counted loop. */
#include "vex.h"
    main_entry
    li a0, 0
    li t0, 200
    li a1, 0x12345678
    li a2, 0x0f0f0f0f
1:  add a3, a1, a2
    sub a4, a3, a1
    xor a5, a4, a3
    or a6, a5, a2
    and a7, a6, a1
    addi a7, a7, 77
    slt t1, a7, a3
    sltu t2, a3, a7
    slti t3, a4, -5
    sltiu t4, a4, 100
    xori a1, a1, 0x155
    ori a2, a2, 0x2aa
    andi t5, a3, 0x7ff
    lui t6, 0x54321
    auipc s0, 0
    add a0, a0, a7
    add a0, a0, t1
    add a0, a0, t2
    add a0, a0, t3
    add a0, a0, t4
    add a0, a0, t5
    add a0, a0, t6
    add a1, a1, a0
    addi t0, t0, -1
    bnez t0, 1b
    srli a1, a0, 16
    xor a0, a0, a1
    ret
