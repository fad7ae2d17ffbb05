/*
 * Folded stacks, the input of flame graph tools (flamegraph.pl, inferno,
 * speedscope's import): one line per distinct call stack, root first,
 * frames separated by ';', then a space and the stack's self cycles.
 * The numbers add up to the run's total cycles.
 */
#include "export.h"

static void line(void *ctx, const char *const *names, size_t depth, uint64_t cycles) {
  FILE *f = ctx;
  for (size_t i = 0; i < depth; i++)
    fprintf(f, "%s%s", i ? ";" : "", names[i]);
  fprintf(f, " %llu\n", (unsigned long long)cycles);
}

int report_write_folded(const tally_profile *p, FILE *f) {
  tally_profile_stacks(p, line, f);
  return ferror(f) ? -1 : 0;
}
