/*
 * Profile exports: the files other tools read, written from a profile
 * snapshot (tally_profile_take) through the public API only.
 *
 *   gmon.c          GNU gprof's gmon.out (histogram + call-graph arcs)
 *   callgrind.c     the Callgrind format (callgrind_annotate, KCachegrind)
 *   profile_json.c  tally's own JSON profile (docs/profile.md has the schema),
 *                   and reading it back for `tally diff`
 *   speedscope.c    speedscope's file format (sampled profile, cycle weights)
 *   folded.c        folded stacks ("a;b;c N") for flame graphs
 *   csv.c           the flat profile, or the per-line profile, as CSV (and
 *                   csv.h: the field quoting the CLI tables share)
 *   json.c          a small JSON reader (for profile_json.c)
 *   common.c        what several of them share
 *
 * Writers return 0, or -1 when the stream failed (errno set) or memory ran
 * out; the caller opens and closes the file and names it in the message.
 */
#ifndef TALLY_REPORT_EXPORT_H
#define TALLY_REPORT_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tally/export.h"
#include "tally/tally.h"

/* What the exports say about the run besides the profile itself: the
 * public description (tally/export.h), under the name the writers use. */
typedef tally_run_info report_run;

/* How the rows of instructions without line information are named. */
#define REPORT_NO_LINE "[no line info]"

/* A signal's total at one instruction, like tally_profile_at, but with the
 * derived signal "stall" (the sum of the stall.* signals) computed per
 * instruction as the function totals compute it. */
uint64_t report_at(const tally_profile *p, uint32_t pc, int signal);

/* ---- gmon.out ----------------------------------------------------------- */
typedef enum report_gmon_unit {
  REPORT_GMON_SECONDS, /* counts at the core clock: gprof prints seconds */
  REPORT_GMON_CYCLES,  /* one count per cycle: gprof prints cycles */
} report_gmon_unit;

/* How gmon.c fits the exact per-instruction cycles into 16-bit bins. */
typedef struct report_gmon_layout {
  uint32_t lo, hi;         /* histogram range, one bin per 2 bytes */
  uint64_t divisor;        /* cycles per histogram count (1 = exact) */
  uint32_t rate;           /* the record's profiling rate (counts per unit) */
  uint32_t records;        /* histogram records of the same range, summed by gprof */
} report_gmon_layout;

typedef struct report_gmon_opts {
  report_gmon_unit unit;
  uint64_t max_bytes;      /* histogram bytes allowed before scaling; 0 = 8 MiB */
  bool one_task;           /* only task `task` of a task-aware profile (tally_profile_tasks), not the run */
  size_t task;
} report_gmon_opts;

/* Writes gmon.out; `layout` (may be NULL) tells how the histogram came out.
 * Fails with errno EFBIG when the cycles unit cannot be kept exact, EINVAL
 * for a task the profile does not have. With opts->one_task, the histogram holds
 * each function's self cycles in that task (exact per function; within a
 * function, its instructions share them in the whole run's proportions) and
 * the arcs are the calls made while the task ran. */
int report_write_gmon(const tally_profile *p, const report_run *run, const report_gmon_opts *opts, FILE *f,
                      report_gmon_layout *layout);

/* ---- the others ---------------------------------------------------------- */
int report_write_callgrind(const tally_profile *p, const report_run *run, FILE *f);
/* The same with the tasks as root frames (callgrind_tasks.c). */
int report_write_callgrind_tasks(const tally_profile *p, const report_run *run, FILE *f);
/* The header both start with (callgrind.c): format, command, the run's
 * desc lines and one more (`note`), positions, the events `ev` (signal
 * ids, nev of them), up to and including the "ob=" line. */
void report_callgrind_header(FILE *f, const report_run *run, const char *note, const int *ev, int nev);
int report_write_json(const tally_profile *p, const report_run *run, FILE *f);
int report_write_speedscope(const tally_profile *p, const report_run *run, FILE *f);
int report_write_folded(const tally_profile *p, FILE *f);
int report_write_csv(const tally_profile *p, FILE *f);
/* The per-line profile as CSV (tally_profile_lines). */
int report_write_lines_csv(const tally_profile *p, FILE *f);

/* ---- reading a JSON profile back (tally diff) ---------------------------- */
typedef struct report_func {
  char *name;
  uint64_t calls, inclusive_cycles;
  uint64_t *self;          /* one per name in report_profile.signals */
} report_func;

typedef struct report_profile {
  char *program, *core;
  size_t nsignals;
  char **signals;          /* signal names, in the file's order */
  uint64_t *totals;        /* per signal */
  size_t nfuncs;
  report_func *funcs;
} report_profile;

/* Reads a profile written by report_write_json. NULL with `err` saying
 * what and where (file, line) when the file is unreadable or not one. */
report_profile *report_read_json(const char *path, char *err, size_t errsize);
void report_profile_free(report_profile *p);
/* Index of a signal in the profile, -1 if absent. */
int report_profile_signal(const report_profile *p, const char *name);

/* ---- two JSON profiles compared (profile_diff.c, tally diff) ------------- */

typedef enum { BY_SIGNAL, BY_INCLUSIVE, BY_CALLS } diff_measure;
#define REPORT_DIFF_INPUT (-2) /* a profile cannot be read, or lacks the signal */

/* Writes the comparison (top 0: every function). 0; REPORT_DIFF_INPUT or
 * -1 (memory) with err saying what. */
int report_profile_diff(const char *path_a, const char *path_b, diff_measure m, const char *signal, uint64_t top,
                        FILE *out, char *err, size_t errsize);

#endif
