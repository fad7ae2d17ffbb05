/*
 * The flat profile as CSV (RFC 4180): one row per function with its range,
 * calls, inclusive cycles and the self total of every signal, in the
 * catalog's order. Names are quoted when they hold a comma or a quote.
 */
#include <string.h>

#include "export.h"

static void field(FILE *f, const char *s) {
  if (!strpbrk(s, ",\"\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

int report_write_csv(const tally_profile *p, FILE *f) {
  const tally_func_profile *fp;
  size_t n = tally_profile_functions(p, &fp);
  int nsig = tally_signal_count();
  fprintf(f, "function,lo,hi,calls,inclusive_cycles");
  for (int s = 0; s < nsig; s++)
    fprintf(f, ",%s", tally_signal_name(s));
  fprintf(f, "\n");
  for (size_t k = 0; k < n; k++) {
    field(f, fp[k].name);
    fprintf(f, ",0x%08x,0x%08x,%llu,%llu", fp[k].lo, fp[k].hi, (unsigned long long)fp[k].calls,
            (unsigned long long)fp[k].inclusive_cycles);
    for (int s = 0; s < nsig; s++)
      fprintf(f, ",%llu", (unsigned long long)fp[k].self[s]);
    fprintf(f, "\n");
  }
  return ferror(f) ? -1 : 0;
}
