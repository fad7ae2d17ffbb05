/*
 * read: a program that reads mcycle, then mhpmcounter3, then exits with
 * status 0. On PicoRV32, which has rdcycle but no hpm CSRs, the second read
 * (at _start+4) is an illegal instruction.
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  csrr s0, mcycle
  csrr s1, mhpmcounter3
  EXIT_PASS
