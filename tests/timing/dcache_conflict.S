/*
 * dcache_conflict: lines that fall into one set of the 2-way, 4 KiB,
 * 32-byte-line D-cache (64 sets: addresses 64 x 32 = 2 KiB apart share a
 * set). Four rounds of three loads:
 *   default build:  A, B, C   with A = area, B = area + 2 KiB, C = area + 4 KiB:
 *                   three lines in a two-way set; under LRU each access
 *                   evicts the line needed next: every access misses.
 *   -DTWO_LINES:    A, B, A   two lines: 2 misses, then all hits.
 *
 *   0x00  la s0, area ; la s1, area+2048 ; la s2, area+4096   6 instructions
 *   0x18  li s3, 4
 *   0x1c  loop: lw t0,0(s0) ; lw t0,0(s1) ; lw t0,0(s2|s0) ; addi s3,s3,-1 ; bnez s3, loop
 *   0x30  EXIT_PASS (0x30..0x3c)      code: two I-cache lines
 *
 * tally5, sdram_row_miss_ns = 0 (fill 13 cycles):
 *   instructions 7 + 4 x 5 + 4 = 31
 *   bnez: 3 x 1 (taken, predicted) + 2 (falls through) = 5
 *   I-cache 2 x 13 = 26
 *   three lines: 12 misses x 13 = 156: cycles 31 + 5 + 26 + 156 = 218
 *   two lines:    2 misses x 13 =  26: cycles 31 + 5 + 26 + 26  =  88
 * LRR (FIFO) thrashes on A, B, C as well: the victim is always the line
 * filled first, which is the one needed next: 218 too.
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
  li s3, 4
loop:
  lw t0, 0(s0)
  lw t0, 0(s1)
#ifdef TWO_LINES
  lw t0, 0(s0)
#else
  lw t0, 0(s2)
#endif
  addi s3, s3, -1
  bnez s3, loop
exit:
  AT loop, 0x1c
  AT exit, 0x30
  EXIT_PASS

  .bss
  .balign 4096
area: .space 8192
