/* div_jal_fill.S -- a divide one or two instructions before a jal in its
 * line's last word, the next line missing, the target on a line that hits
 * (rand_gen.py's rand_22 built rv32imac at 0x400001b4: div, lhu from an IO
 * address, jal at the line's end, the next line refilled during the div's
 * hold). The code runs once, straight through, so that every line after
 * the jal misses the I-cache when first reached; each case four times,
 * each on lines of its own.
 * A: div in word 6, j in word 7.
 * B: div in word 5, addi in word 6, j in word 7.
 * Built with the C extension (div_jal_fill_c) also:
 * C: c.nop, rem at 2 mod 4 (words 5 and 6), and at 2 mod 4, c.j in word
 *    7's second half to the next line (rand_23 at 0x400016d6: rem, and,
 *    c.j to pc + 2, the next line's first word). */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0
    li t3, 7
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
    j 6b                  /* word 7: the next line looked up ahead */
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
    j 6b                  /* word 7 */
5:  addi a0, a0, 2
    .endr
#ifdef __riscv_compressed
    /* C */
    .rept 4
    at_word 5
    rvc16 c.nop                 /* word 5 */
    rem t2, s1, t3        /* at 2 mod 4 */
    and t4, s1, s1        /* at 2 mod 4 */
    rvc16 c.j 5f                /* word 7's second half */
5:  add a0, a0, t2        /* the next line's first word */
    addi s1, s1, 3
    .endr
#endif
    main_return 12, 1
