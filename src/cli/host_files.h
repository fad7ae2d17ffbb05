/* --semihost-files and --semihost-root (host_files.c). */
#ifndef TALLY_CLI_HOST_FILES_H
#define TALLY_CLI_HOST_FILES_H

#include <stdbool.h>

#include "tally/tally.h"

typedef struct host_files_opts {
  tally_host_files mode;   /* TALLY_HOST_FILES_READ unless given */
  const char *root;        /* NULL: the working directory */
  bool argv0_path;         /* --argv0-path: argv[0] is PROGRAM as given, not its base name */
} host_files_opts;

#define HOST_FILES_HELP                                                                            \
  "      --semihost-files none|read|rw  host files the program may open through\n"               \
  "                         semihosting: none, read (the default) or also write;\n"              \
  "                         only under one directory, never devices, /proc or\n"                \
  "                         tally's own files: store, key, traces, outputs\n"                  \
  "                         (its console always works)\n"                                   \
  "      --semihost-root DIR  that directory (default: the working directory)\n"    \
  "      --argv0-path       the program's argv[0] is PROGRAM as given (default: its\n"     \
  "                         base name, so that the cycles do not depend on the\n"        \
  "                         directory it is run from)\n"

/* One of the options (--argv0-path takes no value); false (with a message)
 * for a bad value. */
bool host_files_parse(host_files_opts *o, const char *cmd, const char *option, const char *value);
/* Sets the policy on sim: 0, or EXIT_NOINPUT with a message naming DIR. */
int host_files_apply(const host_files_opts *o, struct tally_sim *sim, const char *cmd);

/* The program's command line (argv[0] PROGRAM) on sim: argv[0] as its base
 * name unless --argv0-path. 0, or EXIT_NOINPUT with a message. */
int host_files_set_args(const host_files_opts *o, struct tally_sim *sim, const char *cmd, int argc, char **argv);

#endif
