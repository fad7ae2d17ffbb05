/* div_csr_use.S -- a divide, a CSR read, then an instruction that waits for
 * the CSR read's result, the next one first on a line that misses
 * (rand_23 built rv32imac at 0x400030d4: div, csrr, c.addi of the csrr's
 * result, then addi split over the next line, which misses). Straight
 * code, every line new, each case four times.
 * A: divu in word 5, csrr in word 6, addi of its result in word 7.
 * B: divu in word 5, csrr in word 6, addi of the divide's result in word 7.
 * C: divu in word 5, csrr in word 6, addi of neither in word 7. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li t3, 7
    /* A */
    .rept 4
    at_word 4
    addi a0, a0, 9        /* word 4 */
    divu t2, a0, t3       /* word 5 */
    csrr t1, mstatus      /* word 6 */
    addi t1, t1, 1        /* word 7: waits for the csrr */
    add a1, a1, t1        /* next line: misses */
    .endr
    /* B */
    .rept 4
    at_word 4
    addi a0, a0, 9
    divu t2, a0, t3
    csrr t1, mstatus
    addi t4, t2, 1        /* the divide's result */
    add a1, a1, t4
    .endr
    /* C */
    .rept 4
    at_word 4
    addi a0, a0, 9
    divu t2, a0, t3
    csrr t1, mstatus
    addi a2, a2, 1
    add a1, a1, t2
    .endr
    add a0, a0, t2
    add a0, a0, t1
    main_return 0
