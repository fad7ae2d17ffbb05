/* fence_first.S -- fence.i first on the line after a divide's (found on
 * the RTL's retire trace of rand_sweep.py's rand_34 on VexRiscv.v: rem
 * last on its line, fence.i first on the next, 33 cycles later than
 * charged on the first pass). The fence.i's line is fetched during the
 * divide's hold: when it missed, the refill ends the overlap of the hold
 * with the flush; when it hits, the flush runs during the hold.
 * - A: rem at a line's last word, fence.i first on the next, in a loop
 *   whose tail is on the fence.i's line: a miss on the first pass (not
 *   fetched yet), a hit on the next ones (the flush dropped it, the
 *   instructions after it refilled it);
 * - B: divu at a line's last word, fence.i first on the next, and a
 *   second fence.i on a later line that drops that line: a miss on every
 *   pass. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li a1, 100
    li a2, 7
    li s8, 3
    j loop_a

    /* A */
    .balign 32
loop_a:
    addi a0, a0, 1
    xor a3, a0, a1
    nop
    nops 4
    rem t6, a1, a2
    fence.i
    addi a0, a0, 3
    add a0, a0, t6
    addi s8, s8, -1
    bne s8, zero, loop_a

    li s8, 3
    j loop_b
    /* B */
    .balign 32
loop_b:
    addi a0, a0, 5
    nops 6
    divu t5, a1, a2
    fence.i
    addi a0, a0, 7
    add a0, a0, t5
    j b_tail
    at_word 0
b_tail:
    fence.i
    addi s8, s8, -1
    bne s8, zero, loop_b
    main_return 0, mask=1
