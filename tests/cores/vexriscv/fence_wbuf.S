/* fence_wbuf.S -- fence.i right behind stores that wait for the D-cache's
 * write buffer (found on the RTL's retire trace of rand_gen.py's std
 * rand_33: sh, sw, sh, sw, fence.i at 0x400014a4 and sw, sw, fence.i at
 * 0x40000648), each case on a line of its own (the flush before drops it:
 * its refill first, then the stores), a few times in a loop:
 * - four stores, fence.i: the third and the fourth wait for the buffer;
 * - three stores, an ALU op, fence.i: the third waits;
 * - three stores, two ALU ops, fence.i;
 * - three stores, three ALU ops, fence.i. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li s2, 0x40020000
    li s8, 3
    j loop

    .balign 32
loop:
    addi a0, a0, 1
    sw a0, 0(s2)
    sw a0, 64(s2)
    sw a0, 128(s2)
    sw a0, 192(s2)
    fence.i
    addi a0, a0, 3
    j 1f

    .balign 32
1:
    sw a0, 4(s2)
    sw a0, 68(s2)
    sw a0, 132(s2)
    xori t1, a0, 5
    fence.i
    add a0, a0, t1
    j 2f

    .balign 32
2:
    sw a0, 8(s2)
    sw a0, 72(s2)
    sw a0, 136(s2)
    xori t1, a0, 6
    slli t2, a0, 2
    fence.i
    add a0, a0, t2
    j 3f

    .balign 32
3:
    sw a0, 12(s2)
    sw a0, 76(s2)
    sw a0, 140(s2)
    xori t1, a0, 7
    slli t2, a0, 3
    srli t3, a0, 1
    fence.i
    add a0, a0, t3

    .balign 32
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1
