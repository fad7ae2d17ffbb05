/* A guest whose path depends on time: it reads the cycle counter (mcycle)
 * in a loop and does extra work whenever the count is odd, so a slower
 * I-cache changes how many instructions it runs. `tally sweep --one-pass`
 * must notice (tests/sweep, case onepass) rather than derive its points. */
#include <stdint.h>

static inline uint32_t cycles(void) {
  uint32_t c;
  __asm__ volatile("csrr %0, mcycle" : "=r"(c));
  return c;
}

int main(void) {
  volatile uint32_t work = 0;
  for (int i = 0; i < 2000; i++) {
    if (cycles() & 1)
      for (int k = 0; k < 7; k++)
        work += (uint32_t)k;
    work ^= (uint32_t)i;
  }
  return 0;
}
