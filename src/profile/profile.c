/*
 * The shadow call stack and calling-context tree of profile.h.
 *
 * Matching returns: a call pushes the address it will return to and the
 * stack pointer it was made with. A return to address A pops frames down to
 * the newest frame expecting A. A return that matches no frame is an unwind
 * (longjmp returns through setjmp's long-gone frame): every frame whose call
 * was made at or below the stack pointer the program now has is closed. Only
 * when that closes nothing is the top frame popped, and counted in
 * unmatched_returns.
 *
 * Traps push a frame marked is_trap whose return address is "any": mret
 * pops back through the newest trap frame.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

#define NODES_PER_CHUNK 1024
#define TRAP_FRAME_RET UINT32_MAX

struct prof_node_chunk {
  struct prof_node_chunk *next;
  uint32_t used;
  prof_node nodes[NODES_PER_CHUNK];
};

prof_state *prof_new(uint32_t lo, uint32_t hi, const sym_table *syms) {
  prof_state *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->syms = syms;
  lo &= ~1u;
  hi = (hi + 1) & ~1u;
  p->lo = lo;
  p->hi = hi > lo ? hi : lo;
  size_t nrows = ((size_t)(p->hi - p->lo) >> 1) + 1;
  p->rows = calloc(nrows * SIG_COUNT, sizeof *p->rows);
  p->samples = calloc(nrows, sizeof *p->samples);
  p->cap = 256;
  p->stack = malloc(p->cap * sizeof *p->stack);
  if (!p->rows || !p->samples || !p->stack) {
    prof_free(p);
    return NULL;
  }
  p->stack[0] = (prof_frame){&p->root, 0, UINT32_MAX};
  p->depth = 1;
  prof_inline_bounds(p);
  return p;
}

void prof_free(prof_state *p) {
  if (!p)
    return;
  for (prof_node_chunk *c = p->chunks, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  free(p->rows);
  for (timing_side_chunk *c = p->sides, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  free(p->entries);
  free(p->owner);
  free(p->samples);
  free(p->stack);
  free(p->children);
  if (p->timeline)
    free(p->timeline->log);
  free(p->timeline);
  prof_tasks_free(p->tasks);
  free(p);
}

static prof_node *new_node(prof_state *p) {
  if (!p->chunks || p->chunks->used == NODES_PER_CHUNK) {
    prof_node_chunk *c = calloc(1, sizeof *c);
    if (!c)
      return NULL;
    c->next = p->chunks;
    p->chunks = c;
  }
  return &p->chunks->nodes[p->chunks->used++];
}

static uint64_t child_hash(const prof_node *parent, uint32_t func, uint32_t site, bool trap) {
  uint64_t h = ((uint64_t)(uintptr_t)parent >> 4) * 0x9E3779B97F4A7C15ull ^ (uint64_t)func * 0xC2B2AE3D27D4EB4Full ^
               ((uint64_t)site * 2 + trap) * 0x165667B19E3779F9ull;
  return h ^ (h >> 29);
}

/* Doubles the table of contexts (or makes its first); false when out of memory. */
static bool children_grow(prof_state *p) {
  size_t cap = p->children_cap ? p->children_cap * 2 : 1024;
  prof_node **t = calloc(cap, sizeof *t);
  if (!t)
    return false;
  for (size_t i = 0; i < p->children_cap; i++) {
    prof_node *c = p->children[i];
    if (!c)
      continue;
    size_t j = child_hash(c->parent, c->func, c->call_site, c->is_trap) & (cap - 1);
    while (t[j])
      j = (j + 1) & (cap - 1);
    t[j] = c;
  }
  free(p->children);
  p->children = t;
  p->children_cap = cap;
  return true;
}

/* The child of `parent` for (func, site, trap), created on first use: one
 * hash-table lookup at every call, however many distinct callees the
 * parent has (a walk of the siblings made a parent with N callees cost
 * N^2). The sibling list keeps the tree's order for the reports. */
