/* dmiss_div_line.S -- a load that misses the D-cache, a divide, one more
 * instruction, then the next line's first word, which misses the I-cache
 * (rand_43's lhu, div, auipc, sh at 0x40003ad4; rand_21's lhu, divu, sh,
 * or at 0x40000154): the fetch stage looked that word up while the load
 * waited for its fill (the third word after it), and its refill went out
 * with the fill; the divide's hold after the load's redo leaves nothing
 * of it to wait for. Straight code, each case four times, every line new,
 * every load on a D-cache line of its own.
 * A: lw, div, addi, then an add on the next line.
 * B: lw, divu, sw, then an or on the next line. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li t3, 7
    li s1, 100
    la a1, buf
    /* A */
    .rept 4
    at_word 5
    lw t1, 0(a1)          /* word 5: misses the D-cache */
    div t2, s1, t3        /* word 6 */
    addi a1, a1, 64       /* word 7 */
    add a0, a0, s1        /* next line: misses */
    addi s1, s1, 3
    .endr
    /* B */
    .rept 4
    at_word 5
    lw t1, 0(a1)
    divu t2, s1, t3
    sw s1, 32(a1)
    or a0, a0, t2         /* next line: misses */
    addi a1, a1, 64
    .endr
    add a0, a0, t1
    andi a0, a0, 0x7ff
    main_return 0

    .bss
    .balign 64
buf: .space 1024
