/* dmiss_jal_line.S -- a load that misses the D-cache, last on its I-cache
 * line, right after a load from the uncached IO region, then a jal first on
 * the next line, which misses, to a line that misses too (found on the
 * RTL's retire trace of rand_gen.py's std rand_20 at 0x40000138: lw from
 * IO, lh, jal to leaf0). The jal's line's refill goes out during the device
 * read (the fetch stage looked it up while the IO load held the pipeline),
 * so the load retires as after its fill alone; the jal, still on its
 * missing line when the load reached write-back, is decoded only after the
 * load's redo and sends the fetch to its target then: the target's refill
 * goes out as the jal retires, none of it during the fill.
 * A: lw from IO, lh that misses, jal to a leaf whose line misses;
 * B: lbu from IO, lw that misses, jal to a leaf whose line misses and whose
 *    first instruction is a device load;
 * C: as A without the device load (a nop there): the refill goes out with
 *    the fill and the load's redo waits for it (refill_refetch as before). */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li s5, IO_SCRATCH
    la s2, data
    j case_a

    at_word 6
case_a:
    lw t0, 4(s5)
    lh a5, 0(s2)
    jal ra, leaf_a
    add a0, a0, a5
    j case_b

    at_word 6
case_b:
    lbu t1, 8(s5)
    lw a4, 64(s2)
    jal ra, leaf_b
    add a0, a0, a4
    j case_c

    at_word 6
case_c:
    nop
    lh a5, 128(s2)
    jal ra, leaf_c
    add a0, a0, a5
    main_return 0

    .balign 32
leaf_a:
    addi a0, a0, 3
    ret

    .balign 32
leaf_b:
    lhu t2, 12(s5)
    addi a0, a0, 5
    ret

    .balign 32
leaf_c:
    addi a0, a0, 7
    ret

    .data
    .balign 32
data:
    .space 256
