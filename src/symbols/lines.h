/*
 * Source lines of a program: pc -> (file, line, column) from the DWARF line
 * tables of an ELF file (libdw), merged over all compilation units into one
 * address-sorted table, so a lookup is a binary search. A program built
 * without -g has an empty table; that is not an error.
 */
#ifndef TALLY_SYMBOLS_LINES_H
#define TALLY_SYMBOLS_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "tally/tally.h"

struct Elf;

/* One row: from addr up to the next row's addr the code comes from
 * file:line. line 0 marks the end of a sequence: no source there. */
typedef struct sym_line {
  uint32_t addr;
  uint32_t line;
  uint32_t file;   /* index into sym_lines.files */
  uint32_t column; /* 0 = not known */
} sym_line;

typedef struct sym_lines {
  sym_line *v; /* sorted by addr, one row per address */
  size_t n;
  char **files; /* full paths as the compiler recorded them */
  size_t nfiles;
} sym_lines;

void sym_lines_init(sym_lines *l);
void sym_lines_free(sym_lines *l);

/*
 * Reads the line tables of an ELF file opened with libelf (e must stay
 * open only during the call). Rows outside executable sections (code the
 * linker dropped) are left out. Where rows share an address the last one
 * wins, as in binutils' addr2line. Returns 0 (also when there is no debug
 * information), or -1 with err naming `path` when the DWARF is damaged.
 */
int sym_lines_read_elf(sym_lines *l, struct Elf *e, const char *path, tally_error *err);
/* Opens an ELF file and reads its line tables. 0 or -1. */
int sym_lines_read_file(sym_lines *l, const char *path, tally_error *err);

/* The row covering pc, or NULL when pc has no source line. */
const sym_line *sym_lines_lookup(const sym_lines *l, uint32_t pc);
/* Where a row's code ends: the next row's address. */
uint32_t sym_lines_end(const sym_lines *l, const sym_line *r);
static inline const char *sym_lines_file(const sym_lines *l, const sym_line *r) { return l->files[r->file]; }

#endif
