/* dmiss_split_four.S -- a 32-bit load or atomic at 2 mod 4 that misses the
 * D-cache, three 32-bit instructions after it, then a 32-bit one split over
 * the line's end onto a line that misses (dmiss_split_next's k = 4):
 * rand_gen.py's rand_21 amomax.w, blt, or, lui, then divu split at
 * 0x400011ee (VexRiscv_IMAC.v). A: amomax.w at byte 14, blt not taken, or,
 * lui, the divu at byte 30; B: amoadd.w, addi, addi, addi, addi split;
 * C: lr.w, sc.w, addi, addi, addi split; D: lw, addi, addi, addi, then the
 * ret at byte 30. The driver evicts, before each case, the case's D-line (a
 * load of the word 4 KiB on) and the case's next I-line (a call to a ret at
 * its alias 4 KiB on): both caches are 4 KiB and direct-mapped. Built
 * rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal). */
#include "vex.h"
    fixed_layout
    dmiss_main
pass:
    evict_call_each a, b, c, d
    next_pass_return0

    /* A: amomax.w at byte 14, blt not taken, or, lui, divu at 30 split */
    .org 0x400
case_a:
    nops 2
    rvc16 c.nop
    addi t6, a1, 0
    amomax.w a3, s0, (t6)
    blt s0, zero, 1f
    or a4, a0, s0
    lui a5, 0xc2182
    divu t1, a2, s0
1:
    ret

    /* B: amoadd.w, addi, addi, addi, addi split */
    .org 0x480
case_b:
    nops 2
    rvc16 c.nop
    addi t6, a1, 0
    amoadd.w a3, s0, (t6)
    addi a4, s0, 2
    addi a5, s0, 3
    addi a6, s0, 4
    addi t1, a0, 1
    ret

    /* C: lr.w, sc.w, addi, addi, addi split */
    .org 0x500
case_c:
    nops 2
    rvc16 c.nop
    addi t6, a1, 0
    lr.w a3, (t6)
    sc.w a4, s0, (t6)
    addi a5, s0, -1
    addi a6, s0, 4
    addi t1, a0, 1
    ret

    /* D: lw, addi, addi, addi, then the ret split */
    .org 0x580
case_d:
    nops 2
    rvc16 c.nop
    addi t6, a1, 0
    lw a3, 0(t6)
    addi a4, s0, 2
    addi a5, s0, 3
    addi a6, s0, 4
    ret

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x80, a, b, c, d

    dline_buf
