/*
 * split_fetch: PicoRV32 with COMPRESSED_ISA fetches a 32-bit instruction
 * that starts at 2 mod 4 as two bus words: one cycle more than its CPI on
 * single-cycle memory, whether reached in sequence or by a jump. Compressed
 * instructions and aligned 32-bit ones cost their CPI.
 *
 *   offset  instruction                  picorv32      picorv32-ws1 (one wait state)
 *    0      c.nop                         3             3 + 1 read            = 4
 *    2      addi t0, t1, 1  (2 mod 4)     3 + 1 = 4     3 + 2 reads + 1       = 6
 *    6      addi t0, t1, 2  (2 mod 4)     4             6
 *   10      c.nop                         3             4
 *   12      addi t0, t1, 3  (aligned)     3             4
 *   16      c.j 1f  (jal class)           3             4
 *   18, 20  c.nop, c.nop: jumped over
 *   22   1: addi t0, t1, 4  (2 mod 4, a jump's target)  4     6
 *   26      c.nop                         3             4
 *   28      EXIT_PASS (lui, lui, addi, sw to the finisher)
 *                                         3+3+3+5 = 14  4+4+4+(5+1) = 18
 *   total                                 41            56
 *
 * instret 8 + 4 = 12. The extra cycles are fetch stalls (stall.icache):
 * picorv32 3 (one per split fetch); picorv32-ws1 12 reads of one cycle
 * (8 instructions + 4 of EXIT_PASS) + 3 second words + 3 x 1 = 18.
 * Without the split rule picorv32 would count 38.
 *
 * The RTL (rtl/cores/picorv32) measures 41 and 53: the column for one wait
 * state above assumes every fetch waits, but an instruction in the upper
 * half of a word already read (the c.nop at 10, the addi at 22's second
 * half...) is not read again. src/timing/picorv32.c has the rules; the
 * tests expect the RTL's counts.
 */
#include "bench.h"
  .option rvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  c.nop
.option push
.option norvc
w1:
  AT w1, 2
  addi t0, t1, 1
  addi t0, t1, 2
.option pop
  c.nop
.option push
.option norvc
w3:
  AT w3, 12
  addi t0, t1, 3
.option pop
  c.j 1f
  c.nop
  c.nop
1:
.option push
.option norvc
  AT 1b, 22
  addi t0, t1, 4
.option pop
  c.nop
.option norvc
exit:
  AT exit, 28
  EXIT_PASS
