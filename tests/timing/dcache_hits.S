/*
 * dcache_hits: walk a 1 KiB array (32 lines of 32 bytes, a quarter of the
 * 4 KiB D-cache) word by word, twice. The first pass misses once per line;
 * the second pass finds every line resident.
 *
 *   0x00  li s1, 2                  passes
 *   0x04  pass: la a0, array        auipc, addi
 *   0x0c  addi a1, a0, 1024         end of the array
 *   0x10  loop: lw t0, 0(a0)
 *   0x14  addi a0, a0, 4
 *   0x18  bne a0, a1, loop          backward
 *   0x1c  addi s1, s1, -1
 *   0x20  bnez s1, pass             backward
 *   0x24  EXIT_PASS                 0x24..0x30
 * The code spans two I-cache lines (0x00 and 0x20).
 *
 * tally5 with sdram_row_miss_ns = 0 (every fill: 6 + 7 x 1 = 13 cycles):
 *   instructions: 1 + 2 x (3 + 256 x 3 + 2) + 4 = 1 + 2 x 773 + 4 = 1551
 *   branch penalties (backward-taken): inner loop per pass 255 x 1 (taken,
 *     predicted) + 2 (falls through, mispredicted) = 257, x 2 = 514;
 *     outer loop 1 (taken) + 2 (falls through) = 3
 *   I-cache: 2 misses x 13 = 26
 *   D-cache: pass 1: 32 misses x 13 = 416, 224 hits; pass 2: 256 hits
 *   cycles = 1551 + 514 + 3 + 26 + 416 = 2510
 *   dcache.read_miss 32, dcache.read_hit 480, mem.read 32 + 2 = 34,
 *   stall.dcache 416, stall.icache 26
 * (No load-use stall: the instruction after each lw does not read t0.)
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  li s1, 2
pass:
  la a0, array
  addi a1, a0, 1024
loop:
  lw t0, 0(a0)
  addi a0, a0, 4
  bne a0, a1, loop
  addi s1, s1, -1
  bnez s1, pass
exit:
  AT loop, 0x10
  AT exit, 0x24
  EXIT_PASS

  .bss
  .balign 4096
array: .space 1024
