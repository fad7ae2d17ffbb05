/*
 * --semihost-files and --semihost-root: which host files a program may
 * open, for every subcommand that runs one (tally run, tally profile). The
 * policy itself lives in the library (tally_set_host_files). And what the
 * program sees as its command line: argv[0] is PROGRAM's base name by
 * default (start-up code copies argv, so a longer path would cost cycles).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "host_files.h"
#include "tally/tally.h"

bool host_files_parse(host_files_opts *o, const char *cmd, const char *option, const char *value) {
  if (strcmp(option, "--argv0-path") == 0) {
    o->argv0_path = true;
    return true;
  }
  if (strcmp(option, "--semihost-root") == 0) {
    o->root = value;
    return true;
  }
  static const struct { const char *name; tally_host_files mode; } modes[] = {
    {"none", TALLY_HOST_FILES_NONE}, {"read", TALLY_HOST_FILES_READ}, {"rw", TALLY_HOST_FILES_RW},
  };
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
    if (strcmp(value, modes[i].name) == 0) {
      o->mode = modes[i].mode;
      return true;
    }
  }
  fprintf(stderr, "tally %s: --semihost-files wants none, read or rw, got '%s'\n", cmd, value);
  return false;
}

int host_files_apply(const host_files_opts *o, struct tally_sim *sim, const char *cmd) {
  tally_error err;
  if (tally_set_host_files(sim, o->mode, o->root, &err) != 0) {
    fprintf(stderr, "tally %s: --semihost-root: %s\n", cmd, err.msg);
    return EXIT_NOINPUT;
  }
  return 0;
}

int host_files_set_args(const host_files_opts *o, struct tally_sim *sim, const char *cmd, int argc, char **argv) {
  tally_keep_argv0_path(sim, o->argv0_path);
  if (tally_set_args(sim, argc, argv) != 0) {
    fprintf(stderr, "tally %s: the program's command line is too long for the board\n", cmd);
    return EXIT_NOINPUT;
  }
  return 0;
}