static prof_node *child_lookup(prof_state *p, prof_node *parent, uint32_t func, uint32_t site, bool trap) {
  if (2 * (p->children_n + 1) > p->children_cap && !children_grow(p))
    return parent; /* out of memory: keep charging the parent */
  size_t mask = p->children_cap - 1, j = child_hash(parent, func, site, trap) & mask;
  for (prof_node *c; (c = p->children[j]); j = (j + 1) & mask)
    if (c->parent == parent && c->func == func && c->call_site == site && c->is_trap == trap)
      return c;
  prof_node *c = new_node(p);
  if (!c)
    return parent;
  *c = (prof_node){.func = func, .call_site = site, .is_trap = trap, .parent = parent,
                   .ctx_tab = p->tm ? p->tm->ctx_tab_zero : NULL,
                   .next_sibling = parent->first_child};
  parent->first_child = c;
  p->children[j] = c;
  p->children_n++;
  return c;
}

/* The same, first through the context last entered from (parent, site)
 * (the same call again, from a loop or the same caller: no lookup). */
static inline prof_node *child(prof_state *p, prof_node *parent, uint32_t func, uint32_t site, bool trap) {
  size_t k = timing_site_slot(parent, site, PROF_SITE_CACHE - 1);
  prof_node *h = p->site_cache[k];
  if (h && h->parent == parent && h->func == func && h->call_site == site && h->is_trap == trap)
    return h;
  h = child_lookup(p, parent, func, site, trap);
  if (h != parent) /* not out of memory */
    p->site_cache[k] = h;
  return h;
}

prof_node *prof_child(prof_state *p, prof_node *parent, uint32_t func, uint32_t site, bool trap) {
  return child(p, parent, func, site, trap);
}

#ifdef TALLY_CHECK_LAWS
/* The law the per-context signals rest on: they see every cycle the
 * cycle count does, no more. Checked when the profile is read (the core
 * folded its blocks first: their counts per context reach the rows only
 * then, src/core/ctx_count.h). */
static void check_context_cycles(const prof_node *n) {
  if ((uint64_t)n->sig[SIG_CYCLE] != n->self_cycles) {
    fprintf(stderr, "tally: internal error: a context of 0x%08x counted %llu cycle signals in %llu cycles\n",
            (unsigned)n->func, (unsigned long long)n->sig[SIG_CYCLE], (unsigned long long)n->self_cycles);
    abort();
  }
}
#else
static void check_context_cycles(const prof_node *n) { (void)n; }
#endif

/* The cycles up to `now` belong to the context on top. Its self cycles are
 * its cycle signal (prof_node.sig, charged as the cycles pass), so only
 * the sanitizer build counts them here too, to check that law
 * (check_context_cycles); `total` copies them over otherwise. */
void prof_account(prof_state *p, uint64_t now) {
  if (now > p->last_cycle) {
#ifdef TALLY_CHECK_LAWS
    p->stack[p->depth - 1].node->self_cycles += now - p->last_cycle;
#endif
    p->last_cycle = now;
  }
}

/* The stack changed: the timing model charges the new top from now on. */
void prof_top_changed(prof_state *p) {
  if (p->tm) {
    prof_node *n = p->stack[p->depth - 1].node;
    p->tm->ctx_row = n->sig;
    p->tm->ctx_tab = n->ctx_tab ? n->ctx_tab : p->tm->ctx_tab_zero;
  }
}

void prof_push(prof_state *p, prof_node *n, uint32_t ret_addr, uint32_t sp) {
  if (p->depth == p->cap) {
    prof_frame *s = realloc(p->stack, 2 * p->cap * sizeof *s);
    if (!s)
      return; /* out of memory: deeper calls are charged to this frame */
    p->stack = s;
    p->cap *= 2;
    prof_inline_bounds(p);
  }
  n->calls++;
  p->stack[p->depth++] = (prof_frame){n, ret_addr, sp};
  if (p->timeline)
    prof_timeline_note(p, n);
}

/* Closes the frames above depth d. */
static void pop_to(prof_state *p, uint32_t d) {
  p->depth = d;
  if (p->timeline)
    prof_timeline_note(p, NULL);
}

