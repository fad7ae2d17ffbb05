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
#include <stddef.h>
#include <stdint.h>

#include "../symbols/symtab.h"
#include "../timing/signals.h"
#include "../timing/timing.h"

typedef struct prof_node {
  uint32_t func;            /* entry address of the function; 0 for the root */
  uint32_t call_site;       /* pc of the call (or trapping pc) that entered it */
  bool is_trap;             /* entered by a trap or an interrupt */
  struct prof_node *parent, *first_child, *next_sibling;
  uint64_t self_cycles;     /* cycles while this context was on top (sig[SIG_CYCLE], prof_finish) */
  uint64_t calls;           /* times this context was entered */
  uint64_t total_cycles;    /* self plus descendants (prof_finish) */
  /* Every signal counted while this context was on top: the timing
   * model charges dynamic counts here directly (timing.ctx_row points at
   * the top context's sig), the blocks' static counts when it folds them
   * (src/core/ctx_count.h). sig[SIG_CYCLE] == self_cycles once folded. The markers (level
   * signals of the program rather than of its code, prof_context_signal)
   * are never charged. */
  /* The records of the blocks' counts in this context by block
   * (timing.ctx_tab; src/core/ctx_count.h); right before sig, where the
   * core finds it from timing.ctx_row. When it has none: the core's
   * empty table (timing.ctx_tab_zero) from the profile's prof_attach on,
   * so that the translated call and return copy it with no test; NULL
   * before (and without a core's records) */
  ctx_count **ctx_tab;
  int64_t sig[SIG_COUNT];
} prof_node;
_Static_assert(offsetof(prof_node, sig) == offsetof(prof_node, ctx_tab) + sizeof(ctx_count **),
               "a context's table of records is the word before its row");

/* Signals the contexts do not count (see prof_node.sig). */
static inline bool prof_context_signal(int s) { return s < SIG_MARKER0 || s > SIG_MARKER3; }

typedef struct prof_frame {
  prof_node *node;
  uint32_t ret_addr;        /* where the matching return goes */
  uint32_t sp;              /* the stack pointer at the call */
} prof_frame;

typedef struct prof_node_chunk prof_node_chunk;

/* Task awareness (tasks.c): with it, the root's children are the tasks
 * and trap contexts (prof_node.func PROF_TASK_FUNC, call_site the index
 * into prof_tasks.v), each with a shadow stack of its own, kept in
 * prof_task.saved while another one runs. */
#define PROF_TASK_FUNC UINT32_MAX
#define PROF_TASK_NAME 64
#define PROF_TASK_NOTES 16

typedef struct prof_task {
  char name[PROF_TASK_NAME];
  uint32_t tcb;             /* the task pointer's value; a trap context's mcause */
  bool is_trap;             /* "irq:N" or "trap:N": handlers of traps taken while a task ran */
  bool bad;                 /* its pointer or name could not be read (a note says so) */
  uint32_t first_pc;        /* where its code began (its node's own counts go to that function) */
  struct prof_node *node;
  struct prof_frame *saved; /* its frames above the node while it does not run */
  uint32_t nsaved, saved_cap;
  uint64_t switches;        /* times it was switched to (a trap context: entered) */
} prof_task;

/* A change of what runs: from `cycle` on, v[task] (the timeline). */
typedef struct prof_task_change {
  uint64_t cycle;
  int32_t task;
} prof_task_change;

/* Reads guest memory for the task layer (the simulator's RAM). */
typedef bool (*prof_read_fn)(void *ctx, uint32_t addr, void *dst, uint32_t len);

typedef struct prof_tasks {
  prof_task *v;
  size_t n, cap;
  int cur;                  /* the task the program's pointer names */
  int running;              /* whose frames the shadow stack holds: cur, or a trap context */
  int last_task;            /* the task (not trap context) that ran last */
  bool in_trap;
  uint32_t ptr_addr, last_ptr;
  bool has_name, name_is_ptr;
  uint32_t name_off, name_len;
  char name_member[48];
  char source[384];         /* what is followed, for the reports */
  prof_read_fn read;
  void *read_ctx;
  int reg;                  /* >= 0: the pointer is this register, read at every trap return */
  bool (*read_reg)(void *ctx, unsigned reg, uint32_t *val);
  char notes[PROF_TASK_NOTES][160];
  size_t nnotes, notes_dropped;
  prof_task_change *log;    /* every change of `running` */
  size_t nlog, log_cap;
  bool log_full;
  uint64_t log_full_cycle;  /* the change the log had no room for */
  /* told of every change of `running`, with its name, at the cycle it
   * takes effect (the statistics module's task counters) */
  void (*on_run)(void *ctx, const char *name);
  void *on_run_ctx;
} prof_tasks;

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
  struct timing_side_chunk *sides; /* the translated fills' side records (timing_rows.sides):
                               not yet in the rows until prof_settle_side */
  prof_node root;
  prof_frame *stack;
  uint32_t depth, cap;
  /* the bounds of the translated code's inline call, return and tail call
   * (timing_flow_layout, prof_inline_bounds): a call inline while depth <
   * inline_cap, a return while depth > inline_floor, a tail call while
   * depth >= inline_tail; cap, 1 (the root's frame) and 3 (above a task's
   * frame), or 0, UINT32_MAX and UINT32_MAX while a timeline is kept,
   * which takes every one of them to C: one compare where the timeline's
   * test and the depth's were two */
  uint32_t inline_cap, inline_floor, inline_tail;
  /* the cycle of the last call or return made in C (prof_account; the
   * translated code's inline ones leave it but in the sanitizer build):
   * read by the timeline, while which every one is made in C */
  uint64_t last_cycle;
  uint64_t start_cycle;       /* the cycle the profile started at (the timeline's root begins there) */
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
  /* ... and before that table, the context entered last from each
   * (parent, site) pair that maps here (profile.c, child): a call site
   * finds its callee's context with one load */
