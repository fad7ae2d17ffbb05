/* predicted_dmiss.S -- a load that misses the D-cache right before a
 * branch predicted taken (backward) in its line's last word, which falls
 * through to the next line, missing ([pipeline] predicted_target_fill with
 * taken_path_fill and fetch_ahead_data). The fetch stage looks up the word
 * after the branch, on the next line, as it goes on in sequence: its refill
 * runs during the load's D-cache fill, and the fall-through finds its line
 * filled (rand_gen.py's rand_24 at 0x40001b78 on VexRiscv_IMAC.v's bus and
 * retire traces at W = 0: lbu that misses, then bnez zero back to it; the
 * next line's refill starts 2 cycles before the lbu's fill, and the
 * fall-through retires 4 cycles after the bnez, its misprediction alone).
 * Case A: lbu, then the bne. Case B: lw, addi, then the bne. Each case
 * runs once a pass; between passes the driver evicts the load's line (a
 * load 4 KiB on) and the next line (a call to a ret at its alias 4 KiB
 * on): both caches are 4 KiB and direct-mapped. */
#include "vex.h"
    .option norelax
    .text
    .balign 4096
    main_entry 12
    dline_alias
    li s0, 4
pass:
    lw t1, 0(a2)
    jal case_a
    jal evict_a
    lw t1, 0(a2)
    jal case_b
    jal evict_b
    addi s0, s0, -1
    bnez s0, pass
    lw ra, 12(sp)
    addi sp, sp, 16
    li a0, 0
    ret

    /* A: lbu that misses, bne zero back to it in the line's last word */
    .org 0x400
case_a:
    nops 6
1:  lbu a3, 1(a1)
    bne zero, zero, 1b
    addi t1, t1, 1
    ret

    /* B: lw that misses, addi, bne zero back in the line's last word */
    .org 0x480
case_b:
    nops 5
1:  lw a3, 4(a1)
    addi a4, a4, 1
    bne zero, zero, 1b
    addi t1, t1, 1
    ret

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x80, a, b

    dline_buf
