/* predicted_use_line.S -- a branch predicted taken (backward) that waits
 * in decode for a load's result (a D-cache hit), in its line's last word,
 * the next line missing ([pipeline] predicted_use_reach). On
 * VexRiscv_IMAC.v the word right after the branch's last word is looked
 * up, and the next line's refill goes out, in the wait's first cycle: the
 * wait passes during the refill, whether the branch is taken (the word
 * after it is refilled behind the target) or falls through (the
 * fall-through finds its line being filled). nsichneu built rv32imac:
 * c.lw s0, lw t6, bne s0, t6 back at a line's byte 28, falling through;
 * lw t6, c.lw s0, bge t6, s0 back at byte 28, taken. Each case 4 times, on
 * new lines: A, bne at byte 28 falling through (wait 2); B, bge at byte 28
 * taken (wait 2); C, bne at byte 26 falling through to a lw split over the
 * line's end; D, bge at byte 26 taken; controls E, A's bne without the
 * wait (never taken), and F, a bge at byte 22 taken, the instruction
 * after it on its own line. std and min stop at the first 16-bit
 * instruction (illegal there), as the RTL does. */
#include "vex.h"
    fixed_layout
    main_entry
    la a3, data
    li a0, 0
    .option rvc
    c.nop                /* std and min stop here (illegal there) */
    c.nop
    .option norvc
    /* A */
    .rept 4
    .balign 32
    j 3f
2:  addi a0, a0, 1
    j 4f
    .balign 32
    nops 5
    .option rvc
    c.nop
    c.lw s0, 12(a3)
    .option norvc
3:  lw t6, 16(a3)
    bne s0, t6, 2b
    addi a0, a0, 3

4:  addi a0, a0, 2
    .endr
    /* B */
    .rept 4
    .balign 32
    j 3f
2:  addi a0, a0, 1
    j 4f
    .balign 32
    nops 5
    rvc16 c.nop
3:  lw t6, 16(a3)
    rvc16 c.lw s0, 12(a3)
    bge t6, s0, 2b
    addi a0, a0, 3

4:  addi a0, a0, 2
    .endr
    /* C */
    .rept 4
    .balign 32
    j 3f
2:  addi a0, a0, 1
    j 4f
    .balign 32
    nops 5
    .option rvc
3:  c.lw s0, 12(a3)
    .option norvc
    lw t6, 16(a3)
    bne s0, t6, 2b
    lw t6, 16(a3)

4:  addi a0, a0, 2
    .endr
    /* D */
    .rept 4
    .balign 32
    j 3f
2:  addi a0, a0, 1
    j 4f
    .balign 32
    nops 5
3:  lw t6, 16(a3)
    rvc16 c.lw s0, 12(a3)
    bge t6, s0, 2b
    lw t6, 16(a3)

4:  addi a0, a0, 2
    .endr
    /* E */
    .rept 4
    .balign 32
    j 3f
2:  addi a0, a0, 1
    j 4f
    .balign 32
    nops 5
    .option rvc
    c.nop
    c.lw s0, 12(a3)
    .option norvc
3:  lw t6, 16(a3)
    bne t0, t0, 2b
    addi a0, a0, 3

4:  addi a0, a0, 2
    .endr
    /* F */
    .rept 4
    .balign 32
    j 3f
2:  addi a0, a0, 1
    j 4f
    .balign 32
    nops 4
    lw t6, 16(a3)
    .option rvc
3:  c.lw s0, 12(a3)
    .option norvc
    bge t6, s0, 2b
    addi a0, a0, 3
    addi a0, a0, 3

4:  addi a0, a0, 2
    .endr
    andi a0, a0, 0x7ff
    ret
    .data
    .balign 32
data:
    .word 1, 2, 3, 7, 7, 0, 0, 0
