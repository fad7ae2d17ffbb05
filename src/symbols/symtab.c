/* Address-sorted symbol table with binary-search lookup. */
#include <stdlib.h>
#include <string.h>

#include "symtab.h"

void sym_table_init(sym_table *t) { *t = (sym_table){0}; }

void sym_table_free(sym_table *t) {
  for (size_t i = 0; i < t->n; i++)
    free(t->v[i].name);
  free(t->v);
  *t = (sym_table){0};
}

int sym_table_add(sym_table *t, uint32_t addr, uint32_t size, const char *name) {
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 256;
    sym_entry *v = realloc(t->v, cap * sizeof *v);
    if (!v)
      return -1;
    t->v = v;
    t->cap = cap;
  }
  char *copy = strdup(name);
  if (!copy)
    return -1;
  t->v[t->n++] = (sym_entry){addr, size, copy};
  return 0;
}

static int by_addr(const void *a, const void *b) {
  const sym_entry *x = a, *y = b;
  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  /* sized symbols before unsized aliases at the same address */
  if ((x->size == 0) != (y->size == 0))
    return x->size == 0 ? 1 : -1;
  return strcmp(x->name, y->name);
}

void sym_table_finish(sym_table *t) {
  if (t->n)
    qsort(t->v, t->n, sizeof *t->v, by_addr);
}

const sym_entry *sym_table_lookup(const sym_table *t, uint32_t addr) {
  size_t lo = 0, hi = t->n;
  while (lo < hi) { /* first entry with v.addr > addr */
    size_t mid = lo + (hi - lo) / 2;
    if (t->v[mid].addr <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0)
    return NULL;
  size_t i = lo - 1;
  while (i > 0 && t->v[i - 1].addr == t->v[i].addr) /* prefer the sized alias */
    i--;
  const sym_entry *e = &t->v[i];
  if (e->size)
    return addr - e->addr < e->size ? e : NULL;
  return e;
}
