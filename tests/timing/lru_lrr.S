/*
 * lru_lrr: the access pattern A, B, A, C, A in one set of the 2-way D-cache
 * (A = area, B = area + 2 KiB, C = area + 4 KiB: same set, see
 * dcache_conflict.S), where LRU and LRR (least recently replaced, FIFO)
 * choose different victims:
 *
 *   access   LRU (set after)            LRR (set after, oldest fill first)
 *   A        miss  [A]                  miss  [A]
 *   B        miss  [A B], B most recent miss  [A B]
 *   A        hit   A most recent        hit   order unchanged: A oldest
 *   C        miss, evicts B  [A C]      miss, evicts A  [B C]
 *   A        hit                        miss, evicts B  [C A]
 *   misses   3                          4
 *
 *   0x00  three la (6 instructions), 0x18 five lw, 0x2c EXIT_PASS (..0x38)
 *   two I-cache lines.
 * tally5, sdram_row_miss_ns = 0 (fill 13 cycles):
 *   LRU: 15 instructions + 2 x 13 (I) + 3 x 13 (D) = 15 + 26 + 39 = 80
 *   LRR: 15 + 26 + 4 x 13 = 93
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  la s0, area
  la s1, area + 2048
  la s2, area + 4096
pattern:
  lw t0, 0(s0)
  lw t0, 0(s1)
  lw t0, 0(s0)
  lw t0, 0(s2)
  lw t0, 0(s0)
exit:
  AT pattern, 0x18
  AT exit, 0x2c
  EXIT_PASS

  .bss
  .balign 4096
area: .space 8192
