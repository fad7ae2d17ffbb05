/*
 * tally inst --spec FILE: the instrumentation asked for in a file, one
 * `KEY = VALUE` line per option, the keys being the long options' names
 * (docs/tally-inst.md, "Spec files"):
 *
 *   # count the blocks of the crc functions, and one extra point
 *   points    = bb
 *   functions = crc32_*
 *   after     = main+0x10
 *   tool      = bbcount
 *
 * Each line goes through inst_opt_set like the option it names, so a spec
 * and the same command line make the same output. Blank lines and lines
 * whose first non-blank is '#' are comments. A relative `analysis` path
 * is taken from the spec file's directory, so a spec and its analysis
 * code can move together. Errors name the file and the line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inst_opts.h"

#define LINE_MAX_LEN 4096

static char *trim(char *s) {
  while (isspace((unsigned char)*s))
    s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1]))
    s[--n] = 0;
  return s;
}

/* A relative analysis path, from the spec file's directory. */
static const char *spec_path(inst_opts *o, const char *spec, const char *v) {
  const char *slash = strrchr(spec, '/');
  if (v[0] == '/' || !slash)
    return inst_opts_keep(o, v);
  size_t n = (size_t)(slash - spec) + 1 + strlen(v) + 1;
  char *p = malloc(n);
  if (!p)
    return NULL;
  snprintf(p, n, "%.*s%s", (int)(slash - spec + 1), spec, v);
  const char *kept = inst_opts_keep(o, p);
  free(p);
  return kept;
}

static int spec_line(inst_opts *o, const char *path, unsigned lineno, char *line) {
  char *s = trim(line);
  if (!*s || *s == '#')
    return 0;
  char *eq = strchr(s, '=');
  if (!eq) {
    fprintf(stderr, "tally inst: %s:%u: want KEY = VALUE, got '%s'\n", path, lineno, s);
    return EXIT_USAGE;
  }
  *eq = 0;
  char *key = trim(s), *value = trim(eq + 1);
  if (!*value) {
    fprintf(stderr, "tally inst: %s:%u: %s: no value after '='\n", path, lineno, key);
    return EXIT_USAGE;
  }
  const char *kept = strcmp(key, "analysis") == 0 ? spec_path(o, path, value) : inst_opts_keep(o, value);
  if (!kept) {
    fprintf(stderr, "tally inst: %s:%u: out of memory\n", path, lineno);
    return EXIT_INTERNAL;
  }
  char msg[256], where[4200];
  snprintf(where, sizeof where, "%s:%u", path, lineno);
  o->origin = inst_opts_keep(o, where); /* for errors found later (an unknown function, ...) */
  int rc = inst_opt_set(o, key, kept, msg, sizeof msg);
  o->origin = NULL;
  if (rc)
    fprintf(stderr, "tally inst: %s:%u: '%s': %s\n", path, lineno, key, msg);
  return rc;
}

int inst_spec_read(inst_opts *o, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "tally inst: --spec %s: cannot open: %s\n", path, strerror(errno));
    return EXIT_NOINPUT;
  }
  char line[LINE_MAX_LEN + 2];
  unsigned lineno = 0;
  int rc = 0;
  while (!rc && fgets(line, sizeof line, f)) {
    lineno++;
    size_t n = strlen(line);
    if (n > LINE_MAX_LEN && line[n - 1] != '\n') {
      fprintf(stderr, "tally inst: %s:%u: line longer than %d characters\n", path, lineno, LINE_MAX_LEN);
      rc = EXIT_USAGE;
    } else {
      rc = spec_line(o, path, lineno, line);
    }
  }
  if (!rc && ferror(f)) {
    fprintf(stderr, "tally inst: %s: read error: %s\n", path, strerror(errno));
    rc = EXIT_NOINPUT;
  }
  fclose(f);
  return rc;
}
