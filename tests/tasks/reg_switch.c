/*
 * reg_switch.c - a scheduler that keeps the running task in a register:
 * s11 (reserved with -ffixed-s11) points to the running task's control
 * block, and the trap handler, entered by ecall, switches it between two
 * tasks. main makes four ecalls with work in between: the task is
 * [no task] until the first handler returns, then alpha, beta, alpha,
 * beta (two switches each, trap:11 entered four times).
 * tally profile --tasks=reg:s11 reads s11 at every return from the handler.
 */
#include <stdint.h>
#include <stdio.h>

struct task {
  uint32_t id;
  char name[8];
};

struct task tcb_alpha = {1, "alpha"}, tcb_beta = {2, "beta"};
static volatile uint32_t sink;

__asm__(".section .text.reg_trap, \"ax\", @progbits\n"
        ".globl reg_trap\n"
        ".type reg_trap, @function\n"
        ".balign 4\n"
        "reg_trap:\n"
        "  csrw mscratch, t0\n"
        "  la t0, tcb_alpha\n"
        "  beq s11, t0, 1f\n"
        "  mv s11, t0\n"
        "  j 2f\n"
        "1: la s11, tcb_beta\n"
        "2: csrr t0, mepc\n"
        "  addi t0, t0, 4\n"
        "  csrw mepc, t0\n"
        "  csrr t0, mscratch\n"
        "  mret\n"
        ".size reg_trap, . - reg_trap\n"
        ".text\n");
void reg_trap(void);

__attribute__((noinline)) static void spin(uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    sink += i;
}

int main(void) {
  __asm__ volatile("csrw mtvec, %0" : : "r"(reg_trap));
  for (uint32_t i = 1; i <= 4; i++) {
    __asm__ volatile(".option push\n\t.option norvc\n\tecall\n\t.option pop" ::: "memory");
    spin(100 * i);
  }
  printf("reg_switch: %lu\n", (unsigned long)sink);
  return 0;
}
