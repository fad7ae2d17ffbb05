/*
 * range: every counter runs over one code range, [kernel_lo, kernel_hi),
 * and the program prints what they counted; check_pmu.py compares each with
 * the statistics module's count of the same signal over the same range
 * (tally run --count SIGNAL@0xLO-0xHI), which must be equal, exactly.
 *
 * Counter n (3..31) counts event BASE + n - 2 (-DBASE=0: signals 0..28;
 * -DBASE=29: signals 29..43, and events past the catalog, which are not
 * legal: they read back as 0 and count nothing). mcycle and minstret run
 * over the range too.
 *
 * How the range is bracketed (docs/pmu.md): everything is stopped, set and
 * zeroed; the `csrw mcountinhibit, zero` just before kernel_lo resumes all
 * of them when it ends, so counting starts with the first instruction of
 * the range; the `csrw mcountinhibit, t6` that ends the range (its last
 * instruction) stops them when it ends, so its own cycles are counted, as
 * the module counts it (its address is in the range).
 *
 * The kernel: a loop over a 16 KiB array, four times the D-cache (loads,
 * stores, misses, write-backs), a multiply and a divide, forward and
 * backward branches, a call and a return, and compressed instructions,
 * all inside the range.
 *
 * Output: "mcycle minstret" then, per counter, "event:value" (hex).
 *
 * For the non-intrusion test (check_pmu.py same) the program is also built
 * with -DQUIET (the values are stored to memory, not printed: printing
 * takes value-dependent branches) and with -DQUIET -DPLAIN (every PMU CSR
 * instruction accesses mscratch instead): the two then run the same
 * instructions at the same addresses, with the same costs.
 */
#include "bench.h"
#include "tally/pmu_events.h"
#ifndef BASE
#define BASE 0
#endif

/* a CSR instruction on a PMU CSR, or on mscratch for -DPLAIN */
.macro csr_w name, reg
#ifdef PLAIN
  csrw mscratch, \reg
#else
  csrw \name, \reg
#endif
.endm
.macro csr_r reg, name
#ifdef PLAIN
  csrr \reg, mscratch
#else
  csrr \reg, \name
#endif
.endm
/* a0, then the character in a1: printed, or stored (-DQUIET) */
.macro out
#ifdef QUIET
  sw a0, 0(s1)
  sw a1, 4(s1)
  addi s1, s1, 8
#else
  jal ra, put_hex
#endif
.endm
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  la sp, __stack_top
  li t6, -1
  csr_w mcountinhibit, t6
  .irp n,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
  li t0, BASE + \n - 2
  csr_w mhpmevent\n, t0
  csr_w mhpmcounter\n, zero
  csr_w mhpmcounter\n\()h, zero
  .endr
  csr_w mcycle, zero
  csr_w mcycleh, zero
  csr_w minstret, zero
  csr_w minstreth, zero
  la a0, array
  li a1, 4096            /* words */
  li a2, 0
  csr_w mcountinhibit, zero
  .globl kernel_lo
kernel_lo:
1:
  lw t0, 0(a0)
  add a2, a2, t0
  addi t0, t0, 3
  sw t0, 0(a0)
  andi t1, a1, 63
  bnez t1, 2f            /* forward, mostly taken */
  mul t2, a2, a1
  divu t2, t2, a1
  jal ra, kfunc
2:
  .option push
  .option rvc
  c.addi a0, 4
  c.addi a1, -1
  .option pop
  bnez a1, 1b            /* backward, taken but for the last */
  j 3f
kfunc:
  xor a2, a2, t2
  ret
3:
  csr_w mcountinhibit, t6
  .globl kernel_hi
kernel_hi:
  REPORT_SETUP
  la s1, results
  csr_r a0, mcycle
  li a1, ' '
  out
  csr_r a0, minstret
  li a1, '\n'
  out
  .irp n,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
  csr_r a0, mhpmevent\n
  li a1, ':'
  out
  csr_r a0, mhpmcounter\n\()h
  li a1, '_'
  out
  csr_r a0, mhpmcounter\n
  li a1, '\n'
  out
  .endr
  REPORT_EXIT

/* Prints a0 as 8 hex digits, then the character a1. Uses t0-t3. */
put_hex:
  li t0, UART
  li t1, 28
4:
  srl t2, a0, t1
  andi t2, t2, 15
  li t3, 10
  blt t2, t3, 5f
  addi t2, t2, 'a' - 10 - '0'
5:
  addi t2, t2, '0'
  sb t2, 0(t0)
  addi t1, t1, -4
  bgez t1, 4b
  sb a1, 0(t0)
  ret

  .data
  .balign 64
array:
  .fill 4096, 4, 1
results:
  .fill 64, 8, 0
