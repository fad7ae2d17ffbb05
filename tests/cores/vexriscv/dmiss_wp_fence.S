/* dmiss_wp_fence.S -- a load that misses the D-cache, then a one-cycle op,
 * then a branch taken against its prediction, and fence.i on the branch's
 * wrong path, within the load's reach (rand_gen.py's rand_24 at 0x40006904
 * on VexRiscv.v: lw, sra, bge to pc + 4, fence.i on one I-cache line). The
 * wrong path's fence.i asks for the I-cache's flush from decode while the
 * load waits for its fill in write-back, and the load is redone after it,
 * as before a fence.i on the straight path. Cases, each a few times, every
 * line dropped before it by the fence.i before, each load from a D-cache
 * line not read before:
 * - A: lw, sra, bne to pc + 4, fence.i, all on one line (rand_24's shape);
 * - B: as A, addi in place of the sra;
 * - C: as A, nothing between the lw and the bne;
 * - D: as A, the bne taken past the fence.i (not its target);
 * - E: as A, the bne not taken (fence.i on the straight path, for
 *   comparison);
 * - F: as A, the bne last on its line, fence.i first on the next line,
 *   which the cache holds (fetched by a call there before);
 * - G: as F, the next line not cached (its refill runs during the lw's
 *   fill).
 * The first pass finds every line not cached yet (the I-cache's flush after
 * reset). */
#include "vex.h"
    fixed_layout
    main_entry 12
    la s1, buf
    li s0, 4
    li a0, 0
pass:
    call_cases a, b, c, d, e, f, g
    addi s1, s1, 256
    addi s0, s0, -1
    bnez s0, pass
    main_return 12, mask=1

    /* A: lw that misses, sra, bne taken to pc + 4, fence.i */
    at_word 2
case_a:
    addi a0, a0, 1
    lw t0, 0(s1)
    sra t1, a0, s0
    bne s0, zero, 1f
1:  fence.i
    add a0, a0, t0
    ret

    /* B: as A, addi in place of the sra */
    at_word 2
case_b:
    addi a0, a0, 3
    lw t0, 32(s1)
    addi t1, a0, 5
    bne s0, zero, 1f
1:  fence.i
    add a0, a0, t0
    ret

    /* C: as A, nothing between the lw and the bne */
    at_word 2
case_c:
    addi a0, a0, 7
    nop
    lw t0, 64(s1)
    bne s0, zero, 1f
1:  fence.i
    add a0, a0, t0
    ret

    /* D: as A, the bne taken past the fence.i */
    at_word 1
case_d:
    addi a0, a0, 9
    lw t0, 96(s1)
    sra t1, a0, s0
    bne s0, zero, 1f
    fence.i
1:  add a0, a0, t0
    ret

    /* E: as A, the bne not taken */
    at_word 2
case_e:
    addi a0, a0, 11
    lw t0, 128(s1)
    sra t1, a0, s0
    bne zero, zero, 1f
1:  fence.i
    add a0, a0, t0
    ret

    /* F: as A, the bne last on its line, fence.i first on the next line,
     * which a call to a word there brought in */
    at_word 0
case_f:
    mv t2, ra
    jal stub_f
    addi a0, a0, 13
    nops 2
    lw t0, 160(s1)
    sra t1, a0, s0
    bne s0, zero, 1f
1:  fence.i
    add a0, a0, t0
    jr t2
stub_f:
    ret

    /* G: as F, no call: the next line not cached */
    at_word 4
case_g:
    addi a0, a0, 15
    lw t0, 192(s1)
    sra t1, a0, s0
    bne s0, zero, 1f
1:  fence.i
    add a0, a0, t0
    ret

    .bss
    .balign 32
buf:
    .space 1024
