/* replay_wait_first.S -- a load that hits the D-cache replayed after a
 * store of its word ([dcache] store_load_replay) while the instruction in
 * decode at its redo waits there for the late result of one before it
 * ([dcache] replay_decode_wait, block.c's replay_decode_wait_at): a load or
 * a multiply first after the replayed load and its reader second or third,
 * or a multiply second and its reader third. The redo costs a cycle more,
 * as with replay_wait.S's load or shift second and its reader third. F:
 * a shift first, its reader third: it waits in decode no longer by then,
 * 6 cycles, not marked. Each case fills one 32-byte line (its words loaded
 * before the loop), so every store and load hits and the first pass's
 * I-cache misses come before its store. */
#include "vex.h"
    fixed_layout
    main_entry
    la a1, buf
    li s0, 40
    li a0, 1
    li a2, 3
    lw t0, 0(a1)
    lw t0, 32(a1)
    j 1f
    .balign 32
1:
    /* A: sw X, lw X, then lw Y, or of it, nop */
    sw a0, 4(a1)
    lw a3, 4(a1)
    lw a4, 8(a1)
    or a5, a4, a5
    nop
    add a0, a0, a3
    nops 2
    /* B: sw X, lw X, then lw Y, nop, or of it */
    sw a0, 12(a1)
    lw a3, 12(a1)
    lw a4, 16(a1)
    nop
    or a5, a4, a5
    add a0, a0, a3
    nops 2
    /* C: sw X, lw X, then mul, or of it, nop */
    sw a0, 20(a1)
    lw a3, 20(a1)
    mul a4, a2, a0
    or a5, a4, a5
    nop
    add a0, a0, a3
    nops 2
    /* D: sw X, lw X, then nop, mul, or of it */
    sw a0, 24(a1)
    lw a3, 24(a1)
    nop
    mul a4, a2, a0
    or a5, a4, a5
    add a0, a0, a3
    nops 2
    /* E: sw X, lw X, then mul, nop, or of it */
    sw a0, 28(a1)
    lw a3, 28(a1)
    mul a4, a2, a0
    nop
    or a5, a4, a5
    add a0, a0, a3
    nops 2
    /* F: sw X, lw X, then srli, nop, or of it: not marked */
    sw a0, 32(a1)
    lw a3, 32(a1)
    srli a4, a0, 1
    nop
    or a5, a4, a5
    add a0, a0, a3
    nops 2
    addi s0, s0, -1
    bnez s0, 1b
    add a0, a0, a5
    andi a0, a0, 0x7ff
    ret
    .data
    .balign 64
buf:
    .space 64
