/* div_branch.S -- a divide, then a branch, then a line that misses (rand_37:
 * divu, a beq not taken, an lh on the next line missing both caches). The
 * code runs once, straight through, so that every line misses the I-cache
 * when first reached; each case four times, each time on lines of its own.
 * A: div, bne not taken (forward: predicted right), the next line an addi.
 * B: as A, the next line's first word an lh that misses the D-cache too.
 * C: div, beq taken forward (predicted not taken: wrong), its target on a
 *    line of its own.
 * D: div, bnez taken backward (predicted taken: right) to a line not yet
 *    run.
 * E: div, beqz not taken backward (predicted taken: wrong), the next line. */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0
    li t3, 7
    li t4, 1              /* a nonzero register for the branches */
    la a1, buf
    li s1, 100
    /* A */
    .rept 4
    at_word 5
    addi s1, s1, 3
    div t2, s1, t3        /* word 6 */
    bne t4, t4, 9f        /* word 7: not taken, predicted not taken */
    addi a0, a0, 1        /* the next line: misses */
    add a0, a0, t2
9:
    .endr
    /* B */
    .rept 4
    at_word 5
    addi s1, s1, 3
    div t2, s1, t3
    bne t4, t4, 9f
    lh t5, 0(a1)          /* misses both caches */
    add a0, a0, t5
    add a0, a0, t2
    addi a1, a1, 64
9:
    .endr
    /* C */
    .rept 4
    at_word 5
    addi s1, s1, 3
    div t2, s1, t3
    beq t4, t4, 8f        /* taken forward: predicted not taken */
    nops 8
    at_word 0
8:  add a0, a0, t2        /* a line of its own: misses */
    addi a0, a0, 1
    .endr
    /* D */
    .rept 4
    j 7f
    at_word 0
6:  add a0, a0, t2        /* reached first from the bnez below: misses */
    addi a0, a0, 1
    j 5f
    at_word 5
7:  addi s1, s1, 3
    div t2, s1, t3
    bnez t4, 6b           /* taken backward: predicted taken */
5:
    .endr
    /* E */
    .rept 4
    j 7f
    at_word 0
6:  addi a0, a0, 5        /* never run */
    at_word 5
7:  addi s1, s1, 3
    div t2, s1, t3
    beqz t4, 6b           /* not taken backward: predicted taken */
    add a0, a0, t2        /* the next line: misses */
    addi a0, a0, 1
    .endr
    main_return 12, 1
    .bss
    .balign 64
buf: .space 512
