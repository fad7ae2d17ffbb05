/* replay_refill_line.S -- a store, then a load of the word it wrote
 * (store_load_replay: redone from write-back), then the k-th instruction
 * after the load (k = 1, 2, 3) first on a line that misses the I-cache,
 * and the same right after a load that missed the D-cache (coremark's
 * main at 0x400004dc on VexRiscv.v: sw, lw, then lh first on a missing
 * line; xgboost's lbu that misses, sw, lw, sub, seqz, then add first on
 * a missing line at 0x40000120). The fetch stage sends that refill out
 * while the load is being replayed, and the load's redo waits for it.
 * Each case on lines of its own, an ALU op and a load first on the
 * missing line; after the D-cache miss only k = 2 and 3 (at k = 1 the
 * missing word is the third after the load that missed, within
 * refill_refetch's reach). And k = 2 with the ALU op between reading the
 * load's result (hazards.S's lw, andi, add): its wait in decode holds the
 * refill back until the redo. */
#include "vex.h"
    fixed_layout
    main_entry 0
    la t6, vals
    lw t0, 0(t6)
    li s5, 0
    li a1, 3
    la t4, far
    li a3, 0
    /* k = 1 */
    at_word 6
    sw a1, 0(t6)
    lw a2, 0(t6)
    add s5, s5, a2
    add s5, s5, a3
    add s5, s5, a4
    /* k = 1 */
    at_word 6
    sw a1, 0(t6)
    lw a2, 0(t6)
    lh a3, 4(t6)
    add s5, s5, a3
    add s5, s5, a4
    /* k = 2 */
    at_word 5
    sw a1, 0(t6)
    lw a2, 0(t6)
    addi a1, a1, 1
    add s5, s5, a2
    add s5, s5, a3
    add s5, s5, a4
    /* k = 2 */
    at_word 5
    sw a1, 0(t6)
    lw a2, 0(t6)
    addi a1, a1, 1
    lh a3, 4(t6)
    add s5, s5, a3
    add s5, s5, a4
    /* k = 3 */
    at_word 4
    sw a1, 0(t6)
    lw a2, 0(t6)
    addi a1, a1, 1
    xori a5, a1, 5
    add s5, s5, a2
    add s5, s5, a3
    add s5, s5, a4
    /* k = 3 */
    at_word 4
    sw a1, 0(t6)
    lw a2, 0(t6)
    addi a1, a1, 1
    xori a5, a1, 5
    lh a3, 4(t6)
    add s5, s5, a3
    add s5, s5, a4
    /* k = 2, the one between reading the load's result: no early refill */
    at_word 5
    sw a1, 0(t6)
    lw a2, 0(t6)
    andi a5, a2, 60
    add s5, s5, a1
    add s5, s5, a5
    /* k = 2, after a D-cache miss */
    at_word 4
    lbu a4, 96(t4)
    sw a1, 0(t6)
    lw a2, 0(t6)
    addi a1, a1, 1
    add s5, s5, a2
    add s5, s5, a3
    add s5, s5, a4
    /* k = 2, after a D-cache miss */
    at_word 4
    lbu a4, 128(t4)
    sw a1, 0(t6)
    lw a2, 0(t6)
    addi a1, a1, 1
    lh a3, 4(t6)
    add s5, s5, a3
    add s5, s5, a4
    /* k = 3, after a D-cache miss */
    at_word 3
    lbu a4, 160(t4)
    sw a1, 0(t6)
    lw a2, 0(t6)
    addi a1, a1, 1
    xori a5, a1, 5
    add s5, s5, a2
    add s5, s5, a3
    add s5, s5, a4
    /* k = 3, after a D-cache miss */
    at_word 3
    lbu a4, 192(t4)
    sw a1, 0(t6)
    lw a2, 0(t6)
    addi a1, a1, 1
    xori a5, a1, 5
    lh a3, 4(t6)
    add s5, s5, a3
    add s5, s5, a4
    mv a0, s5
    main_return 0, mask=1
    .data
vals:
    .word 1, 2
    .balign 32
far:
    .rept 64
    .word 0x01020304
    .endr
