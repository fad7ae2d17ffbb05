/*
 * A tail call: with -O2, mid(x) ends in a jump to leaf (no call, no return
 * of its own), so leaf returns straight to main. The test checks the
 * disassembly for that jump. main calls mid 5 times; each mid tail-calls
 * leaf, which replaces mid on the call stack: leaf has 5 calls, entered
 * from main's context, and mid's inclusive cycles are its own.
 */
#include "pstart.h"

__attribute__((noipa)) int leaf(int x) {
  KEEP(x);
  return x * 3 + 1;
}

__attribute__((noipa)) int mid(int x) { return leaf(x + 1); }

int main(void) {
  volatile int n = 5;
  int s = 0;
  for (int i = 0; i < n; i++)
    s += mid(i);
  /* sum of 3 (i + 1) + 1 for i = 0..4 = 3 x 15 + 5 */
  return s == 50 ? 0 : 1;
}
