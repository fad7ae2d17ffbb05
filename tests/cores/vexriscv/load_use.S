/* load_use.S -- loads whose result the next instruction uses (load-use),
 * the one after next, and not at all; word, half and byte loads, signed and
 * unsigned, from a small D-cache-resident array. */
#include "vex.h"
    main_entry
    la a1, arr
    li t0, 32
    li t1, 0
    li a4, 0
1:  sw t1, 0(a1)
    addi t1, t1, 0x111
    addi a1, a1, 4
    addi t0, t0, -1
    bnez t0, 1b
    li s0, 50
2:  la a1, arr
    li t0, 8
3:  lw a2, 0(a1)
    add a4, a4, a2        /* load-use */
    lh a3, 4(a1)
    nop
    add a4, a4, a3        /* one apart */
    lbu a5, 8(a1)
    nops 2
    add a4, a4, a5        /* two apart */
    lb a6, 13(a1)
    lhu a7, 14(a1)
    xor a4, a4, a6
    add a4, a4, a7
    lw a2, 0(a1)
    la a3, arr
    add a3, a3, a5
    andi a3, a3, -4
    lw a3, 0(a3)          /* an address computed from a load */
    add a4, a4, a3
    addi a1, a1, 16
    addi t0, t0, -1
    bnez t0, 3b
    addi s0, s0, -1
    bnez s0, 2b
    mv a0, a4
    ret
    .data
    .balign 64
arr:
    .space 128
