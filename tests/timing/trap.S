/*
 * trap: an ecall taken to a handler that returns past it with mret, for
 * trap_penalty, mret_penalty, csr_penalty and "instructions that never
 * retire" (docs/timing.md: the excepting instruction keeps its issue cycles,
 * is charged trap_penalty, and does not raise instret).
 *
 *   0x00  la t0, handler              auipc, addi
 *   0x08  csrw mtvec, t0
 *   0x0c  ecall                       traps; mepc = 0x0c
 *   0x10  EXIT_PASS (after mret)
 *   handler:
 *         csrr t1, mepc ; addi t1, t1, 4 ; csrw mepc, t1 ; mret
 *
 * sram (cpi 1; csr_penalty 2, trap_penalty 3, mret_penalty 3):
 *   la 2 + csrw 3 + ecall (1 + 3) + csrr 3 + addi 1 + csrw 3 + mret (1 + 3)
 *   + EXIT_PASS 4 = 2 + 3 + 4 + 3 + 1 + 3 + 4 + 4 = 24
 *   instret 2 + 1 + 4 + 4 = 11 (not the ecall); trap 1; csr 3;
 *   system 2 (ecall and mret issue); stall.system 2 + 3 + 2 + 2 + 3 = 12
 * picorv32 (ALU 3, csr 3, system 3, trap_penalty 3, mret_penalty 3):
 *   6 + 3 + (3 + 3) + 3 + 3 + 3 + (3 + 3) + 14 = 44
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  la t0, handler
  csrw mtvec, t0
  ecall
  EXIT_PASS

  .balign 4
handler:
  csrr t1, mepc
  addi t1, t1, 4
  csrw mepc, t1
  mret
