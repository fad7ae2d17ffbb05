/*
 * tally symbols: the functions tally sees in a program (the ranges profiles
 * and counters are reported by) and, on request, its source lines. Names
 * come from the ELF symbol table, or from a GNU ld map file for a raw
 * binary; lines from the ELF's DWARF. docs/symbols.md has the rules.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../symbols/lines.h"
#include "../symbols/symtab.h"
#include "cli.h"

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
      fprintf(stderr, "usage: tally symbols [--map FILE] [--lines] [--json] PROGRAM\n");
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

/* ---- output ---- */

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

static int digits(uint64_t v) {
  int n = 1;
  while (v >= 10) {
    v /= 10;
    n++;
  }
  return n;
}

static void print_functions(const sym_table *t) {
  int w = 4;
  for (size_t i = 0; i < t->n; i++)
    if (digits(t->v[i].hi - t->v[i].lo) > w)
      w = digits(t->v[i].hi - t->v[i].lo);
  printf("%-10s  %-10s  %*s  %s\n", "lo", "hi", w, "size", "name [aliases]");
  for (size_t i = 0; i < t->n; i++) {
    const sym_entry *e = &t->v[i];
    printf("0x%08x  0x%08x  %*u  %s", e->lo, e->hi, w, e->hi - e->lo, e->name);
    for (size_t k = 0; k < e->naliases; k++)
      printf("%s%s", k ? ", " : " [", e->aliases[k]);
    printf("%s\n", e->naliases ? "]" : "");
  }
}

static void print_lines(const sym_lines *l) {
  printf("%-10s  %-10s  %s\n", "lo", "hi", "source");
  for (size_t i = 0; i < l->n; i++) {
    const sym_line *r = &l->v[i];
    if (r->line)
      printf("0x%08x  0x%08x  %s:%u\n", r->addr, sym_lines_end(l, r), sym_lines_file(l, r), r->line);
  }
}

static const char *binding(unsigned flags) {
  if (!(flags & SYM_GLOBAL))
    return "local";
  return flags & SYM_WEAK ? "weak" : "global";
}

static void json_functions(const sym_table *t, bool from_map) {
  printf("  \"functions\": [");
  for (size_t i = 0; i < t->n; i++) {
    const sym_entry *e = &t->v[i];
    printf("%s\n    {\"name\": ", i ? "," : "");
    json_string(stdout, e->name);
    printf(", \"lo\": %u, \"hi\": %u, \"size\": %u, \"declared_size\": ", e->lo, e->hi, e->hi - e->lo);
    if (e->size)
      printf("%u", e->size);
    else
      printf("null");
    printf(", \"clipped\": %s, \"section\": ", e->flags & SYM_CLIPPED ? "true" : "false");
    json_string(stdout, sym_section_name(t, e));
    if (from_map)
      printf(", \"from\": \"%s\"", e->flags & SYM_SECNAME ? "section name" : e->flags & SYM_ASSIGNED ? "assignment" : "symbol");
    else
      printf(", \"type\": \"%s\", \"binding\": \"%s\"", e->flags & SYM_FUNC ? "func" : "label", binding(e->flags));
    printf(", \"aliases\": [");
    for (size_t k = 0; k < e->naliases; k++) {
      printf("%s", k ? ", " : "");
      json_string(stdout, e->aliases[k]);
    }
    printf("]}");
  }
  printf("%s],\n  \"labels\": [", t->n ? "\n  " : "");
  for (size_t i = 0; i < t->nlabels; i++) {
    printf("%s\n    {\"name\": ", i ? "," : "");
    json_string(stdout, t->labels[i].name);
    printf(", \"addr\": %u}", t->labels[i].addr);
  }
  printf("%s]", t->nlabels ? "\n  " : "");
}

static void json_lines(const sym_lines *l) {
  printf(",\n  \"lines\": [");
  bool first = true;
  for (size_t i = 0; i < l->n; i++) {
    const sym_line *r = &l->v[i];
    if (!r->line)
      continue;
    printf("%s\n    {\"lo\": %u, \"hi\": %u, \"file\": ", first ? "" : ",", r->addr, sym_lines_end(l, r));
    json_string(stdout, sym_lines_file(l, r));
    printf(", \"line\": %u, \"column\": %u}", r->line, r->column);
    first = false;
  }
  printf("%s]", first ? "" : "\n  ");
}

/* ---- reading ---- */

static int read_functions(const symbols_opts *o, sym_table *t) {
  tally_error err;
  if (o->map) {
    FILE *f = fopen(o->prog, "rb");
    if (!f) {
      fprintf(stderr, "tally symbols: %s: cannot open: %s\n", o->prog, strerror(errno));
      return EXIT_NOINPUT;
    }
    fclose(f);
    if (sym_table_read_map_file(t, o->map, &err) != 0) {
      fprintf(stderr, "tally symbols: %s\n", err.msg);
      return EXIT_NOINPUT;
    }
    if (t->n == 0)
      fprintf(stderr, "tally symbols: %s: no functions in its text input sections\n", o->map);
    return 0;
  }
  bool has_symtab = false;
  if (sym_table_read_elf_file(t, o->prog, &has_symtab, &err) != 0) {
    fprintf(stderr, "tally symbols: %s%s\n", err.msg,
            strstr(err.msg, "not an ELF file") ? " (for a raw binary, give its linker map with --map FILE)" : "");
    return EXIT_NOINPUT;
  }
  if (!has_symtab) {
    fprintf(stderr, "tally symbols: %s: no symbol table (stripped?); give its linker map with --map FILE\n", o->prog);
    return EXIT_NOINPUT;
  }
  if (t->n == 0)
    fprintf(stderr, "tally symbols: %s: no function symbols in executable sections\n", o->prog);
  return 0;
}

static int read_lines(const symbols_opts *o, sym_lines *l) {
  tally_error err;
  if (sym_lines_read_file(l, o->prog, &err) != 0) {
    fprintf(stderr, "tally symbols: %s%s\n", err.msg,
            strstr(err.msg, "not an ELF file") ? "; --lines reads the DWARF of the ELF file" : "");
    return EXIT_NOINPUT;
  }
  if (l->n == 0)
    fprintf(stderr, "tally symbols: %s: no DWARF line table (build with -g)\n", o->prog);
  return 0;
}

int cmd_symbols(int argc, char **argv) {
  symbols_opts o;
  int rc = parse_opts(argc, argv, &o);
  if (rc >= 0)
    return rc;
  sym_table t;
  sym_lines l;
  sym_table_init(&t);
  sym_lines_init(&l);
  rc = read_functions(&o, &t);
  if (rc == 0 && o.lines)
    rc = read_lines(&o, &l);
  if (rc == 0 && o.json) {
    printf("{\n  \"program\": ");
    json_string(stdout, o.prog);
    printf(",\n  \"source\": ");
    json_string(stdout, o.map ? o.map : o.prog);
    printf(",\n");
    json_functions(&t, o.map != NULL);
    if (o.lines)
      json_lines(&l);
    printf("\n}\n");
  } else if (rc == 0) {
    print_functions(&t);
    if (o.lines) {
      printf("\n");
      print_lines(&l);
    }
  }
  sym_table_free(&t);
  sym_lines_free(&l);
  if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
    fprintf(stderr, "tally symbols: cannot write the output\n");
    return EXIT_INTERNAL;
  }
  return rc;
}