void prof_call(prof_state *p, uint32_t site, uint32_t target, uint32_t ret_addr, uint32_t sp, uint64_t now) {
  prof_account(p, now);
  prof_push(p, child(p, p->stack[p->depth - 1].node, target, site, false), ret_addr, sp);
  prof_top_changed(p);
}

/* The frames a return may close lie above this depth: the root's, and
 * with tasks the running task's node too. */
static uint32_t base_depth(const prof_state *p) { return p->tasks ? 2 : 1; }

static void tail_call(prof_state *p, uint32_t site, uint32_t target) {
  if (p->depth == base_depth(p)) { /* a jump out of the root: treat as a call that never returns */
    prof_push(p, child(p, p->stack[p->depth - 1].node, target, site, false), 0, UINT32_MAX);
    return;
  }
  /* the callee replaces the caller and returns where the caller would */
  prof_frame top = p->stack[p->depth - 1];
  pop_to(p, p->depth - 1);
  prof_push(p, child(p, p->stack[p->depth - 1].node, target, site, false), top.ret_addr, top.sp);
}

void prof_tail_call(prof_state *p, uint32_t site, uint32_t target, uint64_t now) {
  prof_account(p, now);
  tail_call(p, site, target);
  prof_top_changed(p);
}

static void pop_return(prof_state *p, uint32_t target, uint32_t sp);

void prof_return(prof_state *p, uint32_t target, uint32_t sp, uint64_t now) {
  prof_account(p, now);
  uint32_t top = p->depth - 1;
  if (top >= 1 && p->stack[top].ret_addr == target) { /* the newest frame's return: pop_return's first case */
    pop_to(p, top);
    prof_top_changed(p);
    return;
  }
  uint64_t unmatched = p->unmatched_returns;
  pop_return(p, target, sp);
  /* With tasks, a return no frame expects into code outside the function
   * now on top starts the task afresh there: a kernel's first switch to a
   * task that returns into it (FreeRTOS's xPortStartFirstTask) */
  if (p->tasks && p->unmatched_returns != unmatched &&
      (p->depth == 2 || prof_crosses(p, p->stack[p->depth - 1].node->func, target))) {
    const sym_entry *e = p->syms ? sym_table_lookup(p->syms, target) : NULL;
    if (e) {
      p->depth = 2;
      prof_push(p, child(p, p->stack[1].node, e->addr, target, false), 0, UINT32_MAX);
    }
  }
  prof_top_changed(p);
}

/* Pops the frames a return to `target` with stack pointer sp closes. */
static void pop_return(prof_state *p, uint32_t target, uint32_t sp) {
  for (uint32_t d = p->depth - 1; d >= 1; d--) {
    if (p->stack[d].ret_addr == TRAP_FRAME_RET)
      break; /* never unwind out of a trap handler with a plain return */
    if (p->stack[d].ret_addr == target) {
      if (d != p->depth - 1)
        p->unwinds++;
      pop_to(p, d);
      return;
    }
  }
  uint32_t d = p->depth;
  while (d > base_depth(p) && p->stack[d - 1].ret_addr != TRAP_FRAME_RET && p->stack[d - 1].sp <= sp)
    d--;
  if (d != p->depth) {
    p->unwinds++;
    pop_to(p, d);
    return;
  }
  if (p->depth > base_depth(p) && p->stack[p->depth - 1].ret_addr != TRAP_FRAME_RET)
    pop_to(p, p->depth - 1);
  p->unmatched_returns++;
}

void prof_trap(prof_state *p, uint32_t pc, uint32_t handler, uint32_t sp, uint32_t cause, uint64_t now) {
  prof_account(p, now);
  if (p->tasks)
    prof_tasks_trap(p, cause, handler, now); /* a task's trap runs in a context of its own */
  prof_push(p, child(p, p->stack[p->depth - 1].node, handler, pc, true), TRAP_FRAME_RET, sp);
  prof_top_changed(p);
}

void prof_trap_return(prof_state *p, uint32_t target, uint64_t now) {
  prof_account(p, now);
  uint32_t d;
  for (d = p->depth - 1; d >= 1 && p->stack[d].ret_addr != TRAP_FRAME_RET; d--)
    ;
  if (d >= 1)
    pop_to(p, d);
  else
    p->unmatched_returns++;
  if (p->tasks)
    prof_tasks_trap_return(p, target, now); /* the trap context may end */
  prof_top_changed(p);
}

