/* Profile snapshots behind the public tally_profile API (report.c). */
#ifndef TALLY_PROFILE_REPORT_H
#define TALLY_PROFILE_REPORT_H

#include "../symbols/lines.h"
#include "../symbols/symtab.h"
#include "profile.h"
#include "tally/tally.h"

struct tally_profile {
  prof_state *state;          /* live: per-pc rows and the tree */
  const sym_table *syms;      /* the functions: one per symbol-table entry, same order */
  tally_func_profile *funcs;
  size_t nfuncs, nfuncs_real; /* the last function is "[unknown]" */
  int unknown, root_func;
  uint64_t *self_store;
  uint64_t *incl_store;       /* the functions' inclusive counts, SIG_COUNT each */
  tally_arc *arcs;
  size_t narcs, arcs_cap;
  uint64_t *arc_store;        /* the arcs' inclusive counts (arcs_cap * SIG_COUNT) */
  tally_call_site *sites;     /* every arc's sites, grouped by arc, by pc within */
  size_t nsites;
  uint64_t *site_store;       /* the sites' inclusive counts */
  tally_line_profile *lines;  /* per (function, source line); NULL without a line table */
  size_t nlines;
  uint64_t *line_store;
  const sym_lines *line_table; /* the program's line table; NULL without one */
  uint64_t totals[SIG_COUNT];
  uint64_t samples_taken;
  tally_slice *slices;        /* the timeline's slices (timeline.c); NULL without one */
  size_t nslices;
  bool has_timeline;
  /* tasks (tasks.c): copied out of the live state */
  tally_task_profile *tasks;
  size_t ntasks;
  char (*task_names)[PROF_TASK_NAME];
  tally_task_func *task_funcs;
  uint64_t *task_store;       /* every task's total, then its functions' self and inclusive counts */
  char task_notes[PROF_TASK_NOTES][160];
  const char *task_note_ptrs[PROF_TASK_NOTES];
  size_t ntask_notes, task_notes_dropped;
  char tasks_source[384];
  tally_task_change *task_changes;
  size_t ntask_changes;
  uint64_t end_cycle;
  int task_changes_cut;
  uint64_t timeline_cut;      /* the cycle the timeline stopped at when it filled up, else 0 */
};

/* A snapshot of the profile so far. `lines` (may be NULL) is the program's
 * line table: with it the snapshot has per-line rows too. */
tally_profile *profile_snapshot(prof_state *st, const sym_table *syms, const sym_lines *lines, uint32_t entry,
                                uint64_t now, const uint64_t *totals);
void profile_free(tally_profile *p);
/* The function index of the one containing pc ("[unknown]" if none). */
int profile_func_of(const tally_profile *p, uint32_t pc);
/* The snapshot's slices from the live timeline (timeline.c), after the
 * functions and root_func are known; 0 (none without a timeline), or -1
 * when out of memory. */
int profile_build_slices(tally_profile *p, const prof_state *st, uint64_t now);
/* The snapshot's tasks from the live state (tasks.c); 0 or -1 (memory). */
int profile_build_tasks(tally_profile *p, const prof_state *st, uint64_t now);
void profile_stacks(const tally_profile *p, void (*fn)(void *, const char *const *, size_t, uint64_t),
                    void *ctx);

#endif
