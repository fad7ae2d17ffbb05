/* jit_jump_csr.S -- the cached VexRiscv models under the translator
 * (jit.c, jit_vexc.c; litex board): jumps whose target is a CSR
 * instruction. A CSR instruction at a redirect's target drains its stall
 * against the redirect's end (timing_csr_drain), which the jump's rule
 * notes at NOW. The translated jal and jalr rules note it inline, where
 * NOW must be the block's running cycle count: tm->cycle is stored only at
 * calls and lags behind an entry charged inline. Each round: a jal onto a
 * csrr, a call whose return lands on a csrr, a jalr through a register
 * onto a csrrs, each after blocks that entered inline. api.engines.timed-
 * vexriscv* run it under both engines: cycles and every count must be the
 * same. */
    .section .text.start
    .globl _start
_start:
    li s0, 40               # rounds
    li s1, 0
    li t0, 3
    csrw mscratch, t0
    la s2, 3f
1:  addi s1, s1, 1
    j 2f
    .balign 16
2:  csrr t0, mscratch       # a jal's target
    add s1, s1, t0
    call leaf
    csrr t1, mstatus        # a return's target
    andi t1, t1, 0
    add s1, s1, t1
    jalr ra, s2             # an indirect jump's target
    csrrs t2, mscratch, zero
    add s1, s1, t2
    addi s0, s0, -1
    bnez s0, 1b
    li t1, 40 * 11          # addi 1, mscratch 3, leaf 3, 3f 1, mscratch 3
    bne s1, t1, 5f
    li t1, 0x5555           # finisher: pass
    j 6f
    .balign 16
3:  csrr t3, mscratch       # s2's target
    addi s1, s1, 1
    ret
    .balign 64
leaf:
    li t0, 3
    csrw mscratch, t0
    addi s1, s1, 3
    ret
5:  li t1, 0x10000 | 0x3333 # finisher: fail with status 1
6:  li t0, 0xF0000000
    sw t1, 0(t0)
7:  j 7b
