/*
 * tally symbols: the functions tally sees in a program and, on request, its
 * source lines. Options in, the library's listing (tally_export_symbols)
 * out; docs/symbols.md has the rules.
 */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "tally/export.h"

static void warn(void *ctx, const char *msg) {
  (void)ctx;
  fprintf(stderr, "tally symbols: %s\n", msg);
}

typedef struct symbols_opts {
  const char *prog, *map;
  bool lines, json;
} symbols_opts;

static void symbols_usage(FILE *f) {
  fprintf(f,
          "usage: tally symbols [options] PROGRAM\n"
          "\n"
          "Lists the functions of a program as address ranges: where each starts\n"
          "and ends, its size, its name and the other names of the same address.\n"
          "These are the ranges profiles and counters are reported by.\n"
          "\n"
          "options:\n"
          "      --map FILE   take the functions from a GNU ld map file (-Wl,-Map=FILE)\n"
          "                   instead of PROGRAM's symbol table; PROGRAM may then be a\n"
          "                   raw binary\n"
          "      --lines      also list the source line table (pc -> file:line) from\n"
          "                   PROGRAM's DWARF debug information (build with -g)\n"
          "      --json       print JSON instead of tables\n"
          "  -h, --help       show this help\n"
          "\n"
          "A function without a size reaches to the next function or the end of its\n"
          "section; a symbol without a size inside a sized function is a label of\n"
          "it. See docs/symbols.md.\n"
          "\n"
          "exit status: 0, 64 for usage errors, 66 when PROGRAM or the map file is\n"
          "missing or cannot be read.\n");
}

static int parse_opts(int argc, char **argv, symbols_opts *o) {
  enum { OPT_MAP = 256, OPT_LINES, OPT_JSON };
  static const struct option longs[] = {
    {"map", required_argument, NULL, OPT_MAP}, {"lines", no_argument, NULL, OPT_LINES},
    {"json", no_argument, NULL, OPT_JSON},     {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
  };
  *o = (symbols_opts){0};
  optind = 1;
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, "h", longs, NULL)) != -1) {
    switch (c) {
    case OPT_MAP: o->map = optarg; break;
    case OPT_LINES: o->lines = true; break;
    case OPT_JSON: o->json = true; break;
    case 'h': symbols_usage(stdout); return 0;
    default:
      if (optopt == OPT_MAP)
        fprintf(stderr, "tally symbols: --map needs a FILE\n");
      else
        fprintf(stderr, "tally symbols: unknown option '%s'\n", argv[optind - 1]);
      fprintf(stderr, "usage: tally symbols [--map FILE] [--lines] [--json] PROGRAM (try 'tally symbols --help')\n");
      return EXIT_USAGE;
    }
  }
  if (optind >= argc) {
    fprintf(stderr, "tally symbols: no PROGRAM given\n"
                    "usage: tally symbols [--map FILE] [--lines] [--json] PROGRAM\n");
    return EXIT_USAGE;
  }
  if (optind + 1 < argc) {
    fprintf(stderr, "tally symbols: one PROGRAM only ('%s' is one too many)\n", argv[optind + 1]);
    return EXIT_USAGE;
  }
  o->prog = argv[optind];
  return -1;
}

int cmd_symbols(int argc, char **argv) {
  symbols_opts o;
  int rc = parse_opts(argc, argv, &o);
  if (rc >= 0)
    return rc;
  tally_error err;
  tally_symbols_opts so = {.program = o.prog, .map = o.map, .lines = o.lines, .json = o.json, .warn = warn};
  if (tally_export_symbols(&so, stdout, &err) != 0) {
    fprintf(stderr, "tally symbols: %s\n", err.msg);
    return err.code == TALLY_E_INPUT ? EXIT_NOINPUT : EXIT_INTERNAL;
  }
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "tally symbols: cannot write the output\n");
    return EXIT_INTERNAL;
  }
  return 0;
}
