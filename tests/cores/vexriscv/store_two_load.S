/* store_two_load.S -- a load that hits the D-cache replayed after a store
 * two ahead of it wrote its word, with another store between
 * ([dcache] store_load_replay): the data RAM's read/write collision is
 * checked against every write in the cycles the load is in execute and
 * memory, not only the last store's (sglib's list insert: sw, sw, lw).
 * Each case is preceded by a warm-up load of the words it uses, so every
 * store and load hits, but for case B's middle store (a line no load
 * brings in: a write-through store that misses allocates nothing). */
#include "vex.h"
    fixed_layout
    main_entry
    la a1, buf
    la a2, cold
    li s0, 40
    li a0, 1
    lw t0, 0(a1)
    lw t0, 32(a1)
1:
    /* A: sw X, sw Y (another word, a hit), lw X: replayed */
    sw a0, 0(a1)
    sw a0, 4(a1)
    lw a3, 0(a1)
    add a0, a0, a3
    nops 4
    /* B: sw X, sw to a line not in the D-cache, lw X */
    sw a0, 8(a1)
    sw a0, 0(a2)
    lw a4, 8(a1)
    add a0, a0, a4
    nops 4
    /* C: sw X, sw Y, sw Z, lw X: three ahead, not replayed */
    sw a0, 12(a1)
    sw a0, 16(a1)
    sw a0, 20(a1)
    lw a5, 12(a1)
    add a0, a0, a5
    nops 4
    /* D: sb to X's byte 0, sw Y, lbu of X's byte 1: no byte in common,
     * not replayed */
    sb a0, 24(a1)
    sw a0, 28(a1)
    lbu a3, 25(a1)
    add a0, a0, a3
    nops 4
    addi s0, s0, -1
    bnez s0, 1b
    andi a0, a0, 0x7ff
    ret
    .data
    .balign 64
buf:
    .space 64
    .balign 4096
    .space 2048
cold:
    .space 64
