/* div_wp_csr.S -- a divide right before a branch taken forward against its
 * prediction, a CSR instruction the first of its wrong-path words, the
 * branch's target first on the next line, which misses: that line is
 * refilled during the divide's hold, and the CSR instruction's hold of
 * decode passes while the branch waits for what is left of the refill
 * (timing.c's timing_wrong_path, wrong_path_waited; div_hold_rvc.S's case
 * B, rand_gen.py's rand_7's shape, with no 16-bit code). The code runs
 * once, straight through, so that every line misses the I-cache when first
 * reached; each case four times, each on lines of its own.
 * A: div in word 5, bne in word 6 taken to the next line's first word,
 *    csrr in word 7.
 * B: div in word 4, bne in word 5 taken to the next line's first word,
 *    csrr in word 6, addi in word 7.
 * C: as A with an addi in place of the csrr. */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0
    li t3, 7
    li t4, 1              /* a nonzero register for the branches */
    li s1, 100
    /* A */
    .rept 4
    at_word 5
    div t2, s1, t3        /* word 5 */
    bne t4, zero, 8f      /* word 6: taken forward, predicted not taken */
    csrr tp, mtvec        /* word 7: wrong path */
8:  add a0, a0, t2        /* the next line: misses */
    addi s1, s1, 3
    .endr
    /* B */
    .rept 4
    at_word 4
    div t2, s1, t3        /* word 4 */
    bne t4, zero, 8f      /* word 5 */
    csrr tp, mtvec        /* word 6: wrong path */
    addi a0, a0, 2        /* word 7: wrong path */
8:  add a0, a0, t2        /* the next line: misses */
    addi s1, s1, 3
    .endr
    /* C */
    .rept 4
    at_word 5
    div t2, s1, t3        /* word 5 */
    bne t4, zero, 8f      /* word 6 */
    addi a0, a0, 2        /* word 7: wrong path */
8:  add a0, a0, t2        /* the next line: misses */
    addi s1, s1, 3
    .endr
    main_return 12, 1
