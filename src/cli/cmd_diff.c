/*
 * tally diff: two JSON profiles (tally profile --json) side by side, per
 * function, with the change from A to B. Options in, the library's
 * comparison (tally_export_profile_diff) out.
 */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "tally/export.h"

static void diff_usage(FILE *f) {
  fprintf(f,
          "usage: tally diff [options] A.json B.json\n"
          "\n"
          "Compares two exact profiles written by 'tally profile --json': the same\n"
          "program on two core models, or two builds of a program (rv32imac and\n"
          "rv32i, -O2 and -Os). For every function: its self count of a signal in A\n"
          "and in B, the change B - A and the ratio B / A, largest change first.\n"
          "Functions are matched by name; one found in only one profile is marked so.\n"
          "\n"
          "options:\n"
          "      --signal NAME     compare this signal's self counts (default cycle;\n"
          "                        see 'tally signals')\n"
          "      --inclusive       compare inclusive cycles instead of self counts\n"
          "      --calls           compare call counts instead of self counts\n"
          "      --top N           show the N largest changes (default all)\n"
          "  -h, --help            show this help\n"
          "\n"
          "exit status: 0, 64 for usage errors, 66 when a profile cannot be read.\n");
}

int cmd_diff(int argc, char **argv) {
  static const struct option longs[] = {
    {"signal", required_argument, NULL, 's'}, {"inclusive", no_argument, NULL, 'i'},
    {"calls", no_argument, NULL, 'c'},       {"top", required_argument, NULL, 't'},
    {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0},
  };
  const char *signal = "cycle";
  tally_diff_measure m = TALLY_DIFF_SELF;
  uint64_t top = 0;
  optind = 1;
  int c;
  while ((c = getopt_long(argc, argv, "+h", longs, NULL)) != -1) {
    switch (c) {
    case 's': signal = optarg; m = TALLY_DIFF_SELF; break;
    case 'i': m = TALLY_DIFF_INCLUSIVE; break;
    case 'c': m = TALLY_DIFF_CALLS; break;
    case 't':
      if (!parse_u64(optarg, &top)) {
        fprintf(stderr, "tally diff: --top wants a count, got '%s'\n", optarg);
        return EXIT_USAGE;
      }
      break;
    case 'h': diff_usage(stdout); return 0;
    default: fprintf(stderr, "(try 'tally diff --help')\n"); return EXIT_USAGE;
    }
  }
  if (argc - optind != 2) {
    fprintf(stderr, "tally diff: wants two profiles, A and B (try 'tally diff --help')\n");
    return EXIT_USAGE;
  }
  if (m == TALLY_DIFF_SELF && tally_signal_lookup(signal) < 0) {
    fprintf(stderr, "tally diff: unknown signal '%s' (see 'tally signals')\n", signal);
    return EXIT_USAGE;
  }
  tally_error err;
  if (tally_export_profile_diff(argv[optind], argv[optind + 1], m, signal, top, stdout, &err) != 0) {
    fprintf(stderr, "tally diff: %s\n", err.msg);
    return err.code == TALLY_E_INPUT ? EXIT_NOINPUT : EXIT_INTERNAL;
  }
  return 0;
}
