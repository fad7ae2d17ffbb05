/* amo_seq_fetch.S -- an AMO that misses the D-cache, 32-bit at 0 mod 4,
 * then in sequence on its line 32-bit instructions that neither jump nor
 * branch, one of them a store, and the k-th after the AMO (k = 3, 4) first
 * on an I-cache line that misses: the fetch sends that line's refill out
 * during the AMO's fill and the AMO's redo waits for it, as a load's
 * ([dcache] redo_refill_wait's seq_refill, dmiss_seq_fetch.S). The shapes
 * of rand_gen.py's rand_7 at 0x40000434 (amoand.w, sh to IO, sh, srl) and
 * rand_24 at 0x40002e10 (amoswap.w, lui, addi, sh, srai) on
 * VexRiscv_IMAC.v. Cases: A amoand.w, sh to IO, sh (the write buffer
 * full: a wait), then srl first on the next line (k = 3); B amoswap.w,
 * lui, addi, sh, then srai (k = 4). Each case runs once, its lines new. */
#include "vex.h"
    fixed_layout
    main_entry 12
    la s1, buf
    li s5, IO_SCRATCH
    li a0, 0
    lw t2, 0(s1)
    jal case_a
    jal case_b
    main_return 12, 1

    /* A: amoand.w at word 5, sh to IO, sh, then srl first on the next line */
    at_word 4
case_a:
    addi t6, s1, 32
    amoand.w a4, t6, (t6)
    sh a2, 16(s5)
    sh a6, 8(s1)
    srl a1, t6, a3
    add a0, a0, a4
    ret

    /* B: amoswap.w at word 4, lui, addi, sh, then srai first on the next line */
    at_word 3
case_b:
    addi t6, s1, 64
    amoswap.w s2, a1, (t6)
    lui t4, 0x465d2
    addi t1, t6, 138
    sh a5, 12(s1)
    srai t0, t3, 26
    add a0, a0, s2
    ret

    word_buf 128
