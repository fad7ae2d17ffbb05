/* div_dmiss_line.S -- a divide, a load that misses the D-cache, then the
 * next line's first word, which misses the I-cache (rand_6's div, lw, sb
 * at 0x40000d80): the fetch stage looked that word up during the
 * divide's hold and its refill ended before the divide did; the load's
 * fill holds the pipeline after the divide, and the missing word retires
 * 1 cycle after the load, no held_refetch floor. Straight code, each case
 * four times, every line new, every load on a D-cache line of its own.
 * A: div, lw, then an sb on the next line.
 * B: divu, lw, then an add on the next line. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li t3, 7
    li s1, 100
    la a1, buf
    /* A */
    .rept 4
    at_word 6
    div t2, s1, t3        /* word 6 */
    lw t1, 0(a1)          /* word 7: misses the D-cache */
    sb s1, 40(a1)         /* next line: misses */
    addi a1, a1, 64
    add a0, a0, t2
    .endr
    /* B */
    .rept 4
    at_word 6
    divu t2, s1, t3
    lw t1, 0(a1)
    add a0, a0, s1        /* next line: misses */
    addi a1, a1, 64
    addi s1, s1, 3
    .endr
    add a0, a0, t1
    andi a0, a0, 0x7ff
    main_return 0

    .bss
    .balign 64
buf: .space 1024
