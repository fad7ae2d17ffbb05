/* dmiss_fill_rvc0.S -- a 32-bit load at 0 mod 4 that misses the D-cache,
 * 16-bit instructions after it on its line, and the k-th after it first on
 * the next line, which misses: the fetch, running ahead, refills that line
 * beside the load's fill, and the load's redo waits for the refill
 * ([dcache] next_fill at 0 mod 4). The refill goes out 4 - k cycles
 * before the fill's first beat (seq_refill's), a cycle later when the
 * instruction right before the load is a 16-bit one at 2 mod 4, and never
 * after the fill's own cycle; the load retires 8 cycles after the refill's
 * last beat and the missing instruction a cycle after the one before it.
 * A: c.beqz at byte 20 predicted taken back, falling through, c.lwsp, lhu
 * at byte 24, c.add, c.lui, then c.add first on the next line (CoreMark's
 * main at 0x40000374 built rv32imac -O2); B: nops, lhu at byte 24, c.add,
 * c.lui, c.add first on the next line (the refill a cycle before the
 * fill); C: A's shape, c.nop in place of the branch; D: lw at byte 20,
 * c.add, c.lui, addi, c.add first on the next line (k = 4: the same
 * cycle); E: c.nop, c.nop, nop, then B's lhu (the 16-bit pair not right
 * before the load: as B); F: c.nop, c.nop, then D's lw (k = 4 after a
 * 16-bit one: the same cycle). The driver evicts, before each case, the
 * D-line the cases read (a load of the word 4 KiB on) and the case's next
 * I-line (a call to a ret at its alias 4 KiB on): both caches are 4 KiB
 * and direct-mapped. Built rv32imac; the other variants stop at its first
 * 16-bit instruction (illegal). */
#include "vex.h"
    fixed_layout
    dmiss_main
pass:
    evict_call_each a, b, c, d, e, f
    next_pass_return0

    /* A: c.beqz at byte 20 predicted taken back, falling through, c.lwsp,
     * lhu at byte 24, c.add, c.lui, then c.add first on the next line */
    ret_at back_a, 0x600
case_a:
    addi t6, a1, 0
    li a5, 4
    nops 2
    .option rvc
    c.beqz a5, back_a
    c.lwsp a4, 0(sp)
    .option norvc
    lhu a3, 0(t6)
    .option rvc
    c.add s1, a4
    c.lui a5, 1
    c.add s1, a5
    .option norvc
    ret

    /* B: lhu at byte 24 after nops, c.add, c.lui, c.add first on the
     * next line */
    .org 0x700
case_b:
    addi t6, a1, 0
    nops 5
    lhu a3, 0(t6)
    .option rvc
    c.add s1, a4
    c.lui a5, 1
    c.add s1, a5
    .option norvc
    ret

    /* C: c.nop, c.lwsp, lhu at byte 24, c.add, c.lui, c.add first on the
     * next line */
    .org 0x800
case_c:
    addi t6, a1, 0
    nops 4
    .option rvc
    c.nop
    c.lwsp a4, 0(sp)
    .option norvc
    lhu a3, 0(t6)
    .option rvc
    c.add s1, a4
    c.lui a5, 1
    c.add s1, a5
    .option norvc
    ret

    /* D: lw at byte 20, c.add, c.lui, addi, c.add first on the next line */
    .org 0x900
case_d:
    addi t6, a1, 0
    nops 4
    lw a3, 0(t6)
    .option rvc
    c.add s1, a4
    c.lui a5, 1
    .option norvc
    addi a5, a5, 1
    rvc16 c.add s1, a5
    ret

    /* E: c.nop, c.nop, nop, lhu at byte 24, c.add, c.lui, c.add first on
     * the next line */
    .org 0xa00
case_e:
    addi t6, a1, 0
    nops 3
    .option rvc
    c.nop
    c.nop
    .option norvc
    nop
    lhu a3, 0(t6)
    .option rvc
    c.add s1, a4
    c.lui a5, 1
    c.add s1, a5
    .option norvc
    ret

    /* F: c.nop, c.nop, lw at byte 20, c.add, c.lui, addi, c.add first on
     * the next line */
    .org 0xb00
case_f:
    addi t6, a1, 0
    nops 3
    .option rvc
    c.nop
    c.nop
    .option norvc
    lw a3, 0(t6)
    .option rvc
    c.add s1, a4
    c.lui a5, 1
    .option norvc
    addi a5, a5, 1
    rvc16 c.add s1, a5
    ret

    /* the aliases of each case's next line */
    evict_rets 0x1620, 0x100, a, b, c, d, e, f

    dline_buf
