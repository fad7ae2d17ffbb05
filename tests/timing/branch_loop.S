/*
 * branch_loop: a counted loop whose backward branch is taken N-1 = 9 times
 * and falls through once.
 *
 *   0x00  li s0, 10            ALU imm
 *   0x04  loop: addi s0, s0, -1
 *   0x08  bnez s0, loop        backward (target below the branch)
 *   0x0c  EXIT_PASS            4 instructions
 *
 * Instructions: 1 + 10 x 2 + 4 = 25, so 25 cycles before any penalty
 * (cpi 1 for every class on sram). The penalties (docs/timing.md,
 * "redirect"): branch_penalty (2) when the branch goes against the
 * prediction, branch_taken_penalty (1) when it is predicted taken and is
 * taken, nothing when predicted not taken and not taken.
 *
 *   --set pipeline.branch_predict=not-taken:
 *       9 taken, mispredicted: 9 x 2 = 18; the last, not taken: 0
 *       cycles 25 + 18 = 43; branch 10, branch.taken 9, branch.mispredict 9,
 *       stall.branch 18
 *   taken, and backward-taken (the branch is backward, so predicted taken):
 *       9 taken as predicted: 9 x 1 = 9; the last, not taken, mispredicted: 2
 *       cycles 25 + 11 = 36; branch.mispredict 1, stall.branch 11
 *   with branch_penalty=5 and branch_taken_penalty=0 under taken:
 *       9 x 0 + 5 = 5: cycles 30
 *   picorv32 (cpi.branch 3, not-taken, branch_penalty 2; ALU 3):
 *       li 3 + 10 x (3 + 3) + 9 x 2 + EXIT_PASS 14 = 3 + 60 + 18 + 14 = 95
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  li s0, 10
loop:
  addi s0, s0, -1
  bnez s0, loop
  AT loop, 4
  EXIT_PASS
