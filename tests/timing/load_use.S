/*
 * load_use: a load followed by an instruction that reads its result.
 *
 * Eight groups of three instructions, run in two passes of a loop. The
 * default build puts the use right after the load:
 *     lw a0, 0(a1); add a2, a0, a0; addi a3, a3, 1
 * and -DINDEPENDENT swaps the last two, so an independent instruction
 * separates the load from its use:
 *     lw a0, 0(a1); addi a3, a3, 1; add a2, a0, a0
 * Same instructions, same count; only the hazard differs. Per docs/timing.md
 * the use pays `load_use_penalty` ("if the previous instruction was a load
 * whose result this one reads"), so the two builds differ by exactly
 * load_use_penalty per pair.
 *
 * The program exits with the cycles of the second pass, read from mcycle:
 * mcycle read by an instruction = cycles before it starts, so
 *     delta = s3 - s2 = cycles of (csrr s2) + cycles of the 24 kernel insns.
 * The second pass runs with every code line and the data line resident, so
 * no cache or memory latency is in the window, even under tally5.
 *
 * Expected exit status (delta of pass 2):
 *   tally5, sram (cpi 1, csr_penalty 2, load_use_penalty 1):
 *     dependent:   (1+2) + 8 x (lw 1 + add 1 + stall 1 + addi 1) = 3 + 32 = 35
 *     independent: (1+2) + 8 x (lw 1 + addi 1 + add 1)          = 3 + 24 = 27
 *   picorv32 (csr 3, load 5, ALU 3, load_use_penalty 0):
 *     both:        3 + 8 x (5 + 3 + 3) = 91
 *
 * Whole program under sram (no caches, memory latency 0):
 *   la a1 (auipc, addi) 2 + li s0 1                        =  3
 *   per pass: csrr 3 + kernel (32 | 24) + csrr 3 + addi 1 + bnez 1
 *                                       = 40 dependent | 32 independent
 *   bnez: pass 1 taken, backward, predicted taken: +branch_taken_penalty 1;
 *         pass 2 not taken, predicted taken: +branch_penalty 2       =  3
 *   sub 1 + EXIT_WITH 6                                              =  7
 *   dependent:   3 + 2 x 40 + 3 + 7 = 93   (stall.load_use 16)
 *   independent: 3 + 2 x 32 + 3 + 7 = 77   (stall.load_use 0)
 * Whole program under picorv32 (not-taken prediction, branch_penalty 2):
 *   la 3+3, li 3                                          =   9
 *   per pass: csrr 3 + 88 + csrr 3 + addi 3 + bnez 3      = 100, x 2 = 200
 *   bnez: pass 1 taken against the prediction: +2; pass 2 not taken: 0
 *   sub 3 + EXIT_WITH 25                                   =  28
 *   both: 9 + 200 + 2 + 28 = 239
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
  la a1, word
  li s0, 2
pass:
  csrr s2, CYCLE_CSR
  .rept 8
  lw a0, 0(a1)
#ifdef INDEPENDENT
  addi a3, a3, 1
  add a2, a0, a0
#else
  add a2, a0, a0
  addi a3, a3, 1
#endif
  .endr
  csrr s3, CYCLE_CSR
  addi s0, s0, -1
  bnez s0, pass
  sub s3, s3, s2
  EXIT_WITH s3

  .data
word: .word 21
