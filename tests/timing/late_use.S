/*
 * late_use: results that come late (loads, multiplies, shifts) read one,
 * two and three instructions later, and across a block boundary.
 *
 * Run on sram with load_use_penalty 2, mul_use_penalty 2,
 * shift_use_penalty 1 and mul_latency 0 (the CTest case sets them). Per
 * docs/timing.md a result is late by its penalty counted from its
 * producer's issue; a reader waits the penalty less the cycles of the
 * instructions between. The kernel, with each instruction's cycles:
 *
 *   lw   a0, 0(a1)       1
 *   nop                  1
 *   add  a2, a0, a0      1 + 1   (load read 2 later: 2 - 1)
 *   mul  a3, a2, a2      1
 *   add  a4, a3, a3      1 + 2   (multiply read next)
 *   slli a5, a4, 3       1
 *   add  a6, a5, a5      1 + 1   (shift read next)
 *   lw   a0, 0(a1)       1
 *   lw   t0, 4(a1)       1
 *   add  a2, a0, t0      1 + 2   (max of a0: 2 - 1, t0: 2)
 *   add  a7, a0, a0      1       (a0 read 4 cycles after its load)
 *   mul  a3, a2, a2      1
 *   bne  zero, zero, 1f  1       (forward, not taken as predicted; ends the block)
 * 1:add  a4, a3, a3      1 + 1   (next block: multiply 2 - 1)
 *                       = 14 + 7 stall = 21
 *
 * Exit status: the second pass's mcycle delta = csrr (1 + csr_penalty 2)
 * + 21 = 24, stall.load_use 7 per pass, 14 in all.
 * Whole program under sram: la 2 + li 1 = 3; per pass csrr 3 + 21 +
 * csrr 3 + addi 1 + bnez 1 = 29, x 2 = 58; bnez taken (predicted) +1,
 * then not taken against the prediction +2 = 3; sub 1 + EXIT_WITH 6 = 7:
 * 3 + 58 + 3 + 7 = 71.
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  la a1, words
  li s0, 2
pass:
  csrr s2, mcycle
  lw a0, 0(a1)
  nop
  add a2, a0, a0
  mul a3, a2, a2
  add a4, a3, a3
  slli a5, a4, 3
  add a6, a5, a5
  lw a0, 0(a1)
  lw t0, 4(a1)
  add a2, a0, t0
  add a7, a0, a0
  mul a3, a2, a2
  bne zero, zero, 1f
1:add a4, a3, a3
  csrr s3, mcycle
  addi s0, s0, -1
  bnez s0, pass
  sub s3, s3, s2
  EXIT_WITH s3

  .data
words: .word 21, 4