static uint64_t total(prof_node *n) {
  check_context_cycles(n);
  n->self_cycles = (uint64_t)n->sig[SIG_CYCLE];
  uint64_t t = n->self_cycles;
  for (prof_node *c = n->first_child; c; c = c->next_sibling)
    t += total(c);
  n->total_cycles = t;
  return t;
}

void prof_settle_side(prof_state *p) {
  for (timing_side_chunk *c = p->sides; c; c = c->next)
    for (uint32_t k = 0; k < c->used; k++) {
      int64_t *si = c->rec[k];
      if (!(si[0] | si[1] | si[2]))
        continue;
      int64_t *row = prof_row(p, (uint32_t)si[TIMING_SIDE_PC] & ~1u);
      if (!(si[TIMING_SIDE_PC] & 1)) {
        uint64_t n = (uint64_t)si[TIMING_SIDE_FILLS], e = (uint64_t)si[TIMING_SIDE_ENTRY];
        uint64_t s = (uint64_t)si[TIMING_SIDE_STALL];
        row[SIG_ICACHE_MISS] = (int64_t)((uint64_t)row[SIG_ICACHE_MISS] + n);
        row[SIG_MEM_READ] = (int64_t)((uint64_t)row[SIG_MEM_READ] + n);
        row[SIG_ICACHE_ACCESS] = (int64_t)((uint64_t)row[SIG_ICACHE_ACCESS] + e);
        row[SIG_ICACHE_HIT] = (int64_t)((uint64_t)row[SIG_ICACHE_HIT] - (n - e));
        row[SIG_CYCLE] = (int64_t)((uint64_t)row[SIG_CYCLE] + s);
        row[SIG_STALL_ICACHE] = (int64_t)((uint64_t)row[SIG_STALL_ICACHE] + s);
      } else {
        uint64_t ld = (uint64_t)si[TIMING_SIDE_LOADS], st = (uint64_t)si[TIMING_SIDE_STORES];
        uint64_t s = (uint64_t)si[TIMING_SIDE_DSTALL];
        row[SIG_DCACHE_READ_HIT] = (int64_t)((uint64_t)row[SIG_DCACHE_READ_HIT] - ld);
        row[SIG_DCACHE_READ_MISS] = (int64_t)((uint64_t)row[SIG_DCACHE_READ_MISS] + ld);
        row[SIG_DCACHE_WRITE_HIT] = (int64_t)((uint64_t)row[SIG_DCACHE_WRITE_HIT] - st);
        row[SIG_DCACHE_WRITE_MISS] = (int64_t)((uint64_t)row[SIG_DCACHE_WRITE_MISS] + st);
        row[SIG_MEM_READ] = (int64_t)((uint64_t)row[SIG_MEM_READ] + ld + st);
        row[SIG_CYCLE] = (int64_t)((uint64_t)row[SIG_CYCLE] + s);
        row[SIG_STALL_DCACHE] = (int64_t)((uint64_t)row[SIG_STALL_DCACHE] + s);
      }
      si[0] = si[1] = si[2] = 0;
    }
}

void prof_finish(prof_state *p, uint64_t now) {
  prof_account(p, now);
  total(&p->root);
}

void prof_sample(prof_state *p, uint32_t pc) { prof_sample_n(p, pc, 1); }

void prof_sample_n(prof_state *p, uint32_t pc, uint64_t n) {
  uint32_t i = pc - p->lo < p->hi - p->lo ? (pc - p->lo) >> 1 : (p->hi - p->lo) >> 1;
  p->samples[i] += n;
  p->samples_taken += n;
}

/* The function pc lies in: 1 + its symbol-table index, 0 for none. */
static uint32_t owner_by_lookup(const prof_state *p, uint32_t pc) {
  const sym_entry *e = p->syms ? sym_table_lookup(p->syms, pc) : NULL;
  return e ? (uint32_t)(e - p->syms->v) + 1 : 0;
}

