/*
 * switches.c - a program whose task switches are known to the cycle.
 *
 * No start-up code: _start is straight-line code of single-cycle
 * instructions on the `sram` core model (no caches, no memory stalls;
 * docs/timing.md: ALU and store instructions cost cpi.alu = cpi.store = 1,
 * no branch or jump before the end, no load). It stores task pointers
 * into `current`, a pointer to struct task whose `name` member is what
 * --tasks=current names them by (the member's offset comes from DWARF; it
 * is not 0, on purpose).
 *
 * The hand-derived timeline (a switch takes effect after its store; the
 * storing instruction belongs to the task that was running):
 *
 *   [no task]  la t0; la t1; la t2 (2 instructions each); sw t1 -> alpha    7
 *   alpha      100 nops; sw t2 -> beta                                      101
 *   beta       40 nops; sw t1 -> alpha                                      41
 *   alpha      60 nops; sw t1 (the same task: no switch); 20 nops;
 *              sw t2 -> beta                                                82
 *   beta       30 nops; li t3 (lui); li t4 (lui, addi); sw t4 to the
 *              test finisher, which ends the run                            34
 *
 * alpha 183 cycles, beta 75, [no task] 7: 265 in all; the same numbers in
 * instret (one instruction a cycle). Switches: alpha 2, beta 2.
 */
#include <stdint.h>

struct task {
  uint32_t id;
  uint32_t flags;
  char name[12];
};

struct task tcb_alpha = {1, 0, "alpha"}, tcb_beta = {2, 0, "beta"};
struct task *volatile current;

__attribute__((naked, section(".text.init.enter"))) void _start(void) {
  __asm__ volatile(".option push\n"
                   ".option norelax\n"
                   "la t0, current\n"
                   "la t1, tcb_alpha\n"
                   "la t2, tcb_beta\n"
                   "sw t1, 0(t0)\n"
                   ".rept 100\n nop\n .endr\n"
                   "sw t2, 0(t0)\n"
                   ".rept 40\n nop\n .endr\n"
                   "sw t1, 0(t0)\n"
                   ".rept 60\n nop\n .endr\n"
                   "sw t1, 0(t0)\n"
                   ".rept 20\n nop\n .endr\n"
                   "sw t2, 0(t0)\n"
                   ".rept 30\n nop\n .endr\n"
                   "li t3, 0x100000\n"
                   "li t4, 0x5555\n"
                   "sw t4, 0(t3)\n"
                   "1: j 1b\n"
                   ".option pop\n");
}
