/*
 * tally trace --print FILE: a binary instruction trace (tally run --trace
 * FILE --trace-format bin) as the text lines `--trace` writes
 * (tally_trace_print, include/tally/trace.h; docs/tally-trace.md).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tally/trace.h"

static void trace_usage(FILE *f) {
  fprintf(f,
          "usage: tally trace --print FILE [-o OUT]\n"
          "\n"
          "Prints a binary instruction trace (tally run --trace FILE --trace-format bin)\n"
          "as the text lines of 'tally run --trace': one line per instruction with its\n"
          "cycle, cycles taken, pc, symbol, disassembly, registers written, memory\n"
          "touched and signals raised (docs/tally-trace.md).\n"
          "\n"
          "options:\n"
          "      --print FILE   the binary trace to read ('-': stdin)\n"
          "  -o, --output OUT   write the text there (default: stdout)\n"
          "  -h, --help         show this help\n"
          "\n"
          "exit status: 0; 64 for usage errors; 65 when FILE is not a binary trace,\n"
          "is damaged or was cut short (the lines before the damage are printed);\n"
          "66 when FILE cannot be read; 73 when OUT cannot be created; 70 when it\n"
          "cannot be written.\n");
}

static int print_trace(const char *path, const char *out_path) {
  bool in_std = !strcmp(path, "-"), out_std = !out_path || !strcmp(out_path, "-");
  FILE *in = in_std ? stdin : fopen(path, "rb");
  if (!in) {
    fprintf(stderr, "tally trace: %s: cannot read: %s\n", path, strerror(errno));
    return EXIT_NOINPUT;
  }
  FILE *out = out_std ? stdout : fopen(out_path, "w");
  if (!out) {
    fprintf(stderr, "tally trace: -o %s: cannot create: %s\n", out_path, strerror(errno));
    if (!in_std)
      fclose(in);
    return EXIT_CANTCREAT;
  }
  tally_error err;
  int status = 0;
  if (tally_trace_print(in, out, &err) != 0) {
    fprintf(stderr, "tally trace: %s: %s\n", path, err.msg);
    status = EXIT_DATAERR;
  }
  if (!in_std)
    fclose(in);
  int bad = fflush(out) != 0 || ferror(out);
  if ((!out_std && fclose(out) != 0) || bad) {
    fprintf(stderr, "tally trace: %s: cannot write: %s\n", out_std ? "stdout" : out_path, strerror(errno));
    status = status ? status : EXIT_INTERNAL;
  }
  return status;
}

int cmd_trace(int argc, char **argv) {
  static const struct option longs[] = {
    {"print", required_argument, NULL, 'p'},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
  };
  const char *print = NULL, *out = NULL;
  optind = 1;
  int c;
  while ((c = getopt_long(argc, argv, "ho:", longs, NULL)) != -1) {
    switch (c) {
    case 'p': print = optarg; break;
    case 'o': out = optarg; break;
    case 'h': trace_usage(stdout); return 0;
    default: fprintf(stderr, "(try 'tally trace --help')\n"); return EXIT_USAGE;
    }
  }
  if (!print || optind < argc) {
    fprintf(stderr, "tally trace: %s (try 'tally trace --help')\n",
            print ? "unexpected arguments" : "--print FILE names the binary trace to print");
    return EXIT_USAGE;
  }
  return print_trace(print, out);
}
