/* Console output between long stretches of computing, for the progress
 * line's tests (tests/cli/progress_check.py): lines on stdout, an
 * unfinished line (a prompt) that the line must not tear, a line on
 * stderr. Each stretch is argv[1] turns (default 8M) of an LCG, about
 * 5 instructions a turn: longer than one of tally run's slices. */
#include <stdio.h>
#include <stdlib.h>

static unsigned spin(unsigned long turns, unsigned x) {
  for (unsigned long i = 0; i < turns; i++)
    x = x * 1103515245u + 12345u;
  return x;
}

int main(int argc, char **argv) {
  unsigned long turns = argc > 1 ? strtoul(argv[1], NULL, 0) : 8000000ul;
  unsigned x = 1;
  printf("phase 1\n");
  x = spin(turns, x);
  printf("prompt: ");
  fflush(stdout);
  x = spin(turns, x);
  printf("answer\n");
  x = spin(turns, x);
  fprintf(stderr, "to stderr\n");
  x = spin(turns, x);
  printf("done %u\n", x & 1u);
  return 0;
}
