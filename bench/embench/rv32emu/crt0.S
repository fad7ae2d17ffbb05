/*
 * crt0.S - start-up code for the benchmarks' rv32emu builds.
 *
 * rv32emu runs user-level ELF files and offers Linux-style system calls
 * (ecall, a7 = number) instead of semihosting, so its build of a program
 * differs from the board's in the start-up and I/O layers only: this file
 * and syscalls.c. Sets up gp, sp and tp, clears .bss/.tbss, calls
 * main(0, {NULL}) (the benchmarks take no arguments) and hands its result
 * to exit().
 */
#include <tally/start.h>

        .section .text.init.enter, "ax", @progbits
        .globl  _start
        .type   _start, @function
_start:
        tally_start_setup
        li      a0, 0
        la      a1, 3f
        li      a2, 0
        call    main
        call    exit
        .size   _start, . - _start
        .section .rodata
        .balign 4
3:      .word   0
