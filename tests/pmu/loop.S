/*
 * loop: reads mhpmcounter3 (counting cycles) in a loop of LOOPS iterations,
 * or mscratch with -DPLAIN; first runs BLOCKS blocks of straight code once,
 * so that the block cache holds that many blocks (a PMU access folds them
 * all). For bench/pmu.py, which compares the host time of the two: what a
 * PMU access costs the simulator. The exit status is 0.
 */
#include "bench.h"
#ifndef LOOPS
#define LOOPS 200000
#endif
#ifndef BLOCKS
#define BLOCKS 0
#endif
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  li t0, 1
  csrw mhpmevent3, t0
  .rept BLOCKS
  addi t1, t1, 1
  beq zero, zero, 1f   /* a branch ends each block */
1:
  .endr
  li s0, LOOPS
2:
#ifdef PLAIN
  csrr t0, mscratch
#else
  csrr t0, mhpmcounter3
#endif
  addi s0, s0, -1
  bnez s0, 2b
  EXIT_PASS
