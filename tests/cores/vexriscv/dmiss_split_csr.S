/* dmiss_split_csr.S -- a 32-bit load at 2 mod 4 that misses the D-cache,
 * then a 32-bit instruction, then a 32-bit instruction split over the
 * line's end onto a line that misses: rand_gen.py's rand_11 lh, sw, csrr
 * at 0x40000596 (VexRiscv_IMAC.v). A: lh, sw, csrr; B: lh, addi, csrr;
 * C: lh, sw, addi; D: lh, addi, addi; E, F: C and B with a c.nop right
 * before the lh (its word's first half); G: as F with mulhsu, slt (rand_22's
 * shape at 0x40000596); H: D with mul. The driver evicts, before each case,
 * the case's D-line (a load of the word 4 KiB on) and the case's next
 * I-line (a call to a ret at its alias 4 KiB on): both caches are 4 KiB
 * and direct-mapped. Built rv32imac; the other variants stop at its first
 * 16-bit instruction (illegal). */
#include "vex.h"
    fixed_layout
    dmiss_main
pass:
    evict_call_each a, b, c, d, e, f, g, h
    next_pass_return0

    .macro split_case name, at, second, third, rvc_first=0
    .org \at
\name:
    nops 4
    .if \rvc_first
    addi t6, a1, 0
    rvc16 c.nop
    .else
    rvc16 c.nop
    addi t6, a1, 0
    .endif
    lh a3, 2(t6)
    \second
    \third
    ret
    .endm

    split_case case_a, 0x400, "sw a0, 64(t6)", "csrr t2, mtvec"
    split_case case_b, 0x480, "addi t1, a0, 1", "csrr t2, mtvec"
    split_case case_c, 0x500, "sw a0, 64(t6)", "addi t2, a0, 2"
    split_case case_d, 0x580, "addi t1, a0, 1", "addi t2, a0, 2"
    split_case case_e, 0x600, "sw a0, 64(t6)", "addi t2, a0, 2", 1
    split_case case_f, 0x680, "addi t1, a0, 1", "csrr t2, mtvec", 1
    split_case case_g, 0x700, "mulhsu t4, t1, t2", "slt a3, a0, a0", 1
    split_case case_h, 0x780, "mul t4, t1, t2", "addi t2, a0, 2"

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x80, a, b, c, d, e, f, g, h

    dline_buf
