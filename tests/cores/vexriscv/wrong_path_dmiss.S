/* wrong_path_dmiss.S -- a load that misses the D-cache (lh or lw), then a
 * forward branch taken against its static prediction (beq t0, t0) whose
 * wrong path or target reaches the next line, which misses: a random
 * program's lh, beq to the next line (rand_6). The cases place the
 * branch in the line so that its second wrong-path word (pc + 8), its
 * first (pc + 4), or only its target is on the next line, with 0 or 1
 * instructions between the load and the branch. The driver evicts, before
 * each case, the case's D-line (a load of the word 4 KiB on) and the
 * case's next I-line (a call to a ret at its alias 4 KiB on): both caches
 * are 4 KiB and direct-mapped. */
#include "vex.h"
    fixed_layout
    .text
    .balign 4096
    main_entry
    addi sp, sp, -16
    sw ra, 12(sp)
    dline_alias
    li s0, 4
pass:
    evict_call_each a, b, c, d, e, f
    addi s0, s0, -1
    bnez s0, pass
    lw ra, 12(sp)
    addi sp, sp, 16
    li a0, 0
    ret

    /* A: lh, beq at offset 0x18: pc + 8 and the target on the next line */
    .org 0x400
case_a:
    nops 5
    lh a3, 0(a1)
    beq t0, t0, 2f
    nops 2
2:  ret

    /* B: lw, addi, beq at 0x18: pc + 8 and the target on the next line */
    .org 0x480
case_b:
    nops 4
    lw a3, 0(a1)
    addi t1, a0, 1
    beq t0, t0, 2f
    nops 2
2:  ret

    /* C: lh, beq at 0x1c: pc + 4 on the next line */
    .org 0x500
case_c:
    nops 6
    lh a3, 0(a1)
    beq t0, t0, 2f
    nops 2
2:  ret

    /* D: lw, addi, beq at 0x1c: pc + 4 on the next line */
    .org 0x580
case_d:
    nops 5
    lw a3, 0(a1)
    addi t1, a0, 1
    beq t0, t0, 2f
    nops 2
2:  ret

    /* E: lh, beq at 0x14: only the target on the next line */
    .org 0x600
case_e:
    nops 4
    lh a3, 0(a1)
    beq t0, t0, 2f
    nops 4
2:  ret

    /* F: lh, beq at 0x18, its target far on the next line (pc + 8 the
     * line's first word, the target its fourth) */
    .org 0x680
case_f:
    nops 5
    lh a3, 0(a1)
    beq t0, t0, 2f
    nops 5
2:  ret

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x80, a, b, c, d, e, f

    dline_buf
