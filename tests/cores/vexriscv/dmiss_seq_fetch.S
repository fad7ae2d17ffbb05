/* dmiss_seq_fetch.S -- a load that misses the D-cache, then in sequence on
 * its line instructions that neither jump nor branch, one of them a load,
 * a store or a CSR read, and the k-th after the load (k = 2..4) first on
 * an I-cache line that misses: the fetch, one word a cycle, sends that
 * line's refill out during the load's fill, and the load's redo from the
 * fetch waits for it ([dcache] redo_refill_wait's seq_refill). The shapes
 * of rand_gen.py's rand_11 at 0x40000dd0 (lb, sub, csrr, sb, lw) and
 * 0x40000e74 (lbu, srl, lhu, jal) on VexRiscv_IMAC.v. Cases: A lb, sub,
 * csrr, sb, then lw first on the next line (k = 4); B lbu, srl, lhu (a
 * hit), then jal (k = 3); C lw, sw, addi, then add (k = 3); D A with
 * the lw missing the D-cache too (rand_11's lb at 0x40000dd0 itself).
 * Each case runs once, its lines new. */
#include "vex.h"
    fixed_layout
    main_entry 12
    la s1, buf
    li a0, 0
    lw t2, 0(s1)  /* buf's first line in the D-cache: B's lhu hits */
    call_cases a, b, c, d
    main_return 12, 1

    /* A: lb at word 4, sub, csrr, sb, then lw first on the next line */
    at_word 4
case_a:
    lb t0, 32(s1)
    sub t3, t2, a0
    csrr t4, mscratch
    sb t3, 4(s1)
    lw t1, 8(s1)
    add a0, a0, t0
    add a0, a0, t1
    ret

    /* B: lbu at word 5, srl, lhu (a hit), then jal first on the next line */
    at_word 5
case_b:
    lbu t0, 64(s1)
    srl t3, t2, a0
    lhu t1, 12(s1)
    jal t5, 1f
1:  add a0, a0, t0
    add a0, a0, t1
    ret

    /* C: lw at word 5, sw, addi, then add first on the next line
     * (k = 3) */
    at_word 5
case_c:
    lw t0, 96(s1)
    sw t2, 16(s1)
    addi t3, t2, 5
    add t4, t3, t2
    add a0, a0, t0
    ret

    /* D: A with lw missing the D-cache too */
    at_word 4
case_d:
    lb t0, 128(s1)
    sub t3, t2, a0
    csrr t4, mscratch
    sb t3, 4(s1)
    lw t1, 160(s1)
    add a0, a0, t0
    add a0, a0, t1
    ret

    word_buf 192
