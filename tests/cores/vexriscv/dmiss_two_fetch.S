/* dmiss_two_fetch.S -- a load that misses the D-cache, then the next
 * instruction first on an I-cache line that misses: its refill runs
 * during the load's fill ([pipeline] fetch_ahead_data), with or without
 * another load's miss right before, with or without a dependency on a
 * load. A random program's fence.i, lb, lh (both missing), then bge of the
 * lb's result first on a line that misses (rand_gen.py's rand_3 on
 * VexRiscv.v at 0x40000820). Cases: A lb, lh, bge of lb's result; B the
 * same, blt t6, t6 (no dependency); C lw, then addi (one miss, no
 * dependency); D lw, lw, add of the second's result; E and F A and B
 * after fence.i (rand_3's shape: the loads' lines and the next line
 * refilled after the flush). Each case runs once, its lines new. */
#include "vex.h"
    fixed_layout
    main_entry 12
    la s1, buf
    li a0, 0
    li t6, 5
    call_cases a, b, c, d, e, f
    main_return 12

    /* A: lb, lh in the line's last two words, then bge of lb's result
     * first on the next line */
    .balign 32
case_a:
    nops 6
    lb t0, 0(s1)
    lh t1, 32(s1)
    bge t6, t0, 1f
    addi a0, a0, 1
1:  add a0, a0, t1
    ret

    /* B: A with blt t6, t6 (no dependency) */
    .balign 32
case_b:
    nops 6
    lb t0, 64(s1)
    lh t1, 96(s1)
    blt t6, t6, 1f
    addi a0, a0, 1
1:  add a0, a0, t1
    ret

    /* C: lw in the line's last word, then addi first on the next line */
    .balign 32
case_c:
    nops 7
    lw t0, 128(s1)
    addi a0, a0, 3
    add a0, a0, t0
    ret

    /* D: lw, lw, then add of the second's result first on the next line */
    .balign 32
case_d:
    nops 6
    lw t0, 160(s1)
    lw t1, 192(s1)
    add a0, a0, t1
    add a0, a0, t0
    ret

    /* E: fence.i, lb, lh, then bge of lb's result first on the next line */
    .balign 32
case_e:
    nops 5
    fence.i
    lb t0, 224(s1)
    lh t1, 256(s1)
    bge t6, t0, 1f
    addi a0, a0, 1
1:  add a0, a0, t1
    ret

    /* F: E with blt t6, t6 */
    .balign 32
case_f:
    nops 5
    fence.i
    lb t0, 288(s1)
    lh t1, 320(s1)
    blt t6, t6, 1f
    addi a0, a0, 1
1:  add a0, a0, t1
    ret

    word_buf 384
