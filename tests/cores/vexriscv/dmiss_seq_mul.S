/* dmiss_seq_mul.S -- a 32-bit load at 0 mod 4 that misses the D-cache,
 * then 32-bit ALU ops and a multiply on its line (no load, store or CSR
 * among them), the last before the missing one reading the load's
 * result, and the 4th after the load first on an I-cache line that
 * misses: the fetch, one word a cycle, sends that line's refill out in
 * the cycle of the fill's first beat, and the load's redo from the fetch
 * waits for it, as [dcache] redo_refill_wait's seq_refill has it for a
 * load, store or CSR between ([dcache] seq_mul). The shape of Embench
 * depthconv built rv32imac -O2 (DepthwiseConvPerChannel's lb, lb s2 at
 * 0x400000d0, addi, addi, mul of s2, then addi at 0x400000e0).
 * Cases: A lb, addi, addi, mul of the lb, then addi first on the next
 * line and an add of the mul (depthconv's); B lw, addi, mul, addi (the
 * mul reading nothing of the load); C lw, addi, addi, addi (ALU only);
 * D A after another load's fill (depthconv's lb, lb). Each case runs
 * once, its lines new. */
#include "vex.h"
    fixed_layout
    main_entry 12
    la s1, buf
    li a0, 0
    li t2, 3
    jal case_a
    jal case_b
    jal case_c
    jal case_d
    main_return 12, 1

    /* A: lb at word 4, addi, addi, mul of the lb, then addi first on the
     * next line */
    at_word 4
case_a:
    lb t0, 0(s1)
    addi t3, t2, 5
    addi t4, t2, 7
    mul t5, t3, t0
    addi t6, t4, 1
    add a0, a0, t5
    add a0, a0, t6
    ret

    /* B: lw at word 4, addi, mul (not of the lw), addi, then add first on
     * the next line */
    at_word 4
case_b:
    lw t0, 32(s1)
    addi t3, t2, 5
    mul t4, t3, t2
    addi t5, t2, 9
    add t6, t4, t5
    add a0, a0, t0
    add a0, a0, t6
    ret

    /* C: lw at word 4, addi, addi, addi, then add first on the next line */
    at_word 4
case_c:
    lw t0, 64(s1)
    addi t3, t2, 5
    addi t4, t2, 7
    addi t5, t2, 9
    add t6, t4, t5
    add a0, a0, t0
    add a0, a0, t6
    ret

    /* D: A right after another load's fill (lb, lb of depthconv) */
    at_word 3
case_d:
    lb t1, 96(s1)
    lb t0, 128(s1)
    addi t3, t2, 5
    addi t4, t2, 7
    mul t5, t3, t0
    addi t6, t4, 1
    add a0, a0, t5
    add a0, a0, t6
    add a0, a0, t1
    ret

    .data
    .balign 32
buf:
    .rept 192 / 4
    .word 1
    .endr
