/*
 * irq_tasks.c - a program whose interrupted task is known by construction:
 * the latency of each UART interrupt per task that was running when its
 * line rose (tally run --tasks -v, --stats-json; tally profile --tasks).
 *
 * No start-up code. _start enables the UART's received-data interrupt
 * (PLIC source 10, priority 1) and sets `current` to alpha, which sleeps
 * in wfi until the handler has counted 3 bytes; then it sets `current` to
 * beta, which sleeps until 5; then it ends the run through the test
 * finisher. The handler claims, reads every byte waiting (s3 counts them)
 * and completes; it uses only registers the tasks' code does not.
 *
 * Fed one byte at a time, each well after the previous one was handled
 * (check_tasks.py irq: cycles 3000, 6000 ... 15000), every line rises while
 * a task sleeps in wfi: bytes 1-3 interrupt alpha, 4-5 beta, and each
 * latency is the wake-up's cost, wfi's own cycles (cpi.system) plus
 * trap_penalty (docs/timing.md).
 */
#include <stdint.h>

struct task {
  uint32_t id;
  char name[12];
};

struct task tcb_alpha = {1, "alpha"}, tcb_beta = {2, "beta"};
struct task *volatile current;

__attribute__((naked, section(".text.init.enter"))) void _start(void) {
  __asm__ volatile(".option push\n"
                   ".option norelax\n"
                   ".option norvc\n"
                   "la t0, irq_tasks_handler\n"
                   "csrw mtvec, t0\n"
                   "li t0, 0x0c000000\n"      /* PLIC: priority[10] = 1 */
                   "li t1, 1\n"
                   "sw t1, 40(t0)\n"
                   "li t0, 0x0c002000\n"      /* context 0 enables source 10 */
                   "li t1, 1 << 10\n"
                   "sw t1, 0(t0)\n"
                   "li t0, 0x10000000\n"      /* UART IER: received data available */
                   "li t1, 1\n"
                   "sb t1, 1(t0)\n"
                   "li t0, 0x800\n"           /* mie.MEIE, mstatus.MIE */
                   "csrw mie, t0\n"
                   "csrsi mstatus, 8\n"
                   "li s3, 0\n"
                   "la s0, current\n"
                   "la s1, tcb_alpha\n"
                   "la s2, tcb_beta\n"
                   "sw s1, 0(s0)\n"           /* alpha runs */
                   "li s4, 3\n"
                   "1: wfi\n"
                   "blt s3, s4, 1b\n"
                   "sw s2, 0(s0)\n"           /* beta runs */
                   "li s4, 5\n"
                   "2: wfi\n"
                   "blt s3, s4, 2b\n"
                   "li t0, 0x100000\n"        /* the test finisher: exit 0 */
                   "li t1, 0x5555\n"
                   "sw t1, 0(t0)\n"
                   "3: j 3b\n"
                   ".balign 64\n"
                   "irq_tasks_handler:\n"
                   "li t5, 0x0c200000\n"
                   "lw t4, 4(t5)\n"           /* claim */
                   "li t3, 0x10000000\n"
                   "4: lbu t6, 5(t3)\n"       /* LSR: data ready? */
                   "andi t6, t6, 1\n"
                   "beqz t6, 5f\n"
                   "lbu t6, 0(t3)\n"
                   "addi s3, s3, 1\n"
                   "j 4b\n"
                   "5: sw t4, 4(t5)\n"        /* complete */
                   "mret\n"
                   ".option pop\n");
}
