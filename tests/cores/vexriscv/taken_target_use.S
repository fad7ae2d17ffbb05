/* taken_target_use.S -- a load that hits, then a backward branch taken as
 * predicted (redirected from decode, one bubble), its target reading the
 * load's result (Embench picojpeg's pjpeg_decode_mcu: lh t4, 0(a4);
 * beqz a5 back; addi a5, t4, 64). The load's late result passes during
 * the branch's bubble, as during a jal's: the target retires 2 cycles
 * after the branch. A: lh, bnez back, addi of the lh's result, 5 passes;
 * B: the same with the target not reading it; C: lh, j back to an addi of
 * it; D: lw, bnez back, the result read by the second instruction of the
 * target. Each loop on a line of its own. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    la a4, buf
    lw t4, 0(a4)
    li s0, 6
    at_word 0
1:  addi a5, t4, 64
    add a0, a0, a5
    addi s0, s0, -1
    lh t4, 0(a4)
    bnez s0, 1b
    li s0, 6
    at_word 0
2:  addi a5, t3, 64
    add a0, a0, a5
    addi s0, s0, -1
    lh t4, 0(a4)
    bnez s0, 2b
    li s0, 6
    at_word 0
3:  addi a5, t4, 64
    add a0, a0, a5
    addi s0, s0, -1
    beqz s0, 4f
    lh t4, 0(a4)
    j 3b
4:  li s0, 6
    at_word 0
5:  addi a5, t3, 64
    add a0, a0, t4
    addi s0, s0, -1
    lw t4, 0(a4)
    bnez s0, 5b
    main_return 0, mask=1
    .data
    .balign 32
buf: .word 5, 6, 7, 8
