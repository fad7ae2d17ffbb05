/*
 * flowpit.c - the places where deriving block counts by flow conservation
 * (bbcount's default, src/inst/inst_flow.c) goes wrong if the flow graph
 * is: a switch through a jump table (targets with ways in that no branch
 * shows, one case falling into the next), a computed goto inside a
 * function, nested loops, a loop with break and continue, a call through a
 * pointer, code without a symbol reached only by jalr, and a program that
 * ends inside a function that calls exit() (so the block running at the
 * exit is entered and never left, and the calls on the stack never
 * return). tests/inst runs it instrumented and checks every block's count
 * against tally's exact per-instruction profile of the original.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned seed = 12345;

static unsigned next(void) {
  seed = seed * 1103515245u + 12345u;
  return seed >> 16;
}

/* A dense switch: GCC makes it a jump table in .rodata; case 2 falls into 3. */
static unsigned dispatch(unsigned x, unsigned acc) {
  switch (x & 7u) {
  case 0: acc += 3; break;
  case 1: acc ^= 0x55; break;
  case 2: acc += x;
    /* fall through */
  case 3: acc = acc * 5 + 1; break;
  case 4: acc -= 7; break;
  case 5: acc = (acc << 1) | (acc >> 31); break;
  case 6: acc += acc >> 3; break;
  default: acc ^= x << 2; break;
  }
  return acc;
}

/* A computed goto: an indirect jump inside the function. */
static unsigned computed(unsigned x) {
  static void *const where[] = {&&l0, &&l1, &&l2};
  unsigned r = 0;
  goto *where[x % 3];
l0: r += 11;
l1: r += 13;
l2: r += 17;
  return r;
}

/* Code with no symbol of its own: counts a0 up to a1, reached through a
 * pointer in .rodata only. */
__asm__(".pushsection .text.flowpit_nosym, \"ax\", @progbits\n"
        ".balign 4\n"
        ".Lnosym:\n"
        "  addi a0, a0, 3\n"
        "  blt a0, a1, .Lnosym\n"
        "  ret\n"
        ".popsection\n"
        ".pushsection .rodata.flowpit_nosym, \"a\", @progbits\n"
        ".balign 4\n"
        ".globl flowpit_nosym\n"
        "flowpit_nosym: .word .Lnosym\n"
        ".popsection\n");
extern unsigned (*const flowpit_nosym)(unsigned, unsigned);

static unsigned twice(unsigned x) { return 2 * x; }
static unsigned thrice(unsigned x) { return 3 * x; }
static unsigned (*volatile op[2])(unsigned) = {twice, thrice};

/* Ends the program from three calls down. */
static void finish(unsigned acc) {
  printf("flowpit: acc %08x\n", acc);
  exit((int)(acc & 0x3f) | 0x40);
}

static unsigned nested(unsigned n) {
  unsigned s = 0;
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j <= i; j++)
      for (unsigned k = j; k < n; k += 2)
        s += i * j + k;
  return s;
}

/* A loop with a continue and a break, and the exit from inside it. */
static void scan(unsigned n, unsigned acc) {
  for (unsigned i = 0;; i++) {
    unsigned v = next();
    if (v % 3 == 0)
      continue;
    if (i > n && (v & 1))
      break;
    acc = dispatch(v, acc);
    acc += computed(v);
    acc += op[v & 1](v & 0xff);
    acc += flowpit_nosym(v & 7, 40);
    if (i == 4 * n)
      finish(acc);
  }
  printf("flowpit: broke out with %08x\n", acc);
  acc += nested(n);
  for (unsigned i = 0; i < 3 * n; i++)
    if (next() % 5 != 1)
      acc = dispatch(next(), acc);
  finish(acc);
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 9;
  scan(n, nested(n));
  return 0; /* not reached: finish() exits */
}
