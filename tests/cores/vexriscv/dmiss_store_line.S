/* dmiss_store_line.S -- a load that misses the D-cache, then stores (and a
 * load on the missing load's own D-cache line) before the next line's
 * first word, which misses the I-cache (sglib-combined's cold pass on
 * VexRiscv.v: lw s8, lw s10, sw s2, then sw zero first on 0x40000ba0's
 * line): the fetch stage looked that word up while the load waited for
 * its fill, its refill went out with the fill, and the load's redo waits
 * for it: the load and the instructions after it retire together, late,
 * and the stores behind them wait for the write buffer from there.
 * Straight code, each case four times, every line new, every missing load
 * on a D-cache line of its own.
 * A: lw that misses, lw on its line, sw, then sw, sw, sw, addi on the next line.
 * B: lw that misses, sw, an ALU op, then an add on the next line.
 * C: lw that misses, an ALU op, sw, then sw, sw on the next line.
 * D: lw that misses, sw, sw, then an addi on the next line. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li s1, 100
    la a1, buf
    la a2, out
    /* A */
    .rept 4
    at_word 5
    lw t1, 0(a1)          /* word 5: misses the D-cache */
    lw t2, 4(a1)          /* word 6: on the same D-cache line */
    sw s1, 0(a2)          /* word 7 */
    sw zero, 4(a2)        /* next line: misses */
    sw zero, 8(a2)
    sw zero, 12(a2)
    addi s1, s1, -1
    addi a1, a1, 64
    addi a2, a2, 16
    .endr
    /* B */
    .rept 4
    at_word 5
    lw t1, 0(a1)          /* word 5: misses the D-cache */
    sw s1, 0(a2)          /* word 6 */
    xori t4, s1, 5        /* word 7 */
    add a0, a0, s1        /* next line: misses */
    addi a1, a1, 64
    addi a2, a2, 16
    .endr
    /* C */
    .rept 4
    at_word 5
    lw t1, 0(a1)          /* word 5: misses the D-cache */
    xori t4, s1, 3        /* word 6 */
    sw s1, 0(a2)          /* word 7 */
    sw t4, 4(a2)          /* next line: misses */
    sw t4, 8(a2)
    addi a1, a1, 64
    addi a2, a2, 16
    .endr
    /* D */
    .rept 4
    at_word 5
    lw t1, 0(a1)          /* word 5: misses the D-cache */
    sw s1, 0(a2)          /* word 6 */
    sw s1, 4(a2)          /* word 7 */
    addi s1, s1, -1       /* next line: misses */
    addi a1, a1, 64
    addi a2, a2, 16
    .endr
    add a0, a0, t1
    add a0, a0, t2
    add a0, a0, t4
    andi a0, a0, 0x7ff
    main_return 0

    .bss
    .balign 64
buf: .space 1024
out: .space 512
