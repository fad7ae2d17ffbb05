/*
 * The tasks of a profile snapshot (tally_profile_tasks): per task, its
 * total of every signal (the contexts under its node), and per function
 * within it the self counts (its contexts' own), calls and inclusive
 * counts (its contexts' subtrees, recursion counted once, as for the
 * whole program in report.c).
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

typedef struct task_walk {
  const tally_profile *p;
  uint32_t *active;     /* per function: its contexts on the current path */
  uint64_t *self, *incl, *calls; /* per function (SIG_COUNT each for self and incl) */
  uint64_t *tot;        /* per tree level: the subtree's totals so far */
} task_walk;

static void add(uint64_t *to, const uint64_t *v) {
  for (int s = 0; s < SIG_COUNT; s++)
    to[s] += v[s];
}

/* Visits n at `level` as function f (the task's node: the function its
 * code began in, with no call). */
static void visit(task_walk *w, const prof_node *n, int f, size_t level) {
  uint64_t *tot = w->tot + level * SIG_COUNT;
  for (int s = 0; s < SIG_COUNT; s++)
    tot[s] = prof_context_signal(s) ? (uint64_t)n->sig[s] : 0;
  add(w->self + (size_t)f * SIG_COUNT, tot);
  if (level > 0)
    w->calls[f] += n->calls;
  bool counts = w->active[f]++ == 0;
  for (const prof_node *c = n->first_child; c; c = c->next_sibling) {
    visit(w, c, profile_func_of(w->p, c->func), level + 1);
    add(tot, w->tot + (level + 1) * SIG_COUNT);
  }
  if (counts)
    add(w->incl + (size_t)f * SIG_COUNT, tot);
  w->active[f]--;
}

static size_t depth_of(const prof_node *n) {
  size_t d = 0;
  for (const prof_node *c = n->first_child; c; c = c->next_sibling) {
    size_t cd = depth_of(c);
    if (cd > d)
      d = cd;
  }
  return d + 1;
}

static bool used(const task_walk *w, size_t f) {
  if (w->calls[f])
    return true;
  for (int s = 0; s < SIG_COUNT; s++)
    if (w->self[f * SIG_COUNT + s] || w->incl[f * SIG_COUNT + s])
      return true;
  return false;
}

/* One task: its totals and its functions, appended to the snapshot's stores. */
static int build_task(tally_profile *p, const prof_task *tk, size_t idx, size_t *nfuncs_out, uint64_t **store,
                      size_t *store_n, size_t *store_cap, tally_task_func **funcs, size_t *funcs_n,
                      size_t *funcs_cap) {
  size_t nf = p->nfuncs, depth = depth_of(tk->node);
  task_walk w = {.p = p, .active = calloc(nf, sizeof *w.active), .self = calloc(nf * SIG_COUNT, sizeof *w.self),
                 .incl = calloc(nf * SIG_COUNT, sizeof *w.incl), .calls = calloc(nf, sizeof *w.calls),
                 .tot = calloc((depth + 1) * SIG_COUNT, sizeof *w.tot)};
  int rc = -1;
  if (!w.active || !w.self || !w.incl || !w.calls || !w.tot)
    goto out;
  int f0 = tk->first_pc ? profile_func_of(p, tk->first_pc) : p->unknown;
  visit(&w, tk->node, f0, 0);
  size_t used_n = 0;
  for (size_t f = 0; f < nf; f++)
    used_n += used(&w, f);
  size_t need = SIG_COUNT * (1 + 2 * used_n);
  if (*store_n + need > *store_cap) {
    size_t cap = 2 * (*store_n + need);
    uint64_t *s = realloc(*store, cap * sizeof *s);
    if (!s)
      goto out;
    *store = s, *store_cap = cap;
  }
  if (*funcs_n + used_n > *funcs_cap) {
    size_t cap = 2 * (*funcs_n + used_n) + 1;
    tally_task_func *s = realloc(*funcs, cap * sizeof *s);
    if (!s)
      goto out;
    *funcs = s, *funcs_cap = cap;
  }
  /* offsets now, pointers once the stores stop moving */
  uint64_t *tot = *store + *store_n;
  memcpy(tot, w.tot, SIG_COUNT * sizeof *tot);
  signal_derive(tot);
  *store_n += SIG_COUNT;
  for (size_t f = 0; f < nf; f++) {
    if (!used(&w, f))
      continue;
    uint64_t *self = *store + *store_n, *incl = self + SIG_COUNT;
    memcpy(self, w.self + f * SIG_COUNT, SIG_COUNT * sizeof *self);
    memcpy(incl, w.incl + f * SIG_COUNT, SIG_COUNT * sizeof *incl);
    signal_derive(self);
    signal_derive(incl);
    (*funcs)[(*funcs_n)++] = (tally_task_func){.func = (int)f, .calls = w.calls[f],
                                               .self = (const uint64_t *)(uintptr_t)(self - *store),
                                               .inclusive = (const uint64_t *)(uintptr_t)(incl - *store)};
    *store_n += 2 * SIG_COUNT;
  }
  *nfuncs_out = used_n;
  (void)idx;
  rc = 0;
out:
  free(w.active);
  free(w.self);
  free(w.incl);
  free(w.calls);
  free(w.tot);
  return rc;
}

