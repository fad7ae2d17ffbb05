/* wp_fence_next.S -- a branch taken, predicted not taken, second to last
 * on its I-cache line, fence.i last on it (on the wrong path), and the next
 * line missing: the wrong path's refill of that next line goes out before
 * the branch redirects, fence.i in decode asks for the flush, and the
 * refill's beats arrive while the flush runs: they cost nothing beyond it
 * (a random program's bne to pc + 4, fence.i last on its line: rand_gen.py's
 * rand_23 at 0x40001ad8 on VexRiscv.v: fence.i retires 128 + 8 (W + 2) + 7
 * cycles after the bne there). Cases, each a few times, every line dropped
 * before them by the pass's own fence.i:
 * - A: bne to pc + 4 (fence.i its target too), an addi first on the next
 *   line;
 * - B: bne past fence.i to the second word of the next line.
 * The first pass finds every line not cached yet (the I-cache's flush after
 * reset). */
#include "vex.h"
    fixed_layout
    main_entry 12
    li s0, 4
    li a0, 0
pass:
    fence.i
    jal case_a
    fence.i
    jal case_b
    addi s0, s0, -1
    bnez s0, pass
    main_return 12, mask=1

    /* A: bne to pc + 4, fence.i last on the line, the next line missing */
    at_word 5
case_a:
    addi a0, a0, 1
    bne s0, zero, 1f
1:  fence.i
    addi a0, a0, 3
    addi a0, a0, 5
    ret

    /* B: bne past the fence.i last on the line to the next line's second word */
    at_word 5
case_b:
    addi a0, a0, 7
    bne s0, zero, 1f
    fence.i
    addi a0, a0, 9
1:  addi a0, a0, 11
    ret
