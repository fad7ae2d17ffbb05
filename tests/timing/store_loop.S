/*
 * store_loop: store 16 words (two D-cache lines), twice; memory writes
 * under write-back and under write-through.
 *
 *   0x00  li s1, 2
 *   0x04  pass: la a0, area ; addi a1, a0, 64
 *   0x10  loop: sw s1, 0(a0) ; addi a0, a0, 4 ; bne a0, a1, loop
 *   0x1c  addi s1, s1, -1
 *   0x20  bnez s1, pass
 *   0x24  EXIT_PASS (0x24..0x30)                  two I-cache lines
 * Instructions 1 + 2 x (3 + 16 x 3 + 2) + 4 = 111; branch penalties
 * (backward-taken) 2 x (15 x 1 + 2) + (1 + 2) = 37; I-cache 2 x 13 = 26.
 * Without the D-cache's part: 111 + 37 + 26 = 174.
 *
 * tally5 (write-back, write-allocate), sdram_row_miss_ns = 0:
 *   pass 1: 2 write misses (fill 13 each, the lines become dirty), 14 hits;
 *   pass 2: 16 hits. Nothing is evicted, so nothing is written to memory.
 *   cycles 174 + 26 = 200; dcache.write_miss 2, dcache.write_hit 30,
 *   mem.write 0, writeback 0, mem.read 2 + 2 = 4
 * tally5-wt (write-through, no write-allocate):
 *   all 32 stores miss (a store never allocates) and each is one memory
 *   write through the buffer; a write drains in 1 cycle and stores come
 *   every 4 cycles or more, so the buffer never fills.
 *   cycles 174; dcache.write_miss 32, mem.write 32, stall.write_buffer 0,
 *   mem.read 2
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  li s1, 2
pass:
  la a0, area
  addi a1, a0, 64
loop:
  sw s1, 0(a0)
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
area: .space 64
