/*
 * traps.c - a program with its own trap handler, for `tally inst`'s
 * transparency: it installs mtvec, takes an ecall, an ebreak and a load
 * access fault (address 0 is no memory on the virt board), and prints what
 * its handler saw (mcause, mepc as an offset from the faulting label,
 * mtval, mscratch it set itself). Instrumented at every instruction, the
 * handler must see the same values: original mepc, the program's own
 * mscratch and mtvec.
 */
#include <stdio.h>
#include <tally/target.h>

static volatile unsigned seen_cause, seen_epc, seen_tval, seen_scratch, traps;

void handler(void) __attribute__((interrupt("machine"), aligned(4)));
void handler(void) {
  unsigned cause, epc, tval, scratch;
  __asm__ volatile("csrr %0, mcause" : "=r"(cause));
  __asm__ volatile("csrr %0, mepc" : "=r"(epc));
  __asm__ volatile("csrr %0, mtval" : "=r"(tval));
  __asm__ volatile("csrr %0, mscratch" : "=r"(scratch));
  seen_cause = cause;
  seen_epc = epc;
  seen_tval = tval;
  seen_scratch = scratch;
  traps++;
  /* skip the trapping instruction (all three are 4 bytes here) */
  __asm__ volatile("csrw mepc, %0" ::"r"(epc + 4));
}

extern char at_ecall[], at_ebreak[], at_load[];

int main(void) {
  unsigned old_tvec;
  __asm__ volatile("csrrw %0, mtvec, %1" : "=r"(old_tvec) : "r"((unsigned)handler));
  __asm__ volatile("csrw mscratch, %0" ::"r"(0x1234abcd));
  unsigned tvec;
  __asm__ volatile("csrr %0, mtvec" : "=r"(tvec));
  printf("mtvec reads back as the handler: %d; it was %#x\n", tvec == (unsigned)handler, old_tvec);

  __asm__ volatile(".option push\n.option norvc\nat_ecall: ecall\n.option pop" ::: "memory");
  printf("ecall: cause %u, epc at label %d, scratch %#x\n", seen_cause, seen_epc == (unsigned)at_ecall, seen_scratch);

  __asm__ volatile(".option push\n.option norvc\nat_ebreak: ebreak\n.option pop" ::: "memory");
  printf("ebreak: cause %u, epc at label %d\n", seen_cause, seen_epc == (unsigned)at_ebreak);

  unsigned v = 7;
  __asm__ volatile(".option push\n.option norvc\nat_load: lw %0, 0(zero)\n.option pop" : "+r"(v) :: "memory");
  printf("load fault: cause %u, epc at label %d, tval %#x, value kept %u\n", seen_cause,
         seen_epc == (unsigned)at_load, seen_tval, v);
  printf("traps: %u\n", traps);
  __asm__ volatile("csrw mtvec, %0" ::"r"(old_tvec));
  return traps == 3 ? 0 : 1;
}
