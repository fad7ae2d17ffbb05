/*
 * tally: git-style subcommands over libtally. Each subcommand lives in its
 * own cmd_*.c and is listed once in the table below.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define TALLY_VERSION "0.1.0"

typedef struct subcommand {
  const char *name;
  int (*fn)(int argc, char **argv);
  const char *summary;
} subcommand;

static const subcommand subcommands[] = {
  {"run", cmd_run, "run a RISC-V program on the simulated board"},
  {"profile", cmd_profile, "exact per-function profile of a run (cycles, signals, calls)"},
  {"diff", cmd_diff, "compare two profiles (tally profile --json) function by function"},
  {"signals", cmd_signals, "list the signals counters can count"},
  {"symbols", cmd_symbols, "list a program's functions and source lines"},
  {"trace", cmd_trace, "print a binary instruction trace (tally run --trace-format bin) as text"},
  {"report", cmd_report, "print a stored run (table, CSV or JSON), or list the runs"},
  {"collect", cmd_collect, "receive boards' packets over UDP and store the runs"},
  {"serve", cmd_serve, "the web front end: upload, pick pairs, run, watch, compare"},
  {"sweep", cmd_sweep, "design-space sweep: configurations x programs on all cores, stored, Pareto front"},
  {"config", cmd_config, "configure a waiting board's statistics module over UDP"},
  {"dvfs", cmd_dvfs, "profile-guided DVFS: switches around memory-bound regions (ELF in, ELF out)"},
  {"inst", cmd_inst, "instrument an executable: analysis code at chosen points (ELF in, ELF out)"},
};

static void usage(FILE *f) {
  fprintf(f,
          "usage: tally <command> [options] [args]\n"
          "\n"
          "Exact, cycle-level measurement of RV32 programs on a simulated soft core.\n"
          "\n"
          "commands:\n");
  for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
    fprintf(f, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
  fprintf(f,
          "\n"
          "'tally <command> --help' describes a command; docs/ has the manual.\n"
          "options: --help, --version\n");
}

/* dir = <prefix>/share/tally/WHAT beside this executable's bin/, when that
 * folder exists. */
static bool installed_share_dir(const char *what, char *dir, size_t n) {
  char exe[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0)
    return false;
  exe[len] = '\0';
  char *slash = strrchr(exe, '/');
  if (!slash)
    return false;
  *slash = '\0';
  snprintf(dir, n, "%s/../share/tally/%s", exe, what);
  struct stat st;
  return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* An installed tally (cmake --install) finds its core models next to it,
 * in <prefix>/share/tally/cores, wherever the tree was moved: the library
 * looks in $TALLY_CORES_PATH first (tally_core_dirs), so that is where they
 * are named when the user has not set it. A tally in its build tree has no
 * such folder and uses the source tree's cores/. */
static void find_installed_cores(void) {
  const char *set = getenv("TALLY_CORES_PATH");
  char dir[PATH_MAX + 32];
  if ((!set || !*set) && installed_share_dir("cores", dir, sizeof dir))
    setenv("TALLY_CORES_PATH", dir, 0);
}

/* ... and its boards in <prefix>/share/tally/boards, looked up after the
 * user's $TALLY_BOARDS_PATH (the library then tries the source tree's). */
static void find_installed_boards(void) {
  char dir[PATH_MAX + 32];
  if (!installed_share_dir("boards", dir, sizeof dir))
    return;
  const char *set = getenv("TALLY_BOARDS_PATH");
  if (!set || !*set) {
    setenv("TALLY_BOARDS_PATH", dir, 1);
    return;
  }
  size_t len = strlen(set) + strlen(dir) + 2;
  char *both = malloc(len);
  if (!both)
    return;
  snprintf(both, len, "%s:%s", set, dir);
  setenv("TALLY_BOARDS_PATH", both, 1);
  free(both);
}

int main(int argc, char **argv) {
  find_installed_cores();
  find_installed_boards();
  if (argc < 2) {
    usage(stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    if (strcmp(cmd, "help") == 0 && argc > 2) {
      char help[] = "--help";
      char *args[] = {argv[2], help, NULL};
      for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (strcmp(subcommands[i].name, argv[2]) == 0)
          return subcommands[i].fn(2, args);
    }
    usage(stdout);
    return 0;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("tally %s\n", TALLY_VERSION);
    return 0;
  }
  for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
    if (strcmp(subcommands[i].name, cmd) == 0) {
      /* getopt names the program by argv[0]: "tally run: unrecognized option ..." */
      char name[32];
      snprintf(name, sizeof name, "tally %s", cmd);
      argv[1] = name;
      return subcommands[i].fn(argc - 1, argv + 1);
    }
  fprintf(stderr, "tally: unknown command '%s'\n\n", cmd);
  usage(stderr);
  return EXIT_USAGE;
}
