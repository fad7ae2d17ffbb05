/* split_three_jal.S -- a 32-bit load at 2 mod 4 that misses the D-cache,
 * a 32-bit store, then a jal at byte 26 to byte 10 of the next line, which
 * misses, the word after the jal (byte 30, on the wrong path) split over
 * the line's end onto that line (dmiss_split_next's k = 3 with a jal as the
 * second between: split_three_jal): rand_gen.py's rand_11 rem, lbu, sh,
 * jal at 0x40000b2e and rand_21's lh, sb, jal at 0x40000892
 * (VexRiscv_IMAC.v). A: rem, lbu at byte 18, sh, jal; B: lh, sw, jal; each
 * jal's target lbu, srli, ret. Real instructions fill the wrong path up to
 * the target: zero halfwords there (illegal) cost the RTL a cycle more.
 * The driver evicts, before each case, the case's D-line (a load of the
 * word 4 KiB on) and the case's next I-line (a call to a ret at its alias
 * 4 KiB on): both caches are 4 KiB and direct-mapped. Built rv32imac; the
 * other variants stop at its first 16-bit instruction (illegal). */
#include "vex.h"
    fixed_layout
    dmiss_main
pass:
    evict_call_each a, b
    next_pass_return0

    /* A: rem, lbu at byte 18, sh, jal at 26 to the next line */
    .org 0x400
case_a:
    nops 2
    rvc16 c.nop
    addi t6, a1, 0
    rem a6, s0, t0
    lbu a3, 2(t6)
    sh a4, 64(t6)
    j 1f
    addi t1, a0, 1
    nops 2
    .org 0x42a
1:  lbu a5, 4(t6)
    srli t1, t6, 31
    ret

    /* B: lh at byte 18, sw, jal */
    .org 0x500
case_b:
    nops 3
    rvc16 c.nop
    addi t6, a1, 0
    lh a3, 2(t6)
    sw a4, 64(t6)
    j 1f
    addi t1, a0, 1
    nops 2
    .org 0x52a
1:  lbu a5, 4(t6)
    srli t1, t6, 31
    ret

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x100, a, b

    dline_buf
