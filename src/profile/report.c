/*
 * Profile snapshots for the public API: per-function self totals (sums of
 * per-instruction rows over the function's range), calls and inclusive
 * cycles from the calling-context tree, caller-to-callee arcs with their
 * call sites, stacks, and per-source-line rows.
 *
 * The functions are the symbol table's, range for range and name for name
 * (src/symbols decides both), so a profile and `tally symbols` cannot
 * disagree about which function an address belongs to.
 *
 * Inclusive counts (cycles, and every other signal from the contexts'
 * own counts, prof_node.sig) count recursion once: a context adds its
 * total to its function only when no ancestor context is the same
 * function. Arcs follow the same rule per (caller, callee) pair, call
 * sites per (arc, site).
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "../util/array.h"

/* The function of pc: its index in the symbol table, or the "[unknown]"
 * bucket. */
static int func_of(const tally_profile *p, uint32_t pc) {
  const sym_entry *e = sym_table_lookup(p->syms, pc);
  return e ? (int)(e - p->syms->v) : p->unknown;
}

/* One function per symbol-table entry, then one "[unknown]" bucket. */
static int build_functions(tally_profile *p, const sym_table *syms) {
  p->syms = syms;
  p->funcs = calloc(syms->n + 1, sizeof *p->funcs);
  p->self_store = calloc((syms->n + 1) * SIG_COUNT, sizeof *p->self_store);
  p->incl_store = calloc((syms->n + 1) * SIG_COUNT, sizeof *p->incl_store);
  if (!p->funcs || !p->self_store || !p->incl_store)
    return -1;
  for (size_t i = 0; i < syms->n; i++)
    p->funcs[i] = (tally_func_profile){.name = syms->v[i].name, .lo = syms->v[i].lo, .hi = syms->v[i].hi};
  size_t n = syms->n;
  p->nfuncs_real = n;
  p->unknown = (int)n;
  p->funcs[n] = (tally_func_profile){.name = "[unknown]"};
  p->nfuncs = n + 1;
  for (size_t i = 0; i < p->nfuncs; i++) {
    p->funcs[i].self = p->self_store + i * SIG_COUNT;
    p->funcs[i].inclusive = p->incl_store + i * SIG_COUNT;
  }
  return 0;
}

static size_t row_count(const prof_state *st) { return ((size_t)(st->hi - st->lo) >> 1) + 1; }

/* The function of row i; the last row ("elsewhere") is "[unknown]". */
static int row_func(const tally_profile *p, const prof_state *st, size_t i) {
  return i + 1 == row_count(st) ? p->unknown : func_of(p, st->lo + 2 * (uint32_t)i);
}

static void add_rows(tally_profile *p, const prof_state *st) {
  size_t nrows = row_count(st);
  for (size_t i = 0; i < nrows; i++) {
    const int64_t *row = st->rows + i * SIG_COUNT;
    int f = row_func(p, st, i);
    uint64_t *self = p->self_store + (size_t)f * SIG_COUNT;
    for (int s = 0; s < SIG_COUNT; s++)
      self[s] += (uint64_t)row[s];
    p->funcs[f].samples += st->samples[i];
  }
  for (size_t f = 0; f < p->nfuncs; f++)
    signal_derive(p->self_store + f * SIG_COUNT);
}

/* ---- arcs and call sites ---- */

typedef struct site_acc {
  long arc;
  uint32_t pc;
  uint64_t calls, inclusive_cycles;
  long next;            /* the arc's next site, -1 = none */
  uint64_t inclusive[SIG_COUNT];
} site_acc;

typedef struct walk {
  tally_profile *p;
  uint32_t *active;     /* per function: contexts of it on the current path */
  long *path_arcs;      /* arcs on the current path, for the arc recursion rule */
  long *path_sites;     /* the same for sites */
  size_t depth;
  uint64_t *tot;        /* per tree level being visited: the subtree's signal totals so far */
  site_acc *sites;
  size_t nsites, sites_cap;
  long *site_head;      /* per arc: its first site, -1 = none */
  size_t heads_cap;
  long *arc_tab;        /* 1 + arc index by (caller, callee), 0 = free: open addressing, at most half full */
  size_t arc_tab_cap;
  bool oom;
} walk;

