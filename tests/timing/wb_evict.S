/*
 * wb_evict: three stores and two loads to lines of one D-cache set
 * (A = area, B = area + 2 KiB, C = area + 4 KiB), so that dirty lines are
 * evicted under write-back; the same program under write-through.
 *
 *   0x00  la s0, A ; la s1, B ; la s2, C          6 instructions
 *   0x18  nop ; nop                               (the stores start a line)
 *   0x20  sw A ; sw B ; sw C
 *   0x2c  nop ; nop                               (write-through: the buffer
 *                                                  drains before the load)
 *   0x34  lw A ; lw B
 *   0x3c  EXIT_PASS (0x3c..0x48)                  three I-cache lines
 * Instructions 6 + 2 + 3 + 2 + 2 + 4 = 19; I-cache 3 misses x 13 = 39
 * (sdram_row_miss_ns = 0: a fill is 6 + 7 x 1 = 13, a line written back
 * 8 x 1 = 8 cycles).
 *
 * tally5 (write-back, write-allocate, LRU):
 *   sw A   miss, fill                                  13   set [A*]
 *   sw B   miss, fill                                  13   set [A* B*]
 *   sw C   miss, victim A dirty: write-back 8 + fill 13 21  set [B* C*]
 *   lw A   miss, victim B dirty: 8 + 13                21   set [C* A]
 *   lw B   miss, victim C dirty: 8 + 13                21   set [A B]
 *   cycles 19 + 39 + 89 = 147; writeback 3, mem.write 3,
 *   mem.read 5 + 3 = 8, dcache.write_miss 3, dcache.read_miss 2
 * tally5-wt (write-through, no write-allocate, 4-entry write buffer):
 *   each store misses, does not allocate, and goes to the write buffer
 *   (one beat, 1 cycle to drain; the buffer never fills: no stall); by the
 *   loads, two instructions later, the buffer is empty.
 *   lw A miss, fill 13; lw B miss, fill 13 (the other way)
 *   cycles 19 + 39 + 26 = 84; writeback 0, mem.write 3, mem.read 2 + 3 = 5
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
  nop
  nop
stores:
  sw s0, 0(s0)
  sw s1, 0(s1)
  sw s2, 0(s2)
  nop
  nop
loads:
  lw t0, 0(s0)
  lw t0, 0(s1)
exit:
  AT stores, 0x20
  AT loads, 0x34
  AT exit, 0x3c
  EXIT_PASS

  .bss
  .balign 4096
area: .space 8192
