/*
 * markers: marker 0 raised around a call of `work`, on the sram model
 * (cpi 1, jal_penalty 1, jalr_penalty 2, no memory stalls). A marker is
 * high from the first cycle of the store that sets it up to, not
 * including, the first cycle of the store that clears it (docs/timing.md).
 *
 * Cycle by cycle:
 *   _start  lui t0, 0x110       0
 *           li t1, 1            1
 *           sw t1, 4(t0)        2       marker 0 set: high from cycle 2
 *           jal ra, work        3-4     (1 + jal_penalty 1)
 *   work    5 x addi            5-9
 *           ret                 10-12   (1 + jalr_penalty 2)
 *   back    sw t1, 8(t0)        13      marker 0 cleared: low from cycle 13
 *           EXIT_PASS           14-17
 * 18 cycles, 15 instructions. marker0 is high on cycles 2-12: 11 cycles,
 * 3 of them in _start (2, 3, 4: the setting store and the jal), 8 in work.
 * check_statmod.py holds this (MARKERS).
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  lui t0, 0x110
  li t1, 1
  sw t1, 4(t0)
  jal ra, work
back:
  AT back, 16
  sw t1, 8(t0)
  EXIT_PASS
work:
  AT work, 36
  addi a0, zero, 1
  addi a0, a0, 1
  addi a0, a0, 1
  addi a0, a0, 1
  addi a0, a0, 1
  ret
