/* fence_pair.S -- fence.i right after fence.i, with and without a load's
 * redo before them (rand_gen.py's seed 34 on rv32im: lbu that misses,
 * divu, mul, fence.i at a line's end, fence.i first on the next line).
 * The code runs once, straight through, except where a case says: every
 * line misses the I-cache when first reached (fence.i drops them all
 * anyway), every load reads a D-cache line of its own. Each case three
 * times, on lines of its own.
 * A: lw that misses, divu, mul, fence.i last on its line, fence.i first
 *    on the next (the random program's).
 * B: lw that misses, add, fence.i last on its line, fence.i on the next.
 * C: add, add, fence.i last on its line, fence.i on the next (no load).
 * D: lw that misses, add, fence.i, fence.i on one line.
 * E: lw that misses, divu, mul, fence.i, fence.i on one line.
 * F: as C with the next line in the I-cache (run first, then back).
 * G: as F with a lw that misses on the next line before the way back. */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0
    li t3, 7
    la a1, buf
    li s1, 100
    /* A */
    .rept 3
    at_word 4
    lw t5, 0(a1)
    divu t2, s1, t3
    mul t4, s1, s1
    fence.i
    fence.i
    add a0, a0, t2
    add a0, a0, t4
    addi a1, a1, 64
    .endr
    /* B */
    .rept 3
    at_word 5
    lw t5, 0(a1)
    add a0, a0, s1
    fence.i
    fence.i
    add a0, a0, t5
    addi a1, a1, 64
    .endr
    /* C */
    .rept 3
    at_word 5
    add a0, a0, s1
    addi s1, s1, 3
    fence.i
    fence.i
    add a0, a0, s1
    .endr
    /* D */
    .rept 3
    at_word 1
    lw t5, 0(a1)
    add a0, a0, s1
    fence.i
    fence.i
    add a0, a0, t5
    addi a1, a1, 64
    .endr
    /* E */
    .rept 3
    at_word 1
    lw t5, 0(a1)
    divu t2, s1, t3
    mul t4, s1, s1
    fence.i
    fence.i
    add a0, a0, t2
    add a0, a0, t4
    addi a1, a1, 64
    .endr
    /* F */
    .rept 3
    at_word 6
    j 2f
1:  fence.i
    fence.i
    add a0, a0, s1
    j 3f
2:  addi s1, s1, 3
    j 1b
3:  addi a0, a0, 1
    .endr
    /* G */
    .rept 3
    at_word 6
    j 2f
1:  fence.i
    fence.i
    add a0, a0, t5
    j 3f
2:  lw t5, 0(a1)
    j 1b
3:  addi a1, a1, 64
    .endr
    main_return 12, 1
    .bss
    .balign 64
buf: .space 1536
