/* The signal catalog for people or as JSON (tally_export_signals; `tally
 * signals`), from the public API only. */
#include <stdio.h>
#include <string.h>

#include "tally/export.h"

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

int tally_export_signals(bool json, FILE *f) {
  int n = tally_signal_count();
  if (json) {
    fprintf(f, "[\n");
    for (int i = 0; i < n; i++) {
      fprintf(f, "  {\"id\": %d, \"name\": ", i);
      json_string(f, tally_signal_name(i));
      fprintf(f, ", \"meaning\": ");
      json_string(f, tally_signal_meaning(i));
      fprintf(f, ", \"counts\": ");
      json_string(f, tally_signal_noun(i));
      fprintf(f, "}%s\n", i + 1 < n ? "," : "");
    }
    fprintf(f, "]\n");
    return ferror(f) ? -1 : 0;
  }
  int wm = 0, wn = 0;
  for (int i = 0; i < n; i++) {
    if ((int)strlen(tally_signal_meaning(i)) > wm)
      wm = (int)strlen(tally_signal_meaning(i));
    if ((int)strlen(tally_signal_name(i)) > wn)
      wn = (int)strlen(tally_signal_name(i));
  }
  fprintf(f, "%3s  %-*s  %-*s  %s\n", "id", wn, "name", wm, "high on the cycles where", "a counter counts");
  for (int i = 0; i < n; i++)
    fprintf(f, "%3d  %-*s  %-*s  %s\n", i, wn, tally_signal_name(i), wm, tally_signal_meaning(i), tally_signal_noun(i));
  return ferror(f) ? -1 : 0;
}
