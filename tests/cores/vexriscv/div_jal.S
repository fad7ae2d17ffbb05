/* div_jal.S -- a divide, then a jump right after it whose target is on a
 * line that misses (rand_gen.py's rand_23 built rv32imac at 0x40001eb0:
 * rem, j, addi on a line of its own). Straight-line code, each case four
 * times on lines of its own, so that every target misses when reached.
 * A: div at word 4, j at word 5 to word 3 of a new line.
 * B: as A, the target at word 0.
 * C: div, addi, j (the divide two before the jump): the target's refill
 *    comes after the divide.
 * D: div, bnez taken backward (predicted taken) at word 5, to word 3 of a
 *    line not yet run. */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0
    li t3, 7
    li s1, 100
    /* A */
    .rept 4
    at_word 3
    addi s1, s1, 3
    div t2, s1, t3        /* word 4 */
    j 8f                  /* word 5 */
    at_word 3
8:  addi a0, a0, 1        /* a line of its own: misses */
    add a0, a0, t2
    .endr
    /* B */
    .rept 4
    at_word 3
    addi s1, s1, 3
    div t2, s1, t3
    j 8f
    at_word 0
8:  addi a0, a0, 1
    add a0, a0, t2
    .endr
    /* C */
    .rept 4
    at_word 3
    div t2, s1, t3
    addi s1, s1, 3
    j 8f
    at_word 3
8:  addi a0, a0, 1
    add a0, a0, t2
    .endr
    /* D */
    li t4, 1
    .rept 4
    j 7f
    at_word 3
6:  addi a0, a0, 1        /* reached first from the bnez below: misses */
    add a0, a0, t2
    j 5f
    at_word 3
7:  addi s1, s1, 3
    div t2, s1, t3        /* word 4 */
    bnez t4, 6b           /* word 5: taken backward, predicted taken */
5:
    .endr
    main_return 12, 1
