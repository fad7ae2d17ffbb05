/* pred_split_fill.S -- a branch predicted taken (backward) that falls
 * through, its target a 32-bit instruction in its line's last halfword
 * whose second half is on the next line, which misses: the fetch sent to
 * the target from decode needs that line too, and its refill, once begun,
 * runs while the branch is resolved (Embench qrduino built rv32imac:
 * qrencode's bltu at 0x40001206 falling through, its target 0x400009de).
 * Case A: the target at its line's byte 30; control B: the target a
 * 32-bit instruction at byte 28, all on its line. The target's line hits
 * (the function ran through it before, jumping over the target); the next
 * line is never on the right path and shares its I-cache set with a
 * function 4 KiB on (g*), called first each pass, so a wrong-path refill
 * evicts that one: it misses then. Built rv32imac. */
#include "vex.h"
    main_entry 12
    li s0, 40
    li a1, 1
1:  call gA
    call fA
    call gB
    call fB
    addi s0, s0, -1
    bnez s0, 1b
    li a0, 0
    main_return 12

    .balign 4096
    .option push
    .option norvc
    .skip 0x400
fA: nops 3                  /* from its line's start */
    j 2f                    /* byte 12: over the target */
    nops 3
    .option pop
    c.nop                   /* byte 28 */
    .option push
    .option norvc
3:  addi a0, a0, 1          /* byte 30: A's target, split over the next line */
    .option pop
    c.nop
    .option push
    .option norvc
    nops 7                  /* the next line: the wrong path's only */
2:  bltu a1, zero, 3b       /* never taken, predicted taken (backward) */
    ret
    .balign 64
fB: nops 3                  /* 0x480 */
    j 2f                    /* byte 12 */
    nops 3
4:  addi a0, a0, 1          /* byte 28: B's target, all on its line */
    nops 8                  /* the next line */
2:  bltu a1, zero, 4b
    ret
    .balign 4096
    .skip 0x420
gA: ret                     /* fA's next line's set */
    .skip 0x7c
gB: ret                     /* fB's next line's set (0x4a0) */
    .option pop
