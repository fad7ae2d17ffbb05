/* dmiss_held_word.S -- a load from the uncached IO region, then a load that
 * misses the D-cache in its line's last word, then the next line's first
 * word, which misses the I-cache (rand_43's lh, lh, bne at 0x400013b8 on
 * VexRiscv.v): the fetch stage looked that word up while the device load
 * held the pipeline, and its refill went out on the I-bus a cycle before
 * the device read; the load that misses retires as a plain miss. Straight
 * code, each case four times, every line new, every missing load on a
 * D-cache line of its own.
 * A: lh from IO, lh that misses, then an addi on the next line.
 * B: lbu from IO, lw that misses, then a bne (forward, not taken) on the
 *    next line.
 * C: lh from IO, lh that misses, then a jal to its own line on the next
 *    line.
 * D: lbu from IO, an addi, lbu that misses, then an addi on the next line
 *    (rand_43's lbu, addi, lbu, addi at 0x40001af4). */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li s1, 100
    la a1, buf
    li s5, IO_SCRATCH
    /* A */
    .rept 4
    at_word 6
    lh t1, 6(s5)          /* word 6: IO */
    lh t4, 0(a1)          /* word 7: misses the D-cache */
    addi s1, s1, -1       /* next line: misses */
    addi a1, a1, 64
    .endr
    /* B */
    .rept 4
    at_word 6
    lbu t2, 8(s5)         /* word 6: IO */
    lw t3, 0(a1)          /* word 7: misses the D-cache */
    bne zero, zero, 1f    /* next line: misses */
1:  addi a1, a1, 64
    .endr
    /* C */
    .rept 4
    at_word 6
    lh t1, 6(s5)          /* word 6: IO */
    lh t4, 0(a1)          /* word 7: misses the D-cache */
    jal zero, 1f          /* next line: misses */
    nop
1:  addi a1, a1, 64
    .endr
    /* D */
    .rept 4
    at_word 5
    lbu t1, 9(s5)         /* word 5: IO */
    addi t5, s1, 7        /* word 6 */
    lbu t4, 0(a1)         /* word 7: misses the D-cache */
    addi s1, s1, -1       /* next line: misses */
    addi a1, a1, 64
    .endr
    add a0, a0, t1
    add a0, a0, t3
    add a0, a0, s1
    andi a0, a0, 0x7ff
    main_return 0

    .bss
    .balign 64
buf: .space 1024
