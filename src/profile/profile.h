/*
 * Exact profiles, gathered without touching the program.
 *
 * Two structures, both exact to the cycle:
 *   - per-instruction rows: for every halfword address in the profiled code
 *     range, the total of every signal charged to the instruction there
 *     (static costs folded from block executions, dynamic charges as they
 *     happen). A function's self counts are sums of its rows.
 *   - a calling-context tree (CCT) driven by a shadow call stack that
 *     follows the calls, returns, tail calls, traps and unwinds the program
 *     really executes. Cycles between two such events belong to the context
 *     on top of the stack, which gives inclusive cycles per function and per
 *     caller-to-callee arc, and folded stacks.
 *
 * The timing model calls in here; reports read the result (report.c).
 */
#ifndef TALLY_PROFILE_PROFILE_H
#define TALLY_PROFILE_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "../symbols/symtab.h"
#include "../timing/signals.h"
#include "../timing/timing.h"

typedef struct prof_node {
  uint32_t func;            /* entry address of the function; 0 for the root */
  uint32_t call_site;       /* pc of the call (or trapping pc) that entered it */
  bool is_trap;             /* entered by a trap or an interrupt */
  struct prof_node *parent, *first_child, *next_sibling;
  uint64_t self_cycles;     /* cycles while this context was on top */
  uint64_t calls;           /* times this context was entered */
  uint64_t total_cycles;    /* self plus descendants (prof_finish) */
  /* Every signal counted while this context was on top: the timing
   * model charges dynamic counts here directly (timing.ctx_row points at
   * the top context's sig), the blocks' static counts when it folds them
   * (src/core/ctx_count.h). sig[SIG_CYCLE] == self_cycles once folded. The markers (level
   * signals of the program rather than of its code, prof_context_signal)
   * are never charged. */
  int64_t sig[SIG_COUNT];
} prof_node;

/* Signals the contexts do not count (see prof_node.sig). */
static inline bool prof_context_signal(int s) { return s < SIG_MARKER0 || s > SIG_MARKER3; }

typedef struct prof_frame {
  prof_node *node;
  uint32_t ret_addr;        /* where the matching return goes */
  uint32_t sp;              /* the stack pointer at the call */
} prof_frame;

typedef struct prof_node_chunk prof_node_chunk;

/* The timeline (timeline.c): every change of the shadow stack's depth, in
 * order, so that each frame's lifetime [push, pop) is known to the cycle.
 * A push names the node entered; a pop gives the depth left. */
typedef struct prof_change {
  uint64_t cycle;
  const prof_node *node;    /* entered (a push), or NULL (frames above `depth` closed) */
  uint32_t depth;           /* the depth after the change */
} prof_change;

typedef struct prof_timeline {
  prof_change *log;
  size_t n, cap;
  size_t calls, max;        /* pushes kept, and the bound: the log stops at the next push */
  bool full;                /* it stopped: slices end at `full_cycle` */
  uint64_t full_cycle;
  uint64_t start_cycle;     /* the root's begin: the cycle the profile started at */
} prof_timeline;

typedef struct prof_state {
  const sym_table *syms;    /* to recognise jumps to a function's entry (tail calls) */
  uint32_t lo, hi;          /* profiled code range [lo, hi) */
  int64_t *rows;            /* ((hi - lo) / 2 + 1) * SIG_COUNT; the last row is "elsewhere" */
  prof_node root;
  prof_frame *stack;
  uint32_t depth, cap;
  uint64_t last_cycle;
  uint64_t unmatched_returns; /* returns with no frame to pop */
  uint64_t unwinds;           /* returns that skipped frames (longjmp and the like) */
  prof_node_chunk *chunks;
  /* PC sampling, as a timer-interrupt profiler would do it */
  uint64_t sample_period;   /* cycles between samples, 0 = off */
  uint64_t next_sample;
  uint64_t *samples;        /* per row */
  uint64_t samples_taken;
  /* lookups the run does at every call and jump, made cheap: */
  prof_node **children;     /* every context but the root, by (parent, func, site, trap): open
                               addressing, a power-of-two size at most half full (profile.c, child) */
  size_t children_cap, children_n;
  uint8_t *entries;         /* per row, one bit: a function starts there (built from syms on first use) */
  uint32_t *owner;          /* per row: 1 + the symbol-table index of the function it lies in, 0 = none
                               (built with entries) */
  bool entries_built;
  prof_timeline *timeline;  /* NULL unless asked for (prof_timeline_enable) */
  /* the timing model, whose ctx_row follows the top of the stack */
  struct timing *tm;
} prof_state;

prof_state *prof_new(uint32_t lo, uint32_t hi, const sym_table *syms);
void prof_free(prof_state *p);

/* The row of signal totals for the instruction at pc. */
static inline int64_t *prof_row(prof_state *p, uint32_t pc) {
  uint32_t i = pc - p->lo < p->hi - p->lo ? (pc - p->lo) >> 1 : (p->hi - p->lo) >> 1;
  return p->rows + (uint64_t)i * SIG_COUNT;
}

/* Control-flow events at cycle `now` (the cycle the event happens at:
 * everything before it belongs to the context on top until then). */
void prof_call(prof_state *p, uint32_t site, uint32_t target, uint32_t ret_addr, uint32_t sp, uint64_t now);
void prof_return(prof_state *p, uint32_t target, uint32_t sp, uint64_t now);
void prof_tail_call(prof_state *p, uint32_t site, uint32_t target, uint64_t now);
void prof_trap(prof_state *p, uint32_t pc, uint32_t handler, uint32_t sp, uint64_t now);
void prof_trap_return(prof_state *p, uint64_t now);

/* Closes the books at cycle `now`: charges the open contexts and computes
 * total_cycles over the tree. The core's blocks must be folded first
 * (core_fold_blocks), so that the contexts' signals are complete. */
void prof_finish(prof_state *p, uint64_t now);

/* Is pc the first instruction of a known function? */
bool prof_is_function_entry(prof_state *p, uint32_t pc);
/* Does target lie in another function than site (or one of them in
 * none)? */
bool prof_crosses(prof_state *p, uint32_t site, uint32_t target);
/* The symbol table behind p->syms changed (functions were loaded again). */
void prof_symbols_changed(prof_state *p);

/* Samples: record the instruction executing at cycle `at`. */
void prof_sample(prof_state *p, uint32_t pc);
/* n samples at once at pc (a long sleep holds many). */
void prof_sample_n(prof_state *p, uint32_t pc, uint64_t n);

/* Starts keeping the timeline, at most max_calls pushes (and the pops,
 * which are fewer). false when out of memory. */
bool prof_timeline_enable(prof_state *p, size_t max_calls);
/* Notes a depth change (profile.c calls it on every push and pop). */
void prof_timeline_note(prof_state *p, const prof_node *entered);

/* Feeds p from the timing model's loops: its rows, its contexts' counts
 * and control flow (timing_rows, timing.ctx_row, timing_flow_ops), so
 * that the core needs nothing of this header. Every block must be folded
 * before (what ran before goes to no context). */
void prof_attach(prof_state *p, struct timing *tm);

#endif