int profile_build_tasks(tally_profile *p, const prof_state *st, uint64_t now) {
  const prof_tasks *t = st->tasks;
  p->end_cycle = now;
  if (!t)
    return 0;
  snprintf(p->tasks_source, sizeof p->tasks_source, "%s", t->source);
  for (size_t i = 0; i < t->nnotes; i++) {
    snprintf(p->task_notes[i], sizeof p->task_notes[i], "%s", t->notes[i]);
    p->task_note_ptrs[i] = p->task_notes[i];
  }
  p->ntask_notes = t->nnotes;
  p->task_notes_dropped = t->notes_dropped;
  p->tasks = calloc(t->n + 1, sizeof *p->tasks);
  p->task_names = calloc(t->n + 1, sizeof *p->task_names);
  p->task_changes = malloc((t->nlog + 1) * sizeof *p->task_changes);
  if (!p->tasks || !p->task_names || !p->task_changes)
    return -1;
  for (size_t i = 0; i < t->nlog; i++)
    p->task_changes[i] = (tally_task_change){t->log[i].cycle, t->log[i].task};
  p->ntask_changes = t->nlog;
  p->task_changes_cut = t->log_full;
  if (t->log_full) /* the timeline ends where the log did */
    p->end_cycle = t->log_full_cycle;
  size_t store_n = 0, store_cap = 0, funcs_n = 0, funcs_cap = 0;
  size_t *first = calloc(t->n + 1, sizeof *first), *count = calloc(t->n + 1, sizeof *count);
  size_t *tot_at = calloc(t->n + 1, sizeof *tot_at);
  int rc = first && count && tot_at ? 0 : -1;
  for (size_t i = 0; i < t->n && rc == 0; i++) {
    first[i] = funcs_n;
    tot_at[i] = store_n;
    rc = build_task(p, &t->v[i], i, &count[i], &p->task_store, &store_n, &store_cap, &p->task_funcs, &funcs_n,
                    &funcs_cap);
  }
  if (rc == 0) {
    for (size_t k = 0; k < funcs_n; k++) { /* offsets into pointers */
      p->task_funcs[k].self = p->task_store + (uintptr_t)p->task_funcs[k].self;
      p->task_funcs[k].inclusive = p->task_store + (uintptr_t)p->task_funcs[k].inclusive;
    }
    for (size_t i = 0; i < t->n; i++) {
      snprintf(p->task_names[i], sizeof p->task_names[i], "%s", t->v[i].name);
      p->tasks[i] = (tally_task_profile){.name = p->task_names[i], .tcb = t->v[i].tcb, .is_trap = t->v[i].is_trap,
                                         .switches = t->v[i].switches, .total = p->task_store + tot_at[i],
                                         .funcs = p->task_funcs + first[i], .nfuncs = count[i]};
    }
    p->ntasks = t->n;
  }
  free(first);
  free(count);
  free(tot_at);
  return rc;
}

size_t tally_profile_tasks(const tally_profile *p, const tally_task_profile **out) {
  *out = p->tasks;
  return p->ntasks;
}

const char *tally_profile_tasks_source(const tally_profile *p) { return p->tasks ? p->tasks_source : NULL; }

size_t tally_profile_task_notes(const tally_profile *p, const char *const **out, size_t *dropped) {
  *out = p->task_note_ptrs;
  if (dropped)
    *dropped = p->task_notes_dropped;
  return p->ntask_notes;
}

size_t tally_profile_task_changes(const tally_profile *p, const tally_task_change **out, uint64_t *end, int *cut) {
  *out = p->task_changes;
  if (end)
    *end = p->end_cycle;
  if (cut)
    *cut = p->task_changes_cut;
  return p->ntask_changes;
}
