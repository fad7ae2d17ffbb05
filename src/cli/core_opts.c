/*
 * --core NAME, --set SEC.KEY=VAL and --engine for the subcommands that run a program:
 * a bad value on the command line is a usage error (64), a model file that
 * cannot be read or is damaged is bad input (66), as the exit statuses of
 * every other option say.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tally/tally.h"

static bool names_a_file(const char *name) {
  size_t n = strlen(name);
  return strchr(name, '/') || (n > 4 && strcmp(name + n - 4, ".ini") == 0);
}

int cli_set_core(struct tally_sim *sim, const char *name, const char *const *sets, int nsets, const char *cmd) {
  tally_error err;
  if (tally_set_core(sim, name, NULL, 0, &err) != 0) {
    fprintf(stderr, "tally %s: --core %s: %s\n", cmd, name, err.msg);
    return names_a_file(name) ? EXIT_NOINPUT : EXIT_USAGE;
  }
  if (nsets && tally_set_core(sim, name, sets, nsets, &err) != 0) {
    fprintf(stderr, "tally %s: --set: %s\n", cmd, err.msg);
    return EXIT_USAGE;
  }
  return 0;
}

int cli_parse_engine(const char *word, const char *cmd) {
  int e = tally_engine_parse(word);
  if (e < 0)
    fprintf(stderr, "tally %s: --engine wants interp or jit, got '%s'\n", cmd, word);
  return e;
}

int cli_set_engine(struct tally_sim *sim, int engine, const char *cmd) {
  tally_error err;
  if (engine < 0)
    return 0;
  if (tally_set_engine(sim, (tally_engine)engine, &err) != 0) {
    fprintf(stderr, "tally %s: %s\n", cmd, err.msg);
    return err.code == TALLY_E_USAGE ? EXIT_USAGE : EXIT_INTERNAL;
  }
  return 0;
}
