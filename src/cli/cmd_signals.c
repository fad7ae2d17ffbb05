/* tally signals: the signal catalog, for choosing what to count. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tally/export.h"

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
  return tally_export_signals(json, stdout) == 0 ? 0 : EXIT_INTERNAL;
}