static size_t arc_hash(int caller, int callee, size_t mask) {
  uint64_t h = (uint64_t)(uint32_t)caller * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uint32_t)callee * 0xC2B2AE3D27D4EB4Full;
  return (size_t)(h ^ (h >> 29)) & mask;
}

/* The table's slot for (caller, callee): the arc's, or the free one where it goes. */
static size_t arc_slot(const walk *w, int caller, int callee) {
  size_t mask = w->arc_tab_cap - 1, j = arc_hash(caller, callee, mask);
  for (long a; (a = w->arc_tab[j]); j = (j + 1) & mask)
    if (w->p->arcs[a - 1].caller == caller && w->p->arcs[a - 1].callee == callee)
      break;
  return j;
}

static bool arc_tab_grow(walk *w) {
  size_t cap = w->arc_tab_cap ? 2 * w->arc_tab_cap : 256;
  long *old = w->arc_tab;
  size_t old_cap = w->arc_tab_cap;
  if (!(w->arc_tab = calloc(cap, sizeof *w->arc_tab)))
    return w->arc_tab = old, false;
  w->arc_tab_cap = cap;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i])
      w->arc_tab[arc_slot(w, w->p->arcs[old[i] - 1].caller, w->p->arcs[old[i] - 1].callee)] = old[i];
  free(old);
  return true;
}

/* Index of the (caller, callee) arc, created on first use; -1 if out of
 * memory. A hash table: a caller of N distinct callees costs N lookups,
 * not the N^2 of a scan over the arcs. */
static long arc_for(walk *w, int caller, int callee) {
  tally_profile *p = w->p;
  if (2 * (p->narcs + 1) > w->arc_tab_cap && !arc_tab_grow(w))
    return -1;
  size_t j = arc_slot(w, caller, callee);
  if (w->arc_tab[j])
    return w->arc_tab[j] - 1;
  if (p->narcs == p->arcs_cap) {
    size_t cap = p->arcs_cap ? 2 * p->arcs_cap : 64;
    tally_arc *a = realloc(p->arcs, cap * sizeof *a);
    if (!a)
      return -1;
    p->arcs = a;
    uint64_t *v = realloc(p->arc_store, cap * SIG_COUNT * sizeof *v);
    if (!v)
      return -1;
    p->arc_store = v;
    p->arcs_cap = cap;
  }
  if (p->narcs == w->heads_cap) {
    size_t cap = w->heads_cap ? 2 * w->heads_cap : 64;
    long *h = realloc(w->site_head, cap * sizeof *h);
    if (!h)
      return -1;
    w->site_head = h;
    w->heads_cap = cap;
  }
  w->site_head[p->narcs] = -1;
  p->arcs[p->narcs] = (tally_arc){.caller = caller, .callee = callee};
  w->arc_tab[j] = (long)p->narcs + 1;
  memset(p->arc_store + p->narcs * SIG_COUNT, 0, SIG_COUNT * sizeof *p->arc_store);
  return (long)p->narcs++;
}

/* Index of the arc's site at pc, created on first use; -1 if out of memory. */
static long site_for(walk *w, long arc, uint32_t pc) {
  for (long s = w->site_head[arc]; s >= 0; s = w->sites[s].next)
    if (w->sites[s].pc == pc)
      return s;
  if (w->nsites == w->sites_cap) {
    size_t cap = w->sites_cap ? 2 * w->sites_cap : 64;
    site_acc *v = realloc(w->sites, cap * sizeof *v);
    if (!v)
      return -1;
    w->sites = v;
    w->sites_cap = cap;
  }
  w->sites[w->nsites] = (site_acc){.arc = arc, .pc = pc, .next = w->site_head[arc]};
  w->site_head[arc] = (long)w->nsites;
  return (long)w->nsites++;
}

static bool on_path(const long *path, size_t depth, long id) {
  for (size_t i = 0; i < depth; i++)
    if (path[i] == id)
      return true;
  return false;
}

static void add_signals(uint64_t *to, const uint64_t *v) {
  for (int s = 0; s < SIG_COUNT; s++)
    to[s] += v[s];
}

/* Visits the context n at tree level `level`: its calls and cycles before
 * its children, its subtree's signal totals (w->tot at its level) after
 * them. */
