/* dmiss_next_fill.S -- a 32-bit load at 2 mod 4 that misses the D-cache
 * while the fetch, running ahead, reaches the next line, which misses:
 * its refill goes out on the I-bus beside the load's fill, and the load's
 * redo (its refetch as two words) waits for it. A: lw at byte 22, c.slli,
 * c.addi, then c.bnez at byte 30 taken back (predicted taken): the next
 * line is only looked up (Embench huffbench's compdecomp at 0x40000416,
 * rv32imac -O2); B: lw at byte 18, lw, c.lw, lw at byte 28, then a lw
 * first on the next line, run (sglib-combined's benchmark_body at
 * 0x40000a72). (huffbench's memcmp at 0x40000812, lbu, lbu, beq back at
 * byte 26, a 32-bit sub split over the line's end, is left out: 1 short
 * in its first pass after the rule, not lined up.) The driver evicts,
 * before each case, the D-line the cases read (a load of the word 4 KiB
 * on) and the case's next I-line (a call to a ret at its alias 4 KiB
 * on): both caches are 4 KiB and direct-mapped. Built rv32imac; the other
 * variants stop at its first 16-bit instruction (illegal). */
#include "vex.h"
    fixed_layout
    dmiss_main
pass:
    evict_call_each a, b
    next_pass_return0

    /* A: lw at byte 22, c.slli, c.addi, c.bnez at byte 30 taken back */
    ret_at back_a, 0x408
case_a:
    addi t6, a1, 0
    nop
    rvc16 c.nop
    lw a5, 0(t6)
    .option rvc
    c.slli a4, 1
    c.addi a2, 0
    c.bnez a5, back_a
    .option norvc

    /* B: lw at byte 18, lw, c.lw, lw at byte 28, lw first on the next
     * line */
    .org 0x500
case_b:
    addi t6, a1, 0
    nops 3
    rvc16 c.nop
    lw a3, 0(t6)
    lw a4, 4(t6)
    rvc16 c.lw a5, 8(a1)
    lw t2, 12(t6)
    lw t3, 16(t6)
    ret

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x100, a, b

    dline_buf
