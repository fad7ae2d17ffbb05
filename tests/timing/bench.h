/*
 * Shared pieces of the timing microbenchmarks (docs/timing-tests.md).
 *
 * Every program is assembled with .option norvc and .option norelax: each
 * instruction is 4 bytes and every address is known, so a derivation can say
 * which fetch line an instruction sits in. AT records such a claim and the
 * test runner checks it before the run.
 *
 * Cycle costs of the macros, used by the derivations:
 *
 *   EXIT_PASS      4 instructions: lui t0 (ALU imm), lui t1 (ALU imm),
 *                  addi t1 (ALU imm), sw (store to a device: issue cycles
 *                  only). tally5/sram: 4 cycles; picorv32: 3+3+3+5 = 14.
 *   EXIT_WITH r    exit status = r (0..255): slli, lui, addi, or, lui, sw.
 *                  tally5/sram: 6 cycles; picorv32: slli by 16 is
 *                  4 + 16/4 + 16%4 = 8, then 3+3+3+3+5: 25 cycles.
 *   REPORT r, c    prints r as five decimal digits and then the character
 *                  c on the UART: for programs that measure with mcycle;
 *                  their total cycles are not checked.
 */
#ifndef TIMING_BENCH_H
#define TIMING_BENCH_H

#define FINISHER 0x100000
#define UART     0x10000000

/* Records that `label` must be `offset` bytes after _start. The pairs go
 * to the non-loaded section .timing_layout; check_run.py refuses to run a
 * program whose layout is not the one its derivation assumes. (An .if
 * cannot check it: gas cannot evaluate an address after a branch, which it
 * may still relax, at assembly time.) */
.macro AT label, offset
  .pushsection .timing_layout, "", @progbits
  .word \label, _start + (\offset)
  .popsection
.endm

.macro EXIT_PASS
  li t0, FINISHER
  li t1, 0x5555
  sw t1, 0(t0)
.endm

.macro EXIT_WITH reg
  slli t1, \reg, 16
  li t2, 0x3333
  or t1, t1, t2
  li t0, FINISHER
  sw t1, 0(t0)
.endm

.macro REPORT reg, ch
  mv a0, \reg
  li a1, \ch
  jal ra, bench_put_dec
.endm

/* Waits until the UART has sent everything (QEMU drops what is left at
 * exit otherwise), then exits with status 0. */
.macro REPORT_EXIT
  li t0, UART
1001:
  lbu t1, 5(t0)
  andi t1, t1, 0x40
  beqz t1, 1001b
  EXIT_PASS
.endm

/* The routine behind REPORT: prints a0 as five decimal digits (with
 * leading zeros, so the instruction count never depends on the value and
 * thus on the core model), then the character in a1. Uses t0-t4 and a0;
 * needs sp (REPORT_SETUP). */
.macro PUT_DEC_ROUTINE
bench_put_dec:
  addi sp, sp, -16
  addi t1, sp, 12          /* digits are written backwards from sp+12 */
  addi t4, sp, 7
  li t2, 10
1002:
  remu t3, a0, t2
  addi t3, t3, '0'
  addi t1, t1, -1
  sb t3, 0(t1)
  divu a0, a0, t2
  bne t1, t4, 1002b
  li t0, UART
  addi t4, sp, 12
1003:
  lbu t3, 0(t1)
  sb t3, 0(t0)
  addi t1, t1, 1
  bne t1, t4, 1003b
  sb a1, 0(t0)
  addi sp, sp, 16
  ret
.endm

#define REPORT_SETUP la sp, __stack_top

#endif
