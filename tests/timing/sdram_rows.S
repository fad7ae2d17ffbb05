/*
 * sdram_rows: which memory accesses pay the SDRAM row miss. Run with one
 * bank (memory.sdram_banks=1), so that every row is in the same bank and a
 * row is simply a 2 KiB-aligned block of addresses (sdram_row_bytes 2K).
 * R = the row of the code, 0x80000000..0x800007ff.
 *
 *   0x00  lui s0, 0x80001         s0 = 0x80001000 (row R+2)
 *   0x04  addi s1, s0, -2048      s1 = 0x80000800 (row R+1)
 *   0x08  lw t0, 0(s1)            row R+1
 *   0x0c  lw t0, 32(s1)           row R+1, another line
 *   0x10  lw t0, 0(s0)            row R+2
 *   0x14  lw t0, 64(s1)           row R+1
 *   0x18  nop ; nop
 *   0x20  EXIT_PASS (0x20..0x2c)  a new I-cache line, row R
 * The four loads touch four different lines (sets 0, 1, 0, 2 of the 2-way
 * D-cache): four misses, nothing evicted.
 *
 * docs/timing.md: a read of n beats costs read_first + (n-1) x read_beat,
 * "SDRAM adds sdram_row_miss_ns when the bank has another row open".
 * At 100 MHz: fill 6 + 7 = 13, row miss 30 ns = 3 cycles.
 *   I  line 0x00 (row R)    no row open yet            13
 *   D  0x80000800 (R+1)     R open: row miss           16
 *   D  0x80000820 (R+1)     R+1 open                   13
 *   D  0x80001000 (R+2)     R+1 open: row miss         16
 *   D  0x80000840 (R+1)     R+2 open: row miss         16
 *   I  line 0x20 (row R)    R+1 open: row miss         16
 *   instructions 2 + 4 + 2 + 4 = 12
 *   cycles 12 + (13 + 16) + (16 + 13 + 16 + 16) = 12 + 29 + 61 = 102
 *   with sdram_row_miss_ns = 0: 12 + 2 x 13 + 4 x 13 = 90
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  lui s0, 0x80001
  addi s1, s0, -2048
  lw t0, 0(s1)
  lw t0, 32(s1)
  lw t0, 0(s0)
  lw t0, 64(s1)
  nop
  nop
exit:
  AT exit, 0x20
  EXIT_PASS
