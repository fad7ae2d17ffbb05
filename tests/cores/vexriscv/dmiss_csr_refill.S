/* dmiss_csr_refill.S -- a load that misses the D-cache, then a CSR read
 * right before the next line's first word, which misses the I-cache
 * (rand_20's lw, csrrs mtvec, mulhsu at 0x400004d8; rand_24's lb, lui,
 * csrrs, sb at 0x40000234; rand_44's lbu, remu, csrrs, addi at
 * 0x40000d74): the fetch stage looked that word up while the load waited
 * for its fill, its refill went out on the I-bus in the cycle of the
 * load's fill on the D-bus, and the load's redo waits for it (the load
 * retires 3 cycles later than a plain miss, the word right after the CSR
 * read as after a hit). Not with the CSR read two before that word (case
 * D): the CSR instruction, waiting in execute for the load, holds the
 * word behind the one after it before its lookup, and the refill comes
 * after the redo. Straight code, each case four times, every line new,
 * every load on a D-cache line of its own.
 * A: lw, csrr, then an addi of its result on the next line.
 * B: lbu, remu, csrr, then an addi of its result on the next line.
 * C: lw, addi, csrr, then an or on the next line.
 * D: lw, csrr, addi, then an add on the next line. */
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
    lw t1, 0(a1)          /* word 6: misses the D-cache */
    csrr t2, mstatus      /* word 7 */
    addi t2, t2, 1        /* next line: misses */
    addi a1, a1, 64
    add a0, a0, t2
    .endr
    /* B */
    .rept 4
    at_word 5
    lbu t1, 0(a1)
    remu t4, s1, t3
    csrr t2, mtvec
    addi t2, t2, 1        /* next line: misses */
    addi a1, a1, 64
    add a0, a0, t4
    .endr
    /* C */
    .rept 4
    at_word 5
    lw t1, 0(a1)
    addi s1, s1, 3
    csrr t2, mscratch
    or a0, a0, s1         /* next line: misses */
    addi a1, a1, 64
    .endr
    /* D */
    .rept 4
    at_word 5
    lw t1, 0(a1)
    csrr t2, mstatus
    addi s1, s1, 5
    add a0, a0, s1        /* next line: misses */
    addi a1, a1, 64
    .endr
    add a0, a0, t1
    andi a0, a0, 0x7ff
    main_return 0

    .bss
    .balign 64
buf: .space 1024
