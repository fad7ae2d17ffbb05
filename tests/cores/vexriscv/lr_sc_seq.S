/* lr_sc_seq.S -- an lr.w at 0 mod 4 that misses the D-cache, the sc.w
 * right after it, then on its line ALU ops, a load and a store, the k-th
 * instruction after the lr.w (k = 2..4) first on an I-cache line that
 * misses ([dcache] seq_sc: redo_refill_wait's seq_refill with the sc.w
 * counted as a store). The shapes of rand_gen.py's imac rand_22 (lr.w,
 * sc.w, lhu, sw, then addi first on the next line and amomax.w that misses
 * at 0x400000d0, k = 4) and rand_23 (lr.w, sc.w, then lb or sltiu first on
 * it at 0x40000858, 0x40001e78, k = 2). On VexRiscv_IMAC.v's bus and
 * retire traces the next line's refill goes out beside the lr.w's fill and
 * the lr.w retires 8 cycles after the refill's last beat (22, 23, 24 cycles
 * for k = 2, 3, 4 at W = 0), the missing word waiting for none of it.
 * The missing word is a load from IO or an AMO that misses, whose own
 * wait makes the model's total wrong when it is charged the refill in the
 * lr.w's place. A: lr.w at word 6, sc.w, then lw from IO (k = 2); B: lr.w
 * at word 5, sc.w, addi, then lw from IO (k = 3); C: lr.w at word 4, sc.w,
 * addi, addi, then lw from IO (k = 4); D: lr.w at word 6, sc.w, then
 * amoadd.w that misses (k = 2); E: rand_22's lr.w at word 4, sc.w, lhu,
 * sw, then addi and amomax.w that misses (k = 4); F: as A, the sc.w
 * storing the lr.w's result (it waits for it in decode, after the fetch
 * looked the next word up: the lr.w 22 as in A). The driver evicts, before
 * each case, the case's D-line (a load of the word 4 KiB on, which the
 * lr.w evicts in turn for D's and E's AMO) and the case's next I-line (a
 * call to a ret at its alias 4 KiB on): both caches are 4 KiB and
 * direct-mapped. Four passes. Built rv32imac; std and min stop at the
 * first lr.w (illegal). */
#include "vex.h"
    fixed_layout
    .text
    .balign 4096
    main_entry 12
    la a1, buf
    li t0, 4096
    add a2, a1, t0
    li s3, IO_SCRATCH
    li s0, 4
    li a0, 0
pass:
    .irp c, a, b, c, d, e, f
    lw t1, 0(a2)
    jal evict_\c
    nop
    nop
    jal case_\c
    .endr
    addi s0, s0, -1
    bnez s0, pass
    main_return 12, 1

    /* A: lr.w at word 6, sc.w, then lw from IO first on the next line */
    .org 0x400
case_a:
    nops 5
    addi t6, a1, 0
    lr.w a3, (t6)
    sc.w a4, s0, (t6)
    lw t1, 0(s3)
    add a0, a0, a3
    ret

    /* B: lr.w at word 5, sc.w, addi, then lw from IO first on it (k = 3) */
    .org 0x480
case_b:
    nops 4
    addi t6, a1, 0
    lr.w a3, (t6)
    sc.w a4, s0, (t6)
    addi a5, s0, -1
    lw t1, 0(s3)
    add a0, a0, a3
    ret

    /* C: lr.w at word 4, sc.w, addi, addi, then lw from IO first on it (k = 4) */
    .org 0x500
case_c:
    nops 3
    addi t6, a1, 0
    lr.w a3, (t6)
    sc.w a4, s0, (t6)
    addi a5, s0, -1
    addi t2, s0, 2
    lw t1, 0(s3)
    add a0, a0, a3
    ret

    /* D: lr.w at word 6, sc.w, then amoadd.w that misses first on it */
    .org 0x580
case_d:
    nops 5
    addi t6, a1, 0
    lr.w a3, (t6)
    sc.w a4, s0, (t6)
    amoadd.w t1, s0, (a2)
    add a0, a0, t1
    ret

    /* E: rand_22's lr.w at word 4, sc.w, lhu, sw, then addi first on it,
     * amomax.w that misses */
    .org 0x600
case_e:
    nops 3
    addi t6, a1, 0
    lr.w a3, (t6)
    sc.w a4, s0, (t6)
    lhu a5, 16(a1)
    sw s0, 20(a1)
    addi t6, a2, 4
    amomax.w t1, s0, (t6)
    add a0, a0, t1
    ret

    /* F: as A, the sc.w storing the lr.w's result */
    .org 0x680
case_f:
    nops 5
    addi t6, a1, 0
    lr.w a3, (t6)
    sc.w a4, a3, (t6)
    lw t1, 0(s3)
    add a0, a0, a3
    ret

    /* the aliases of each case's next line */
    .org 0x1420
evict_a:
    ret
    .org 0x14a0
evict_b:
    ret
    .org 0x1520
evict_c:
    ret
    .org 0x15a0
evict_d:
    ret
    .org 0x1620
evict_e:
    ret
    .org 0x16a0
evict_f:
    ret

    .data
    .balign 32
buf:
    .word 1, 2, 3, 4, 5, 6, 7, 8
    .skip 4096 - 32
    .word 9, 10, 11, 12, 13, 14, 15, 16
