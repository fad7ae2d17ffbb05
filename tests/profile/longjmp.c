/*
 * setjmp/longjmp (picolibc's): twice, main sets a jump buffer and calls
 * deep(3), which recurses to deep(0) and longjmps back to main, skipping
 * four frames of deep and longjmp's own. Then main calls after().
 *   setjmp: 2 calls, deep: 8 (2 from main, 6 from deep), longjmp: 2 (from
 *   deep), after: 1, from main: the unwind must leave main on top.
 */
#include <setjmp.h>

#include "pstart.h"

static jmp_buf env;

__attribute__((noipa)) void deep(int n) {
  if (n < 0)
    return;
  if (n == 0)
    longjmp(env, 1);
  deep(n - 1);
  KEEP(n);
}

__attribute__((noipa)) int after(int x) {
  KEEP(x);
  return x + 1;
}

int main(void) {
  volatile int depth = 3, jumped = 0;
  for (volatile int i = 0; i < 2; i++) {
    if (setjmp(env) == 0)
      deep(depth);
    else
      jumped++;
  }
  return after(jumped) == 3 ? 0 : 1;
}
