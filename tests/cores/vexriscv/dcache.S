/* dcache.S -- D-cache read misses and refills (8-beat bursts): a walk of
 * 8 KiB at a 32-byte stride (every load misses), the first 2 KiB again
 * (hits after the refills of a second pass), and two words 4 KiB apart
 * read in turn (the same set: each load misses). */
#include "vex.h"
    main_entry
    li a0, 0
    li s0, 2
0:  la a1, big
    li t0, 256
1:  lw t1, 0(a1)
    add a0, a0, t1
    lw t2, 4(a1)
    add a0, a0, t2
    addi a1, a1, 32
    addi t0, t0, -1
    bnez t0, 1b
    addi s0, s0, -1
    bnez s0, 0b
    la a1, big
    li t0, 512
2:  lw t1, 0(a1)
    add a0, a0, t1
    addi a1, a1, 4
    addi t0, t0, -1
    bnez t0, 2b
    la a1, big
    li t2, 4096
    add a2, a1, t2
    li t0, 30
3:  lw t1, 8(a1)
    lw t3, 8(a2)
    add a0, a0, t1
    add a0, a0, t3
    addi t0, t0, -1
    bnez t0, 3b
    srli a1, a0, 16
    xor a0, a0, a1
    ret
    .data
    .balign 4096
big:
    .set i, 0
    .rept 2048
    .word (i * 2654435761) & 0xffffffff
    .set i, i + 1
    .endr
