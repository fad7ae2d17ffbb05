/*
 * mcycle: what a read of mcycle returns, the measuring tool of the other
 * benchmarks. docs/timing.md: reading mcycle gives the cycles before the
 * reading instruction starts; an instruction's cycles start with its fetch
 * stall (attribution table), so that stall is not yet counted either.
 *
 *   0x00  csrr s0, mcycle      s0 = 0: nothing ran before it
 *   0x04  csrr s1, mcycle      s1 = cycles of the first csrr
 *   0x08  5 x nop
 *   0x1c  csrr s2, mcycle      s2 = s1 + csrr + 5 nops
 *   0x20  li t1, 7             (a new I-cache line)
 *   0x24  div t2, t1, t1
 *   0x28  csrr s3, mcycle      s3 = s2 + csrr + li + div
 * then prints "s0 s1 s2 s3\n", each as five digits.
 *
 *   sram (csr 1 + csr_penalty 2 = 3, div 1 + 32):
 *     0, 3, 3 + 3 + 5 = 11, 11 + 3 + 1 + 33 = 48          "00000 00003 00011 00048"
 *   picorv32 (csr 3, ALU 3, div 40):
 *     0, 3, 3 + 3 + 15 = 21, 21 + 3 + 3 + 40 = 67         "00000 00003 00021 00067"
 *   tally5, sdram_row_miss_ns = 0 (line fill 13):
 *     s0 = 0 (the fill of line 0x00 belongs to the first csrr: 13 + 3)
 *     s1 = 16, s2 = 16 + 3 + 5 = 24,
 *     s3 = 24 + 3 + (13 + 1) + 33 = 74   (li fetches line 0x20)  "00000 00016 00024 00074"
 */
#include "bench.h"
/* -DCYCLE_CSR=cycle: the user counter (rdcycle), the only one PicoRV32 has */
#ifndef CYCLE_CSR
#define CYCLE_CSR mcycle
#endif
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  csrr s0, CYCLE_CSR
  csrr s1, CYCLE_CSR
  .rept 5
  nop
  .endr
  csrr s2, CYCLE_CSR
second_line:
  li t1, 7
  div t2, t1, t1
  csrr s3, CYCLE_CSR
  AT second_line, 0x20
  REPORT_SETUP
  REPORT s0, ' '
  REPORT s1, ' '
  REPORT s2, ' '
  REPORT s3, '\n'
  REPORT_EXIT
  PUT_DEC_ROUTINE
