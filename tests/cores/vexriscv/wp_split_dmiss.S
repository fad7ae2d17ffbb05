/* wp_split_dmiss.S -- a load that misses the D-cache, then a 32-bit
 * branch at 2 mod 4 taken forward against its static prediction (bgeu
 * t0, t0), whose wrong path reaches the next line, which misses: rand_7's
 * lw, auipc, bgeu at 0x400008b6 (rand_gen.py, VexRiscv_IMAC.v). The
 * branch's last half is in the word pc + 4 is in, so the fetch's words
 * after it start one word later than pc + 4's. A: lw, addi, bgeu at byte
 * 22, pc + 12 the next line's first word; B: lw, bgeu at byte 26, pc + 8
 * that word. The driver evicts, before each case, the case's D-line (a
 * load of the word 4 KiB on) and the case's next I-line (a call to a ret
 * at its alias 4 KiB on): both caches are 4 KiB and direct-mapped. Built
 * rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal). */
#include "vex.h"
    fixed_layout
    dmiss_main
pass:
    evict_call_each a, b
    next_pass_return0

    /* A: lw at 14, addi at 18, bgeu at 22: pc + 12 on the next line */
    .org 0x400
case_a:
    nops 3
    rvc16 c.nop
    lw a3, 0(a1)
    addi t1, a0, 1
    bgeu t0, t0, 2f
    nops 3
2:  ret

    /* B: lw at 22, bgeu at 26: pc + 8 on the next line */
    .org 0x480
case_b:
    nops 5
    rvc16 c.nop
    lw a3, 0(a1)
    bgeu t0, t0, 2f
    nops 2
2:  ret

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x80, a, b

    dline_buf
