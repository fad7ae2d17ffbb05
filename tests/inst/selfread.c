/*
 * A program that reads its own code through pointers formed outside the
 * reading block (tally inst's data-flow check, docs/tally-inst.md "Code
 * that reads itself"): a checksum of a function's first bytes read
 * (1) in a loop of main, the pointer formed before it (la of a function),
 * (2) by a callee that is passed the pointer, and
 * (3) through a constant pointer in the read-only data.
 * It prints the three sums; instrumented at the functions' blocks, each
 * read sees the replacements and prints other sums.
 */
#include <stdio.h>

__attribute__((noinline)) int target(int x) {
  for (int i = 0; i < x; i++)
    x ^= i * 7;
  return x;
}

__attribute__((noinline)) unsigned sum_bytes(const volatile unsigned char *p, int n) {
  unsigned s = 0;
  for (int i = 0; i < n; i++)
    s = s * 31 + p[i];
  return s;
}

typedef int (*fn)(int);
__attribute__((used)) static const fn table = target;

int main(void) {
  const volatile unsigned char *p = (const volatile unsigned char *)(void *)target;
  unsigned s1 = 0;
  for (int i = 0; i < 16; i++) /* (1) */
    s1 = s1 * 31 + p[i];
  unsigned s2 = sum_bytes((const volatile unsigned char *)(void *)target, 16); /* (2) */
  const volatile unsigned char *q = (const volatile unsigned char *)(void *)*(const volatile fn *)&table;
  unsigned s3 = 0;
  for (int i = 0; i < 16; i++) /* (3) */
    s3 = s3 * 31 + q[i];
  printf("%08x %08x %08x %d\n", s1, s2, s3, target(5));
  return 0;
}
