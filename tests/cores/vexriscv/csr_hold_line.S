/* csr_hold_line.S -- a CSR instruction's wait in execute for memory and
 * write-back to empty (csr_penalty) right before a jump whose next word is
 * on a line that misses ([pipeline] csr_hold_reach). On VexRiscv_IMAC.v
 * the jump waits in decode during that wait, and the word right after the
 * jump's last word is looked up, its refill going out, then: the wait
 * passes during the refill, as a divide's hold does (rand_gen.py's rand_15:
 * csrr tp, mstatus, bgeu taken to pc + 4 at a line's last word). A, csrr,
 * bgeu taken forward to pc + 4 in the line's last word; B, csrr, jal in the
 * line's last word to the next line's word 2; C, csrr, bgeu taken to pc + 4
 * in word 6, the next line the second word after the bgeu's last (rand_21's
 * bge at 0x40000bd8): the whole refill after the wait; D, csrr, a backward
 * bne predicted taken at word 7 that falls through to the next line
 * (rand_7's bne zero, zero at 0x40000c9a). */
#include "vex.h"
    fixed_layout
    main_entry
    li a0, 0
    li a4, 5
    li t6, 1
    /* A: csrr, bgeu taken to pc + 4 at word 7, the next line missing */
    .rept 4
    at_word 5
    addi a0, a0, 1       /* word 5 */
    csrr tp, mstatus     /* word 6 */
    bgeu a4, t6, 1f      /* word 7: taken against its prediction */
1:  addi a0, a0, 2       /* the next line's word 0 */
    .endr
    /* B: csrr, jal at word 7 to the next line's word 2 */
    .rept 4
    at_word 5
    addi a0, a0, 1       /* word 5 */
    csrr tp, mstatus     /* word 6 */
    jal zero, 1f         /* word 7 */
    addi a0, a0, 16      /* the next line's word 0: skipped */
    addi a0, a0, 32      /* word 1: skipped */
1:  addi a0, a0, 2       /* word 2 */
    .endr
    /* C: csrr, bgeu taken to pc + 4 at word 6, the next line the second word after it */
    .rept 4
    at_word 4
    addi a0, a0, 1       /* word 4 */
    csrr tp, mstatus     /* word 5 */
    bgeu a4, t6, 1f      /* word 6 */
1:  addi a0, a0, 2       /* word 7 */
    addi a0, a0, 4       /* the next line's word 0 */
    .endr
    /* D: csrr, a backward bne predicted taken at word 7, falling through to the next line */
    .rept 4
    at_word 5
2:  addi a0, a0, 1       /* word 5 */
    csrr tp, mstatus     /* word 6 */
    bne zero, zero, 2b   /* word 7: predicted taken, falls through */
    addi a0, a0, 2       /* the next line's word 0 */
    .endr
    andi a0, a0, 0x7ff
    ret
