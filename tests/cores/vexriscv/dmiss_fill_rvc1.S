/* dmiss_fill_rvc1.S -- dmiss_fill_rvc0.S's shape with the load first in
 * its block: a 32-bit load at 0 mod 4 that misses the D-cache right after
 * a conditional branch not taken, 16-bit instructions after it on its line,
 * and the 3rd after it first on the next line, which misses ([dcache]
 * next_fill at 0 mod 4, its instruction before the load carried from the
 * block before). G: c.beqz at byte 22 predicted not taken (forward), lhu
 * at byte 24; H: c.beqz at byte 22 predicted taken (back), falling
 * through, lhu at byte 24; I: a 32-bit beq at byte 20, forward, not taken,
 * lhu at byte 24; J: a jump from the next line but one to the lhu at
 * byte 24 (not in sequence). The driver evicts, before each case, the D-line the
 * cases read and the case's next I-line, as dmiss_fill_rvc0.S's does.
 * Built rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal). */
#include "vex.h"
    fixed_layout
    dmiss_main
pass:
    evict_call_each g, h, i, j
    next_pass_return0

    /* G: c.beqz at byte 22 predicted not taken (forward), not taken, then
     * lhu at byte 24 first in its block, c.add, c.lui, c.add first on the
     * next line */
    .org 0xc00
case_g:
    addi t6, a1, 0
    li a5, 4
    nops 3
    .option rvc
    c.nop
    c.beqz a5, fwd_g
    .option norvc
    lhu a3, 0(t6)
    .option rvc
    c.add s1, a4
    c.lui a5, 1
    c.add s1, a5
    .option norvc
fwd_g:
    ret

    /* H: c.beqz at byte 22 predicted taken (back), falling through, then
     * lhu at byte 24 first in its block, c.add, c.lui, c.add first on the
     * next line */
    ret_at back_h, 0xd00
case_h:
    addi t6, a1, 0
    li a5, 4
    nops 2
    .option rvc
    c.nop
    c.beqz a5, back_h
    .option norvc
    lhu a3, 0(t6)
    .option rvc
    c.add s1, a4
    c.lui a5, 1
    c.add s1, a5
    .option norvc
    ret

    /* I: beq at byte 20 (32-bit, forward), not taken, then lhu at byte 24
     * first in its block, c.add, c.lui, c.add first on the next line */
    .org 0xe00
case_i:
    addi t6, a1, 0
    li a5, 4
    nops 3
    beq a5, zero, fwd_i
    lhu a3, 0(t6)
    .option rvc
    c.add s1, a4
    c.lui a5, 1
    c.add s1, a5
    .option norvc
fwd_i:
    ret

    /* J: a jump from another line to the lhu at byte 24 (first in its
     * block, not in sequence), c.add, c.lui, c.add first on the next line */
    .org 0xf00
case_j:
    addi t6, a1, 0
    j to_j
    .org 0xf18
to_j_back:
    lhu a3, 0(t6)
    .option rvc
    c.add s1, a4
    c.lui a5, 1
    c.add s1, a5
    .option norvc
    ret
    .org 0xf40
to_j:
    j to_j_back

    /* the aliases of each case's next line */
    evict_rets 0x1c20, 0x100, g, h, i, j

    dline_buf
