/*
 * div_split: a divide whose 33 cycles the dispatch timer cuts, on the
 * sram model (no caches, every memory access free: tally5's pipeline with
 * cpi 1 everywhere, div_latency 32 fixed). Without an I-cache every
 * instruction is read from memory on its own: one mem.read on its first
 * cycle, no stall (read_first_ns = 0).
 *
 * Cycle by cycle (docs/timing.md, "On which cycle each pulse is high"):
 *   0x80000000  li a0, 1000      cycle 0        mem.read 0, instret 0
 *   0x80000004  li a1, 7         cycle 1        mem.read 1, instret 1
 *   0x80000008  div t0, a0, a1   cycles 2-34    mem.read 2, div 2 (its issue
 *                                               cycle), stall.muldiv 3-34
 *                                               (32 cycles), instret 34
 *   0x8000000c  EXIT_PASS: lui   cycle 35       mem.read, instret
 *   0x80000010         lui       cycle 36       mem.read, instret
 *   0x80000014         addi      cycle 37       mem.read, instret
 *   0x80000018         sw        cycle 38       mem.read, store, instret
 * 39 cycles, 7 instructions. check_statmod.py holds this timeline
 * (DIV_SPLIT) and checks every interval of several dispatch periods
 * against it: a period of 10 cuts the divide at 10, 20 and 30; a period of
 * 2 puts a dispatch on cycle 2, the divide's issue cycle, so `div` counts
 * in the second interval.
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  li a0, 1000
  li a1, 7
divide:
  AT divide, 8
  div t0, a0, a1
done:
  AT done, 12
  EXIT_PASS
