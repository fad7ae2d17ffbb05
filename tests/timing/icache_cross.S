/*
 * icache_cross: a loop whose first instruction straddles two I-cache lines.
 * Thirteen compressed c.nop (2 bytes each) put the 4-byte addi at 0x1e, so
 * it occupies bytes 0x1e..0x21: half in line 0x00, half in line 0x20.
 * docs/timing.md, Fetch: "An instruction that crosses a line boundary
 * causes the lookup of both lines", and every redirect looks up again.
 *
 *   0x00  li s0, 10
 *   0x04  13 x c.nop                (0x04..0x1d)
 *   0x1e  loop: addi s0, s0, -1     crosses into line 0x20
 *   0x22  bnez s0, loop
 *   0x26  EXIT_PASS (0x26..0x32)
 *
 * Lookups: line 0x00 at the start (miss); the addi's second half, line
 * 0x20 (miss); each of the 9 taken branches lands on the addi, which
 * looks up line 0x00 and then line 0x20: 18 hits. The fall-through stays in
 * line 0x20. access 20, miss 2, hit 18.
 * Instructions 1 + 13 + 10 x 2 + 4 = 38 (compressed 13: a c.nop costs what
 * its expansion, addi, costs); branches 9 x 1 + 2 = 11 (backward-taken).
 *   tally5, sdram_row_miss_ns = 0: 38 + 11 + 2 x 13 = 75
 *   sram: 38 + 11 = 49
 *   picorv32: 3 + 13 x 3 + 10 x (3 + 3) + 9 x 2 + 14 = 134 for the README's
 *   CPIs, plus one cycle for every 32-bit instruction fetched at 2 mod 4
 *   (COMPRESSED_ISA's second bus word, split_fetch.S): the addi at 0x1e and
 *   the bnez at 0x22 ten times each, and EXIT_PASS's four instructions at
 *   0x26, 0x2a, 0x2e, 0x32 once: 134 + 10 + 10 + 4 = 158
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  li s0, 10
  .option push
  .option rvc
  .rept 13
  c.nop
  .endr
  .option pop
loop:
  addi s0, s0, -1
  bnez s0, loop
exit:
  AT loop, 0x1e
  AT exit, 0x26
  EXIT_PASS
