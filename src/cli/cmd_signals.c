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
             "Lists every signal a counter can count: its number, its name and on\n"
             "which cycles it is high. docs/timing.md has the cycle layout.\n");
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
      printf("}%s\n", i + 1 < n ? "," : "");
    }
    printf("]\n");
    return 0;
  }
  printf("%3s  %-20s %s\n", "id", "name", "high on the cycles where");
  for (int i = 0; i < n; i++)
    printf("%3d  %-20s %s\n", i, tally_signal_name(i), tally_signal_meaning(i));
  return 0;
}
