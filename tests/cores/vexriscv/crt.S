/* crt.S -- start-up of the VexRiscv differential programs.
 * From reset (0x40000000): the stack, a trap vector that ends the run with
 * exit code 0x100 + mcause (so a trap nobody expected shows in the exit code
 * and the run stops), then main(); main's return value (low 16 bits) is the
 * exit code, written to the SiFive-test finisher as (code << 16) | 0x3333.
 * A program that takes traps on purpose installs its own mtvec. */
#include "vex.h"
    .option norvc         /* the same start-up on every variant: */
    .option norelax       /* no compressed call either */
    .section .text.start, "ax"
    .globl _start
_start:
    la sp, __stack_top
    la t0, _unexpected_trap
    csrw mtvec, t0
    call main
    .globl _finish
_finish:
    li t6, FINISHER
    slli t5, a0, 16
    li t4, 0x3333
    or t5, t5, t4
    .globl _finish_store
_finish_store:
    sw t5, 0(t6)
1:  j 1b

    .balign 4
_unexpected_trap:
    csrr a0, mcause
    addi a0, a0, 0x100
    j _finish
