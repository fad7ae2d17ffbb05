/* use_wait_line.S -- a branch taken against its prediction (forward) that
 * waits in decode for a load's result (a D-cache hit), its target on the
 * next line, which misses ([pipeline] wrong_path_use_reach). On
 * VexRiscv_IMAC.v the word right after the branch's last word is looked
 * up, and the next line's refill goes out, in the wait's first cycle: the
 * wait passes during the refill (nsichneu built rv32imac: c.lw s0, lw t6,
 * beq s0, t6 at a line's byte 26, the fall-through j split over the line's
 * end, the target at the next line's byte 2). Std shape first (beq in the
 * line's last word: no overlap on VexRiscv.v; std and min stop at the
 * c.nop, illegal there, as on the RTL), then imac: A, the beq at byte 26
 * (wait 2); B, at byte 28 (wait 1); C, as A with no wait; D, at byte 24
 * (wait 1) and F (wait 2), the next line's first word the second after the
 * beq's last: no overlap; E, at byte 20 (pc + 12); G, at byte 22 (the
 * next line's word the second after the beq's last, 2 mod 4). */
#include "vex.h"
    fixed_layout
    main_entry
    la a3, data
    lw t0, 0(a3)
    li a0, 0
    /* std shape: beq in the line's last word, waits for the load (imac too) */
    .rept 4
    at_word 5
    lw s0, 12(a3)
    lw t6, 16(a3)
    beq s0, t6, 1f       /* word 7: taken, its target on the next line */
    j 9f                 /* word 0 of the next line */
1:  addi a0, a0, 1       /* word 1 */
    .endr
    .option rvc
    c.nop
    c.nop
    .option norvc
    /* imac A: nsichneu: beq at 0x1a, the fall-through j straddles the line */
    .rept 4
    at_word 5
    rvc16 c.lw s0, 12(a3)      /* 0x14 */
    lw t6, 16(a3)        /* 0x16 */
    beq s0, t6, 1f       /* 0x1a */
    j 9f                 /* 0x1e */
1:  addi a0, a0, 1       /* 0x22 */
    .endr
    /* imac B: beq at 0x1c, target word 1 of the next line */
    .rept 4
    at_word 5
    rvc16 c.lw s0, 12(a3)      /* 0x14 */
    lw t6, 16(a3)        /* 0x16 */
    rvc16 c.addi a0, 1         /* 0x1a */
    beq s0, t6, 1f       /* 0x1c */
    j 9f                 /* 0x20 */
1:  addi a0, a0, 1       /* 0x24 */
    .endr
    /* imac C: as A without the load-use wait */
    .rept 4
    at_word 5
    rvc16 c.lw s0, 12(a3)      /* 0x14 */
    lw t6, 16(a3)        /* 0x16 */
    beq t0, t0, 1f       /* 0x1a */
    j 9f                 /* 0x1e */
1:  addi a0, a0, 1       /* 0x22 */
    .endr
    /* imac D: beq at 0x18, pc + 8 the first on the next line (in reach) */
    .rept 4
    at_word 4
    rvc16 c.lw s0, 12(a3)      /* 0x10 */
    lw t6, 16(a3)        /* 0x12 */
    rvc16 c.addi a0, 1         /* 0x16 */
    beq s0, t6, 1f       /* 0x18, waits 1 */
    addi a0, a0, 5       /* 0x1c */
    j 9f                 /* 0x20 */
1:  addi a0, a0, 1       /* 0x24 */
    .endr
    /* imac E: beq at 0x14, pc + 12 the first on the next line (out of reach) */
    .rept 4
    at_word 3
    .option rvc
    c.nop                /* 0x0c */
    c.lw s0, 12(a3)      /* 0x0e */
    .option norvc
    lw t6, 16(a3)        /* 0x10 */
    beq s0, t6, 1f       /* 0x14, waits 2 */
    addi a0, a0, 5       /* 0x18 */
    addi a0, a0, 7       /* 0x1c */
    j 9f                 /* 0x20 */
1:  addi a0, a0, 1       /* 0x24 */
    .endr
    /* imac F: beq at 0x18 after a wait of 2, pc + 8 the first on the next line */
    .rept 4
    at_word 4
    .option rvc
    c.lw s0, 12(a3)      /* 0x10 */
    c.nop                /* 0x12 */
    .option norvc
    lw t6, 16(a3)        /* 0x14 */
    beq s0, t6, 1f       /* 0x18, waits 2 */
    addi a0, a0, 5       /* 0x1c */
    j 9f                 /* 0x20 */
1:  addi a0, a0, 1       /* 0x24 */
    .endr
    /* imac G: beq at 0x16, the word after its last the first of the next line but one */
    .rept 4
    at_word 4
    rvc16 c.lw s0, 12(a3)      /* 0x10 */
    lw t6, 16(a3)        /* 0x12 */
    beq s0, t6, 1f       /* 0x16, waits 2 */
    addi a0, a0, 5       /* 0x1a */
    j 9f                 /* 0x1e */
1:  addi a0, a0, 1       /* 0x22 */
    .endr
9:  andi a0, a0, 0x7ff
    ret
    .data
    .balign 32
data:
    .word 1, 2, 3, 7, 7, 0, 0, 0