/* Per row of the profiled range, the function it lies in. */
static void build_owners(prof_state *p, size_t nrows) {
  p->owner = malloc(nrows * sizeof *p->owner);
  if (!p->owner)
    return; /* out of memory: every question goes to the symbol table */
  for (size_t r = 0; r < nrows; r++)
    p->owner[r] = owner_by_lookup(p, p->lo + 2 * (uint32_t)r);
}

/* One bit per row of the profiled range: a function starts there; and
 * the function of each row. */
static void build_entries(prof_state *p) {
  p->entries_built = true;
  free(p->entries);
  free(p->owner);
  p->entries = NULL;
  p->owner = NULL;
  size_t nrows = (size_t)(p->hi - p->lo) >> 1;
  if (!p->syms || !nrows)
    return;
  build_owners(p, nrows);
  p->entries = calloc((nrows + 7) / 8, 1);
  if (!p->entries)
    return; /* out of memory: every question goes to the symbol table */
  for (size_t i = 0; i < p->syms->n; i++) {
    uint32_t a = p->syms->v[i].addr;
    const sym_entry *e = sym_table_lookup(p->syms, a); /* the same test as without the bits */
    if (e && e->addr == a && a - p->lo < p->hi - p->lo && !(a & 1u)) {
      size_t r = (a - p->lo) >> 1;
      p->entries[r >> 3] |= (uint8_t)(1u << (r & 7));
    }
  }
}

bool prof_is_function_entry(prof_state *p, uint32_t pc) {
  if (!p->entries_built)
    build_entries(p);
  if (p->entries && pc - p->lo < p->hi - p->lo && !(pc & 1u)) {
    size_t r = (pc - p->lo) >> 1;
    return p->entries[r >> 3] >> (r & 7) & 1u;
  }
  const sym_entry *e = p->syms ? sym_table_lookup(p->syms, pc) : NULL;
  return e && e->addr == pc;
}

static uint32_t owner_of(prof_state *p, uint32_t pc) {
  if (p->owner && pc - p->lo < p->hi - p->lo)
    return p->owner[(pc - p->lo) >> 1];
  return owner_by_lookup(p, pc);
}

bool prof_crosses(prof_state *p, uint32_t site, uint32_t target) {
  if (!p->entries_built)
    build_entries(p); /* the rows' owners too */
  return owner_of(p, site) != owner_of(p, target);
}

void prof_symbols_changed(prof_state *p) {
  p->entries_built = false;
}

/* ---- as the timing model's loops see it (timing_flow_ops) ---- */

static void flow_call(void *f, uint32_t site, uint32_t target, uint32_t ret_addr, uint32_t sp, uint64_t now) {
  prof_call(f, site, target, ret_addr, sp, now);
}
/* prof_call from a call site of translated code, which remembers the
 * contexts when the callee's was found and pushed (not out of memory) */
static void flow_call_site(void *f, timing_call_site *s, uint32_t target, uint32_t sp, uint64_t now) {
  prof_state *p = f;
  prof_account(p, now);
  prof_node *parent = p->stack[p->depth - 1].node, *c = child(p, parent, target, s->site, false);
  uint32_t depth = p->depth;
  prof_push(p, c, s->ret_addr, sp);
  prof_top_changed(p);
  if (c != parent && p->depth == depth + 1) {
    s->parent = parent;
    s->child = c;
    s->target = target;
  }
}
static void flow_ret(void *f, uint32_t target, uint32_t sp, uint64_t now) { prof_return(f, target, sp, now); }
static void flow_tail_call(void *f, uint32_t site, uint32_t target, uint64_t now) {
  prof_tail_call(f, site, target, now);
}
/* prof_tail_call from a tail call site of translated code, which
 * remembers the contexts when the callee's replaced the caller's on top
 * of two frames or more (not out of memory) */
