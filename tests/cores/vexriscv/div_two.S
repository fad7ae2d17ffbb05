/* div_two.S -- a divide one or two instructions before a branch predicted
 * taken (backward) in its line's last word, the next line missing, the
 * target on a line that hits (rand_23: remu at 2 mod 4, c.addi, bnez at
 * the line's end, the next line missing). The code runs once, straight
 * through, so that every line after the branch misses the I-cache when
 * first reached; each case four times, each on lines of its own.
 * A: div in word 6, bnez in word 7.
 * B: div in word 5, addi in word 6, bnez in word 7.
 * Built with the C extension (div_two_c) also:
 * C: c.nop, remu at 2 mod 4 (words 5 and 6), c.addi, bnez in word 7.
 * D: remu in word 6, c.addi and c.bnez in word 7.
 * E: c.nop, remu at 2 mod 4 (words 6 and 7), c.bnez in word 7's second
 *    half. */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0
    li t3, 7
    li t4, 1              /* nonzero registers for the branches */
    li a5, 1
    li s1, 100
    /* A */
    .rept 4
    at_word 0
    j 7f
6:  add a0, a0, t2        /* the target: on the j's line, which hits */
    addi a0, a0, 1
    j 5f
    at_word 6
7:  div t2, s1, t3        /* word 6 */
    bnez t4, 6b           /* word 7: taken backward, predicted taken */
5:  addi s1, s1, 3        /* the next line: its refill asked for ahead */
    .endr
    /* B */
    .rept 4
    at_word 0
    j 7f
6:  add a0, a0, t2
    addi a0, a0, 1
    j 5f
    at_word 5
7:  div t2, s1, t3        /* word 5 */
    addi s1, s1, 3        /* word 6 */
    bnez t4, 6b           /* word 7 */
5:  addi a0, a0, 2
    .endr
#ifdef __riscv_compressed
    /* C */
    .rept 4
    at_word 0
    j 7f
6:  add a0, a0, t2
    addi a0, a0, 1
    j 5f
    at_word 5
7:
    rvc16 c.nop                 /* word 5 */
    remu t2, s1, t3       /* at 2 mod 4 */
    rvc16 c.addi s1, 3          /* word 6's second half */
    bnez t4, 6b           /* word 7, 32 bits */
5:  addi a0, a0, 2
    .endr
    /* D */
    .rept 4
    at_word 0
    j 7f
6:  add a0, a0, t2
    addi a0, a0, 1
    j 5f
    at_word 6
7:  remu t2, s1, t3       /* word 6 */
    rvc16 c.addi s1, 3          /* word 7's first half */
    rvc16 c.bnez a5, 6b         /* word 7's second half */
5:  addi a0, a0, 2
    .endr
    /* E */
    .rept 4
    at_word 0
    j 7f
6:  add a0, a0, t2
    addi a0, a0, 1
    j 5f
    at_word 6
7:
    rvc16 c.nop                 /* word 6 */
    remu t2, s1, t3       /* at 2 mod 4 */
    rvc16 c.bnez a5, 6b         /* word 7's second half */
5:  addi a0, a0, 2
    .endr
#endif
    main_return 12, 1
