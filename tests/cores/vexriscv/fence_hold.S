/* fence_hold.S -- fence.i beside a divide's hold or a load's D-cache miss
 * (found on the RTL's retire trace of rand_gen.py's programs), each case a
 * few times in a loop, every load on a line not cached yet:
 * - div then fence.i: fence.i asks for the flush from decode while the
 *   divide holds execute, so the flush runs during the divide;
 * - a load that misses the D-cache, an ALU op, fence.i: fence.i reached
 *   decode and started the flush before the load's redo from the fetch,
 *   so the load is fetched again after it and fence.i flushes again
 *   (the instructions between are run again too, a cycle each). */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li a1, 100
    li a2, 7
    la s2, buf
    li s8, 3
    j loop

    .balign 32
loop:
    addi a0, a0, 1
    div a3, a1, a2
    fence.i
    add a0, a0, a3
    lhu t0, 0(s2)
    addi t1, a0, 5
    fence.i
    add a0, a0, t1
    addi s2, s2, 32
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1

    .bss
    .balign 32
buf:
    .space 1024
