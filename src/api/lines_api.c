/*
 * include/tally/lines.h over src/symbols/lines.h: an ELF's DWARF line table
 * for clients, read without a simulation.
 */
#include <stdlib.h>

#include "../symbols/lines.h"
#include "tally/lines.h"

struct tally_line_table {
  sym_lines l;
};

tally_line_table *tally_line_table_read(const char *elf_path, tally_error *err) {
  tally_line_table *lt = calloc(1, sizeof *lt);
  if (!lt) {
    snprintf(err->msg, sizeof err->msg, "out of memory reading the line table of %s", elf_path);
    return NULL;
  }
  sym_lines_init(&lt->l);
  if (sym_lines_read_file(&lt->l, elf_path, err) != 0) {
    tally_line_table_free(lt);
    return NULL;
  }
  return lt;
}

void tally_line_table_free(tally_line_table *lt) {
  if (!lt)
    return;
  sym_lines_free(&lt->l);
  free(lt);
}

unsigned long tally_line_table_rows(const tally_line_table *lt) { return lt->l.n; }

int tally_line_at(const tally_line_table *lt, uint32_t pc, const char **file, uint32_t *line) {
  const sym_line *r = sym_lines_lookup(&lt->l, pc);
  if (!r || r->line == 0)
    return 0;
  *file = sym_lines_file(&lt->l, r);
  *line = r->line;
  return 1;
}

/* The first row at or after lo (or the one covering lo), then forward. */
const char *tally_line_file_in(const tally_line_table *lt, uint32_t lo, uint32_t hi) {
  const sym_lines *l = &lt->l;
  size_t a = 0, b = l->n; /* first row with addr > lo */
  while (a < b) {
    size_t m = a + (b - a) / 2;
    if (l->v[m].addr <= lo)
      a = m + 1;
    else
      b = m;
  }
  for (size_t i = a ? a - 1 : 0; i < l->n && l->v[i].addr < hi; i++)
    if (l->v[i].line != 0 && sym_lines_end(l, &l->v[i]) > lo)
      return sym_lines_file(l, &l->v[i]);
  return NULL;
}
