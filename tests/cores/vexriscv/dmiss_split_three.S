/* dmiss_split_three.S -- a 32-bit load or atomic at 2 mod 4 that misses the
 * D-cache, two 32-bit instructions after it, then a 32-bit one split over
 * the line's end onto a line that misses (dmiss_split_next's k = 3):
 * rand_gen.py's rand_21 lh, xor, sll, sw at 0x40000412, lr.w, sc.w, addi,
 * bne at 0x40001272 and fence_split_load.S's lw ra, addi, andi, ret
 * (VexRiscv_IMAC.v). A: lh at byte 18, xor, sll, the addi at byte 30; B:
 * lr.w, sc.w, addi, addi; C: amoadd.w, addi, addi, addi; D: lw, addi,
 * addi, then the ret at byte 30. The driver evicts, before each case, the
 * case's D-line (a load of the word 4 KiB on) and the case's next I-line (a
 * call to a ret at its alias 4 KiB on): both caches are 4 KiB and
 * direct-mapped. Built rv32imac; the other variants stop at its first
 * 16-bit instruction (illegal). */
#include "vex.h"
    fixed_layout
    dmiss_main
pass:
    evict_call_each a, b, c, d
    next_pass_return0

    /* A: lh at byte 18, xor, sll, addi at 30 split onto the next line */
    .org 0x400
case_a:
    nops 3
    rvc16 c.nop
    addi t6, a1, 0
    lh a3, 2(t6)
    xor a4, a0, s0
    sll a5, s0, a0
    addi t1, a0, 1
    ret

    /* B: lr.w, sc.w, addi, addi split */
    .org 0x480
case_b:
    nops 3
    rvc16 c.nop
    addi t6, a1, 0
    lr.w a3, (t6)
    sc.w a4, s0, (t6)
    addi a5, s0, -1
    addi t1, a0, 1
    ret

    /* C: amoadd.w, addi, addi, addi split */
    .org 0x500
case_c:
    nops 3
    rvc16 c.nop
    addi t6, a1, 0
    amoadd.w a3, s0, (t6)
    addi a4, s0, 2
    addi a5, s0, 3
    addi t1, a0, 1
    ret

    /* D: lw, addi, addi, then the ret split */
    .org 0x580
case_d:
    nops 3
    rvc16 c.nop
    addi t6, a1, 0
    lw a3, 0(t6)
    addi a4, s0, 2
    addi a5, s0, 3
    ret

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x80, a, b, c, d

    dline_buf
