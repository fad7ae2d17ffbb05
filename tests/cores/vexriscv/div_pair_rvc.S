/* div_pair_rvc.S -- div_pair.S's two divides in a line's last two words,
 * the next line missing, with 16-bit instructions on that line (built
 * rv32imac; the other variants stop at its first 16-bit instruction,
 * illegal): the fetch looks the line up while the first divide holds
 * execute and the second waits in decode, so the refill runs during the
 * first divide's hold ([pipeline] held_refetch with fetch_ahead_insns 2,
 * exec_loop.inc's div_pair_floor). Straight code, each case four times,
 * every line new.
 * A: divu, rem, then c.add that uses neither, c.addi.
 * B: divu, rem, then c.add of rem's result, c.addi.
 * C: divu, then rem of divu's result, then c.mv, c.addi.
 * D: div, remu, then c.addi of neither, a 32-bit addi. */
#include "vex.h"
    .option norelax
    .text
    .option push
    .option norvc
    main_entry 0
    li a0, 0
    li t3, 7
    li s1, 100
    li a2, 0
    .option pop
    /* A */
    .rept 4
    .option push
    .option norvc
    at_word 6
    divu t2, s1, t3       /* word 6 */
    rem t4, s1, t3        /* word 7 */
    .option pop
    c.add a1, s1          /* next line: misses */
    c.addi s1, 3
    .endr
    /* B */
    .rept 4
    .option push
    .option norvc
    at_word 6
    divu t2, s1, t3
    rem a3, s1, t3
    .option pop
    c.add a1, a3          /* next line: misses, uses rem's result */
    c.addi s1, 3
    .endr
    /* C */
    .rept 4
    .option push
    .option norvc
    at_word 6
    divu a4, s1, t3
    rem a3, a4, t3        /* divu's result */
    .option pop
    c.mv a2, s1           /* next line: misses */
    c.addi s1, 3
    .endr
    /* D */
    .rept 4
    .option push
    .option norvc
    at_word 6
    div t2, s1, t3
    remu t4, s1, t3
    .option pop
    c.addi a2, 1          /* next line: misses */
    .option push
    .option norvc
    addi s1, s1, 3
    .option pop
    .endr
    c.nop                 /* the tail word-aligned */
    .option push
    .option norvc
    add a0, a0, t2
    add a0, a0, t4
    add a0, a0, a1
    add a0, a0, a3
    add a0, a0, a2
    main_return 0
    .option pop
