/*
 * miss_split: an I-cache miss, a D-cache miss and a load-use stall that the
 * dispatch timer cuts, on tally5 with the SDRAM row rule off, so that a
 * line fill costs read_first + 7 x read_beat = 6 + 7 = 13 cycles (32-byte
 * line, 4-byte bus, 60 ns and 10 ns at 100 MHz).
 *
 * All eight instructions sit in the fetch line 0x80000000-0x8000001f: one
 * I-cache lookup, by the first instruction (the csrr ends its block, but
 * the next block starts in the same line without a redirect: no lookup).
 * The load reads .data at 0x80010000, not cached yet; the store writes the
 * line the load has just filled (a write hit).
 *
 * Cycle by cycle (docs/timing.md):
 *   csrr a3, mcycle     0-15   fetch 0-12 (stall.icache 13; icache.access,
 *                              icache.miss and mem.read on cycle 0), issue 13
 *                              (csr), redirect 14-15 (stall.system,
 *                              csr_penalty 2), instret 15
 *   lui a0, %hi(value)  16     instret
 *   lw a1, 0(a0)        17-30  issue 17 (load, dcache.read_miss, mem.read),
 *                              memory 18-30 (stall.dcache 13: the fill starts
 *                              when the load has issued; the port is free
 *                              since cycle 13), instret 30
 *   sw a1, 4(a0)        31-32  load-use 31 (stall.load_use), issue 32
 *                              (store, dcache.write_hit), instret 32
 *   EXIT_PASS           33-36  lui 33, lui 34, addi 35, sw 36 (store);
 *                              instret on each
 * 37 cycles, 8 instructions; stall = 13 + 2 + 13 + 1 = 29.
 * A dispatch on cycle 13 or 32 falls on the first issue cycle of an
 * instruction that started earlier: csr and store count in the new
 * interval. check_statmod.py holds this timeline (MISS_SPLIT).
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  csrr a3, mcycle
  lui a0, %hi(value)
load:
  AT load, 8
  lw a1, %lo(value)(a0)
  sw a1, %lo(value) + 4(a0)
  EXIT_PASS

  .data
value:
  .word 41, 0
