/*
 * The functions of a program as address ranges: where each one starts and
 * ends, its name and the other names of the same address. Filled from the
 * ELF symbol table (sym_elf.c) or from a GNU ld map file (sym_map.c).
 *
 * Use: sym_table_init, then add symbols (by hand or with a reader), then
 * sym_table_finish once; from then on t->v holds the functions sorted by
 * address with non-overlapping [lo, hi) ranges, and sym_table_lookup finds
 * the function of a pc by binary search. The range rules are in
 * docs/symbols.md and in sym_table_finish below.
 *
 * DWARF line tables (pc -> file:line) are in lines.h.
 */
#ifndef TALLY_SYMBOLS_SYMTAB_H
#define TALLY_SYMBOLS_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tally/tally.h"

struct Elf; /* libelf's handle (<libelf.h>) */

/* What the source said about a symbol (sym_entry.flags). */
enum {
  SYM_FUNC = 1u << 0,     /* typed as a function (STT_FUNC); else a plain label */
  SYM_GLOBAL = 1u << 1,   /* global or weak binding; else local (static) */
  SYM_WEAK = 1u << 2,     /* weak binding */
  SYM_SECNAME = 1u << 3,  /* map files: named after its input section .text.NAME */
  SYM_ASSIGNED = 1u << 4, /* map files: defined by a linker-script assignment or --defsym */
  SYM_HIDDEN = 1u << 5,   /* ELF: hidden or internal visibility (not exported from a shared object) */
  /* set by sym_table_finish */
  SYM_CLIPPED = 1u << 8,  /* the declared size was cut short by the next function or the section end */
};

/* A region functions may not cross: an executable ELF section, or a text
 * input section of a map file. */
typedef struct sym_section {
  char *name; /* the output section, e.g. ".text" */
  uint32_t lo, hi; /* [lo, hi) */
} sym_section;

/* One function (after sym_table_finish; before it, one symbol). */
typedef struct sym_entry {
  union {
    uint32_t addr; /* first byte */
    uint32_t lo;   /* the same, as the start of [lo, hi) */
  };
  uint32_t size;   /* the size the source declared; 0 = none given */
  char *name;      /* the primary name */
  uint32_t hi;     /* one past the last byte; set by sym_table_finish */
  unsigned flags;  /* SYM_* */
  int section;     /* index into sym_table.sections; -1 = not known */
  char **aliases;  /* the other names of this address, sorted; set by sym_table_finish */
  size_t naliases;
} sym_entry;

/* A name that starts no function: a label inside a sized function, or a
 * symbol whose range would be empty (e.g. one at the very end of .text). */
typedef struct sym_label {
  uint32_t addr;
  char *name;
} sym_label;

typedef struct sym_table {
  sym_entry *v; /* functions, sorted by lo (symbols, before finish) */
  size_t n, cap;
  sym_section *sections;
  size_t nsections, sections_cap;
  sym_label *labels;
  size_t nlabels, labels_cap;
} sym_table;

void sym_table_init(sym_table *t);
void sym_table_free(sym_table *t);

/* Adds one symbol: a function of declared size `size` (0 = unknown) whose
 * section is not known. Returns 0, or -1 when out of memory. */
int sym_table_add(sym_table *t, uint32_t addr, uint32_t size, const char *name);
/* The same with SYM_* flags and a section index (-1 = not known). */
int sym_table_add_sym(sym_table *t, uint32_t addr, uint32_t size, const char *name, unsigned flags, int section);
/* Registers a section [lo, hi); returns its index, or -1 when out of memory. */
int sym_table_add_section(sym_table *t, const char *name, uint32_t lo, uint32_t hi);

/*
 * Turns the symbols into functions; call after adding (again after adding
 * more). Symbols at one address become one function: the primary name is
 * the best of them (declared size > function type > not assigned by the
 * linker script > global > weak > local > default visibility > hidden;
 * then a name is preferred to one made from it by a prefix, such as
 * libgcc's __hidden___udivsi3 for __udivsi3; then fewer leading
 * underscores > alphabetical), the rest are its aliases. Ranges:
 *  - a declared size gives [lo, lo + size);
 *  - without one, the range reaches to the next function or the end of
 *    the section, whichever comes first;
 *  - a symbol without size inside a sized function is a label of that
 *    function, not a function; so is a symbol whose range is empty;
 *  - nothing crosses its section's end or the next function's start (a
 *    declared size that would is cut short, and marked SYM_CLIPPED).
 * Returns 0, or -1 when out of memory (the table is then left empty).
 */
int sym_table_finish(sym_table *t);

/* The function whose range contains addr, or NULL. Never returns a
 * function that does not contain addr. */
const sym_entry *sym_table_lookup(const sym_table *t, uint32_t addr);
/* The function with this name (primary or alias), or NULL. Linear. */
const sym_entry *sym_table_find(const sym_table *t, const char *name);
/* The name of a function's section, or "" when not known. */
const char *sym_section_name(const sym_table *t, const sym_entry *e);

/* ---- ELF (sym_elf.c) ---- */

/*
 * Adds the function symbols of an ELF file opened with libelf: STT_FUNC
 * symbols and plain labels (STT_NOTYPE) defined in executable sections,
 * global and local, without assembler mapping symbols ($x, $d) and local
 * labels (.L*); registers the executable sections. Returns 1 when the file
 * has a symbol table, 0 when it has none (stripped), -1 on error (err says
 * what, naming `path`). Does not call sym_table_finish.
 */
int sym_table_read_elf(sym_table *t, struct Elf *e, const char *path, tally_error *err);
/* Checks that e is an ELF32 little-endian RISC-V executable. 0 or -1. */
int sym_elf_check(struct Elf *e, const char *path, tally_error *err);
/* The value of the first defined symbol called `name` (of any type). 0 when
 * found, -1 when not. */
int sym_elf_symbol_value(struct Elf *e, const char *name, uint32_t *value);
/*
 * Opens an ELF file, checks it, reads its function symbols and finishes
 * the table. *has_symtab (may be NULL) tells whether it had a symbol
 * table. Returns 0, or -1 with err naming the file.
 */
int sym_table_read_elf_file(sym_table *t, const char *path, bool *has_symtab, tally_error *err);

/* ---- GNU ld map files (sym_map.c) ---- */

/*
 * Adds the functions a GNU ld map file (ld -Map, gcc -Wl,-Map=FILE) names
 * in its text input sections (.text, .text.*, .init, .fini, ...): the
 * symbols listed under them, linker-script assignments that land in them,
 * and, for an input section .text.NAME with no symbol at its start, NAME
 * (what -ffunction-sections gives static functions). Registers each text
 * input section as a section. `name` is used in messages. Returns 0, or -1
 * with err "NAME:LINE: what" for a map that is not one, is truncated, has
 * an address that does not parse or input sections that overlap. Does not
 * call sym_table_finish.
 */
int sym_table_read_map(sym_table *t, FILE *f, const char *name, tally_error *err);
/* Opens and reads a map file and finishes the table. 0 or -1. */
int sym_table_read_map_file(sym_table *t, const char *path, tally_error *err);

#endif
