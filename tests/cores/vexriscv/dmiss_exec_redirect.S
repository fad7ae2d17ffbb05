/* dmiss_exec_redirect.S -- a load that misses the D-cache, a branch taken
 * forward (predicted not taken: it redirects the fetch from execute), a
 * device load at its target, then an instruction first on a line that
 * misses: that line is looked up only on the target's path, after the
 * load's redo, so none of its refill runs during the load's fill
 * (rand_gen.py's rand_23 built rv32imac at 0x400020a6: lh, beq, lb from
 * a device, addi split over a line edge; [pipeline] fetch_ahead_data). */
#include "vex.h"
    fixed_layout
    main_entry
    li a0, 0
    li s5, IO_SCRATCH
    la s3, buf
    li t1, 1
    j 1f
    at_word 1
1:  lh a0, 0(s3)          /* misses the D-cache */
    beq t1, t1, 2f        /* taken forward, to the line's last word */
    nops 4
2:  lb t5, 36(s5)         /* device load */
    addi a0, a0, 1        /* first on its line, which misses */
    ret
    .data
    .balign 64
buf:
    .half 5
    .fill 62, 1, 0
