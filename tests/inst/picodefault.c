/*
 * A program linked with picolibc's own default linker script
 * (picolibc.ld), which merges .rodata into the text output section: the
 * executable section holds gcc's anonymous constants (the 8-byte double
 * constants of printf's floating-point conversion, next to its object
 * symbols such as POW5_INV_OFFSETS), a jump table and strings. tally inst
 * must tell them from code (docs/tally-inst.md, "Code and data").
 */
#include <stdio.h>

static const double scale[4] = {1.5, 2.25, 0.125, 1e10};

__attribute__((noinline)) static int pick(int k, int v) {
  switch (k & 7) { /* a jump table in the merged read-only data */
  case 0: return v + 3;
  case 1: return v * 5;
  case 2: return v - 11;
  case 3: return v ^ 0x55;
  case 4: return v << 2;
  case 5: return v >> 1;
  case 6: return v * v;
  default: return -v;
  }
}

static int twice(int v) { return 2 * v; }
static int thrice(int v) { return 3 * v; }
static int (*const ops[2])(int) = {twice, thrice};

int main(void) {
  int acc = 0;
  for (int i = 0; i < 40; i++)
    acc += ops[i & 1](pick(i, i + 1));
  volatile double x = 3.25;
  for (int i = 0; i < 4; i++)
    printf("%d %g %.3f\n", acc + i, x * scale[i], x / scale[i]);
  return acc & 0x7f;
}
