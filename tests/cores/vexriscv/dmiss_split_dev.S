/* dmiss_split_dev.S -- a 32-bit load at 2 mod 4 that misses the D-cache,
 * then a device load, then a 32-bit instruction split over the line's end
 * onto a line that misses (exec_loop.inc's dmiss_two_refill at 2 mod 4:
 * the split word's refill beside the load's fill): rand_gen.py's rand_21
 * lhu, lw from IO, add at 0x40000e16 and lw, lbu from IO, sb at
 * 0x40001b96 (VexRiscv_IMAC.v). A: lh, lw from IO, addi; B: lh, lbu
 * from IO, sb of its result; C: lh, lw from IO, csrr. The
 * driver evicts, before each case, the case's D-line (a load of the word
 * 4 KiB on) and the case's next I-line (a call to a ret at its alias 4 KiB
 * on): both caches are 4 KiB and direct-mapped. Built rv32imac; the other
 * variants stop at its first 16-bit instruction (illegal). */
#include "vex.h"
    fixed_layout
    .text
    .balign 4096
    main_entry 12
    dline_alias
    li s5, IO_SCRATCH
    li s0, 4
pass:
    evict_call_each a, b, c
    next_pass_return0

    .macro split_case name, at, second, third
    .org \at
\name:
    nops 4
    rvc16 c.nop
    addi t6, a1, 0
    lh a3, 2(t6)
    \second
    \third
    ret
    .endm

    split_case case_a, 0x400, "lw t3, 56(s5)", "addi t2, a0, 2"
    split_case case_b, 0x480, "lbu t4, 63(s5)", "sb t4, 64(t6)"
    split_case case_c, 0x500, "lw t3, 56(s5)", "csrr t2, mtvec"

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x80, a, b, c

    dline_buf
