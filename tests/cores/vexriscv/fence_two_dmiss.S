/* fence_two_dmiss.S -- two loads that miss the D-cache, then fence.i first
 * on an I-cache line that misses (the flush of the fence.i before dropped
 * every line). A random program's lb, lb (both missing), then fence.i
 * first on the next line (rand_gen.py's rand_24 on VexRiscv.v at
 * 0x40002098: fence.i run twice, one flush before the second load
 * retires, one after fence.i). Cases: the second load right after the
 * first, fence.i right after it; an addi between the loads; an addi
 * between the second load and fence.i. Each case loads two new D-cache
 * lines each pass. */
#include "vex.h"
    fixed_layout
    main_entry 12
    la s1, buf
    li s0, 6
    li a0, 0
    .balign 32
pass:
    call_cases a, b, c
    addi s1, s1, 256
    addi s0, s0, -1
    bnez s0, pass
    main_return 12

    /* A: lb, lb in the line's last two words, then fence.i first on the
     * next line (rand_24's shape) */
    .balign 32
case_a:
    nops 6
    lb t0, 0(s1)
    lb t1, 32(s1)
    fence.i
    add a0, a0, t0
    add a0, a0, t1
    ret

    /* B: lw, addi, lw, then fence.i first on the next line */
    .balign 32
case_b:
    nops 5
    lw t0, 64(s1)
    addi t2, a0, 3
    lw t1, 96(s1)
    fence.i
    add a0, a0, t0
    add a0, a0, t1
    ret

    /* C: lw, lw, addi, then fence.i first on the next line */
    .balign 32
case_c:
    nops 5
    lw t0, 128(s1)
    lw t1, 160(s1)
    addi t2, a0, 3
    fence.i
    add a0, a0, t0
    add a0, a0, t1
    ret

    word_buf 6*256
