/* fence_wp_line.S -- a branch taken, predicted not taken, last on its
 * I-cache line, and fence.i on the next line, which misses: the wrong
 * path's refill of that line is still under way when the branch
 * redirects, so fence.i never reaches decode and asks for no flush there
 * (a random program's bge to pc + 4, fence.i first on the next line:
 * rand_gen.py's rand_24 on VexRiscv.v retires the fence.i 21 cycles after
 * the bge, one refill, and flushes once). Cases, each a few times, every
 * line dropped before it by the fence.i before:
 * - A: bne to pc + 4, fence.i first on the next line (rand_24's shape);
 * - B: bne past it, fence.i first on the next line (not its target);
 * - C: bne to pc + 8, an ALU op first on the next line, fence.i second;
 * - D: as A, a load that misses the D-cache two words before the bne;
 * - E: as A, the bne not taken (fence.i on the straight path, for
 *   comparison).
 * The first pass finds every line not cached yet (the I-cache's flush after
 * reset). */
#include "vex.h"
    fixed_layout
    main_entry 12
    la s1, buf
    li s0, 4
    li a0, 0
pass:
    call_cases a, b, c, d, e
    addi s1, s1, 64
    addi s0, s0, -1
    bnez s0, pass
    main_return 12, mask=1

    /* A: bne taken to pc + 4, fence.i first on the next line */
    at_word 6
case_a:
    addi a0, a0, 1
    bne s0, zero, 1f
1:  fence.i
    addi a0, a0, 3
    ret

    /* B: bne taken past the fence.i first on the next line */
    at_word 6
case_b:
    addi a0, a0, 5
    bne s0, zero, 1f
    fence.i
    addi a0, a0, 7
1:  addi a0, a0, 9
    fence.i
    ret

    /* C: bne taken to pc + 8: addi first on the next line, fence.i second */
    at_word 6
case_c:
    addi a0, a0, 11
    bne s0, zero, 1f
    addi a1, a1, 1
1:  fence.i
    addi a0, a0, 13
    ret

    /* D: as A, a load that misses two words before the bne */
    at_word 5
case_d:
    lw t0, 0(s1)
    addi a0, a0, 15
    bne s0, zero, 1f
1:  fence.i
    add a0, a0, t0
    ret

    /* E: as A, the bne not taken */
    at_word 6
case_e:
    addi a0, a0, 17
    bne zero, zero, 1f
1:  fence.i
    addi a0, a0, 19
    ret

    .data
    .balign 64
buf:
    .rept 64
    .word 0x01010101
    .endr
