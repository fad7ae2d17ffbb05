/*
 * Options written after PROGRAM belong to the program (docs/tally-run.md):
 * `tally run prog.elf --max-insns 10` passes --max-insns to prog.elf. When
 * one of them is also an option of the subcommand, that is most likely a
 * mistake, so a one-line hint says where tally's own options go.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Is arg ("--name" or "--name=value") one of the long options? */
static bool is_option(const struct option *longs, const char *arg) {
  if (strncmp(arg, "--", 2) != 0 || !arg[2])
    return false;
  size_t len = strcspn(arg + 2, "=");
  for (const struct option *o = longs; o->name; o++)
    if (strlen(o->name) == len && strncmp(o->name, arg + 2, len) == 0)
      return true;
  return false;
}

void cli_hint_after_program(const char *cmd, const struct option *longs, int argc, char **argv, int program) {
  for (int i = program + 1; i < argc; i++) {
    if (is_option(longs, argv[i])) {
      fprintf(stderr, "tally %s: note: '%s' comes after PROGRAM, so it goes to the program; tally's own options "
                      "come before PROGRAM (tally %s [options] PROGRAM [ARGS...])\n", cmd, argv[i], cmd);
      return;
    }
  }
}
