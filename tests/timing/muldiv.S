/*
 * muldiv: five multiplies and five divides with operands whose significant
 * bit counts are known, so fixed and iterative timings can both be derived.
 *
 * Operands (bits(v) = number of significant bits, 0 for 0):
 *   a0 = 0xff        bits 8      li: addi         (1 instruction)
 *   a1 = 0x12345     bits 17     li: lui + addi   (2)
 *   a2 = 1           bits 1      li: addi         (1)
 *   a3 = 0           bits 0      li: addi         (1)
 *   a4 = 0x80000000  bits 32     li: lui          (1)
 * 6 ALU-immediate instructions, then
 *   mul    t0, a1, a0      rs2 bits 8
 *   mul    t0, a0, a1      rs2 bits 17
 *   mulh   t0, a0, a2      rs2 bits 1
 *   mulhu  t0, a0, a3      rs2 bits 0
 *   mulhsu t0, a0, a4      rs2 bits 32
 *   div    t0, a0, a1      rs1 bits 8
 *   divu   t0, a1, a0      rs1 bits 17
 *   rem    t0, a2, a0      rs1 bits 1
 *   remu   t0, a3, a0      rs1 bits 0
 *   divu   t0, a4, a2      rs1 bits 32
 * and EXIT_PASS (4). No divisor is 0 and no operand is negative as a
 * signed number except a4, which only divu and mulhsu (rs2 unsigned) read.
 *
 * sram (cpi 1 everywhere):
 *   fixed (mul_latency 2, div_latency 32):
 *     6 + 5 x (1 + 2) + 5 x (1 + 32) + 4 = 6 + 15 + 165 + 4 = 190
 *     stall.muldiv 5 x 2 + 5 x 32 = 170
 *   iterative multiply (extra = ceil(mul_latency x bits(rs2) / 32)):
 *     ceil(2*8/32)=1, ceil(2*17/32)=2, ceil(2/32)=1, 0, ceil(64/32)=2: 6
 *     6 + (5 + 6) + 165 + 4 = 186; stall.muldiv 6 + 160 = 166
 *   iterative divide (extra = ceil(div_latency x bits(rs1) / 32) = bits(rs1)):
 *     8 + 17 + 1 + 0 + 32 = 58
 *     6 + 15 + (5 + 58) + 4 = 88; stall.muldiv 10 + 58 = 68
 *   both iterative: 6 + 11 + 63 + 4 = 84; stall.muldiv 6 + 58 = 64
 *   both iterative with mul_latency 32, div_latency 20 (rounding up):
 *     multiply extras = bits(rs2): 8 + 17 + 1 + 0 + 32 = 58
 *     divide extras ceil(20 x b / 32): b=8: 160/32 = 5; b=17: 340/32 -> 11;
 *       b=1: 20/32 -> 1; b=0: 0; b=32: 20; sum 37
 *     6 + (5 + 58) + (5 + 37) + 4 = 115; stall.muldiv 95
 * picorv32 (cpi.mul 40, cpi.mulh 72, cpi.div 40, latencies 0, ALU 3):
 *   6 x 3 + 2 x 40 + 3 x 72 + 5 x 40 + 14 = 18 + 80 + 216 + 200 + 14 = 528
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  li a0, 0xff
  li a1, 0x12345
  li a2, 1
  li a3, 0
  li a4, 0x80000000
ops:
  AT ops, 24
  mul t0, a1, a0
  mul t0, a0, a1
  mulh t0, a0, a2
  mulhu t0, a0, a3
  mulhsu t0, a0, a4
  div t0, a0, a1
  divu t0, a1, a0
  rem t0, a2, a0
  remu t0, a3, a0
  divu t0, a4, a2
  EXIT_PASS
