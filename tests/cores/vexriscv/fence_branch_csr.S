/* fence_branch_csr.S -- fence_branch_line.S's branch right after fence.i,
 * fetched before the flush and taken against its prediction to another
 * line, with a CSR instruction as its first wrong-path word (found on
 * VexRiscv_IMAC.v's retire trace of rand_gen.py's imac rand_15: lr.w that
 * misses, sc.w, bltu, fence.i, bne taken to the next line, csrr after it).
 * The flush halts the fetch behind the branch, so the CSR instruction is
 * never fetched and holds nothing (csr_drain's cycle does not come): the
 * target retires as long after fence.i as with any other word there.
 * Each case a few times in a loop:
 * A: fence.i, bne taken to word 3 of the next line, csrr after it;
 * B: lw that misses (fence.i redoes it), fence.i, bne taken to word 5 of
 *    the line after the next, csrr after it. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li a1, 1
    la s1, buf
    li s8, 3
    j loop

    .balign 32
loop:
    addi a0, a0, 1
    at_word 5
    fence.i
    bne a1, zero, 1f
    csrr tp, mtvec
    at_word 3
1:
    addi a0, a0, 2
    at_word 4
    lw t0, 0(s1)
    addi s1, s1, 64
    fence.i
    bne a1, zero, 2f
    csrr tp, mtvec
    addi tp, tp, 1
    .balign 32
    nops 8
    nops 5
2:
    addi a0, a0, 3
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1
    .data
    .balign 64
buf:
    .space 256
