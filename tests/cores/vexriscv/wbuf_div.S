/* wbuf_div.S -- a divide right after a store that waits for the write
 * buffer: the store waits in write-back (DataCache's writeBack haltIt on its
 * memory command) while the divide, in memory, counts on
 * (MulDivIterativePlugin), so the wait passes during the divide's hold.
 * Case A: three stores that miss the D-cache (write-through), the third
 * waiting for the write buffer, then divu (rand_gen.py's std rand_37 at
 * 0x40000510: sh, sw, sb, divu; rand_22 at 0x40000738: sh, slti, sw to IO,
 * rem). Control B: the same with an addi between the last store and the
 * divu, which is still in execute while the store waits: no overlap.
 * 8 passes. Built rv32im. */
#include "vex.h"
    fixed_layout
    main_entry
    li s0, 8
    la s2, 0x40020000
    li a4, 1000
    li t4, 7
    li a0, 0
1:  sw a4, 0(s2)
    sw a4, 4(s2)
    sw a4, 8(s2)
    divu a2, a4, t4        /* A: right after a store that waits */
    add a0, a0, a2
    sw a4, 12(s2)
    sw a4, 16(s2)
    sw a4, 20(s2)
    addi a3, a4, 1
    divu a2, a4, t4        /* B: one instruction later */
    add a0, a0, a2
    addi s0, s0, -1
    bnez s0, 1b
    andi a0, a0, 0x7ff
    ret
