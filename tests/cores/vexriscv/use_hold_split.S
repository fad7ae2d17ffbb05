/* use_hold_split.S -- a 32-bit jump at 2 mod 4 that redirects from memory
 * (a beq taken forward, against its prediction, or a ret), whose first
 * wrong-path instruction is a load and whose second reads its result, on
 * lines that hit ([pipeline] wrong_path_use_split): on VexRiscv_IMAC.v
 * decode holds the reader for the load's result in the redirect's cycle,
 * and the target's lookup goes out a cycle later, as after a jump at
 * 0 mod 4 (wrong_path_use_hold). nsichneu built rv32imac: c.lw s0, lw t6,
 * beq s0, t6 at a line's byte 10, lw t6, bge of it, lw, blt after it.
 * Each case 4 times, on new lines (the target's line missing): A, that
 * shape; B, no wait before the beq; C, the reader a c.beqz; D, the beq
 * at 0 mod 4 (wrong_path_use_hold already); E, the load a c.lw at 2 mod 4,
 * the reader at 0 mod 4; F (control), the reader third; G (control), a
 * word the decompressor holds after the load and its reader
 * (redirect_rvc_pair's, charged: no hold on top of it); H, a loop of 4,
 * A's shape to a target that hits after the first pass; K, a 32-bit ret
 * at 2 mod 4 before a load and its reader. Loads at pc + 4 here
 * (shifts there: use_shift_split.S). std and min stop
 * at the first 16-bit instruction (illegal there), as the RTL does. */
#include "vex.h"
    fixed_layout
    main_entry 12
    la a3, data
    mv a5, a3
    mv a6, a3
    li a4, 100
    li a2, 100
    li a0, 0
    /* A */
    .rept 4
    at_word 1
    rvc16 c.lw s0, 12(a3)      /* 0x04 */
    lw t6, 16(a3)        /* 0x06 */
    beq s0, t6, 1f       /* 0x0a */
    lw t6, 0(a5)
    bge a4, t6, 9f
    lw t6, 8(a6)
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
    /* B */
    .rept 4
    at_word 1
    rvc16 c.lw s0, 12(a3)      /* 0x04 */
    lw t6, 16(a3)        /* 0x06 */
    beq t0, t0, 1f
    lw t6, 0(a5)
    bge a4, t6, 9f
    lw t6, 8(a6)
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
    /* C */
    .rept 4
    at_word 1
    rvc16 c.lw s0, 12(a3)      /* 0x04 */
    lw t6, 16(a3)        /* 0x06 */
    beq s0, t6, 1f
    lw s1, 0(a5)
    rvc16 c.beqz s1, 1f
    lw t6, 8(a6)
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
    /* D */
    .rept 4
    at_word 1
    lw s0, 12(a3)
    lw t6, 16(a3)
    beq s0, t6, 1f       /* 0x0c */
    lw t6, 0(a5)
    bge a4, t6, 9f
    lw t6, 8(a6)
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
    /* E */
    .rept 4
    at_word 1
    rvc16 c.lw s0, 12(a3)      /* 0x04 */
    lw t6, 16(a3)        /* 0x06 */
    beq s0, t6, 1f
    rvc16 c.lw s1, 0(a5)
    bge a4, s1, 9f
    lw t6, 8(a6)
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
    /* F */
    .rept 4
    at_word 1
    rvc16 c.lw s0, 12(a3)      /* 0x04 */
    lw t6, 16(a3)        /* 0x06 */
    beq s0, t6, 1f
    lw t6, 0(a5)
    addi a1, a4, 1
    bge a4, t6, 9f
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
    /* G */
    .rept 4
    at_word 1
    rvc16 c.lw s0, 12(a3)      /* 0x04 */
    lw t6, 16(a3)        /* 0x06 */
    beq s0, t6, 1f
    lw t6, 0(a5)
    bge a4, t6, 9f
    j 9f                 /* 0x16 */
    rvc16 c.nop                /* 0x1a */
    j 9f
    .balign 32
    nops 8
1:  .option rvc
    c.lw s0, 12(a3)
    .option norvc
    lw t6, 16(a3)
    addi a0, a0, 1
    .endr
    /* H: A's shape in a loop of 4, the target a hit after the first pass */
    li a1, 4
    at_word 0
2:  nop
    rvc16 c.lw s0, 12(a3)      /* 0x04 */
    lw t6, 16(a3)        /* 0x06 */
    beq s0, t6, 1f       /* 0x0a */
    lw t6, 0(a5)
    bge a4, t6, 9f
    lw t6, 8(a6)
    blt a2, t6, 9f
    j 9f
    .balign 32
1:  .option rvc
    c.lw s0, 12(a3)
    .option norvc
    lw t6, 16(a3)
    addi a1, a1, -1
    bnez a1, 2b
    /* K: a 32-bit ret at 2 mod 4, then lw and bge of it */
    .rept 4
    jal ra, 7f
    addi a0, a0, 1
    j 8f
    at_word 1
7:
    rvc16 c.nop                /* 0x04 */
    jalr zero, 0(ra)     /* 0x06 */
    lw t6, 0(a5)
    bge a4, t6, 9f
    lw t6, 8(a6)
    blt a2, t6, 9f
    .balign 32
8:  nop
    .endr
9:  main_return 12, 1
    .data
    .balign 32
data:
    .word 1, 2, 3, 7, 7, 0, 0, 0
