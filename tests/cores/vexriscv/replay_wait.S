/* replay_wait.S -- a load that hits the D-cache replayed after a store of
 * its word ([dcache] store_load_replay) while the third instruction after
 * it waits in decode for the late result of the second ([dcache]
 * replay_decode_wait): the redo from write-back costs a cycle more
 * (nettle-sha256's compress loop: sw, lw, lw of the stored word, srli, slli,
 * or of the slli's result). Each case's words are loaded once before the
 * loop, so every store and load hits; each case fills one 32-byte line, so
 * that the first pass's I-cache misses come before its store, not after
 * the replayed load. */
#include "vex.h"
    fixed_layout
    main_entry
    la a1, buf
    la t4, other
    li s0, 40
    li a0, 1
    lw t0, 0(a1)
    lw t0, 32(a1)
    lw t0, 0(t4)
    j 1f
    .balign 32
1:
    /* A: sw X, lw Y, lw X, then srli, slli, or of the slli's result */
    sw a0, 12(a1)
    lw s1, 4(t4)
    lw s9, 12(a1)
    srli s11, t0, 7
    slli a4, t0, 25
    or a4, s11, a4
    add a0, a0, s9
    nop
    /* B: sw X, lw X, then nop, slli, or of it */
    sw a0, 16(a1)
    lw a3, 16(a1)
    nop
    slli a4, a0, 3
    or a5, a4, a5
    add a0, a0, a3
    nops 2
    /* C: sw X, sw Y, lw X, then nop, lw, or of that load's result */
    sw a0, 20(a1)
    sw a0, 24(a1)
    lw a3, 20(a1)
    nop
    lw a4, 28(a1)
    or a5, a4, a5
    add a0, a0, a3
    nop
    /* D: sw X, lw X, slli, or of it, nop: the wait one sooner, not marked */
    sw a0, 32(a1)
    lw a3, 32(a1)
    slli a4, a0, 2
    or a5, a4, a5
    nop
    add a0, a0, a3
    nops 2
    addi s0, s0, -1
    bnez s0, 1b
    andi a0, a0, 0x7ff
    ret
    .data
    .balign 64
buf:
    .space 64
    .balign 2048
    .space 1024
other:
    .space 64
