/*
 * Function symbols of the loaded program, sorted by address, for
 * "symbol+offset" in reports. Filled from an ELF symbol table.
 */
#ifndef TALLY_SYMBOLS_SYMTAB_H
#define TALLY_SYMBOLS_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct sym_entry {
  uint32_t addr, size; /* size 0 = unknown: reaches to the next symbol */
  char *name;
} sym_entry;

typedef struct sym_table {
  sym_entry *v;
  size_t n, cap;
} sym_table;

void sym_table_init(sym_table *t);
void sym_table_free(sym_table *t);
int sym_table_add(sym_table *t, uint32_t addr, uint32_t size, const char *name);
/* Sorts by address and drops exact duplicates; call once after adding. */
void sym_table_finish(sym_table *t);
/* The symbol covering addr, or NULL. */
const sym_entry *sym_table_lookup(const sym_table *t, uint32_t addr);

#endif
