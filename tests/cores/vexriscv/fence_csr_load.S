/* fence_csr_load.S -- a CSR instruction two after fence.i, fetched after
 * the flush (fence_csr2.S's fact), after a load right after fence.i that
 * hits the D-cache or reads a device (found on the RTL's retire trace of
 * rand_gen.py's std programs: rand_43's fence.i, lhu that hits, csrrs of
 * mtvec at 0x400046c0; rand_34's fence.i, lh from IO, csrrs of mtvec at
 * 0x400027b0). Each case three times in a loop:
 * - H: fence.i, lw that hits, csrr of mie, on one line;
 * - D: fence.i, lh from IO, csrr, on one line;
 * - N: fence.i in its line's second-last word, lw that hits, csrr first
 *   on the next line;
 * - E: fence.i in its line's second-last word, lh from IO, csrr first on
 *   the next line;
 * - M (control): fence.i, lw that misses (a new line each pass), csrr, on
 *   one line. */
#include "vex.h"
    fixed_layout
    main_entry 0
    la s2, fcl_buf
    li s5, IO_SCRATCH
    li a0, 0
    lw t0, 0(s2)
    li s8, 3
    j loop_h

    .balign 32
loop_h:
    addi a0, a0, 1
    nop
    nop
    fence.i
    lw t1, 4(s2)
    csrr t3, mie
    add a0, a0, t3
    addi s8, s8, -1
    bne s8, zero, loop_h
    li s8, 3
    j loop_d

    .balign 32
loop_d:
    addi a0, a0, 1
    nop
    nop
    fence.i
    lh t1, 52(s5)
    csrr t3, mie
    add a0, a0, t3
    addi s8, s8, -1
    bne s8, zero, loop_d
    li s8, 3
    j loop_n

    .balign 32
loop_n:
    addi a0, a0, 1
    nop
    nop
    nop
    nop
    nop
    fence.i
    lw t1, 4(s2)
    csrr t3, mie
    add a0, a0, t3
    addi s8, s8, -1
    bne s8, zero, loop_n
    li s8, 3
    j loop_e

    .balign 32
loop_e:
    addi a0, a0, 1
    nop
    nop
    nop
    nop
    nop
    fence.i
    lh t1, 52(s5)
    csrr t3, mie
    add a0, a0, t3
    addi s8, s8, -1
    bne s8, zero, loop_e
    li s8, 3
    addi s3, s2, 64
    j loop_m

    .balign 32
loop_m:
    addi a0, a0, 1
    addi s3, s3, 64
    nop
    fence.i
    lw t1, 0(s3)
    csrr t3, mie
    add a0, a0, t3
    addi s8, s8, -1
    bne s8, zero, loop_m
    main_return 0, mask=1

    .bss
    .balign 32
fcl_buf:
    .space 512
