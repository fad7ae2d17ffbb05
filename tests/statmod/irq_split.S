/*
 * irq_split: a software interrupt and an exception, whose cycles the
 * dispatch timer cuts, on the sram model (cpi 1, csr_penalty 2,
 * trap_penalty 3, mret_penalty 3; every instruction fetched from memory
 * on its own: one mem.read on its first cycle, no stall).
 *
 * The store to msip raises a machine software interrupt, taken before the
 * next instruction. Its trap_penalty belongs to the handler's first
 * instruction and comes first among its cycles (docs/timing.md): three
 * cycles charged to `handler`, `interrupt` high on the first. The ecall
 * keeps its issue cycle (system and trap high on it) and owns the
 * trap_penalty after it; it does not retire.
 *
 * Cycle by cycle:
 *   _start    la t0, handler       0, 1       (auipc, addi)
 *             csrw mtvec, t0       2-4        csr 2, stall.system 3-4
 *             li t0, 8             5
 *             csrw mie, t0         6-8        csr 6, stall.system 7-8
 *             csrsi mstatus, 8     9-11       csr 9, stall.system 10-11
 *             lui t1, 0x2000       12
 *             li t2, 1             13
 *             sw t2, 0(t1)         14         store; msip = 1
 *   (interrupt)                    15-17      interrupt 15, stall.system 15-17
 *   handler   sw zero, 0(t1)       18         store; msip = 0
 *             mret                 19-22      system 19, stall.system 20-22
 *   after     la t0, handler2      23, 24
 *             csrw mtvec, t0       25-27      csr 25, stall.system 26-27
 *             ecall                28-31      system and trap 28, stall.system
 *                                             29-31, no instret
 *   handler2  EXIT_PASS            32-35      store 35
 * 36 cycles, 18 instructions retired. check_statmod.py holds this timeline
 * (IRQ_SPLIT).
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  la t0, handler
  csrw mtvec, t0
  li t0, 8
  csrw mie, t0
  csrsi mstatus, 8
  lui t1, 0x2000
  li t2, 1
  sw t2, 0(t1)
after:
  AT after, 0x24
  la t0, handler2
  csrw mtvec, t0
  ecall
handler2:
  AT handler2, 0x34
  EXIT_PASS
handler:
  AT handler, 0x44
  sw zero, 0(t1)
  mret
