/* dmiss_csr_line.S -- a load that misses the D-cache, then a CSR
 * instruction first on a line not in the I-cache, within the three words
 * after the load (rand_gen.py's std rand_43: lhu, srli, srl, then csrr of
 * mie at 0x40002720, and lhu, sltu, lui, csrr of mstatus at 0x40003fa0;
 * rand_44: lh, or, csrr of mie at 0x40000820). The CSR instruction's line
 * is refilled while the load waits for its fill, before the load's redo:
 * the CSR instruction's wait for the instructions ahead to be written back
 * comes after the redo, in full, as after a hit. Each case three times,
 * each on lines of its own, every load on a D-cache line of its own.
 * A: lhu, xor, addi, csrr (the csrr the third word after the load).
 * B: lh, or, csrr (the second).
 * C: lw, csrr (the first).
 * D: lhu, sltu, lui, csrr, csrr. */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0
    la a1, buf
    .irp c, a, b, c, d
    .irp n, 1, 2, 3
    call \c\n
    addi a1, a1, 64
    .endr
    .endr
    main_return 12, 1

    .irp n, 1, 2, 3
    at_word 5
a\n:
    lhu t4, 0(a1)
    xor t1, a1, a1
    addi t2, a1, 1
    csrr tp, mie
    addi tp, tp, 1
    addi a0, a0, 1
    ret
    .balign 32
    nops 8
    .endr
    .irp n, 1, 2, 3
    at_word 6
b\n:
    lh t4, 0(a1)
    or t1, a1, a1
    csrr tp, mie
    addi tp, tp, 1
    addi a0, a0, 1
    ret
    .balign 32
    nops 8
    .endr
    .irp n, 1, 2, 3
    at_word 7
c\n:
    lw t4, 0(a1)
    csrr tp, mie
    addi tp, tp, 1
    addi a0, a0, 1
    ret
    .balign 32
    nops 8
    .endr
    .irp n, 1, 2, 3
    at_word 5
d\n:
    lhu t4, 0(a1)
    sltu t1, a1, a0
    lui t2, 0xc36ac
    csrr tp, mstatus
    csrr tp, mie
    addi a0, a0, 1
    ret
    .balign 32
    nops 8
    .endr
    .bss
    .balign 64
buf: .space 1024
