/*
 * picolibc's qsort (BSD's: med3, swapfunc, vecswap), for gprof's view of
 * GCC's clone names: picolibc's libc.a has med3 as the local function
 * med3.constprop.0, right after swapfunc, and each is followed in the
 * string table by the mapping symbol "$x". profile.gprof checks that gprof,
 * given the copy `tally profile --gmon-elf` writes, shows med3.constprop.0
 * with tally's self cycles and calls, not merged into swapfunc.
 */
#include <stdint.h>
#include <stdlib.h>

#include "pstart.h"

static int cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

int main(void) {
  static uint32_t v[300];
  uint32_t s = 12345;
  for (int i = 0; i < 300; i++) {
    s = s * 1103515245u + 12345u;
    v[i] = s >> 8;
  }
  qsort(v, 300, sizeof v[0], cmp);
  for (int i = 1; i < 300; i++)
    if (v[i - 1] > v[i])
      return 1;
  return 0;
}
