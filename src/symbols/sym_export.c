/*
 * The functions tally sees in a program (the ranges profiles and counters
 * are reported by) and, on request, its source lines, as a table or JSON
 * (tally_export_symbols; `tally symbols`). Names come from the ELF symbol
 * table, or from a GNU ld map file for a raw binary; lines from the ELF's
 * DWARF. docs/symbols.md has the rules.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lines.h"
#include "symtab.h"
#include "tally/export.h"

/* A warning that ends nothing, to the caller's callback. */
static void warn(const tally_symbols_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(const tally_symbols_opts *o, const char *fmt, ...) {
  if (!o->warn)
    return;
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  o->warn(o->ctx, msg);
}

static int fail(tally_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(tally_error *err, const char *fmt, ...) {
  char msg[sizeof err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(err->msg, sizeof err->msg, "%s", msg);
  err->code = TALLY_E_INPUT;
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

static void print_functions(FILE *out, const sym_table *t) {
  int w = 4;
  for (size_t i = 0; i < t->n; i++)
    if (digits(t->v[i].hi - t->v[i].lo) > w)
      w = digits(t->v[i].hi - t->v[i].lo);
  fprintf(out, "%-10s  %-10s  %*s  %s\n", "lo", "hi", w, "size", "name [aliases]");
  for (size_t i = 0; i < t->n; i++) {
    const sym_entry *e = &t->v[i];
    fprintf(out, "0x%08x  0x%08x  %*u  %s", e->lo, e->hi, w, e->hi - e->lo, e->name);
    for (size_t k = 0; k < e->naliases; k++)
      fprintf(out, "%s%s", k ? ", " : " [", e->aliases[k]);
    fprintf(out, "%s\n", e->naliases ? "]" : "");
  }
}

static void print_lines(FILE *out, const sym_lines *l) {
  fprintf(out, "%-10s  %-10s  %s\n", "lo", "hi", "source");
  for (size_t i = 0; i < l->n; i++) {
    const sym_line *r = &l->v[i];
    if (r->line)
      fprintf(out, "0x%08x  0x%08x  %s:%u\n", r->addr, sym_lines_end(l, r), sym_lines_file(l, r), r->line);
  }
}

static const char *binding(unsigned flags) {
  if (!(flags & SYM_GLOBAL))
    return "local";
  return flags & SYM_WEAK ? "weak" : "global";
}

static void json_functions(FILE *out, const sym_table *t, bool from_map) {
  fprintf(out, "  \"functions\": [");
  for (size_t i = 0; i < t->n; i++) {
    const sym_entry *e = &t->v[i];
    fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
    json_string(out, e->name);
    fprintf(out, ", \"lo\": %u, \"hi\": %u, \"size\": %u, \"declared_size\": ", e->lo, e->hi, e->hi - e->lo);
    if (e->size)
      fprintf(out, "%u", e->size);
    else
      fprintf(out, "null");
    fprintf(out, ", \"clipped\": %s, \"section\": ", e->flags & SYM_CLIPPED ? "true" : "false");
    json_string(out, sym_section_name(t, e));
    if (from_map)
      fprintf(out, ", \"from\": \"%s\"", e->flags & SYM_SECNAME ? "section name" : e->flags & SYM_ASSIGNED ? "assignment" : "symbol");
    else
      fprintf(out, ", \"type\": \"%s\", \"binding\": \"%s\"", e->flags & SYM_FUNC ? "func" : "label", binding(e->flags));
    fprintf(out, ", \"aliases\": [");
    for (size_t k = 0; k < e->naliases; k++) {
      fprintf(out, "%s", k ? ", " : "");
      json_string(out, e->aliases[k]);
    }
    fprintf(out, "]}");
  }
  fprintf(out, "%s],\n  \"labels\": [", t->n ? "\n  " : "");
  for (size_t i = 0; i < t->nlabels; i++) {
    fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
    json_string(out, t->labels[i].name);
    fprintf(out, ", \"addr\": %u}", t->labels[i].addr);
  }
  fprintf(out, "%s]", t->nlabels ? "\n  " : "");
}

static void json_lines(FILE *out, const sym_lines *l) {
  fprintf(out, ",\n  \"lines\": [");
  bool first = true;
  for (size_t i = 0; i < l->n; i++) {
    const sym_line *r = &l->v[i];
    if (!r->line)
      continue;
    fprintf(out, "%s\n    {\"lo\": %u, \"hi\": %u, \"file\": ", first ? "" : ",", r->addr, sym_lines_end(l, r));
    json_string(out, sym_lines_file(l, r));
    fprintf(out, ", \"line\": %u, \"column\": %u}", r->line, r->column);
    first = false;
  }
  fprintf(out, "%s]", first ? "" : "\n  ");
}

/* ---- reading ---- */

static int read_functions(const tally_symbols_opts *o, sym_table *t, tally_error *err) {
  if (o->map) {
    FILE *f = fopen(o->program, "rb");
    if (!f) {
      return fail(err, "%s: cannot open: %s", o->program, strerror(errno));
    }
    fclose(f);
    if (sym_table_read_map_file(t, o->map, err) != 0)
      return fail(err, "%s", err->msg);
    if (t->n == 0)
      warn(o, "%s: no functions in its text input sections", o->map);
    return 0;
  }
  bool has_symtab = false;
  if (sym_table_read_elf_file(t, o->program, &has_symtab, err) != 0) {
    if (strstr(err->msg, "not an ELF file"))
      return fail(err, "%.400s (for a raw binary, give its linker map with --map FILE)", err->msg);
    return fail(err, "%s", err->msg);
  }
  if (!has_symtab) {
    return fail(err, "%s: no symbol table (stripped?); give its linker map with --map FILE", o->program);
  }
  if (t->n == 0)
    warn(o, "%s: no function symbols in executable sections", o->program);
  return 0;
}

static int read_lines(const tally_symbols_opts *o, sym_lines *l, tally_error *err) {
  if (sym_lines_read_file(l, o->program, err) != 0) {
    if (strstr(err->msg, "not an ELF file"))
      return fail(err, "%.400s; --lines reads the DWARF of the ELF file", err->msg);
    return fail(err, "%s", err->msg);
  }
  if (l->n == 0)
    warn(o, "%s: no DWARF line table (build with -g)", o->program);
  return 0;
}

int tally_export_symbols(const tally_symbols_opts *o, FILE *out, tally_error *err) {
  tally_error scratch;
  if (!err)
    err = &scratch;
  sym_table t;
  sym_lines l;
  sym_table_init(&t);
  sym_lines_init(&l);
  int rc = read_functions(o, &t, err);
  if (rc == 0 && o->lines)
    rc = read_lines(o, &l, err);
  if (rc == 0 && o->json) {
    fprintf(out, "{\n  \"program\": ");
    json_string(out, o->program);
    fprintf(out, ",\n  \"source\": ");
    json_string(out, o->map ? o->map : o->program);
    fprintf(out, ",\n");
    json_functions(out, &t, o->map != NULL);
    if (o->lines)
      json_lines(out, &l);
    fprintf(out, "\n}\n");
  } else if (rc == 0) {
    print_functions(out, &t);
    if (o->lines) {
      fprintf(out, "\n");
      print_lines(out, &l);
    }
  }
  sym_table_free(&t);
  sym_lines_free(&l);
  if (rc == 0 && ferror(out)) {
    snprintf(err->msg, sizeof err->msg, "cannot write the output");
    err->code = TALLY_E_INTERNAL;
    rc = -1;
  }
  return rc;
}
