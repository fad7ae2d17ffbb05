/*
 * The flat profile as CSV (RFC 4180): one row per function with its range,
 * calls, inclusive cycles, PC samples and the self total of every signal,
 * in the catalog's order; or one row per source line of each function
 * (report_write_lines_csv). Names are quoted when they hold a comma, a
 * quote or a line break.
 */
#include <string.h>

#include "csv.h"
#include "export.h"

void report_csv_field(FILE *f, const char *s) {
  if (!s)
    return;
  if (!strpbrk(s, ",\"\r\n")) {
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
  fprintf(f, "function,lo,hi,calls,inclusive_cycles,samples");
  for (int s = 0; s < nsig; s++)
    fprintf(f, ",%s", tally_signal_name(s));
  fprintf(f, "\n");
  for (size_t k = 0; k < n; k++) {
    report_csv_field(f, fp[k].name);
    fprintf(f, ",0x%08x,0x%08x,%llu,%llu,%llu", fp[k].lo, fp[k].hi, (unsigned long long)fp[k].calls,
            (unsigned long long)fp[k].inclusive_cycles, (unsigned long long)fp[k].samples);
    for (int s = 0; s < nsig; s++)
      fprintf(f, ",%llu", (unsigned long long)fp[k].self[s]);
    fprintf(f, "\n");
  }
  return ferror(f) ? -1 : 0;
}

int report_write_lines_csv(const tally_profile *p, FILE *f) {
  const tally_func_profile *fp;
  size_t nfn = tally_profile_functions(p, &fp);
  const tally_line_profile *lp;
  size_t n = tally_profile_lines(p, &lp);
  int nsig = tally_signal_count();
  fprintf(f, "file,line,function,samples");
  for (int s = 0; s < nsig; s++)
    fprintf(f, ",%s", tally_signal_name(s));
  fprintf(f, "\n");
  for (size_t k = 0; k < n; k++) {
    report_csv_field(f, lp[k].file ? lp[k].file : REPORT_NO_LINE);
    fprintf(f, ",%u,", lp[k].line);
    report_csv_field(f, (size_t)lp[k].func < nfn ? fp[lp[k].func].name : "[unknown]");
    fprintf(f, ",%llu", (unsigned long long)lp[k].samples);
    for (int s = 0; s < nsig; s++)
      fprintf(f, ",%llu", (unsigned long long)lp[k].self[s]);
    fprintf(f, "\n");
  }
  return ferror(f) ? -1 : 0;
}
