/*
 * timeline: when reads see counts and when writes, event choices, inhibits
 * and resumes take effect, to the cycle (docs/pmu.md), on the sram model:
 * no caches and memory latency 0, so every instruction costs its cpi plus
 * its own penalty: li/nop 1 cycle, a CSR instruction 1 + csr_penalty 2 = 3
 * (the last 2 are stall.system). [a,b) is an instruction's cycles.
 *
 * Rules (docs/pmu.md): a read returns the count of the cycles before the
 * reading instruction starts; a write takes effect when the writing
 * instruction ends (an inhibit counts the inhibiting instruction's own
 * cycles, a resume does not count the resuming one's).
 *
 *   0x00 li   t0, CYCLE             [0,1)
 *   0x04 csrw mhpmevent3, t0        [1,4)    hpm3 counts cycles from 4
 *   0x08 li   t0, INSTRET           [4,5)
 *   0x0c csrw mhpmevent4, t0        [5,8)    hpm4 counts instructions from 8
 *   0x10 li   t0, STALL_SYSTEM      [8,9)
 *   0x14 csrw mhpmevent5, t0        [9,12)   hpm5 counts stall.system from 12
 *   0x18 li   t1, 0x9               [12,13)  CY | HPM3
 *   0x1c csrs mcountinhibit, t1     [13,16)  stops mcycle at 16, hpm3 at 16 - 4 = 12
 *   0x20 nop                        [16,17)
 *   0x24 nop                        [17,18)
 *   0x28 csrr s0, mcycle            [18,21)  s0 = 16
 *   0x2c csrr s1, mhpmcounter3      [21,24)  s1 = 12
 *   0x30 csrc mcountinhibit, t1     [24,27)  both count on from 27
 *   0x34 csrr s2, mcycle            [27,30)  s2 = 16
 *   0x38 csrr s3, mhpmcounter3      [30,33)  s3 = 12 + (30 - 27) = 15
 *   0x3c li   t2, 1000              [33,34)
 *   0x40 csrw mhpmcounter3, t2      [34,37)  hpm3 = 1000 at 37
 *   0x44 csrr s4, mhpmcounter3      [37,40)  s4 = 1000
 *   0x48 csrr s5, mhpmcounter4      [40,43)  s5 = instructions 0x10..0x44 = 14
 *   0x4c csrr s6, mhpmcounter5      [43,46)  s6 = stall.system in [12,43): the CSR
 *                                            instructions at 0x1c 0x28 0x2c 0x30 0x34
 *                                            0x38 0x40 0x44 0x48, 9 x 2 = 18
 *   0x50 li   t1, 4                 [46,47)  IR
 *   0x54 csrs mcountinhibit, t1     [47,50)  minstret stops at 22 (0x00..0x54 retired)
 *   0x58 nop                        [50,51)
 *   0x5c csrr s7, minstret          [51,54)  s7 = 22
 *   0x60 li   t2, 5                 [54,55)
 *   0x64 csrw minstret, t2          [55,58)  written while stopped: 5
 *   0x68 csrc mcountinhibit, t1     [58,61)  counts on from 5 after 0x68
 *   0x6c csrr s8, minstret          [61,64)  s8 = 5
 *   0x70 csrr s9, minstret          [64,67)  s9 = 6
 *   0x74 csrr s10, mcycle           [67,70)  s10 = 16 + (67 - 27) = 56
 *   0x78 csrr s11, mhpmcounter3     [70,73)  s11 = 1000 + (70 - 37) = 1033
 *
 * stdout: "00016 00012 00016 00015 01000 00014 00018 00022 00005 00006 00056 01033"
 */
#include "bench.h"
#include "tally/pmu_events.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  li t0, TALLY_PMU_EV_CYCLE
  csrw mhpmevent3, t0
  li t0, TALLY_PMU_EV_INSTRET
  csrw mhpmevent4, t0
  li t0, TALLY_PMU_EV_STALL_SYSTEM
  csrw mhpmevent5, t0
  li t1, 0x9
  csrs mcountinhibit, t1
  nop
  nop
  csrr s0, mcycle
  csrr s1, mhpmcounter3
  csrc mcountinhibit, t1
  csrr s2, mcycle
  csrr s3, mhpmcounter3
  li t2, 1000
  csrw mhpmcounter3, t2
  csrr s4, mhpmcounter3
  csrr s5, mhpmcounter4
  csrr s6, mhpmcounter5
  li t1, 4
  csrs mcountinhibit, t1
  nop
  csrr s7, minstret
  li t2, 5
  csrw minstret, t2
  csrc mcountinhibit, t1
  csrr s8, minstret
  csrr s9, minstret
  csrr s10, mcycle
last:
  csrr s11, mhpmcounter3
  AT last, 0x78
  REPORT_SETUP
  REPORT s0, ' '
  REPORT s1, ' '
  REPORT s2, ' '
  REPORT s3, ' '
  REPORT s4, ' '
  REPORT s5, ' '
  REPORT s6, ' '
  REPORT s7, ' '
  REPORT s8, ' '
  REPORT s9, ' '
  REPORT s10, ' '
  REPORT s11, '\n'
  REPORT_EXIT
  PUT_DEC_ROUTINE
