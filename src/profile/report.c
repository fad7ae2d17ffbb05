/*
 * Profile snapshots for the public API: per-function self totals (sums of
 * per-instruction rows over the function's range), calls and inclusive
 * cycles from the calling-context tree, caller-to-callee arcs, stacks.
 *
 * Inclusive cycles count recursion once: a context adds its total to its
 * function only when no ancestor context is the same function. Arcs follow
 * the same rule per (caller, callee) pair.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static int func_of(const tally_profile *p, uint32_t pc) {
  size_t lo = 0, hi = p->nfuncs_real;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (p->funcs[mid].hi <= pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < p->nfuncs_real && p->funcs[lo].lo <= pc && pc < p->funcs[lo].hi)
    return (int)lo;
  return p->unknown;
}

/* Functions from the symbol table: one per address, ranges up to the next
 * function when the size is unknown; then one "[unknown]" bucket. */
static int build_functions(tally_profile *p, const sym_table *syms, uint32_t code_hi) {
  p->funcs = calloc(syms->n + 1, sizeof *p->funcs);
  p->self_store = calloc((syms->n + 1) * SIG_COUNT, sizeof *p->self_store);
  if (!p->funcs || !p->self_store)
    return -1;
  size_t n = 0;
  for (size_t i = 0; i < syms->n; i++) {
    const sym_entry *e = &syms->v[i];
    if (n && p->funcs[n - 1].lo == e->addr)
      continue; /* an alias of the previous one */
    uint32_t next = code_hi;
    for (size_t j = i + 1; j < syms->n; j++)
      if (syms->v[j].addr > e->addr) { next = syms->v[j].addr; break; }
    uint32_t hi = e->size ? e->addr + e->size : next;
    if (hi <= e->addr)
      continue;
    if (n && p->funcs[n - 1].hi > e->addr) /* overlapping: earlier one ends here */
      p->funcs[n - 1].hi = e->addr;
    p->funcs[n] = (tally_func_profile){.name = e->name, .lo = e->addr, .hi = hi};
    n++;
  }
  p->nfuncs_real = n;
  p->unknown = (int)n;
  p->funcs[n] = (tally_func_profile){.name = "[unknown]"};
  p->nfuncs = n + 1;
  for (size_t i = 0; i < p->nfuncs; i++)
    p->funcs[i].self = p->self_store + i * SIG_COUNT;
  return 0;
}

static void add_rows(tally_profile *p, const prof_state *st) {
  size_t nrows = ((size_t)(st->hi - st->lo) >> 1) + 1;
  for (size_t i = 0; i < nrows; i++) {
    const int64_t *row = st->rows + i * SIG_COUNT;
    uint32_t pc = st->lo + 2 * (uint32_t)i;
    int f = i + 1 == nrows ? p->unknown : func_of(p, pc);
    uint64_t *self = p->self_store + (size_t)f * SIG_COUNT;
    for (int s = 0; s < SIG_COUNT; s++)
      self[s] += (uint64_t)row[s];
    p->funcs[f].samples += st->samples[i];
  }
  for (size_t f = 0; f < p->nfuncs; f++)
    signal_derive(p->self_store + f * SIG_COUNT);
}

/* Index of the (caller, callee) arc, created on first use; -1 if out of memory. */
static long arc_for(tally_profile *p, int caller, int callee) {
  for (size_t i = 0; i < p->narcs; i++)
    if (p->arcs[i].caller == caller && p->arcs[i].callee == callee)
      return (long)i;
  if (p->narcs == p->arcs_cap) {
    size_t cap = p->arcs_cap ? 2 * p->arcs_cap : 64;
    tally_arc *a = realloc(p->arcs, cap * sizeof *a);
    if (!a)
      return -1;
    p->arcs = a;
    p->arcs_cap = cap;
  }
  p->arcs[p->narcs] = (tally_arc){.caller = caller, .callee = callee};
  return (long)p->narcs++;
}

typedef struct walk {
  tally_profile *p;
  uint32_t *active;     /* per function: contexts of it on the current path */
  long *path_arcs;      /* arcs on the current path, for the arc recursion rule */
  size_t depth;
} walk;

static void visit(walk *w, const prof_node *n, int parent_func) {
  tally_profile *p = w->p;
  int f = n->parent ? func_of(p, n->func) : p->root_func;
  if (n->is_trap)
    p->funcs[f].is_handler = 1;
  if (n->parent) {
    p->funcs[f].calls += n->calls;
    long a = arc_for(p, parent_func, f);
    if (a >= 0) {
      p->arcs[a].calls += n->calls;
      bool on_path = false;
      for (size_t i = 0; i < w->depth; i++)
        on_path |= w->path_arcs[i] == a;
      if (!on_path)
        p->arcs[a].inclusive_cycles += n->total_cycles;
    }
    w->path_arcs[w->depth++] = a;
  }
  if (w->active[f]++ == 0)
    p->funcs[f].inclusive_cycles += n->total_cycles;
  for (const prof_node *c = n->first_child; c; c = c->next_sibling)
    visit(w, c, f);
  w->active[f]--;
  if (n->parent)
    w->depth--;
}

static size_t tree_depth(const prof_node *n) {
  size_t d = 0;
  for (const prof_node *c = n->first_child; c; c = c->next_sibling) {
    size_t cd = tree_depth(c);
    if (cd > d)
      d = cd;
  }
  return d + 1;
}

tally_profile *profile_snapshot(prof_state *st, const sym_table *syms, uint32_t entry, uint64_t now,
                                const uint64_t *totals) {
  tally_profile *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->state = st;
  if (build_functions(p, syms, st->hi) != 0) {
    profile_free(p);
    return NULL;
  }
  memcpy(p->totals, totals, sizeof p->totals);
  p->samples_taken = st->samples_taken;
  add_rows(p, st);
  prof_finish(st, now);
  p->root_func = func_of(p, entry);
  size_t depth = tree_depth(&st->root);
  walk w = {.p = p, .active = calloc(p->nfuncs, sizeof *w.active),
            .path_arcs = calloc(depth + 1, sizeof *w.path_arcs)};
  if (!w.active || !w.path_arcs) {
    free(w.active);
    free(w.path_arcs);
    profile_free(p);
    return NULL;
  }
  visit(&w, &st->root, p->root_func);
  free(w.active);
  free(w.path_arcs);
  return p;
}

void profile_free(tally_profile *p) {
  if (!p)
    return;
  free(p->funcs);
  free(p->self_store);
  free(p->arcs);
  free(p);
}

typedef struct stack_walk {
  const tally_profile *p;
  const char **names;
  void (*fn)(void *, const char *const *, size_t, uint64_t);
  void *ctx;
} stack_walk;

static void stack_visit(stack_walk *w, const prof_node *n, size_t depth) {
  int f = n->parent ? func_of(w->p, n->func) : w->p->root_func;
  w->names[depth] = w->p->funcs[f].name;
  if (n->self_cycles)
    w->fn(w->ctx, w->names, depth + 1, n->self_cycles);
  for (const prof_node *c = n->first_child; c; c = c->next_sibling)
    stack_visit(w, c, depth + 1);
}

void profile_stacks(const tally_profile *p, void (*fn)(void *, const char *const *, size_t, uint64_t),
                    void *ctx) {
  size_t depth = tree_depth(&p->state->root);
  stack_walk w = {.p = p, .names = calloc(depth + 1, sizeof(char *)), .fn = fn, .ctx = ctx};
  if (!w.names)
    return;
  stack_visit(&w, &p->state->root, 0);
  free(w.names);
}
