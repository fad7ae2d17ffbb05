/* crt_repeat.S -- tests/cores/vexriscv/crt.S with main called REPEAT times
 * from the start-up code itself (no driver function, so no stack frame
 * around the calls); exit code 0 when every call returned the first call's
 * value, 1 otherwise. The speed-comparison program of vexriscv-imac
 * (bench/vexriscv.md): seven nops before the trap handler place main at
 * 0x40000090 (the models' cycles equal the RTL's with 0, 3, 7, 11 or 15 of
 * them, at 3 repeats). tests/cores/vexriscv runs it at 3 repeats
 * (crcloop). */
#include "vex.h"
    .option norvc
    .option norelax
    .section .text.start, "ax"
    .globl _start
_start:
    la sp, __stack_top
    la t0, _unexpected_trap
    csrw mtvec, t0
    li s0, REPEAT
    li s1, 0
    call main
    mv s2, a0
1:  addi s0, s0, -1
    beqz s0, 2f
    call main
    xor a0, a0, s2
    snez a0, a0
    or s1, s1, a0
    j 1b
2:  mv a0, s1
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
    .rept 7
    nop
    .endr

    .balign 4
_unexpected_trap:
    csrr a0, mcause
    addi a0, a0, 0x100
    j _finish
