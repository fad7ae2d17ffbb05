/* replay_rvc_held.S -- a load replayed after a store of its word (the
 * D-cache's redo from write-back, [dcache] store_load_replay) whose three
 * instructions ahead end at 2 mod 4 before a 32-bit instruction and a
 * 16-bit one: the decompressor keeps the 32-bit one's first half, takes the
 * next word whole and holds it for the 16-bit one, so the fetch stage is
 * not ready for the redirect's first word ([pipeline] redirect_rvc_pair,
 * rvc_held_at): a cycle more, as replay_rvc.S's word of two 16-bit ones.
 * xgboost's benchmark_body (-O2, rv32imac): c.sw a4, 12(sp); c.lw a4,
 * 12(sp) first on its line; c.sub, sltiu, c.add, then bgeu at 2 mod 4
 * and c.addi. Built rv32imac; each case's c.lw follows its c.sw. */
#include "vex.h"
/* a 32-bit nop (the program is built with compressed encodings) */
    .macro nop32
    .option push
    .option norvc
    nop
    .option pop
    .endm
/* a 32-bit add, as the C compiler left xgboost's */
    .macro add32 rd, rs1, rs2
    .option push
    .option norvc
    add \rd, \rs1, \rs2
    .option pop
    .endm
    main_entry
    la a1, buf
    li s0, 40
    li a0, 1
    li a4, 3
    .balign 4
1:  c.nop
    /* A: xgboost's: c.lw at 0 mod 4, c.sub, sltiu, c.add, then add
     * (32-bit, at 2 mod 4, reading the loaded value) before a c.nop:
     * 1 more */
    c.sw a0, 0(a1)
    c.lw a3, 0(a1)
    c.sub a5, a4
    sltiu a5, a5, 1
    c.add s1, a5
    add32 t0, a0, a3
    c.nop
    nop32
    nop32
    nop32
    /* B: the same with a 32-bit nop after the add: no more */
    .balign 4
    c.nop
    c.sw a0, 0(a1)
    c.lw a3, 0(a1)
    c.sub a5, a4
    sltiu a5, a5, 1
    c.add s1, a5
    add32 t0, a0, a3
    nop32
    nop32
    nop32
    /* C: as A with bgeu (not taken) for the add, as in xgboost: 1 more */
    .balign 4
    c.nop
    c.sw a0, 0(a1)
    c.lw a3, 0(a1)
    c.sub a5, a4
    sltiu a5, a5, 1
    c.add s1, a5
    bgeu a3, s0, 2f
    c.mv t1, a0
2:  nop
    nop32
    nop32
    addi s0, s0, -1
    bnez s0, 1b
    li a0, 0
    ret
    .data
    .balign 64
buf:
    .space 128