static void flow_tail_call_site(void *f, timing_call_site *s, uint32_t target, uint64_t now) {
  prof_state *p = f;
  prof_account(p, now);
  uint32_t depth = p->depth;
  prof_node *parent = depth >= 2 ? p->stack[depth - 2].node : NULL;
  tail_call(p, s->site, target);
  prof_top_changed(p);
  prof_node *c = p->stack[p->depth - 1].node;
  if (depth >= 3 && p->depth == depth && c != parent) {
    s->parent = parent;
    s->child = c;
    s->target = target;
  }
}
static bool flow_is_entry(void *f, uint32_t pc) { return prof_is_function_entry(f, pc); }
static bool flow_crosses(void *f, uint32_t site, uint32_t target) { return prof_crosses(f, site, target); }
static void flow_trap(void *f, uint32_t pc, uint32_t handler, uint32_t sp, uint32_t cause, uint64_t now) {
  prof_trap(f, pc, handler, sp, cause, now);
}
static void flow_trap_return(void *f, uint32_t target, uint64_t now) { prof_trap_return(f, target, now); }
static void flow_watched(void *f, uint64_t now) { prof_tasks_store(f, now); }
static uint64_t flow_next_sample(const void *f) {
  const prof_state *p = f;
  return p->sample_period ? p->next_sample : UINT64_MAX;
}
/* The sample at cycle T goes to the instruction whose cycles contain T. */
static void flow_sample_until(void *f, uint32_t pc, uint64_t now) {
  prof_state *p = f;
  if (p->next_sample >= now)
    return;
  /* all of them at once: a wfi sleep may hold 2^62 cycles of samples */
  uint64_t n = (now - p->next_sample - 1) / p->sample_period + 1;
  prof_sample_n(p, pc, n);
  p->next_sample += n * p->sample_period;
}

/* The inline call and return of translated code see prof_call and
 * prof_return's first case through this (timing_flow_layout) */
static const timing_flow_layout prof_layout = {
  .stack = offsetof(prof_state, stack), .depth = offsetof(prof_state, depth),
  .cap = offsetof(prof_state, inline_cap), .floor = offsetof(prof_state, inline_floor),
  .tail = offsetof(prof_state, inline_tail), .last_cycle = offsetof(prof_state, last_cycle),
  .frame_node = offsetof(prof_frame, node), .frame_ret = offsetof(prof_frame, ret_addr),
  .frame_sp = offsetof(prof_frame, sp), .node_calls = offsetof(prof_node, calls),
  .node_sig = offsetof(prof_node, sig), .node_self = offsetof(prof_node, self_cycles),
  .site_cache = offsetof(prof_state, site_cache), .site_mask = PROF_SITE_CACHE - 1,
  .node_parent = offsetof(prof_node, parent), .node_func = offsetof(prof_node, func),
  .node_site = offsetof(prof_node, call_site), .node_trap = offsetof(prof_node, is_trap),
};
_Static_assert(sizeof(((prof_node *)0)->is_trap) == 1, "timing_flow_layout's trap flag is a byte");
_Static_assert(sizeof(prof_frame) == 16, "timing_flow_layout's frames are 16 bytes");

static const timing_flow_ops prof_flow = {
  .call = flow_call, .call_site = flow_call_site, .layout = &prof_layout, .ret = flow_ret, .tail_call = flow_tail_call,
  .tail_call_site = flow_tail_call_site, .is_entry = flow_is_entry, .crosses = flow_crosses,
  .trap = flow_trap, .trap_return = flow_trap_return, .watched = flow_watched, .next_sample = flow_next_sample,
  .sample_until = flow_sample_until,
};

void prof_attach(prof_state *p, timing *tm) {
  tm->prof = p;
  tm->flow = &prof_flow;
  tm->rows = (timing_rows){.base = p->rows, .sides = &p->sides, .lo = p->lo, .hi = p->hi};
  p->tm = tm;
  /* the contexts with no table of records have the core's empty one (prof_node.ctx_tab) */
  if (!p->root.ctx_tab)
    p->root.ctx_tab = tm->ctx_tab_zero;
  for (prof_node_chunk *c = p->chunks; c; c = c->next)
    for (size_t i = 0; i < c->used; i++)
      if (!c->nodes[i].ctx_tab)
        c->nodes[i].ctx_tab = tm->ctx_tab_zero;
  prof_top_changed(p);
}
