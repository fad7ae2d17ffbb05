/* csr_refill.S -- a CSR instruction first on an I-cache line that misses
 * ([pipeline] refill_drains_csr): the instructions ahead of it leave
 * memory and write-back during the refill, so its wait in execute for
 * them (csr_penalty, CsrPlugin) may pass during it. Each case runs once,
 * its lines cold: the instruction before the CSR one is the last of its
 * line, the CSR instruction the first of the next, its result used at once
 * (masked to 0: the variants' CSR values differ, the exit code does not).
 * Straight-line code; a jal to a CSR instruction on a missing line last. */
#include "vex.h"
    fixed_layout

/* csrr of CSR, its value masked to 0 and added to a0 */
    .macro csr_use csr
    csrr a1, \csr
    andi a2, a1, 0
    add a0, a0, a2
    .endm

    main_entry 12
    la s1, buf
    lw t0, 0(s1)            /* buf's line in the D-cache */
    li a0, 0

    /* A: an addi, then csrr of mstatus */
    at_word 7
    addi a0, a0, 1
    csr_use mstatus

    /* B: a load that hits, then csrr of mtvec */
    at_word 7
    lw t1, 4(s1)
    csr_use mtvec
    add a0, a0, t1

    /* C: a shift (a late result), then csrr of mstatus */
    at_word 7
    slli t2, a0, 3
    csrr a1, mstatus
    andi a2, a1, 0
    add a0, a0, t2

    /* D: csrr, then csrw of mepc (write, then read back) */
    at_word 7
    csrr t3, mepc
    csrw mepc, a0
    csr_use mepc

    /* E: a store, then csrr of mcause */
    at_word 7
    sw a0, 8(s1)
    csr_use mcause
    andi t3, t3, 0
    add a0, a0, t3

    /* F: a jal in a line's last word to a CSR instruction first on a
     * missing line */
    at_word 7
    jal x0, f_target
    .balign 32
    nop
    .balign 32
f_target:
    csr_use mstatus

    main_return 12

    .data
    .balign 32
buf:
    .word 3, 5, 7, 11
