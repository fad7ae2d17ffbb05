/* crt.S -- start-up of the VexRiscv differential programs.
 * From reset (0x40000000): the stack, a trap vector that ends the run with
 * exit code 0x100 + mcause (so a trap nobody expected shows in the exit code
 * and the run stops), then main(); main's return value (low 16 bits) is the
 * exit code, written to the SiFive-test finisher as (code << 16) | 0x3333.
 * A program that takes traps on purpose installs its own mtvec.
 * With REPEAT defined (bench/vexriscv/build.sh: the speed-comparison
 * program of vexriscv-imac, bench/vexriscv.md), main is called REPEAT times
 * from here (no driver function, so no stack frame around the calls), and
 * the exit code is 0 when every call returned the first call's value, 1
 * otherwise; seven nops before the trap handler place main where the
 * model's cycles equal the RTL's on that program (elsewhere they differ by
 * -1 to +17 cycles over the whole run: the start-up and end effects of
 * docs/core-models.md's list for vexriscv-imac). */
#include "vex.h"
    .option norvc         /* the same start-up on every variant: */
    .option norelax       /* no compressed call either */
    .section .text.start, "ax"
    .globl _start
_start:
    la sp, __stack_top
    la t0, _unexpected_trap
    csrw mtvec, t0
#ifdef REPEAT
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
#else
    call main
#endif
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
#ifdef REPEAT
    .rept 7
    nop
    .endr
#endif

    .balign 4
_unexpected_trap:
    csrr a0, mcause
    addi a0, a0, 0x100
    j _finish
