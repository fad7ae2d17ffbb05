/* dmiss_dev_line.S -- a load that misses the D-cache, then loads from the
 * uncached IO region, then the next line's first word, which misses the
 * I-cache (rand_24's lh, lb, lw, addi at 0x40001774 on VexRiscv.v): the
 * fetch stage looked that word up while the load waited for its fill (the
 * third word after it), and its refill went out with the fill; the device
 * loads wait on the D-bus only after the load's redo. Straight code, each
 * case four times, every line new, every missing load on a D-cache line of
 * its own.
 * A: lh that misses, lb and lw from IO, then an addi on the next line.
 * B: lw that misses, lhu from IO, an ALU op, then an add on the next line. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li s1, 100
    la a1, buf
    li s5, IO_SCRATCH
    /* A */
    .rept 4
    at_word 5
    lh t1, 0(a1)          /* word 5: misses the D-cache */
    lb t2, 44(s5)         /* word 6: IO */
    lw t3, 48(s5)         /* word 7: IO */
    addi s1, s1, -1       /* next line: misses */
    addi a1, a1, 64
    .endr
    /* B */
    .rept 4
    at_word 5
    lw t1, 0(a1)          /* word 5: misses the D-cache */
    lhu t2, 8(s5)         /* word 6: IO */
    xori t4, s1, 5        /* word 7 */
    add a0, a0, s1        /* next line: misses */
    addi a1, a1, 64
    .endr
    add a0, a0, t1
    add a0, a0, t4
    andi a0, a0, 0x7ff
    main_return 0

    .bss
    .balign 64
buf: .space 1024
