/* fence_loads.S -- two or three loads before fence.i on one I-cache line
 * that hits, each load in fence.i's reach. A random program's lb, lhu,
 * slli, fence.i on one line, both loads missing (rand_gen.py's rand_44 on
 * VexRiscv.v at 0x40000708: the lb retires 158 cycles after the bge
 * before it, the lhu 156 after the lb, three flushes where one redo gives
 * two). Cases, each case's line missing at its call (the fence.i before
 * dropped every line) and hitting from then on:
 *   A: lb, lhu, slli, fence.i, both loads missing (rand_44's shape)
 *   B: lw, lw, fence.i, both missing
 *   C: lw, lw, lw, fence.i, all three missing
 *   D: lw, addi, lw, fence.i, both missing
 *   E: lw that misses, lw that hits (its line), fence.i
 *   F: lw that hits (a line loaded five words before), lw that misses, fence.i
 * Each pass loads new D-cache lines (12 a pass, 512 bytes apart). */
#include "vex.h"
    fixed_layout
    main_entry 12
    la s1, buf
    li s0, 6
    li a0, 0
    .balign 32
pass:
    call_cases a, b, c, d, e, f
    addi s1, s1, 512
    addi s0, s0, -1
    bnez s0, pass
    main_return 12

    .balign 32
case_a:
    lb t0, 0(s1)
    lhu t1, 32(s1)
    slli t2, a4, 1
    fence.i
    add a0, a0, t0
    add a0, a0, t1
    ret

    .balign 32
case_b:
    lw t0, 64(s1)
    lw t1, 96(s1)
    fence.i
    add a0, a0, t0
    add a0, a0, t1
    ret

    .balign 32
case_c:
    lw t0, 128(s1)
    lw t1, 160(s1)
    lw t2, 192(s1)
    fence.i
    add a0, a0, t0
    add a0, a0, t1
    add a0, a0, t2
    ret

    .balign 32
case_d:
    lw t0, 224(s1)
    addi t2, a0, 3
    lw t1, 256(s1)
    fence.i
    add a0, a0, t0
    add a0, a0, t1
    ret

    .balign 32
case_e:
    lw t0, 288(s1)
    lw t1, 292(s1)
    fence.i
    add a0, a0, t0
    add a0, a0, t1
    ret

    .balign 32
case_f:
    lw t2, 320(s1)
    nops 4
    lw t0, 324(s1)
    lw t1, 352(s1)
    fence.i
    add a0, a0, t0
    add a0, a0, t1
    ret

    word_buf 6*512
