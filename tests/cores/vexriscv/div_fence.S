/* div_fence.S -- fence.i right after a divide, the next instruction on the
 * next line (rand_24's remu, fence.i, addi at a line's start): fence.i
 * retires a cycle after the divide and only then drops the lines, so the
 * refill of the next line runs after the divide, not during it. fence.i in
 * every pass drops every line. */
#include "vex.h"
    main_entry 0
    li s0, 6
    li a0, 0
    li t3, 7
    at_word 5
1:  addi a0, a0, 9
    div t2, a0, t3
    fence.i               /* the line's last word */
    add a0, a0, t2        /* next line: misses after the flush */
    addi s0, s0, -1
    bnez s0, 1b
    main_return 0
