/* stores.S -- write-through stores: back-to-back word stores, byte and half
 * stores, a store to a line not in the D-cache then a load of it (no write
 * allocate: the load misses), stores interleaved with ALU work, and a store
 * followed at once by a load of the same line. */
#include "vex.h"
    main_entry
    li a0, 0
    la a1, buf
    li s0, 16
1:  sw s0, 0(a1)
    sw s0, 4(a1)
    sw s0, 8(a1)
    sw s0, 12(a1)
    sb s0, 16(a1)
    sh s0, 18(a1)
    addi t0, s0, 1
    sw t0, 20(a1)
    addi t1, t0, 1
    sw t1, 24(a1)
    lw t2, 24(a1)
    add a0, a0, t2
    lw t3, 16(a1)
    add a0, a0, t3
    addi a1, a1, 32
    addi s0, s0, -1
    bnez s0, 1b
    la a1, buf2
    li t0, 64
2:  sw t0, 0(a1)          /* not cached: written through, not allocated */
    lw t1, 0(a1)
    add a0, a0, t1
    addi a1, a1, 64
    addi t0, t0, -1
    bnez t0, 2b
    srli a1, a0, 16
    xor a0, a0, a1
    ret
    .data
    .balign 4096
buf:
    .space 1024
    .balign 4096
buf2:
    .space 4096
