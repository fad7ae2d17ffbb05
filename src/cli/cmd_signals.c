/* tally signals: the signal catalog, for choosing what to count. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tally/tally.h"

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

int cmd_signals(int argc, char **argv) {
  bool json = false;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) {
      json = true;
    } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      printf("usage: tally signals [--json]\n\n"
             "Lists every signal a counter can count: its number, its name, on\n"
             "which cycles it is high, and what a counter of it counts, in plain\n"
             "words. docs/timing.md has the cycle layout.\n");
      return 0;
    } else {
      fprintf(stderr, "tally signals: unknown option '%s'\n", argv[i]);
      return EXIT_USAGE;
    }
  }
  int n = tally_signal_count();
  if (json) {
    printf("[\n");
    for (int i = 0; i < n; i++) {
      printf("  {\"id\": %d, \"name\": ", i);
      json_string(stdout, tally_signal_name(i));
      printf(", \"meaning\": ");
      json_string(stdout, tally_signal_meaning(i));
      printf(", \"counts\": ");
      json_string(stdout, tally_signal_noun(i));
      printf("}%s\n", i + 1 < n ? "," : "");
    }
    printf("]\n");
    return 0;
  }
  int wm = 0, wn = 0;
  for (int i = 0; i < n; i++) {
    if ((int)strlen(tally_signal_meaning(i)) > wm)
      wm = (int)strlen(tally_signal_meaning(i));
    if ((int)strlen(tally_signal_name(i)) > wn)
      wn = (int)strlen(tally_signal_name(i));
  }
  printf("%3s  %-*s  %-*s  %s\n", "id", wn, "name", wm, "high on the cycles where", "a counter counts");
  for (int i = 0; i < n; i++)
    printf("%3d  %-*s  %-*s  %s\n", i, wn, tally_signal_name(i), wm, tally_signal_meaning(i), tally_signal_noun(i));
  return 0;
}