static void visit_task(walk *w, const prof_node *n, int parent_func, size_t level);

static void visit(walk *w, const prof_node *n, int parent_func, size_t level) {
  tally_profile *p = w->p;
  if (prof_node_task(p->state, n)) {
    visit_task(w, n, parent_func, level);
    return;
  }
  int f = n->parent ? func_of(p, n->func) : p->root_func;
  long a = -1, s = -1;
  bool arc_counts = false, site_counts = false;
  if (n->is_trap)
    p->funcs[f].is_handler = 1;
  if (n->parent) {
    p->funcs[f].calls += n->calls;
    a = arc_for(w, parent_func, f);
    s = a >= 0 ? site_for(w, a, n->call_site) : -1;
    w->oom |= a < 0 || s < 0;
    if (a >= 0) {
      p->arcs[a].calls += n->calls;
      if ((arc_counts = !on_path(w->path_arcs, w->depth, a)))
        p->arcs[a].inclusive_cycles += n->total_cycles;
    }
    if (s >= 0) {
      w->sites[s].calls += n->calls;
      if ((site_counts = !on_path(w->path_sites, w->depth, s)))
        w->sites[s].inclusive_cycles += n->total_cycles;
    }
    w->path_arcs[w->depth] = a;
    w->path_sites[w->depth++] = s;
  }
  bool func_counts = w->active[f]++ == 0;
  if (func_counts)
    p->funcs[f].inclusive_cycles += n->total_cycles;
  uint64_t *tot = w->tot + level * SIG_COUNT;
  for (int sg = 0; sg < SIG_COUNT; sg++)
    tot[sg] = prof_context_signal(sg) ? (uint64_t)n->sig[sg] : 0;
  for (const prof_node *c = n->first_child; c; c = c->next_sibling) {
    visit(w, c, f, level + 1);
    add_signals(tot, w->tot + (level + 1) * SIG_COUNT);
  }
  if (func_counts)
    add_signals(p->incl_store + (size_t)f * SIG_COUNT, tot);
  if (arc_counts)
    add_signals(p->arc_store + (size_t)a * SIG_COUNT, tot);
  if (site_counts)
    add_signals(w->sites[s].inclusive, tot);
  w->active[f]--;
  if (n->parent)
    w->depth--;
}

/* A task's node (tasks.c) is no function: its children are seen as called
 * by the function above it, its own counts go to no function's
 * inclusive counts but the root's. */
static void visit_task(walk *w, const prof_node *n, int parent_func, size_t level) {
  uint64_t *tot = w->tot + level * SIG_COUNT;
  for (int sg = 0; sg < SIG_COUNT; sg++)
    tot[sg] = prof_context_signal(sg) ? (uint64_t)n->sig[sg] : 0;
  for (const prof_node *c = n->first_child; c; c = c->next_sibling) {
    visit(w, c, parent_func, level + 1);
    add_signals(tot, w->tot + (level + 1) * SIG_COUNT);
  }
}

