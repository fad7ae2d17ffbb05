/* A guest that tries to reach the host's files through semihosting: reads
 * /etc/hostname, creates a file beside it and in the current folder. Under
 * tally serve every attempt must fail; it prints what happened to each. */
#include <stdio.h>

static void try_open(const char *path, const char *mode) {
  FILE *f = fopen(path, mode);
  printf("%s %s: %s\n", mode, path, f ? "OPENED" : "refused");
  if (f)
    fclose(f);
}

int main(void) {
  try_open("/etc/hostname", "r");
  try_open("/tmp/tally-serve-guest-was-here", "w");
  try_open("guest-was-here", "w");
  return 0;
}
