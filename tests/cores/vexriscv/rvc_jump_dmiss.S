/* rvc_jump_dmiss.S -- a load that misses the D-cache, an instruction,
 * then a c.j (it redirects from decode) to a line that misses
 * ([pipeline] fetch_ahead_data). Case A, sort.c built rv32imac's shape
 * (c.lw, c.mv, c.j to an lw at 2 mod 4): the target is a 32-bit
 * instruction at 2 mod 4, decoded a cycle later ([pipeline]
 * redirect_split_target), a cycle that comes after the target's lookup:
 * on VexRiscv_IMAC.v the lookup is made as the c.j enters execute, while
 * the load's fill is on the D-bus, the target's refill passes during the
 * fill and the load is redone after it (the c.lw retires 3 cycles later
 * than a plain fill, the target costs nothing). Case B: a 32-bit
 * instruction at 2 mod 4 after the c.j, the word after it held by the
 * decompressor ([pipeline] redirect_rvc_pair), a cycle before the lookup:
 * the refill waits in full. Case C: the c.j at 2 mod 4, neither: the
 * refill passes. Each case runs once a pass; between passes the driver
 * evicts the case's load (a load of the word 4 KiB on) and the target's
 * line (a call to a ret at its alias 4 KiB on): both caches are 4 KiB and
 * direct-mapped. Built rv32imac; the other variants stop at its first
 * 16-bit instruction (illegal, exit 0x102). */
#include "vex.h"
    .option norelax
    .text
    .balign 4096
    .globl main
main:
    .option push
    .option norvc
    addi sp, sp, -16
    sw ra, 12(sp)
    dline_alias
    li s0, 4
pass:
    miss_call_evict_each a, b, c
    addi s0, s0, -1
    bnez s0, pass
    lw ra, 12(sp)
    addi sp, sp, 16
    li a0, 0
    ret
    .option pop

    /* A: c.lw, c.mv, c.j to an lw at 2 mod 4 (sort.c built rv32imac) */
    .org 0x400
case_a:
    c.lw a3, 0(a1)
    c.mv a5, a1
    c.j 2f
    c.nop
    c.nop
    c.nop
    .org 0x442
    .option push
    .option norvc
2:  lw a4, 4(a1)
    .option pop
    ret

    /* B: c.lw, c.mv, c.j, a 32-bit instruction after it */
    .org 0x480
case_b:
    c.lw a3, 0(a1)
    c.mv a5, a1
    c.j 2f
    .option push
    .option norvc
    nop
    .option pop
    .org 0x4c0
2:  ret

    /* C: c.lw, c.mv, c.j at 2 mod 4, a 32-bit instruction after it */
    .org 0x500
case_c:
    c.nop
    c.lw a3, 0(a1)
    c.mv a5, a1
    c.j 2f
    .option push
    .option norvc
    nop
    .option pop
    .org 0x540
2:  ret

    /* the aliases of each case's target line */
    evict_rets 0x1440, 0x80, a, b, c

    dline_buf
