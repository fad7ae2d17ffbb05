/* wbuf_replay.S -- a load that hits the D-cache replayed after a store of
 * its word ([dcache] store_load_replay) with another store between them
 * that waits for the write buffer (W >= 1): the wait freezes the pipeline
 * behind the store that waits, so the load still meets the older store's
 * write, as without the wait (sglib-combined's list loop: sw a4, 8(a0);
 * sw a0, 8(a5), which waits; lw a5, 8(a0)). Each case's words are loaded
 * once before the loop, so every store and load hits; each case fills one
 * 32-byte line. */
#include "vex.h"
    fixed_layout
    main_entry
    la a1, buf
    li s0, 40
    li a0, 1
    lw t0, 0(a1)
    lw t0, 32(a1)
    j 1f
    .balign 32
1:
    /* A: sw, sw X, sw (waits at W >= 1), lw X */
    sw a0, 0(a1)
    sw a0, 4(a1)
    sw a0, 8(a1)
    lw a3, 4(a1)
    add a0, a0, a3
    nops 3
    /* B: lw, sw Y, sw X (load-use), sw Y (waits), lw X: sglib's */
    lw a4, 12(a1)
    sw a0, 16(a1)
    sw a4, 20(a1)
    sw a0, 12(a1)
    lw a3, 20(a1)
    add a0, a0, a3
    nops 2
    addi s0, s0, -1
    bnez s0, 1b
    andi a0, a0, 0x7ff
    ret
    .data
    .balign 32
buf:
    .fill 16, 4, 0
