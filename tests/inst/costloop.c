/*
 * costloop.c - the program of tests/inst/check_cost.py: step() runs N
 * times (N = argv[1]), and nothing else depends on N. Instrumented before
 * step's first instruction, the site is visited exactly N times more for N
 * than for 0, so every difference between two runs is N sites' worth.
 */
#include <stdlib.h>

static volatile unsigned sink;

__attribute__((noinline)) unsigned step(unsigned x);
__attribute__((noinline)) unsigned step(unsigned x) { return x * 3u + 1u; }

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 10u, x = 1;
  for (unsigned i = 0; i < n; i++)
    x = step(x);
  sink = x;
  return 0;
}
