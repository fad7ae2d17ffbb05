/*
 * A trap handler: main points mtvec at trap_entry and executes ecall 5
 * times. trap_entry (assembly, below) saves the caller-saved registers,
 * calls on_trap(mcause), steps mepc over the ecall and returns with mret.
 *   trap_entry: 5 entries, all by traps (a handler); on_trap: 5 calls from
 *   trap_entry. The handler's cycles are its own, not main's: main's
 *   inclusive cycles hold them, its self cycles do not.
 */
#include "pstart.h"

__asm__(".section .text.trap_entry, \"ax\", @progbits\n"
        ".globl trap_entry\n"
        ".type trap_entry, @function\n"
        ".balign 4\n"
        "trap_entry:\n"
        "  addi sp, sp, -64\n"
        "  sw ra, 0(sp)\n  sw t0, 4(sp)\n  sw t1, 8(sp)\n  sw t2, 12(sp)\n"
        "  sw a0, 16(sp)\n  sw a1, 20(sp)\n  sw a2, 24(sp)\n  sw a3, 28(sp)\n"
        "  sw a4, 32(sp)\n  sw a5, 36(sp)\n  sw a6, 40(sp)\n  sw a7, 44(sp)\n"
        "  sw t3, 48(sp)\n  sw t4, 52(sp)\n  sw t5, 56(sp)\n  sw t6, 60(sp)\n"
        "  csrr a0, mcause\n"
        "  call on_trap\n"
        "  csrr t0, mepc\n"
        "  addi t0, t0, 4\n"
        "  csrw mepc, t0\n"
        "  lw ra, 0(sp)\n  lw t0, 4(sp)\n  lw t1, 8(sp)\n  lw t2, 12(sp)\n"
        "  lw a0, 16(sp)\n  lw a1, 20(sp)\n  lw a2, 24(sp)\n  lw a3, 28(sp)\n"
        "  lw a4, 32(sp)\n  lw a5, 36(sp)\n  lw a6, 40(sp)\n  lw a7, 44(sp)\n"
        "  lw t3, 48(sp)\n  lw t4, 52(sp)\n  lw t5, 56(sp)\n  lw t6, 60(sp)\n"
        "  addi sp, sp, 64\n"
        "  mret\n"
        ".size trap_entry, . - trap_entry\n"
        ".text\n");

void trap_entry(void);
static volatile unsigned ecalls;

__attribute__((noipa)) void on_trap(unsigned cause) {
  if (cause == 11) /* environment call from M-mode */
    ecalls++;
}

int main(void) {
  __asm__ volatile("csrw mtvec, %0" : : "r"(trap_entry));
  for (int i = 0; i < 5; i++)
    __asm__ volatile(".option push\n\t.option norvc\n\tecall\n\t.option pop" ::: "memory");
  return ecalls == 5 ? 0 : 1;
}
