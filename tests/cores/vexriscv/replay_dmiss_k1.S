/* replay_dmiss_k1.S -- a load that misses the D-cache, a store, a load of
 * the word it wrote (store_load_replay), then the word right after that
 * load first on a line that misses the I-cache: the missing word is the
 * third after the load that missed, within refill_refetch's reach on
 * VexRiscv.v (its refill out during that load's fill), and the first after
 * the replayed load (replay_refill_line's k = 1). An ALU op and a load first
 * on the missing line, each on lines of their own. */
#include "vex.h"
    fixed_layout
    main_entry 0
    la t6, vals
    lw t0, 0(t6)
    li s5, 0
    li a1, 3
    la t4, far
    li a3, 0
    /* ALU op first on the missing line */
    at_word 5
    lbu a4, 96(t4)
    sw a1, 0(t6)
    lw a2, 0(t6)
    add s5, s5, a4
    add s5, s5, a2
    add s5, s5, a3
    /* a load first on the missing line */
    at_word 5
    lbu a4, 128(t4)
    sw a1, 0(t6)
    lw a2, 0(t6)
    lh a3, 4(t6)
    add s5, s5, a3
    add s5, s5, a4
    /* the same with an addi before the lbu's line ends: the word the lbu's
     * fourth, out of that reach (replay_refill_line's own case) */
    at_word 4
    lbu a4, 160(t4)
    sw a1, 0(t6)
    lw a2, 0(t6)
    addi a1, a1, 1
    add s5, s5, a2
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
