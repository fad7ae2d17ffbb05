/* dmiss_held.S -- a device load right before a load that misses the
 * D-cache, then a store and an instruction first on a line that misses
 * (the second after that load): the fetch stage looked that line up while
 * the device load held the pipeline in memory, so its refill went out
 * then, during the hold, ahead of the load's fill, and ended before it
 * (rand_gen.py's rand_6 at 0x40001334: lbu from IO, lh that misses, sw,
 * bne first on a line that misses; [dcache] refill_refetch,
 * dmiss_held_lead). */
#include "vex.h"
    fixed_layout
    main_entry
    li a0, 0
    li s5, IO_SCRATCH
    la s3, buf
    li a5, 7
    j 1f
    at_word 5
1:  lbu t1, 51(s5)        /* device load */
    lh a2, 0(s3)          /* misses the D-cache */
    sw a5, 40(s3)
    bne zero, zero, 9f    /* first on its line, which misses; not taken */
    add a0, a0, a2
9:  ret
    .data
    .balign 64
buf:
    .half 5
    .fill 62, 1, 0
