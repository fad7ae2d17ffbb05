/* fence_div_fill.S -- a divide's hold and the refill of a line after it
 * (found on the RTL's retire trace of rand_24 on VexRiscv.v), each case a
 * few times in a loop; every fence.i drops every line, so each line after
 * one misses in every pass. One thing varies from case to case:
 * - A: fence.i, div, addi (the line's last word), then an add first on
 *   the next line: the divide's hold passes during the flush, and the next
 *   line is refilled after it;
 * - B: as A with mul in place of div;
 * - C: as A with the addi reading the divide's result;
 * - D: as A one word sooner: the add is on the divide's line (a hit);
 * - E: as A without the addi (0 instructions between);
 * - F: as A with two addi between;
 * - G: no fence.i: div, an add of its result, then an add first on the
 *   next line (the line missing: dropped by the fence.i before);
 * - H: as G with the add not reading the result;
 * - I: as G with mul in place of div.
 * Built with -DQUIET_EXIT (fence_div_exit in programs.txt), the loop is
 * left by a branch not taken, and no jump is on a wrong path: here the
 * last pass's beq, taken against its prediction, has `j loop` on its
 * wrong path, which VexRiscv_IMAC.v decodes, refilling loop's line
 * (dropped by case F's fence.i) before the branch's target (its bus
 * trace: that line read right after the beq; [pipeline] wrong_path_jump,
 * wp_jump.S). There the jump back is first on a line of its own: right
 * after main_return's ret, on its wrong path, tally is 8 (W + 2) + 2 over
 * VexRiscv.v (not looked at). */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li a1, 100
    li a2, 7
    li s8, 3
    j loop

    at_word 5                 /* A */
loop:
    fence.i
    div a3, a1, a2
    addi t0, a0, 1
    add a0, a0, t0
    at_word 5                 /* B */
    fence.i
    mul a3, a1, a2
    addi t0, a0, 1
    add a0, a0, t0
    at_word 5                 /* C */
    fence.i
    div a3, a1, a2
    addi t0, a3, 1
    add a0, a0, t0
    at_word 4                 /* D */
    fence.i
    div a3, a1, a2
    addi t0, a0, 1
    add a0, a0, t0
    at_word 6                 /* E */
    fence.i
    div a3, a1, a2
    add a0, a0, a3
    at_word 4                 /* F */
    fence.i
    div a3, a1, a2
    addi t0, a0, 1
    addi t1, a0, 2
    add a0, a0, t0
    at_word 6                 /* G */
    div a3, a1, a2
    add t0, a3, a0
    add a0, a0, t0
    at_word 6                 /* H */
    div a3, a1, a2
    addi t0, a0, 1
    add a0, a0, t0
    at_word 6                 /* I */
    mul a3, a1, a2
    add t0, a3, a0
    add a0, a0, t0
    addi s8, s8, -1
#ifndef QUIET_EXIT
    beq s8, zero, 1f
    j loop
1:  main_return 0, mask=1
#else
    bne s8, zero, 2f
    main_return 0, mask=1
    at_word 0
2:  j loop
#endif