#define PROF_SITE_CACHE 1024
  prof_node *site_cache[PROF_SITE_CACHE];
  uint8_t *entries;         /* per row, one bit: a function starts there (built from syms on first use) */
  uint32_t *owner;          /* per row: 1 + the symbol-table index of the function it lies in, 0 = none
                               (built with entries) */
  bool entries_built;
  prof_timeline *timeline;  /* NULL unless asked for (prof_timeline_enable) */
  prof_tasks *tasks;        /* NULL unless asked for (prof_tasks_enable) */
  /* the timing model, whose ctx_row follows the top of the stack */
  struct timing *tm;
} prof_state;

prof_state *prof_new(uint32_t lo, uint32_t hi, const sym_table *syms);
/* Sets inline_cap, inline_floor and inline_tail from cap and timeline. */
static inline void prof_inline_bounds(prof_state *p) {
  p->inline_cap = p->timeline ? 0 : p->cap;
  p->inline_floor = p->timeline ? UINT32_MAX : 1;
  p->inline_tail = p->timeline ? UINT32_MAX : 3;
}
void prof_free(prof_state *p);

/* The row of signal totals for the instruction at pc. */
static inline int64_t *prof_row(prof_state *p, uint32_t pc) {
  uint32_t i = pc - p->lo < p->hi - p->lo ? (pc - p->lo) >> 1 : (p->hi - p->lo) >> 1;
  return p->rows + (uint64_t)i * SIG_COUNT;
}

/* Adds the translated fills' side tables to the rows and empties them:
 * before anything reads the rows. */
void prof_settle_side(prof_state *p);

/* Control-flow events at cycle `now` (the cycle the event happens at:
 * everything before it belongs to the context on top until then). */
void prof_call(prof_state *p, uint32_t site, uint32_t target, uint32_t ret_addr, uint32_t sp, uint64_t now);
void prof_return(prof_state *p, uint32_t target, uint32_t sp, uint64_t now);
void prof_tail_call(prof_state *p, uint32_t site, uint32_t target, uint64_t now);
void prof_trap(prof_state *p, uint32_t pc, uint32_t handler, uint32_t sp, uint32_t cause, uint64_t now);
void prof_trap_return(prof_state *p, uint32_t target, uint64_t now);

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

/* Task awareness (tasks.c). The program's current-task pointer is the
 * word at ptr_addr; a task's name is the member at name_off of what it
 * points to (has_name): a char array of name_len bytes, or a char pointer
 * (name_is_ptr). Call before the run, with the shadow stack empty; `now`
 * is the cycle count. false when out of memory. */
typedef struct prof_task_layout {
  uint32_t ptr_addr;
  int reg;                  /* >= 0: the pointer is this register (read_reg), not the word at ptr_addr */
  bool (*read_reg)(void *ctx, unsigned reg, uint32_t *val);
  bool has_name, name_is_ptr;
  uint32_t name_off, name_len;
  const char *name_member;  /* for messages */
} prof_task_layout;
bool prof_tasks_enable(prof_state *p, const prof_task_layout *l, prof_read_fn read, void *ctx, uint64_t now);
/* The pointer's word was stored to (timing_flow_ops.watched). */
void prof_tasks_store(prof_state *p, uint64_t now);
/* The task of a node directly under the root, or NULL. */
const prof_task *prof_node_task(const prof_state *p, const prof_node *n);

/* Internals shared with tasks.c. */
void prof_account(prof_state *p, uint64_t now);
void prof_top_changed(prof_state *p);
prof_node *prof_child(prof_state *p, prof_node *parent, uint32_t func, uint32_t site, bool trap);
void prof_push(prof_state *p, prof_node *n, uint32_t ret_addr, uint32_t sp);
bool prof_tasks_trap(prof_state *p, uint32_t cause, uint32_t handler, uint64_t now);
void prof_tasks_trap_return(prof_state *p, uint32_t target, uint64_t now);
void prof_tasks_free(prof_tasks *t);

/* Feeds p from the timing model's loops: its rows, its contexts' counts
 * and control flow (timing_rows, timing.ctx_row, timing_flow_ops), so
 * that the core needs nothing of this header. Every block must be folded
 * before (what ran before goes to no context). */
void prof_attach(prof_state *p, struct timing *tm);

#endif
