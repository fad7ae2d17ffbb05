/*
 * The function table: symbols in, sorted non-overlapping ranges out
 * (sym_table_finish), and lookups over them. The readers that fill it from
 * files live in sym_elf.c and sym_map.c.
 */
#include <stdlib.h>
#include <string.h>

#include "symtab.h"
#include "../util/array.h"

#define ADDR_END 0xffffffffu /* hi of a range that reaches the end of the address space */

void sym_table_init(sym_table *t) { *t = (sym_table){0}; }

static void free_entry(sym_entry *e) {
  free(e->name);
  for (size_t i = 0; i < e->naliases; i++)
    free(e->aliases[i]);
  free(e->aliases);
}

void sym_table_free(sym_table *t) {
  for (size_t i = 0; i < t->n; i++)
    free_entry(&t->v[i]);
  free(t->v);
  for (size_t i = 0; i < t->nsections; i++)
    free(t->sections[i].name);
  free(t->sections);
  for (size_t i = 0; i < t->nlabels; i++)
    free(t->labels[i].name);
  free(t->labels);
  *t = (sym_table){0};
}

/* Makes room for one more element in a growable array. */
static int grow(void **v, size_t n, size_t *cap, size_t elem) {
  if (n < *cap)
    return 0;
  size_t c = *cap ? *cap * 2 : 64;
  void *p = realloc(*v, c * elem);
  if (!p)
    return -1;
  *v = p;
  *cap = c;
  return 0;
}

int sym_table_add_sym(sym_table *t, uint32_t addr, uint32_t size, const char *name, unsigned flags, int section) {
  if (grow((void **)&t->v, t->n, &t->cap, sizeof *t->v) != 0)
    return -1;
  char *copy = strdup(name);
  if (!copy)
    return -1;
  t->v[t->n++] = (sym_entry){.addr = addr, .size = size, .name = copy, .hi = addr, .flags = flags & ~SYM_CLIPPED,
                             .section = section};
  return 0;
}

int sym_table_add(sym_table *t, uint32_t addr, uint32_t size, const char *name) {
  return sym_table_add_sym(t, addr, size, name, SYM_FUNC | SYM_GLOBAL, -1);
}

int sym_table_add_section(sym_table *t, const char *name, uint32_t lo, uint32_t hi) {
  if (grow((void **)&t->sections, t->nsections, &t->sections_cap, sizeof *t->sections) != 0)
    return -1;
  char *copy = strdup(name);
  if (!copy)
    return -1;
  t->sections[t->nsections] = (sym_section){copy, lo, hi < lo ? lo : hi};
  return (int)t->nsections++;
}

static int add_label(sym_table *t, uint32_t addr, char *name) {
  if (grow((void **)&t->labels, t->nlabels, &t->labels_cap, sizeof *t->labels) != 0)
    return -1;
  t->labels[t->nlabels++] = (sym_label){addr, name};
  return 0;
}

/* ---- choosing the primary name ---- */

static unsigned underscores(const char *s) {
  unsigned n = 0;
  while (s[n] == '_')
    n++;
  return n;
}

/* Lower is better: the order of the rules in symtab.h. */
static int rank(const sym_entry *e) {
  int r = 0;
  if (!e->size) r += 32;
  if (!(e->flags & SYM_FUNC)) r += 16;
  if (e->flags & SYM_ASSIGNED) r += 8;
  if (!(e->flags & SYM_GLOBAL)) r += 4;
  else if (e->flags & SYM_WEAK) r += 2;
  if (e->flags & SYM_HIDDEN) r += 1;
  return r;
}

/* Is `name` made from `base` by a prefix (libgcc's __hidden___udivsi3 from
 * __udivsi3, glibc's __GI_memcpy from memcpy)? */
static bool derived_from(const char *name, const char *base) {
  size_t n = strlen(name), b = strlen(base);
  return n > b && strcmp(name + n - b, base) == 0;
}

static int by_addr_then_rank(const void *a, const void *b) {
  const sym_entry *x = a, *y = b;
  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  int rx = rank(x), ry = rank(y);
  if (rx != ry)
    return rx < ry ? -1 : 1;
  unsigned ux = underscores(x->name), uy = underscores(y->name);
  if (ux != uy)
    return ux < uy ? -1 : 1;
  return strcmp(x->name, y->name);
}

