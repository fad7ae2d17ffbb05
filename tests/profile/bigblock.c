/*
 * A block whose translated code does not fit the translator's scratch for
 * one block (docs/jit.md), profiled on tally5: translate lowers it again
 * without its loop copy (src/core/jit.c, translate), reached by code as it
 * is, not by a smaller scratch.
 *
 * loop(): one block of 63 instructions, 30 word loads and stores in pairs,
 * one more load, the count down and a branch back to its own first
 * instruction. Profiled, each access is looked up in the D-cache inline
 * and counted (330 bytes of code each at most, measured): with the loop
 * copy (the body twice) the block is over 32 KiB, without it some 20 KiB.
 * The last way out, a timed block run as a call of the interpreter, is
 * not reached: the largest code measured for a block of 64 instructions
 * (the most a block has) without its loop copy is 21,067 bytes (64 word
 * stores, profiled on tally5).
 *
 * Exit status 0 when every word moved as the C below says it must.
 */
#include <stdint.h>

#include "pstart.h"

#define ROUNDS 200

static volatile uint32_t ring[64];

/* n times: ring[i] = ring[i + 32] for i < 30, 1 more load, the count down
 * and the branch back to the start */
__attribute__((noinline)) static void loop(volatile uint32_t *p, uint32_t n) {
  __asm__ volatile(
      "1:\n"
      ".irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29\n"
      "lw t0, (128 + 4 * \\i)(%0)\n"
      "sw t0, (4 * \\i)(%0)\n"
      ".endr\n"
      "lw t0, 0(%0)\n"
      "addi %1, %1, -1\n"
      "bnez %1, 1b\n"
      : "+r"(p), "+r"(n)
      :
      : "t0", "memory");
}

int main(void) {
  for (uint32_t i = 0; i < 64; i++)
    ring[i] = i;
  loop(ring, ROUNDS);
  int ok = 1;
  for (uint32_t i = 0; i < 30; i++)
    ok &= ring[i] == i + 32;
  printf("%s\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
