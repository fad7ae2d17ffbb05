/* div_two_wrong.S -- a divide two instructions before a branch predicted
 * not taken (forward) in its line's last word, taken to the next line,
 * which misses (rand_24's divu, xori, bge at 0x400002d4 on VexRiscv_IMAC.v:
 * the next line's refill runs during the divide's hold). The code runs
 * once, straight through, so that every line after the branch misses the
 * I-cache when first reached; the case four times, each on lines of its own.
 * div in word 5, addi in word 6, bge taken forward in word 7 to the next
 * line's word 2. */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0
    li t3, 7
    li t4, 1
    li s1, 100
    .rept 4
    at_word 5
    div t2, s1, t3        /* word 5 */
    addi s1, s1, 3        /* word 6 */
    bge t4, zero, 5f      /* word 7: taken forward, predicted not taken */
    addi a0, a0, 7        /* the next line: skipped */
    addi a0, a0, 9
5:  add a0, a0, t2        /* the target: word 2 of the next line */
    .endr
    main_return 12, 1
