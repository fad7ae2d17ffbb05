/* div_redo.S -- a load that misses both caches, a divide, then fence.i
 * (rand_gen.py's seed 11 on rv32imac: lhu, add, div, fence.i). The code runs
 * once, straight through: every line misses the I-cache when first reached
 * (fence.i drops them all anyway), every load reads a D-cache line of its
 * own. Each case three times, on lines of its own.
 * A: lw, add, div writing the lw's register, fence.i (the random program's).
 * B: lw, add, div, fence.i.
 * C: lw, div, fence.i.
 * D: lw, div, add, fence.i.
 * E: lw, add, add, fence.i (no divide).
 * F: lw, add, div, add, fence.i (three between).
 * G: as B with the lw the last word of a line, the rest on the next. */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0
    li t3, 7
    la a1, buf
    li s1, 100
    /* A */
    .rept 3
    at_word 2
    lw t5, 0(a1)
    add a0, a0, s1
    div t5, s1, t3
    fence.i
    add a0, a0, t5
    addi a1, a1, 64
    .endr
    /* B */
    .rept 3
    at_word 2
    lw t5, 0(a1)
    add a0, a0, s1
    div t2, s1, t3
    fence.i
    add a0, a0, t2
    addi a1, a1, 64
    .endr
    /* C */
    .rept 3
    at_word 2
    lw t5, 0(a1)
    div t2, s1, t3
    fence.i
    add a0, a0, t2
    addi a1, a1, 64
    .endr
    /* D */
    .rept 3
    at_word 2
    lw t5, 0(a1)
    div t2, s1, t3
    add a0, a0, s1
    fence.i
    add a0, a0, t2
    addi a1, a1, 64
    .endr
    /* E */
    .rept 3
    at_word 2
    lw t5, 0(a1)
    add a0, a0, s1
    addi s1, s1, 3
    fence.i
    add a0, a0, t5
    addi a1, a1, 64
    .endr
    /* F */
    .rept 3
    at_word 2
    lw t5, 0(a1)
    add a0, a0, s1
    div t2, s1, t3
    addi s1, s1, 3
    fence.i
    add a0, a0, t2
    addi a1, a1, 64
    .endr
    /* G */
    .rept 3
    at_word 7
    lw t5, 0(a1)
    add a0, a0, s1        /* the next line */
    div t2, s1, t3
    fence.i
    add a0, a0, t2
    addi a1, a1, 64
    .endr
    main_return 12, 1
    .bss
    .balign 64
buf: .space 1536
