/* div_reach.S -- a divide right before a branch taken forward against its
 * prediction, the first of its wrong-path words on another line missing
 * ([pipeline] wrong_path_fill with fetch_ahead: exec_loop.inc's
 * wrong_path_reach_hold). rand_gen.py's seed 6 built rv32imac: rem at
 * 0x400003b2, bne taken to pc + 4 at 0x400003b6, its third wrong-path word
 * on the next line (0x400003c0), which VexRiscv_IMAC.v refills during the
 * rem's hold. The code runs once, straight through, so that every line
 * misses the I-cache when first reached; each case four times, each on
 * lines of its own; every branch is taken to pc + 4.
 * A: div in word 5, bne in word 6: its second wrong-path word (pc + 8) on
 *    the next line.
 * B: div in word 4, bne in word 5: its third (pc + 12) on the next line.
 * Built with the C extension (div_reach_c) also:
 * C: c.nop, rem at 2 mod 4 (words 4 and 5), bne at 2 mod 4 (words 5 and
 *    6), its third wrong-path word (pc + 12) on the next line, and the
 *    addi at pc + 8 split across the line's end (rand_6's).
 * D: c.nop, rem at 2 mod 4 (words 5 and 6), bne at 2 mod 4 (words 6 and
 *    7), its second (pc + 8) on the next line, the addi at pc + 4 split. */
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
8:  addi a0, a0, 1        /* word 7 */
    add a0, a0, t2        /* the next line: misses */
    addi s1, s1, 3
    .endr
    /* B */
    .rept 4
    at_word 4
    div t2, s1, t3        /* word 4 */
    bne t4, zero, 8f      /* word 5 */
8:  addi a0, a0, 1        /* word 6 */
    addi a0, a0, 2        /* word 7 */
    add a0, a0, t2        /* the next line: misses */
    addi s1, s1, 3
    .endr
#ifdef __riscv_compressed
    /* C */
    .rept 4
    at_word 4
    rvc16 c.nop                 /* word 4's first half */
    rem t2, s1, t3        /* at 2 mod 4 */
    bne t4, zero, 8f      /* at 2 mod 4, byte 22 */
8:  addi a0, a0, 1        /* byte 26 */
    addi a0, a0, 2        /* byte 30: its second half on the next line */
    add a0, a0, t2
    addi s1, s1, 3
    .endr
    /* D */
    .rept 4
    at_word 5
    rvc16 c.nop                 /* word 5's first half */
    rem t2, s1, t3        /* at 2 mod 4 */
    bne t4, zero, 8f      /* at 2 mod 4, byte 26 */
8:  addi a0, a0, 1        /* byte 30: its second half on the next line */
    add a0, a0, t2
    addi s1, s1, 3
    .endr
#endif
    main_return 12, 1
