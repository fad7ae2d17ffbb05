/*
 * A program whose symbol table has every case the symbols layer handles:
 * static and global functions, an alias, a weak function, a cold function
 * and a function GCC splits into hot and cold parts, and hand-written
 * assembly with a function without a size, a label without a size between
 * functions, labels inside a sized function and labels at the very end of
 * the code. main calls everything, so --gc-sections keeps it all.
 * The expected ranges are checked in check_symbols.py.
 */
#include <stdio.h>

static int __attribute__((noinline)) helper_a(int x) { return x * 3 + 1; }
static int __attribute__((noinline)) helper_b(int x) { return helper_a(x) ^ 0x55; }

int __attribute__((noinline)) work(int x) { return helper_b(x) + helper_a(x + 1); }
int work_alias(int x) __attribute__((alias("work")));

static int __attribute__((noinline)) hidden(int x) { return x * x - 7; }
int hidden_alias(int x) __attribute__((alias("hidden")));

int __attribute__((weak, noinline)) weak_fn(int x) { return x - 1; }

__attribute__((cold, noinline)) void rare(int x) { printf("rare %d\n", x); }

/* With -freorder-blocks-and-partition the unlikely branch becomes split.cold. */
int __attribute__((noinline)) split(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (__builtin_expect(i == 777, 0)) {
      rare(i);
      rare(i + 1);
      s -= 3;
    }
    s += i * n;
  }
  return s;
}

int asm_nosize(int);
int asm_marker(int);
int asm_sized(int);
int asm_last(int);

__asm__(".section .text.asm_code, \"ax\", @progbits\n"
        ".globl asm_nosize\n"
        ".type asm_nosize, @function\n"
        "asm_nosize:\n" /* a function without .size: reaches to asm_marker */
        "  addi a0, a0, 1\n"
        "  ret\n"
        ".globl asm_marker\n"
        "asm_marker:\n" /* a plain label without size: reaches to asm_sized */
        "  addi a0, a0, 2\n"
        "  ret\n"
        ".globl asm_sized\n"
        ".type asm_sized, @function\n"
        "asm_sized:\n"
        "  addi a0, a0, 3\n"
        ".globl asm_inner\n"
        "asm_inner:\n" /* labels inside a sized function belong to it */
        "  addi a0, a0, 4\n"
        "asm_local_inner:\n"
        "  ret\n"
        ".size asm_sized, .-asm_sized\n"
        /* .fini is the last input section of .text in tally.ld */
        ".section .fini, \"ax\", @progbits\n"
        ".globl asm_last\n"
        ".type asm_last, @function\n"
        "asm_last:\n"
        "  addi a0, a0, 5\n"
        "  ret\n"
        ".size asm_last, .-asm_last\n"
        ".globl asm_end\n"
        "asm_end:\n" /* at the very end of the code: an empty range, a label */
        ".text\n");

int main(void) {
  int (*volatile fns[])(int) = {work, work_alias, hidden_alias, weak_fn, split, asm_nosize, asm_marker, asm_sized,
                                asm_last};
  int sum = 0;
  for (unsigned i = 0; i < sizeof fns / sizeof fns[0]; i++)
    sum += fns[i]((int)i);
  printf("sum %d\n", sum);
  return 0;
}
