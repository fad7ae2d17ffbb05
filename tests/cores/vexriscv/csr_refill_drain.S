/* csr_refill_drain.S -- a CSR instruction right after a mispredicted
 * branch (its csr_penalty passes during the redirect's bubbles: csr_drain),
 * then, one or two instructions after it, a 32-bit instruction at a line's
 * last halfword whose second half is on a line that misses (fetch_carry's
 * drained: the CSR instruction's wait, taken back, holds the fetch no more,
 * so none of the refill passes during it). Each case: a loop of three
 * passes on its own line (lbu that hits, sll, addi, c.addi, bnez taken
 * backward, mispredicted as it falls through), then the case's
 * instructions, the next line cold. A: csrr of mstatus, auipc, then addi
 * at the line's last halfword (rand_gen.py's rand_23 built rv32imac at
 * 0x40001612). B: A with an addi in the csrr's place. C: csrr of
 * mstatus, then addi at the line's last halfword. D: C with an addi in
 * the csrr's place. Built rv32imac; the other variants stop at its first
 * 16-bit instruction (illegal). */
#include "vex.h"
    fixed_layout

/* a case: the loop, then `first` and the instructions up to the one at
 * the line's last halfword (two: with the auipc; one: without) */
    .macro drain_case first, two
    .balign 32
    .option rvc
    c.nop
    c.li s8, 3
1:  lbu t6, 4(s2)
    sll a5, t0, t1
    addi a5, t3, -11
    c.addi s8, -1
    .if \two
    bnez s8, 1b
    \first
    auipc t6, 0
    addi t6, t6, 300
    .else
    c.nop
    c.nop
    bnez s8, 1b
    \first
    addi t6, tp, 300
    .endif
    .option norvc
    andi t6, t6, 0
    add a0, a0, t6
    nops 8
    .endm

    main_entry 12
    la s2, buf
    lw t0, 0(s2)            /* buf's line in the D-cache */
    li a0, 0
    drain_case "csrr tp, mstatus", 1        /* A */
    drain_case "addi tp, zero, 500", 1      /* B */
    drain_case "csrr tp, mstatus", 0        /* C */
    drain_case "addi tp, zero, 500", 0      /* D */
    main_return 12

    .data
    .balign 32
buf:
    .word 1, 2, 3, 4, 5, 6, 7, 8
