/*
 * tally dvfs's knapsack test program (run_dvfs_knap.sh): three loops that
 * wait on memory, each alone in its own function, run one after the
 * other, so that switching one changes nothing in the others (their
 * single-region effects add up). Each loop reads a buffer at a 64-byte
 * stride (every load a new cache line) with some arithmetic between the
 * loads (more arithmetic: fewer misses per cycle, more time added at a
 * slower clock). walk_a is the longest and has the most misses per
 * cycle; walk_b and walk_c are equal and shorter: with --max-slowdown
 * room for b and c but not for a with either, b and c together save more
 * than a alone, while the descent (fewest misses per cycle dropped
 * first) keeps a.
 */
#include <stdio.h>

/* The buffers lie in the heap area of the linker script (target/tally.ld),
 * used directly: in .bss the start-up code, and through malloc picolibc,
 * would spend most of the run clearing them. The board's RAM starts out
 * zero, so the sums are known (0 + padding). */
extern char __heap_start[];
static volatile unsigned char *buf_a, *buf_b, *buf_c;

/* Each loop reads its own window, far larger than the D-cache, over and
 * over: every load misses. */
#define WINDOW (2u << 20)

/* n additions the compiler cannot fold */
#define PAD(s, n)                                                                                                      \
  for (int k_ = 0; k_ < (n); k_++)                                                                                     \
  __asm__ volatile("addi %0, %0, 1" : "+r"(s))

__attribute__((noinline)) static unsigned walk_a(void) {
  unsigned s = 0;
  for (unsigned n = 0, i = 0; n < A_N; n++, i = (i + A_STRIDE) & (WINDOW - 1)) {
    s += buf_a[i];
    PAD(s, A_PAD);
  }
  return s;
}

__attribute__((noinline)) static unsigned walk_b(void) {
  unsigned s = 0;
  for (unsigned n = 0, i = 0; n < BC_N; n++, i = (i + BC_STRIDE) & (WINDOW - 1)) {
    s += buf_b[i];
    PAD(s, BC_PAD);
  }
  return s;
}

__attribute__((noinline)) static unsigned walk_c(void) {
  unsigned s = 0;
  for (unsigned n = 0, i = 0; n < BC_N; n++, i = (i + BC_STRIDE) & (WINDOW - 1)) {
    s += buf_c[i];
    PAD(s, BC_PAD);
  }
  return s;
}

int main(void) {
  buf_a = (volatile unsigned char *)__heap_start;
  buf_b = buf_a + WINDOW;
  buf_c = buf_b + WINDOW;
  unsigned s = walk_a();
  s += walk_b();
  s += walk_c();
  printf("knaptest: %u\n", s);
  return s != A_N * A_PAD + 2 * BC_N * BC_PAD;
}
