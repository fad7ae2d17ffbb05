/* amo_split_next.S -- an atomic at 2 mod 4 that misses the D-cache, the
 * 32-bit instruction after it split over the line's end onto a line that
 * misses: rand_23's lr.w, sc.w at 0x4000243a and amomin.w, sra at
 * 0x400021fa (rand_gen.py, VexRiscv_IMAC.v). A: lr.w at byte 26, the addi
 * after it at byte 30; B: amoadd.w there; C: lw there (a plain load, for
 * comparison). The driver evicts, before each case, the case's D-line (a
 * load of the word 4 KiB on) and the case's next I-line (a call to a ret
 * at its alias 4 KiB on): both caches are 4 KiB and direct-mapped. Built
 * rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal). */
#include "vex.h"
    fixed_layout
    dmiss_main
pass:
    evict_call_each a, b, c
    next_pass_return0

    /* A: lr.w at byte 26, addi at 30 split onto the next line */
    .org 0x400
case_a:
    nops 5
    rvc16 c.nop
    addi t6, a1, 0
    lr.w a3, (t6)
    addi t1, a0, 1
    ret

    /* B: amoadd.w at byte 26 */
    .org 0x480
case_b:
    nops 5
    rvc16 c.nop
    addi t6, a1, 0
    amoadd.w a3, s0, (t6)
    addi t1, a0, 1
    ret

    /* C: lw at byte 26 */
    .org 0x500
case_c:
    nops 5
    rvc16 c.nop
    addi t6, a1, 0
    lw a3, 0(t6)
    addi t1, a0, 1
    ret

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x80, a, b, c

    dline_buf
