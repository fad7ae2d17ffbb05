/* split_next_use.S -- a load at 2 mod 4 that misses the D-cache, the
 * 32-bit instruction after it split over the line's end onto a line that
 * misses and reading the load's result: Embench xgboost's predict() at
 * 0x4000019a (rv32imac -O2, VexRiscv_IMAC.v): lbu a3, then slli a4, a3, 24
 * split onto the next line. A: lbu, slli of its result; B: lw, addi of its
 * result; C: lw, addi of another register (amo_split_next.S's case C, for
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

    /* A: lbu at byte 26, slli of its result at 30 split onto the next line */
    .org 0x400
case_a:
    nops 5
    rvc16 c.nop
    addi t6, a1, 0
    lbu a3, 1(t6)
    slli a4, a3, 24
    ret

    /* B: lw at byte 26, addi of its result */
    .org 0x480
case_b:
    nops 5
    rvc16 c.nop
    addi t6, a1, 0
    lw a3, 0(t6)
    addi t1, a3, 1
    ret

    /* C: lw at byte 26, addi of another register */
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
