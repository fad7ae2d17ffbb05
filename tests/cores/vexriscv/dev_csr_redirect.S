/* dev_csr_redirect.S -- a jump that redirects from memory (a branch taken
 * against its not-taken prediction, a ret) right after a load from a
 * device, a CSR instruction on its wrong path (rand_gen.py's std rand_43
 * at 0x40000780: lhu from IO, bne taken forward, csrr of mie). The load
 * waits in write-back for the device with the jump stuck in memory behind
 * it, and VexRiscv.v's BranchPlugin redirects (and flushes execute) in
 * every cycle of that wait: the CSR instruction is gone from execute when
 * the load leaves, and the target is fetched as after any other wrong-path
 * word (csr_drain's cycle not charged). Three times each:
 *   A  lhu from IO, bne taken forward, csrr, addi
 *   B  the same with a ret (leafB: lhu from IO, ret, csrr)
 * and three controls, exact without the rule:
 *   C  lw that hits, bne taken forward, csrr (the cycle charged)
 *   D  lhu from IO, addi, bne taken forward, csrr (the cycle charged)
 *   E  lhu from IO, bne taken forward, addi (no CSR instruction) */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0
    li a1, IO_SCRATCH
    .rept 3                 /* A */
    at_word 1
    lhu t0, 52(a1)
    bne a1, zero, 1f
    csrr tp, mie
    addi tp, tp, 1
    nops 1
1:  addi a3, a3, 1
    .endr
    call leafB              /* its line cached */
    .rept 3                 /* B */
    call leafB
    bne zero, zero, .
    .endr
    .rept 3                 /* C */
    at_word 1
    lw t0, 0(sp)
    bne a1, zero, 1f
    csrr tp, mie
    addi tp, tp, 1
    nops 1
1:  addi a3, a3, 1
    .endr
    .rept 3                 /* D */
    at_word 1
    lhu t0, 52(a1)
    addi a4, a4, 1
    bne a1, zero, 1f
    csrr tp, mie
    addi tp, tp, 1
    nops 1
1:  addi a3, a3, 1
    .endr
    .rept 3                 /* E */
    at_word 1
    lhu t0, 52(a1)
    bne a1, zero, 1f
    addi tp, tp, 1
    addi tp, tp, 1
    nops 1
1:  addi a3, a3, 1
    .endr
    add a0, a3, a4
    main_return 12, 1

    at_word 2
leafB:
    lhu t0, 52(a1)
    ret
    csrr tp, mie
    addi tp, tp, 1
