/* fence_load_redo.S -- fence.i, then a load on the last word of fence.i's
 * line that misses the D-cache (found on rand_gen.py's rand_36 on the RTL's
 * I-bus trace): the load's redo from write-back (DBusCachedPlugin's
 * redoBranch) comes after the I-cache's flush, so the load's own line is
 * refilled, and the next line is refilled after it for the word there,
 * two refills a pass. Each pass loads from a line not read before. */
#include "vex.h"
    .option norvc
    .option norelax
    .text
    main_entry 0
    la s2, redo_buf
    li a0, 0
    li s8, 4
    j loop

    .balign 32
loop:
    addi a0, a0, 1
    nops 5
    fence.i
    lb t0, 0(s2)
    addi s2, s2, 32
    add a0, a0, t0
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, 1

    .bss
    .balign 32
redo_buf:
    .space 256
