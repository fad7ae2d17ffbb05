/* fence_use_next.S -- fence.i, then an instruction whose result is late
 * (a load that hits the D-cache, a multiply, a shift), then one that reads
 * it (found on the RTL's retire trace of rand_gen.py's std programs:
 * rand_33's fence.i, lb, slli at 0x40000970; rand_44's fence.i, lbu,
 * bltu at 0x40003f6c; rand_24's fence.i, mulhsu, sub at 0x40001564;
 * rand_37's fence.i, slli, srl at 0x40001888). The instruction after
 * fence.i, fetched before the flush, runs during it; the reader, fetched
 * after the flush, finds its result long ready and waits for none of it.
 * Each case three times in a loop, all on one line:
 * - L: fence.i, lw that hits, add of it;
 * - M: fence.i, mul, add of it;
 * - S: fence.i, slli, sub of it;
 * - B: fence.i, lbu that hits, bne of it (not taken);
 * - G: fence.i, lw that hits, an ALU op, add of the load (one between);
 * - D: fence.i, lw from IO, add of it;
 * - C (control): fence.i, lw that misses, add of it: the load is redone
 *   after the flush and its reader waits as after any load. */
#include "vex.h"
    fixed_layout
    main_entry 0
    la s2, fun_buf
    la s3, fun_miss
    li s5, IO_SCRATCH
    li a0, 0
    li a1, 7
    lw t0, 0(s2)
    li s8, 3
    j loop_l

    .balign 32
loop_l:
    addi a0, a0, 1
    nop
    fence.i
    lw t0, 0(s2)
    add t1, t0, a0
    xor t2, a0, a0
    add a0, a0, t1
    addi s8, s8, -1
    bne s8, zero, loop_l
    li s8, 3
    j loop_m

    .balign 32
loop_m:
    addi a0, a0, 1
    nop
    fence.i
    mul t0, a0, a1
    add t1, t0, a0
    xor t2, a0, a0
    add a0, a0, t1
    addi s8, s8, -1
    bne s8, zero, loop_m
    li s8, 3
    j loop_s

    .balign 32
loop_s:
    addi a0, a0, 1
    nop
    fence.i
    slli t0, a0, 3
    sub t1, a0, t0
    xor t2, a0, a0
    add a0, a0, t1
    addi s8, s8, -1
    bne s8, zero, loop_s
    li s8, 3
    j loop_b

    .balign 32
loop_b:
    addi a0, a0, 1
    nop
    fence.i
    lbu t0, 4(s2)
    bne t0, zero, 1f
    xor t2, a0, a0
1:  add a0, a0, t2
    addi s8, s8, -1
    bne s8, zero, loop_b
    li s8, 3
    j loop_g

    .balign 32
loop_g:
    addi a0, a0, 1
    nop
    fence.i
    lw t0, 0(s2)
    xor t2, a0, a0
    add t1, t0, a0
    add a0, a0, t1
    addi s8, s8, -1
    bne s8, zero, loop_g
    li s8, 3
    j loop_d

    .balign 32
loop_d:
    addi a0, a0, 1
    nop
    fence.i
    lw t0, 8(s5)
    add t1, t0, a0
    xor t2, a0, a0
    add a0, a0, t1
    addi s8, s8, -1
    bne s8, zero, loop_d
    li s8, 3
    j loop_c

    .balign 32
loop_c:
    addi a0, a0, 1
    nop
    fence.i
    lw t0, 0(s3)
    add t1, t0, a0
    xor t2, a0, a0
    addi s3, s3, 32
    add a0, a0, t1
    addi s8, s8, -1
    bne s8, zero, loop_c
    main_return 0, mask=1

    .bss
    .balign 32
fun_buf:
    .space 64
fun_miss:
    .space 1024