static int by_arc_then_pc(const void *a, const void *b) {
  const site_acc *x = a, *y = b;
  if (x->arc != y->arc)
    return x->arc < y->arc ? -1 : 1;
  return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* Hands the sites to the arcs: one array, grouped by arc, by pc within. */
static int attach_sites(tally_profile *p, walk *w) {
  sort_array(w->sites, w->nsites, sizeof *w->sites, by_arc_then_pc);
  p->sites = malloc((w->nsites ? w->nsites : 1) * sizeof *p->sites);
  p->site_store = malloc((w->nsites ? w->nsites : 1) * SIG_COUNT * sizeof *p->site_store);
  if (!p->sites || !p->site_store)
    return -1;
  for (size_t i = 0; i < w->nsites; i++) {
    const site_acc *s = &w->sites[i];
    uint64_t *incl = p->site_store + i * SIG_COUNT;
    memcpy(incl, s->inclusive, sizeof s->inclusive);
    signal_derive(incl);
    p->sites[i] = (tally_call_site){.pc = s->pc, .calls = s->calls, .inclusive_cycles = s->inclusive_cycles,
                                    .inclusive = incl};
    tally_arc *a = &p->arcs[s->arc];
    if (!a->nsites)
      a->sites = &p->sites[i];
    a->nsites++;
  }
  p->nsites = w->nsites;
  return 0;
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

/* Points the functions and arcs at their inclusive counts, with the
 * derived signals ("stall") filled. */
static void finish_inclusive(tally_profile *p) {
  for (size_t i = 0; i < p->nfuncs; i++)
    signal_derive(p->incl_store + i * SIG_COUNT);
  for (size_t i = 0; i < p->narcs; i++) {
    p->arcs[i].inclusive = p->arc_store + i * SIG_COUNT;
    signal_derive(p->arc_store + i * SIG_COUNT);
  }
}

static int walk_tree(tally_profile *p, const prof_state *st) {
  size_t depth = tree_depth(&st->root);
  walk w = {.p = p, .active = calloc(p->nfuncs, sizeof *w.active),
            .path_arcs = calloc(depth + 1, sizeof *w.path_arcs),
            .path_sites = calloc(depth + 1, sizeof *w.path_sites),
            .tot = malloc((depth + 1) * SIG_COUNT * sizeof *w.tot)};
  int rc = -1;
  if (w.active && w.path_arcs && w.path_sites && w.tot) {
    visit(&w, &st->root, p->root_func, 0);
    rc = w.oom ? -1 : attach_sites(p, &w);
  }
  if (rc == 0)
    finish_inclusive(p);
  free(w.tot);
  free(w.active);
  free(w.path_arcs);
  free(w.path_sites);
  free(w.sites);
  free(w.site_head);
  free(w.arc_tab);
  return rc;
}

/* ---- source lines ---- */

typedef struct line_key {
  int func;
  const char *file;     /* NULL: no line information */
  uint32_t line;
  size_t row;           /* the per-instruction row */
} line_key;

static int by_line_key(const void *a, const void *b) {
  const line_key *x = a, *y = b;
  if (x->func != y->func)
    return x->func < y->func ? -1 : 1;
  if (!x->file != !y->file)
    return x->file ? -1 : 1; /* "no line information" last */
  int c = x->file ? strcmp(x->file, y->file) : 0;
  if (c)
    return c;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return x->row < y->row ? -1 : x->row > y->row;
}

static bool row_used(const prof_state *st, size_t i) {
  if (st->samples[i])
    return true;
  for (int s = 0; s < SIG_COUNT; s++)
    if (st->rows[i * SIG_COUNT + s])
      return true;
  return false;
}

/* One row per (function, file, line) over the instructions that ran: the
 * same per-instruction rows and the same function of each pc as the
 * function totals, so the rows of a function add up to its self counts. */
static int build_lines(tally_profile *p, const prof_state *st, const sym_lines *lines) {
  size_t nrows = row_count(st), n = 0;
  line_key *keys = malloc(nrows * sizeof *keys);
  if (!keys)
    return -1;
  for (size_t i = 0; i < nrows; i++) {
    if (!row_used(st, i))
      continue;
    const sym_line *r = i + 1 < nrows ? sym_lines_lookup(lines, st->lo + 2 * (uint32_t)i) : NULL;
    keys[n++] = (line_key){.func = row_func(p, st, i), .file = r ? sym_lines_file(lines, r) : NULL,
                           .line = r ? r->line : 0, .row = i};
  }
  sort_array(keys, n, sizeof *keys, by_line_key);
  size_t groups = 0;
  for (size_t k = 0; k < n; k++)
    groups += k == 0 || by_line_key(&(line_key){keys[k].func, keys[k].file, keys[k].line, 0},
                                     &(line_key){keys[k - 1].func, keys[k - 1].file, keys[k - 1].line, 0}) != 0;
  p->lines = calloc(groups ? groups : 1, sizeof *p->lines);
  p->line_store = calloc((groups ? groups : 1) * SIG_COUNT, sizeof *p->line_store);
  if (!p->lines || !p->line_store) {
    free(keys);
    return -1;
  }
  size_t g = 0;
  for (size_t k = 0; k < n; k++) {
    const line_key *key = &keys[k];
    bool fresh = g == 0 || p->lines[g - 1].func != key->func || !p->lines[g - 1].file != !key->file ||
                 p->lines[g - 1].line != key->line || (key->file && strcmp(p->lines[g - 1].file, key->file) != 0);
    if (fresh) {
      p->lines[g] = (tally_line_profile){.file = key->file, .line = key->line, .func = key->func,
                                         .self = p->line_store + g * SIG_COUNT};
      g++;
    }
    tally_line_profile *lp = &p->lines[g - 1];
    uint64_t *self = p->line_store + (g - 1) * SIG_COUNT;
    for (int s = 0; s < SIG_COUNT; s++)
      self[s] += (uint64_t)st->rows[key->row * SIG_COUNT + s];
    lp->samples += st->samples[key->row];
  }
  for (size_t i = 0; i < g; i++)
    signal_derive(p->line_store + i * SIG_COUNT);
  p->nlines = g;
  free(keys);
  return 0;
}

/* ---- snapshots ---- */

tally_profile *profile_snapshot(prof_state *st, const sym_table *syms, const sym_lines *lines, uint32_t entry,
                                uint64_t now, const uint64_t *totals) {
  tally_profile *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->state = st;
  p->line_table = lines;
  if (build_functions(p, syms) != 0) {
    profile_free(p);
    return NULL;
  }
  memcpy(p->totals, totals, sizeof p->totals);
  p->samples_taken = st->samples_taken;
  prof_settle_side(st);
  add_rows(p, st);
  prof_finish(st, now);
  p->root_func = func_of(p, entry);
  if (walk_tree(p, st) != 0 || (lines && build_lines(p, st, lines) != 0) || profile_build_slices(p, st, now) != 0 ||
      profile_build_tasks(p, st, now) != 0) {
    profile_free(p);
    return NULL;
  }
  return p;
}

void profile_free(tally_profile *p) {
  if (!p)
    return;
  free(p->funcs);
  free(p->self_store);
  free(p->incl_store);
  free(p->arcs);
  free(p->arc_store);
  free(p->sites);
  free(p->site_store);
  free(p->lines);
  free(p->line_store);
  free(p->slices);
  free(p->tasks);
  free(p->task_names);
  free(p->task_funcs);
  free(p->task_store);
  free(p->task_changes);
  free(p);
}

int profile_func_of(const tally_profile *p, uint32_t pc) { return func_of(p, pc); }

typedef struct stack_walk {
  const tally_profile *p;
  const char **names;
  void (*fn)(void *, const char *const *, size_t, uint64_t);
  void (*ctx_fn)(void *, const char *const *, size_t, uint64_t, const uint64_t *); /* or this */
  void *ctx;
} stack_walk;

static void stack_emit(stack_walk *w, const prof_node *n, size_t depth) {
  if (w->ctx_fn) {
    uint64_t v[SIG_COUNT];
    for (int s = 0; s < SIG_COUNT; s++)
      v[s] = prof_context_signal(s) ? (uint64_t)n->sig[s] : 0;
    signal_derive(v);
    w->ctx_fn(w->ctx, w->names, depth, n->calls, v);
  } else if (n->self_cycles) {
    w->fn(w->ctx, w->names, depth, n->self_cycles);
  }
}

static void stack_visit(stack_walk *w, const prof_node *n, size_t depth) {
  const prof_task *tk = prof_node_task(w->p->state, n);
  if (!n->parent && w->p->state->tasks) { /* the tasks are the roots */
    w->names[0] = w->p->funcs[w->p->root_func].name;
    if (n->self_cycles)
      stack_emit(w, n, 1);
    for (const prof_node *c = n->first_child; c; c = c->next_sibling)
      stack_visit(w, c, 0);
    return;
  }
  int f = n->parent ? func_of(w->p, n->func) : w->p->root_func;
  w->names[depth] = tk ? tk->name : w->p->funcs[f].name;
  stack_emit(w, n, depth + 1);
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

void tally_profile_contexts(const tally_profile *p,
                            void (*fn)(void *ctx, const char *const *names, size_t depth, uint64_t calls,
                                       const uint64_t *counts),
                            void *ctx) {
  size_t depth = tree_depth(&p->state->root);
  stack_walk w = {.p = p, .names = calloc(depth + 1, sizeof(char *)), .ctx_fn = fn, .ctx = ctx};
  if (!w.names)
    return;
  stack_visit(&w, &p->state->root, 0);
  free(w.names);
}
