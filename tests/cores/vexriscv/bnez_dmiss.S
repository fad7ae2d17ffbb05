/* bnez_dmiss.S -- rvc_bnez_dmiss.S in 32-bit words, which every variant
 * runs: a load that misses the D-cache, an addi (mv), then a backward
 * bnez, taken and predicted taken, to a line that misses ([pipeline]
 * fetch_ahead_data). Case A: the target a ret a line before; case B:
 * the target a load; case C: a nop before the case's load. On
 * VexRiscv_IMAC.v (fetch_ahead_insns 2) the target's refill passes during
 * the load's fill, as after a jal (main's tally: +192+96W). Each case
 * runs once a pass; between
 * passes the driver evicts the case's load (a load of the word 4 KiB on)
 * and the target's line (a call to a ret at its alias 4 KiB on): both
 * caches are 4 KiB and direct-mapped. */
#include "vex.h"
    .option norelax
    .option norvc
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

    /* A: the target a ret, a line before */
    .org 0x3c0
    .option push
    .option norvc
back_a:
    ret
    .option pop
    .org 0x400
case_a:
    lw a3, 0(a1)
    mv a5, a1
    bnez a5, back_a
    nop

    /* B: the target a load, a line before */
    .org 0x480
    .option push
    .option norvc
back_b:
    lw a4, 4(a1)
    ret
    .option pop
    .org 0x4c0
case_b:
    lw a3, 0(a1)
    mv a5, a1
    bnez a5, back_b
    nop

    /* C: a nop before the load */
    .org 0x500
    .option push
    .option norvc
back_c:
    ret
    .option pop
    .org 0x540
case_c:
    nop
    lw a3, 0(a1)
    mv a5, a1
    bnez a5, back_c
    nop

    /* the aliases of each case's target line */
    ret_at evict_a, 0x13c0
    evict_rets 0x1480, 0x80, b, c

    dline_buf