static int by_string(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool has_name(const sym_entry *e, const char *name) {
  if (strcmp(e->name, name) == 0)
    return true;
  for (size_t i = 0; i < e->naliases; i++)
    if (strcmp(e->aliases[i], name) == 0)
      return true;
  return false;
}

/* Moves a name into g's aliases (or frees it if g already has it). */
static int take_alias(sym_entry *g, char *name) {
  if (has_name(g, name)) {
    free(name);
    return 0;
  }
  char **a = realloc(g->aliases, (g->naliases + 1) * sizeof *a);
  if (!a) {
    free(name);
    return -1;
  }
  g->aliases = a;
  g->aliases[g->naliases++] = name;
  return 0;
}

/* Of the run [i, end) at one address, sorted best first, moves to the front
 * the first name that is not made from another name of the same rank. Done
 * here, not in the sort's comparison: "made from" is no total order. */
static void prefer_base_name(sym_table *t, size_t i, size_t end) {
  size_t same = i + 1;
  while (same < end && rank(&t->v[same]) == rank(&t->v[i]))
    same++;
  for (size_t pick = i; pick < same; pick++) {
    bool derived = false;
    for (size_t j = i; j < same && !derived; j++)
      derived = derived_from(t->v[pick].name, t->v[j].name);
    if (derived)
      continue;
    sym_entry tmp = t->v[i];
    t->v[i] = t->v[pick];
    t->v[pick] = tmp;
    return;
  }
}

/* Merges runs of entries at one address into their first (best) entry.
 * Returns the new count, or -1 when out of memory. */
static long group_aliases(sym_table *t) {
  size_t out = 0;
  bool oom = false;
  for (size_t i = 0; i < t->n;) {
    size_t end = i + 1;
    while (end < t->n && t->v[end].addr == t->v[i].addr)
      end++;
    prefer_base_name(t, i, end);
    sym_entry g = t->v[i];
    size_t j = i + 1;
    for (; j < end; j++) {
      sym_entry *o = &t->v[j];
      if (o->size > g.size)
        g.size = o->size; /* the group reaches as far as its longest member says */
      if (g.section < 0)
        g.section = o->section;
      if (take_alias(&g, o->name) != 0)
        oom = true;
      for (size_t k = 0; k < o->naliases; k++)
        if (take_alias(&g, o->aliases[k]) != 0)
          oom = true;
      free(o->aliases);
    }
    if (g.naliases > 1)
      sort_array(g.aliases, g.naliases, sizeof *g.aliases, by_string);
    t->v[out++] = g;
    i = j;
  }
  t->n = out;
  return oom ? -1 : (long)out;
}

static uint32_t section_end(const sym_table *t, const sym_entry *e) {
  if (e->section >= 0 && (size_t)e->section < t->nsections)
    return t->sections[e->section].hi;
  return ADDR_END;
}

/* Declared end, bounded by the section end (64-bit: lo + size may pass 2^32). */
static uint32_t declared_end(const sym_table *t, const sym_entry *e) {
  uint64_t end = (uint64_t)e->lo + e->size;
  uint32_t sec = section_end(t, e);
  return end > sec ? sec : (uint32_t)end;
}

/* Turns a function and its aliases into labels; -1 when out of memory. */
static int demote(sym_table *t, sym_entry *e) {
  int rc = 0;
  if (add_label(t, e->addr, e->name) != 0) {
    free(e->name);
    rc = -1;
  }
  for (size_t k = 0; k < e->naliases; k++)
    if (add_label(t, e->addr, e->aliases[k]) != 0) {
      free(e->aliases[k]);
      rc = -1;
    }
  free(e->aliases);
  return rc;
}

int sym_table_finish(sym_table *t) {
  if (t->n == 0)
    return 0;
  sort_array(t->v, t->n, sizeof *t->v, by_addr_then_rank);
  int rc = group_aliases(t) < 0 ? -1 : 0;

  /* Labels inside sized functions and empty ranges go; the rest keep
   * their place. `cover` is where the sized functions seen so far end. */
  size_t out = 0;
  uint32_t cover = 0;
  bool covering = false;
  for (size_t i = 0; i < t->n; i++) {
    sym_entry *e = &t->v[i];
    bool inner = !e->size && covering && e->lo < cover;
    bool empty = e->lo >= section_end(t, e) || (e->size && declared_end(t, e) <= e->lo);
    if (inner || empty) {
      if (demote(t, e) != 0)
        rc = -1;
      continue;
    }
    if (e->size) {
      uint32_t end = declared_end(t, e);
      if (!covering || end > cover)
        cover = end;
      covering = true;
    }
    t->v[out++] = *e;
  }
  t->n = out;

  /* Ranges: declared, or up to the next function; never past the section
   * end or the next function's start. */
  for (size_t i = 0; i < t->n; i++) {
    sym_entry *e = &t->v[i];
    uint32_t next = i + 1 < t->n ? t->v[i + 1].lo : ADDR_END;
    uint32_t sec = section_end(t, e);
    uint32_t limit = next < sec ? next : sec;
    e->flags &= ~SYM_CLIPPED;
    if (e->size) {
      uint64_t want = (uint64_t)e->lo + e->size;
      e->hi = want > limit ? limit : (uint32_t)want;
      if (want > limit)
        e->flags |= SYM_CLIPPED;
    } else {
      e->hi = limit;
    }
  }

  if (rc != 0)
    sym_table_free(t);
  return rc;
}

const sym_entry *sym_table_lookup(const sym_table *t, uint32_t addr) {
  size_t lo = 0, hi = t->n;
  while (lo < hi) { /* first function with lo > addr */
    size_t mid = lo + (hi - lo) / 2;
    if (t->v[mid].lo <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0)
    return NULL;
  const sym_entry *e = &t->v[lo - 1];
  return addr < e->hi ? e : NULL;
}

const sym_entry *sym_table_find(const sym_table *t, const char *name) {
  for (size_t i = 0; i < t->n; i++)
    if (has_name(&t->v[i], name))
      return &t->v[i];
  return NULL;
}

const char *sym_section_name(const sym_table *t, const sym_entry *e) {
  if (e->section >= 0 && (size_t)e->section < t->nsections)
    return t->sections[e->section].name;
  return "";
}
