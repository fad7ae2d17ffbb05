/* dmiss_store_refill.S -- a load that misses the D-cache right after one
 * that missed (its redo), a store right after it, then the instruction 4
 * after it on a line that misses ([pipeline] fetch_ahead_data's
 * redo_store_hold): rand_gen.py's rand_21 lh, lhu, sh, sw, lbu, then sw at
 * 0x40001d7e, split onto the next line (VexRiscv_IMAC.v). A: lh, lhu, sh,
 * addi, addi, then sw split over the line's end; B: lh, lhu, sh, sw, lbu,
 * then the split sw (rand_21's). The driver evicts, before each case,
 * the case's two D-lines (loads of the words 4 KiB on) and the case's next
 * I-line (a call to a ret at its alias 4 KiB on): both caches are 4 KiB
 * and direct-mapped. Built rv32imac; the other variants stop at its first
 * 16-bit instruction (illegal). */
#include "vex.h"
    fixed_layout
    dmiss_main
    jal evict_a
    jal evict_b
pass:
    .irp c, a, b
    lw t1, 0(a2)
    lw t1, 32(a2)
    jal evict_\c
    nops 2
    jal case_\c
    .endr
    next_pass_return0

    .macro store_case name, at, third, fourth, last
    .org \at
\name:
    .option rvc
    c.nop
    c.nop
    c.nop
    .option norvc
    addi t6, a1, 0
    lh a3, 2(t6)
    lhu a4, 36(t6)
    sh a3, 4(t6)
    \third
    \fourth
    \last
    nop
    ret
    .endm

    store_case case_a, 0x400, "addi t4, a0, 2", "addi t5, a0, 3", "sw s1, 44(t6)"
    store_case case_b, 0x480, "sw s1, 40(t6)", "lbu t5, 6(t6)", "sw s1, 44(t6)"

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x80, a, b

    .data
    .balign 32
buf:
    .word 1, 2, 3, 4, 5, 6, 7, 8
    .word 1, 2, 3, 4, 5, 6, 7, 8
    .skip 4096 - 64
    .word 9, 10, 11, 12, 13, 14, 15, 16
    .word 9, 10, 11, 12, 13, 14, 15, 16
