/* div_pair.S -- two divides in a line's last two words, the next line
 * missing (rand_43's remu, rem, then csrrs first on a line that misses at
 * 0x400021c0; rand_34's div, divu at 0x40003598): the fetch looks that
 * line up while the first divide holds execute and the second waits in
 * decode, so its refill runs during the first divide's hold. Straight
 * code, each case four times, every line new.
 * A: divu, rem, then an add that uses neither.
 * B: divu, rem, then csrr (and an addi of its result).
 * C: divu, rem, then an add of rem's result.
 * D: divu, then rem of divu's result (it waits for it in decode). */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li t3, 7
    li s1, 100
    /* A */
    .rept 4
    at_word 6
    divu t2, s1, t3       /* word 6 */
    rem t4, s1, t3        /* word 7 */
    add a1, a1, s1        /* next line: misses */
    addi s1, s1, 3
    .endr
    /* B */
    .rept 4
    at_word 6
    divu t2, s1, t3
    rem t4, s1, t3
    csrr t1, mtvec        /* next line: misses */
    addi t1, t1, 1
    addi s1, s1, 3
    .endr
    /* C */
    .rept 4
    at_word 6
    divu t2, s1, t3
    rem t4, s1, t3
    add a1, a1, t4        /* next line: misses, uses rem's result */
    addi s1, s1, 3
    .endr
    /* D */
    .rept 4
    at_word 6
    divu t2, s1, t3
    rem t4, t2, t3        /* divu's result */
    add a1, a1, s1        /* next line: misses */
    addi s1, s1, 3
    .endr
    add a0, a0, t2
    add a0, a0, t4
    add a0, a0, a1
    main_return 0
