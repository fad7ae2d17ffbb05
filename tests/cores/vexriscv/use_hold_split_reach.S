/* use_hold_split_reach.S -- wrong_path_use_split when the jump's reach is
 * the next line's first word: a 32-bit jump at 2 mod 4 at a line's byte 18
 * (a beq taken forward against its prediction, or a ret), a load at pc + 4
 * and a reader of it at pc + 8, the third wrong-path instruction over the
 * line's end, its next line cached: on VexRiscv_IMAC.v decode holds the
 * reader in the redirect's cycle and the target's lookup goes a cycle
 * later, as when the reach stays on the line (use_hold_split.S), though
 * the fetch counts those lookups from pc + 2 (wrong_path_split). nsichneu
 * built rv32imac: c.lw s0, lw t6, beq s0, t6 at 0x40000e32 (byte 18),
 * lw t6, bge of it, lw over the line's end. Each case 4 times, on new
 * lines: A, that shape, the next line cached first, the target's line
 * missing; B (control), the next line missing (the wrong path's refill,
 * no hold); C, A's shape in a loop of 4, the target a hit after the first
 * pass; D, a 32-bit ret at byte 18 before the load and its reader, the
 * next line cached; E (control), A with no reader after the load. std and
 * min stop at the first 16-bit instruction (illegal there), as the RTL
 * does: the c.nop pair before A. */
#include "vex.h"
    fixed_layout
    main_entry 12
    la a3, data
    mv a5, a3
    mv a6, a3
    li a4, 100
    li a2, 100
    li a0, 0
    .option rvc          /* std and min trap here (illegal, not a */
    c.nop                /* misaligned jump further on) */
    c.nop
    .option norvc
    /* A */
    .rept 4
    j 2f
    at_word 3
3:  .option rvc
    c.lw s0, 12(a3)      /* 0x0c */
    .option norvc
    lw t6, 16(a3)        /* 0x0e */
    beq s0, t6, 1f       /* 0x12 */
    lw t6, 0(a5)         /* 0x16 */
    bge a4, t6, 9f       /* 0x1a */
    lw t6, 8(a6)         /* 0x1e: over the line's end */
    blt a2, t6, 9f
    j 9f
2:  j 3b                 /* the next line, cached first */
    .balign 32
    nops 8
1:  .option rvc
    c.lw s0, 12(a3)
    .option norvc
    lw t6, 16(a3)
    addi a0, a0, 1
    .endr
    /* B */
    .rept 4
    at_word 3
    rvc16 c.lw s0, 12(a3)      /* 0x0c */
    lw t6, 16(a3)        /* 0x0e */
    beq s0, t6, 1f       /* 0x12 */
    lw t6, 0(a5)         /* 0x16 */
    bge a4, t6, 9f       /* 0x1a */
    lw t6, 8(a6)         /* 0x1e: over the line's end */
    blt a2, t6, 9f
    j 9f
    .balign 32
    nops 8
1:  .option rvc
    c.lw s0, 12(a3)
    .option norvc
    lw t6, 16(a3)
    addi a0, a0, 1
    .endr
    /* C: A's shape in a loop of 4 */
    li a1, 4
    j 2f
    at_word 3
3:  .option rvc
    c.lw s0, 12(a3)      /* 0x0c */
    .option norvc
    lw t6, 16(a3)        /* 0x0e */
    beq s0, t6, 1f       /* 0x12 */
    lw t6, 0(a5)         /* 0x16 */
    bge a4, t6, 9f       /* 0x1a */
    lw t6, 8(a6)         /* 0x1e */
    blt a2, t6, 9f
    j 9f
2:  j 3b
    .balign 32
1:  .option rvc
    c.lw s0, 12(a3)
    .option norvc
    lw t6, 16(a3)
    addi a1, a1, -1
    bnez a1, 3b
    /* D: a 32-bit ret at byte 18 */
    .rept 4
    jal ra, 6f
    addi a0, a0, 1
    j 8f
    at_word 4
7:  .option rvc
    c.nop                /* 0x10 */
    .option norvc
    jalr zero, 0(ra)     /* 0x12 */
    lw t6, 0(a5)         /* 0x16 */
    bge a4, t6, 9f       /* 0x1a */
    lw t6, 8(a6)         /* 0x1e */
    blt a2, t6, 9f
6:  j 7b                 /* the next line, cached first */
    .balign 32
8:  nop
    .endr
    /* E (control) */
    .rept 4
    j 2f
    at_word 3
3:  .option rvc
    c.lw s0, 12(a3)      /* 0x0c */
    .option norvc
    lw t6, 16(a3)        /* 0x0e */
    beq s0, t6, 1f       /* 0x12 */
    lw t6, 0(a5)         /* 0x16 */
    addi s1, a4, 1       /* 0x1a: reads none of it */
    lw t6, 8(a6)         /* 0x1e: over the line's end */
    blt a2, t6, 9f
    j 9f
2:  j 3b                 /* the next line, cached first */
    .balign 32
    nops 8
1:  .option rvc
    c.lw s0, 12(a3)
    .option norvc
    lw t6, 16(a3)
    addi a0, a0, 1
    .endr
9:  main_return 12, 1
    .data
    .balign 32
data:
    .word 1, 2, 3, 7, 7, 0, 0, 0
