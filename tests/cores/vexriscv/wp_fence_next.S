/* wp_fence_next.S -- a branch taken, predicted not taken, with fence.i on
 * its wrong path on its own I-cache line: fence.i reaches decode and asks
 * for the flush before the branch redirects, and what holds the branch
 * meanwhile passes during that flush:
 * - the wrong path's refill of the next line, when fence.i is last on the
 *   line and the next line misses: its beats arrive while the flush runs
 *   (a random program's bne to pc + 4, fence.i last on its line:
 *   rand_gen.py's rand_23 at 0x40001ad8 on VexRiscv.v);
 * - a device load right before the branch: the branch waits in execute for
 *   it, fence.i in decode behind it (rand_23's same site: lh from IO, then
 *   the bne: fence.i retires 151 cycles after the bne at W = 0, 154 after
 *   an ALU op's bne).
 * Cases, each a few times, every line dropped before them by the pass's own
 * fence.i:
 * - A: bne to pc + 4 (fence.i its target too), fence.i last on its line,
 *   an addi first on the next line, which misses;
 * - B: bne past fence.i last on the line to the next line's second word;
 * - C: lh from a device, bne to pc + 4, fence.i, both on one line;
 * - D: lh from a device, bne past fence.i last on the line (both: the
 *   refill and the load's wait);
 * - E: lh from a device, bne past an addi and fence.i (the second word),
 *   fence.i last on the line;
 * - F: lh from a device, an addi, bne to pc + 4, fence.i last on the line
 *   (the load not right before the branch: the refill alone).
 * The first pass finds every line not cached yet (the I-cache's flush after
 * reset). */
#include "vex.h"
    fixed_layout
    main_entry 12
    li s0, 4
    li a0, 0
    li s5, IO_SCRATCH
pass:
    /* (not fence.i first: it would be on the wrong path of the loop's
     * bnez, predicted taken, at the loop's end) */
    addi a1, a1, 1
    addi a1, a1, 1
    addi a1, a1, 1
    fence.i
    jal case_a
    fence.i
    jal case_b
    fence.i
    jal case_c
    fence.i
    jal case_d
    fence.i
    jal case_e
    fence.i
    jal case_f
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

    /* C: a device load, bne to pc + 4, fence.i on the same line */
    at_word 3
case_c:
    lh a6, 32(s5)
    bne s0, zero, 1f
1:  fence.i
    addi a0, a0, 13
    addi a0, a0, 15
    ret

    /* D: a device load, bne past fence.i last on the line */
    at_word 5
case_d:
    lh a6, 32(s5)
    bne s0, zero, 1f
    fence.i
    addi a0, a0, 17
1:  addi a0, a0, 19
    ret

    /* E: a device load, bne past an addi and fence.i last on the line */
    at_word 4
case_e:
    lh a6, 32(s5)
    bne s0, zero, 1f
    addi a0, a0, 21
    fence.i
    addi a0, a0, 23
1:  addi a0, a0, 25
    ret

    /* F: a device load, an addi, bne to pc + 4, fence.i last on the line */
    at_word 4
case_f:
    lh a6, 32(s5)
    addi a0, a0, 27
    bne s0, zero, 1f
1:  fence.i
    addi a0, a0, 29
    addi a0, a0, 31
    ret
