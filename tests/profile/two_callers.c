/*
 * The case SnoopP could not split: one function, work(n), called from three
 * callers with different amounts of work:
 *   caller_a: 3 calls of work(100), caller_b: 2 of work(1000), caller_c: 4 of work(10)
 * so work has 9 calls. Every call is bracketed by two reads of mcycle in
 * one asm block (csrr; li a0, N; jal work; csrr), and each caller's sum of
 * the differences is printed: D = arc inclusive + calls x k, where k (the
 * csrr, li and jal) must come out the same for the three callers.
 */
#include "pstart.h"

__attribute__((noipa)) unsigned work(unsigned n) {
  unsigned x = 0;
  for (unsigned i = 0; i < n; i++) {
    x = x * 3 + i;
    KEEP(x);
  }
  return x;
}

#define TIMED_WORK(n, acc)                                                                        \
  do {                                                                                            \
    unsigned t0_, t1_;                                                                            \
    __asm__ volatile(".option push\n\t.option norvc\n\t"                                          \
                     "csrr %0, mcycle\n\tli a0, %2\n\tjal ra, work\n\tcsrr %1, mcycle\n\t"        \
                     ".option pop"                                                                \
                     : "=&r"(t0_), "=r"(t1_)                                                      \
                     : "i"(n)                                                                     \
                     : "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3",    \
                       "a4", "a5", "a6", "a7", "memory");                                         \
    (acc) += t1_ - t0_;                                                                           \
  } while (0)

static unsigned cyc_a, cyc_b, cyc_c;

__attribute__((noipa)) void caller_a(void) {
  for (int i = 0; i < 3; i++)
    TIMED_WORK(100, cyc_a);
}

__attribute__((noipa)) void caller_b(void) {
  for (int i = 0; i < 2; i++)
    TIMED_WORK(1000, cyc_b);
}

__attribute__((noipa)) void caller_c(void) {
  for (int i = 0; i < 4; i++)
    TIMED_WORK(10, cyc_c);
}

int main(void) {
  caller_a();
  caller_b();
  caller_c();
  printf("caller_a %u\ncaller_b %u\ncaller_c %u\n", cyc_a, cyc_b, cyc_c);
  return 0;
}
