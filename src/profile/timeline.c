/*
 * The profile's timeline (profile.h, prof_timeline): the shadow call
 * stack's depth changes as they happen, and the slices a snapshot makes of
 * them: one per frame, from the cycle it was pushed to the cycle it was
 * popped. The same pushes and pops drive the calling-context tree, and a
 * node's total cycles are the sum of its frames' lifetimes, so a
 * function's slices not nested in another of its own slices add up to its
 * inclusive cycles exactly (the law tests/perfetto checks).
 */
#include <stdlib.h>
#include <string.h>

#include "../util/array.h"
#include "report.h"

bool prof_timeline_enable(prof_state *p, size_t max_calls) {
  if (p->timeline)
    return true;
  prof_timeline *t = calloc(1, sizeof *t);
  if (!t)
    return false;
  t->max = max_calls;
  t->start_cycle = p->start_cycle;
  p->timeline = t;
  prof_inline_bounds(p); /* calls and returns in C from now on */
  return true;
}

/* The timeline ends here: slices still open end at this cycle. */
static void stop(prof_timeline *t, uint64_t cycle) {
  t->full = true;
  t->full_cycle = cycle;
}

void prof_timeline_note(prof_state *p, const prof_node *entered) {
  prof_timeline *t = p->timeline;
  if (t->full)
    return;
  if (entered && t->calls == t->max) {
    stop(t, p->last_cycle);
    return;
  }
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 4096;
    prof_change *v = realloc(t->log, cap * sizeof *v);
    if (!v) {
      stop(t, p->last_cycle);
      return;
    }
    t->log = v;
    t->cap = cap;
  }
  t->calls += entered != NULL;
  t->log[t->n++] = (prof_change){p->last_cycle, entered, p->depth - 1};
}

typedef struct open_frame {
  int func;
  int is_trap;
  uint64_t begin;
} open_frame;

static int by_begin_then_depth(const void *a, const void *b) {
  const tally_slice *x = a, *y = b;
  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  return x->depth < y->depth ? -1 : x->depth > y->depth;
}

/* Closes the open frames above depth d at cycle `at`. */
static bool close_to(tally_profile *p, open_frame *open, uint32_t *top, uint32_t d, uint64_t at, size_t *cap) {
  while (*top > d) {
    (*top)--;
    if (p->nslices == *cap) {
      size_t c = *cap ? 2 * *cap : 1024;
      tally_slice *v = realloc(p->slices, c * sizeof *v);
      if (!v)
        return false;
      p->slices = v;
      *cap = c;
    }
    open_frame *f = &open[*top];
    p->slices[p->nslices++] = (tally_slice){f->func, f->begin, at, *top, f->is_trap};
  }
  return true;
}

int profile_build_slices(tally_profile *p, const prof_state *st, uint64_t now) {
  const prof_timeline *t = st->timeline;
  if (!t)
    return 0;
  uint64_t end = t->full ? t->full_cycle : now;
  p->timeline_cut = t->full ? t->full_cycle : 0;
  p->has_timeline = true;
  /* the deepest the log goes, for the open frames */
  uint32_t deepest = 1;
  for (size_t i = 0; i < t->n; i++)
    if (t->log[i].depth + 1 > deepest)
      deepest = t->log[i].depth + 1;
  open_frame *open = malloc(deepest * sizeof *open);
  if (!open)
    return -1;
  size_t cap = 0;
  uint32_t top = 1;
  open[0] = (open_frame){p->root_func, 0, t->start_cycle};
  bool ok = true;
  for (size_t i = 0; i < t->n && ok; i++) {
    const prof_change *c = &t->log[i];
    if (c->node) {
      ok = close_to(p, open, &top, c->depth, c->cycle, &cap); /* a push onto depth: nothing above it */
      open[top++] = (open_frame){profile_func_of(p, c->node->func), c->node->is_trap, c->cycle};
    } else {
      ok = close_to(p, open, &top, c->depth + 1, c->cycle, &cap);
    }
  }
  ok = ok && close_to(p, open, &top, 0, end, &cap);
  free(open);
  if (!ok)
    return -1;
  sort_array(p->slices, p->nslices, sizeof *p->slices, by_begin_then_depth);
  return 0;
}
