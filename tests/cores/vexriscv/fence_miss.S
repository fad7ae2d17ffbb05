/* fence_miss.S -- a load that misses the D-cache, then fence.i within
 * three instructions, first (or second) on an I-cache line that misses (the
 * flush of the fence.i before dropped every line). A random program's
 * lbu that misses, or, bne zero, zero, then fence.i first on a line not
 * cached (rand_gen.py's rand_6 on VexRiscv.v: one flush and one refill
 * from fence.i to the sw after it, not fence.i run twice). Cases: two,
 * one and no instructions between the load and a missing fence.i; two
 * between, the second first on a missing line and fence.i after it; two
 * between, the load last on its line. Each case loads a new D-cache line
 * each pass, after two stores (the load's fill waits for them, as in
 * rand_6, so fence.i's own refill is over within it). */
#include "vex.h"
    fixed_layout
    main_entry 12
    la s1, buf
    la s2, obuf
    li s0, 6
    li a0, 0
    .balign 32
pass:
    call_cases a, b, c, d, e, f
    addi s1, s1, 256
    addi s0, s0, -1
    bnez s0, pass
    main_return 12

    /* A: lbu, or, bne not taken, then fence.i first on the next line
     * (rand_6's shape), beq, sw */
    .balign 32
case_a:
    nops 3
    sw a0, 0(s2)
    sw s0, 4(s2)
    lbu t0, 0(s1)
    or t1, a0, s0
    bne zero, zero, 1f
    fence.i
    beq t1, zero, 1f
    sw t1, 4(s1)
1:  add a0, a0, t0
    ret

    /* B: lw, addi, addi, then fence.i first on the next line */
    .balign 32
case_b:
    nops 3
    sw a0, 0(s2)
    sw s0, 4(s2)
    lw t0, 32(s1)
    addi t1, a0, 3
    addi t2, a0, 5
    fence.i
    add a0, a0, t0
    ret

    /* C: lw, addi, then fence.i first on the next line */
    .balign 32
case_c:
    nops 4
    sw a0, 0(s2)
    sw s0, 4(s2)
    lw t0, 64(s1)
    addi t1, a0, 3
    fence.i
    add a0, a0, t0
    ret

    /* D: lw in a line's last word, then fence.i first on the next line */
    .balign 32
case_d:
    nops 5
    sw a0, 0(s2)
    sw s0, 4(s2)
    lw t0, 96(s1)
    fence.i
    add a0, a0, t0
    ret

    /* E: lw, addi, then an addi first on the next line, fence.i second */
    .balign 32
case_e:
    nops 4
    sw a0, 0(s2)
    sw s0, 4(s2)
    lw t0, 128(s1)
    addi t1, a0, 3
    addi t2, a0, 5
    fence.i
    add a0, a0, t0
    ret

    /* F: lw in a line's last word, two addi on the next line, then
     * fence.i third on it */
    .balign 32
case_f:
    nops 5
    sw a0, 0(s2)
    sw s0, 4(s2)
    lw t0, 160(s1)
    addi t1, a0, 3
    addi t2, a0, 5
    fence.i
    add a0, a0, t0
    ret

    word_buf 6*256
obuf:
    .word 0, 0
