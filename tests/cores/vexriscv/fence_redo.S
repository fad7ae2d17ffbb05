/* fence_redo.S -- fence.i next to I-cache and D-cache misses, as random
 * programs met them: a load that misses the D-cache right before fence.i
 * (redone from the fetch after the flush began), the instruction after
 * fence.i's next one on the same line (missing after the flush), and a
 * divide two instructions ahead of an instruction whose line misses (the
 * refill runs during the divide). fence.i in every pass drops every line. */
#include "vex.h"
    main_entry 0
    la s1, buf
    li s0, 6
    li a0, 0
    li t4, 0
    .balign 32
1:  lw t0, 0(s1)          /* a new D-cache line each pass: misses */
    fence.i               /* right after it */
    slti t1, a0, 5        /* fetched before the flush */
    add a0, a0, t1        /* same line, fetched after it: misses */
    add a0, a0, t0
    li t3, 7
    div t2, a0, t3
    addi t4, t4, 1
    add a0, a0, t2        /* next line: misses during the divide */
    addi s1, s1, 32
    addi s0, s0, -1
    bnez s0, 1b
    add a0, a0, t4
    main_return 0
    .data
    .balign 64
buf:
    .space 256
