/* fence_redo3.S -- a load that misses the D-cache, two instructions, then
 * fence.i (found on the RTL's retire trace of rand_gen.py's rand_23: lw,
 * and, sra, fence.i), a few times in a loop, every load on a line not
 * cached yet. The load's miss is handled in write-back (DataCache's
 * io_cpu_redo, DBusCachedPlugin_redoBranch_payload = writeBack_PC), so
 * fence.i three instructions on is in decode while the load waits there:
 * it asks for the I-cache's flush, the load's redo waits for it and
 * refills its line, and fence.i runs and flushes again. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    la s2, buf
    li s8, 3
    j loop

    .balign 32
loop:
    addi a0, a0, 1
    lw t0, 0(s2)
    addi t1, a0, 5
    addi t2, a0, 7
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
