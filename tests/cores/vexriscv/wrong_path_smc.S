/* wrong_path_smc.S -- wrong_path_use_hold's and wrong_path_read_late's
 * words (pc + 4, pc + 8 after a ret or a branch taken against its
 * prediction, past the end of the jump's block) rewritten by stores after
 * the block ran, with and without fence.i: the rules' decode of those words,
 * kept with the block (exec_loop.inc's wrong_path_uses), must follow the
 * bytes as a decode at every execution does.
 *   A  ret; lw, add of its result (held), three times; pc + 8 rewritten to
 *      an add of other registers (not held), three times; back, three times
 *   B  the same with fence.i after each store
 *   C  bge taken (forward: predicted not taken), lb before it; pc + 4
 *      rewritten from an or of the lb's result to one of other registers
 *      and back
 * A's and C's words are in a 256-byte chunk no code runs in: without
 * fence_i_late_flush (whose watch reaches them) no block is flushed by the
 * stores, and only the bytes' compare at every use sees them. */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0
    la s2, wordA
    lw s3, 0(s2)            /* add t4, a5, a0: reads the lw's result */
    la s4, other
    lw s4, 0(s4)            /* add t4, a6, a0: does not */
    .rept 3                 /* A */
    call leafA
    .endr
    sw s4, 0(s2)
    .rept 3
    call leafA
    .endr
    sw s3, 0(s2)
    .rept 3
    call leafA
    .endr
    la s2, wordB            /* B */
    .rept 3
    call leafB
    .endr
    sw s4, 0(s2)
    fence.i
    .rept 3
    call leafB
    .endr
    sw s3, 0(s2)
    fence.i
    .rept 3
    call leafB
    .endr
    la s2, wordC            /* C */
    lw s3, 0(s2)            /* or t4, a5, a0 */
    la s5, otherC
    lw s5, 0(s5)            /* or t4, a6, a0 */
    .rept 3
    call leafC
    .endr
    sw s5, 0(s2)
    .rept 3
    call leafC
    .endr
    sw s3, 0(s2)
    .rept 3
    call leafC
    .endr
    main_return 12, 1

    /* the ret in a 256-byte chunk's last word: pc + 4 and pc + 8 in the
     * next chunk, where no code runs, so no block watches them (block.c's
     * core_watch_set) and a store there flushes nothing */
    .p2align 8
    .skip 248
leafA:
    addi a3, a3, 1
    ret
    lw a5, 0(sp)
wordA:
    add t4, a5, a0
    nops 2
    .p2align 8

    at_word 2
leafB:
    addi a3, a3, 1
    ret
    lw a5, 0(sp)
wordB:
    add t4, a5, a0
    nops 2

    /* the same for the bge, its target in the chunk after */
    .p2align 8
    .skip 248
leafC:
    lb a5, 0(sp)
    bge a5, a5, 1f
wordC:
    or t4, a5, a0
    nops 2
    .p2align 8
    .skip 256
1:  ret

    .p2align 2
other:
    add t4, a6, a0
otherC:
    or t4, a6, a0
