/*
 * icache_loop: a 4-instruction loop run 10 times, inside one I-cache line
 * (default build) or across two lines (-DSPAN), for the fetch rules of
 * docs/timing.md: the fetch unit looks a line up when execution enters a
 * new line sequentially and after every redirect (a taken branch), even
 * into the same line; each lookup raises icache.access and a hit or a miss.
 *
 * default (32-byte lines):
 *   0x00  li s0, 10 ; 7 x nop
 *   0x20  loop: addi s0, s0, -1 ; nop ; nop ; bnez s0, loop
 *   0x30  EXIT_PASS (0x30..0x3c)
 *   lookups: line 0x00 at the start (miss), line 0x20 entered (miss),
 *     9 taken branches back into line 0x20 (hits); the fall-through stays
 *     in line 0x20: access 11, miss 2, hit 9
 *   instructions 1 + 7 + 10 x 4 + 4 = 52; branches 9 x 1 + 2 = 11
 *   cycles 52 + 11 + 2 x 13 = 89
 * -DSPAN:
 *   0x00  li s0, 10 ; 5 x nop
 *   0x18  loop: addi s0, s0, -1 ; nop      (line 0x00)
 *   0x20        nop ; bnez s0, loop        (line 0x20)
 *   0x28  EXIT_PASS (0x28..0x34)
 *   lookups: line 0x00 (miss), line 0x20 in the first pass (miss), then
 *     9 x (branch back into line 0x00 + line 0x20 entered again), all hits:
 *     access 20, miss 2, hit 18
 *   instructions 1 + 5 + 40 + 4 = 50; branches 11; cycles 50 + 11 + 26 = 87
 * With a one-line I-cache (icache.size=32, icache.ways=1) every lookup of
 * the other line misses:
 *   default: the loop stays in line 0x20: still 2 misses: 89 cycles
 *   SPAN: the two lines evict each other: 20 lookups, 20 misses:
 *     cycles 61 + 20 x 13 = 321
 * (tally5 with sdram_row_miss_ns = 0: a line fill is 6 + 7 x 1 = 13 cycles.)
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  li s0, 10
#ifdef SPAN
  .rept 5
#else
  .rept 7
#endif
  nop
  .endr
loop:
  addi s0, s0, -1
  nop
  nop
  bnez s0, loop
exit:
#ifdef SPAN
  AT loop, 0x18
  AT exit, 0x28
#else
  AT loop, 0x20
  AT exit, 0x30
#endif
  EXIT_PASS
