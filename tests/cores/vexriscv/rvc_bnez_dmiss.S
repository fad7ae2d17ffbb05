/* rvc_bnez_dmiss.S -- a load that misses the D-cache, an instruction,
 * then a backward c.bnez, taken and predicted taken (static prediction:
 * it redirects from decode), to a line that misses ([pipeline]
 * fetch_ahead_data). rvc_jump_dmiss.S's shape with a branch in place of
 * the c.j. Case A: the target a 32-bit word at 0 mod 4. Case B: the
 * target a 32-bit instruction at 2 mod 4 ([pipeline]
 * redirect_split_target). Case C: the c.bnez at 2 mod 4. On
 * VexRiscv_IMAC.v's retire trace, in A and B the c.lw retires 3 cycles
 * later than a plain fill and the target's refill costs nothing, as after
 * a c.j (rvc_jump_dmiss.S); in C the target retires 22 cycles after the
 * c.bnez (W = 0): its refill is waited for in full. Each case runs
 * once a pass; between passes the driver evicts the case's load (a load
 * of the word 4 KiB on) and the target's line (a call to a ret at its
 * alias 4 KiB on): both caches are 4 KiB and direct-mapped. Built
 * rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal, exit 0x102). */
#include "vex.h"
    .option norelax
    .text
    .balign 4096
    .option push
    .option norvc
    main_entry 12
    dline_alias
    li s0, 4
pass:
    miss_call_evict_each a, b, c
    next_pass_return0
    .option pop

    /* A: the target a 32-bit ret at 0 mod 4, a line before */
    .org 0x3c0
    .option push
    .option norvc
back_a:
    ret
    .option pop
    .org 0x400
case_a:
    c.lw a3, 0(a1)
    c.mv a5, a1
    c.bnez a5, back_a
    c.nop

    /* B: the target a 32-bit instruction at 2 mod 4, a line before */
    .org 0x482
    .option push
    .option norvc
back_b:
    lw a4, 4(a1)
    ret
    .option pop
    .org 0x4c0
case_b:
    c.lw a3, 0(a1)
    c.mv a5, a1
    c.bnez a5, back_b
    c.nop

    /* C: the c.bnez at 2 mod 4 */
    .org 0x500
    .option push
    .option norvc
back_c:
    ret
    .option pop
    .org 0x540
case_c:
    c.nop
    c.lw a3, 0(a1)
    c.mv a5, a1
    c.bnez a5, back_c
    c.nop

    /* the aliases of each case's target line */
    ret_at evict_a, 0x13c0
    evict_rets 0x1480, 0x80, b, c

    dline_buf
