/* div_fill.S -- a divide three instructions before one first on a line
 * that misses, the two between holding nothing ahead of it (rand_23 built
 * rv32imac at 0x400002f4: divu, li, csrr of mtvec at the line's end, then
 * addi on the next line, which misses). Straight code, every line new,
 * each case four times.
 * A: divu in word 5, addi in word 6, csrr in word 7 (rand_23's shape).
 * B: divu in word 5, addi in words 6 and 7 (no CSR instruction).
 * C: divu in word 4, addi in words 5 and 6, csrr in word 7 (four ahead).
 * D: divu in word 5, csrr in word 6, addi in word 7. */
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
    li s8, 8              /* word 6 */
    csrr t1, mtvec        /* word 7 */
    add a1, a1, t2        /* next line: misses */
    .endr
    /* B */
    .rept 4
    at_word 4
    addi a0, a0, 9
    divu t2, a0, t3
    li s8, 8
    addi a2, a2, 1
    add a1, a1, t2
    .endr
    /* C */
    .rept 4
    at_word 3
    addi a0, a0, 9
    divu t2, a0, t3
    li s8, 8
    addi a2, a2, 1
    csrr t1, mtvec
    add a1, a1, t2
    .endr
    /* D */
    .rept 4
    at_word 4
    addi a0, a0, 9
    divu t2, a0, t3
    csrr t1, mtvec
    addi a2, a2, 1
    add a1, a1, t2
    .endr
    add a0, a0, t2
    main_return 0
