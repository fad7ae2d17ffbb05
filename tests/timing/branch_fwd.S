/*
 * branch_fwd: eight forward branches, each always taken, each skipping one
 * instruction that therefore never runs.
 *
 *   0x00  li s0, 1
 *   then 8 times:  bnez s0, 1f ; addi s1, s1, 1 (skipped) ; 1:
 *   0x44  EXIT_PASS
 *
 * Instructions run: 1 + 8 + 4 = 13 (13 cycles at cpi 1 on sram).
 *   not-taken: each branch taken against the prediction: 8 x 2 = 16 -> 29
 *   taken:     each taken as predicted: 8 x 1 = 8                   -> 21
 *   backward-taken: the branches are forward, so predicted not taken:
 *              8 x 2 = 16                                           -> 29
 *   branch 8 and branch.taken 8 always; branch.mispredict 8 / 0 / 8.
 *   picorv32: li 3 + 8 x (3 + 2) + EXIT_PASS 14 = 57
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  li s0, 1
  .rept 8
  bnez s0, 1f
  addi s1, s1, 1
1:
  .endr
exit:
  AT exit, 0x44
  EXIT_PASS
