/*
 * libtally: exports.
 *
 * Profile exports: the files other tools read, from a profile snapshot
 * (tally_profile_take): gprof's gmon.out, Callgrind, tally's JSON profile
 * (docs/profile.md), speedscope, folded stacks (flame graphs), CSV.
 * Run exports: a stored run (tally/store.h) as the table `tally report`
 * prints, CSV or JSON (docs/tally-report.md has the layouts).
 *
 * Each writes to a FILE* the caller opened, or into a buffer in memory
 * (the _mem forms: *buf is malloc'ed and NUL-terminated, *len its length
 * without the NUL; free it with free()). Calls return 0, or -1 with err
 * (the stream failed, memory ran out, the run cannot be read). A run
 * export of a run that is not whole says so in its output, and returns
 * TALLY_EXPORT_NOT_WHOLE instead of 0.
 */
#ifndef TALLY_EXPORT_H
#define TALLY_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tally/store.h"
#include "tally/tally.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Profiles ------------------------------------------------------------ */

typedef enum tally_profile_format {
  TALLY_PROFILE_JSON,          /* tally's own (docs/profile.md) */
  TALLY_PROFILE_CSV,           /* the flat profile, one row per function */
  TALLY_PROFILE_LINES_CSV,     /* one row per (function, source line): tally_profile_lines_enable */
  TALLY_PROFILE_FOLDED,        /* "main;f;g 1234": flame graphs, cycles */
  TALLY_PROFILE_SPEEDSCOPE,    /* speedscope.app, cycle weights */
  TALLY_PROFILE_CALLGRIND,     /* callgrind_annotate, KCachegrind */
  TALLY_PROFILE_GMON,          /* gprof's gmon.out (binary; seconds at the core clock) */
  TALLY_PROFILE_GMON_CYCLES,   /* gmon.out counting cycles (exact, or an error if it cannot be) */
} tally_profile_format;

/* "json", "csv", "lines-csv", "folded", "speedscope", "callgrind", "gmon",
 * "gmon-cycles" -> format; -1 if none. */
int tally_profile_format_lookup(const char *name);

/* What the exports say about the run besides the profile itself. */
typedef struct tally_run_info {
  const char *program;         /* path of the ELF as given */
  int argc;                    /* the program's command line, argv[0] first */
  char *const *argv;
  const char *core;            /* core model name */
  double clock_hz;             /* core clock at the start of the run */
  uint64_t cycles;             /* tally_cycles at the end */
  uint64_t instret;
  const char *stop;            /* "exit", "limit", "trap", "halt", "error" */
  const char *stop_detail;     /* tally_stop_detail */
  int exit_status;
  bool lines;                  /* the JSON carries the per-line rows */
  /* Callgrind's events: NULL for the default set (cycles, instructions,
   * I-cache misses, D-cache read and write misses, mispredicted branches,
   * stall cycles), "all" for every signal with a count, or signal names
   * separated by commas (tally_signal_lookup's), in that order. */
  const char *events;
} tally_run_info;

/* Fills info from the simulation as it is now (program and argv are the
 * caller's to set). */
void tally_run_info_from(tally_sim *sim, tally_stop stop, int exit_status, tally_run_info *info);

/* Writes one format. On success err->msg is "" or a note worth showing
 * (gmon.out: "histogram scaled to fit gprof's 16-bit bins: ..."). */
int tally_export_profile(const tally_profile *p, const tally_run_info *run, tally_profile_format fmt, FILE *f,
                         tally_error *err);
/* One task's gmon.out (fmt TALLY_PROFILE_GMON or TALLY_PROFILE_GMON_CYCLES)
 * of a task-aware profile: `task` indexes tally_profile_tasks. Its
 * histogram holds each function's self cycles in the task (exact per
 * function; within a function its instructions share them in the whole
 * run's proportions), its arcs the calls made while the task ran (the
 * function a task began in: called from <spontaneous>). TALLY_E_USAGE for
 * another format or a task the profile does not have. */
int tally_export_profile_task(const tally_profile *p, const tally_run_info *info, tally_profile_format fmt,
                              size_t task, FILE *f, tally_error *err);
int tally_export_profile_mem(const tally_profile *p, const tally_run_info *run, tally_profile_format fmt,
                             char **buf, size_t *len, tally_error *err);

/* A copy of an RV32 ELF for gprof: GNU gprof (binutils up to 2.40 at
 * least) reads a clone's name (med3.constprop.0) on into the next string
 * of the string table, and on RISC-V that is usually the mapping symbol
 * "$x", so it drops the clone and charges its time and calls to the
 * function before it. The copy gives each such name a string of its own
 * (a second string table appended to the file); nothing else changes.
 * Returns how many names gprof would have dropped (0: the copy reads as
 * the original), their names in `names` (comma-separated, cut to size;
 * may be NULL), or -1 with err. With out NULL, only counts. */
int tally_export_gprof_elf(const char *elf, const char *out, char *names, size_t size, tally_error *err);

/* The profile as text for people, as `tally profile` prints it. */
typedef struct tally_profile_text_opts {
  const char *program;         /* the heading line names it; NULL: no heading */
  const int *signals;          /* columns (signal ids) */
  int nsignals;
  int sort;                    /* signal the functions and lines are sorted by */
  size_t top;                  /* rows shown, 0 = all */
  bool lines;                  /* the line profile too (tally_profile_lines_enable before the run) */
  bool callgraph;              /* arcs with exact calls, inclusive cycles and call sites */
  double sample_seconds;       /* > 0: the sampler's shares against the exact ones (its period) */
  const char *annotate;        /* a function's disassembly with per-instruction counts, or NULL */
} tally_profile_text_opts;

/* Returns 0, or 1 when the function to annotate does not exist (err says
 * so; everything else is written). */
int tally_export_profile_text(const tally_sim *sim, const tally_profile *p, const tally_profile_text_opts *o,
                              FILE *f, tally_error *err);

/* Two JSON profiles (TALLY_PROFILE_JSON files) compared function by
 * function, as `tally diff` prints them: A, B, B - A and B / A, largest
 * change first. */
typedef enum tally_diff_measure {
  TALLY_DIFF_SELF,             /* a signal's self counts */
  TALLY_DIFF_INCLUSIVE,        /* inclusive cycles */
  TALLY_DIFF_CALLS,            /* calls */
} tally_diff_measure;

/* signal: for TALLY_DIFF_SELF (NULL: "cycle"); top: rows shown, 0 = all.
 * TALLY_E_INPUT when a profile cannot be read or lacks the signal. */
int tally_export_profile_diff(const char *a_json, const char *b_json, tally_diff_measure measure, const char *signal,
                              uint64_t top, FILE *f, tally_error *err);

/* ---- Timelines: Perfetto and Chromium's trace viewer ------------------------
 * The Chrome JSON trace event format (ui.perfetto.dev, trace_processor,
 * chrome://tracing read it), written as a run goes: begin, any number of
 * the statistics module's intervals (a counter track per event), the
 * profile's call slices (tally_profile_timeline_enable), end. The time
 * axis is real time at run->clock_hz ("ts" and "dur" in microseconds to
 * the nanosecond, "displayTimeUnit" ns; each slice's exact cycles in its
 * args); one cycle per microsecond when no clock is known.
 * docs/tally-trace.md, "Timelines". */
typedef struct tally_perfetto tally_perfetto;

/* Starts the file (run may be NULL). NULL with err when out of memory. */
tally_perfetto *tally_perfetto_begin(FILE *f, const tally_run_info *run, tally_error *err);
/* One interval: counter labels[i] had values[i] from cycle_begin on
 * (tally_interval's cycle_begin and values; not the final record). */
void tally_perfetto_interval(tally_perfetto *w, uint64_t cycle_begin, uint32_t n, const uint64_t *values,
                             const char *const *labels);
/* Every slice of the profile's timeline, a complete event each. */
void tally_perfetto_slices(tally_perfetto *w, const tally_profile *p);
/* A task-aware profile's timeline (tally_profile_tasks_enable): a track
 * per task and trap context, a slice for each stretch it ran. */
void tally_perfetto_tasks(tally_perfetto *w, const tally_profile *p);
/* Ends the file and frees w: 0, or -1 with err when the stream failed. */
int tally_perfetto_end(tally_perfetto *w, tally_error *err);

/* ---- Programs ------------------------------------------------------------ */

/* The functions tally sees in a program, and its source lines, as
 * `tally symbols` prints them (a table, or JSON: docs/symbols.md). */
typedef struct tally_symbols_opts {
  const char *program;         /* the ELF; with map, the raw binary (it must exist) */
  const char *map;             /* a GNU ld map file naming the functions, or NULL */
  bool lines;                  /* the DWARF line table too */
  bool json;
  void (*warn)(void *ctx, const char *msg); /* "no DWARF line table", ...; may be NULL */
  void *ctx;
} tally_symbols_opts;

/* TALLY_E_INPUT when the program or map cannot be read. */
int tally_export_symbols(const tally_symbols_opts *o, FILE *f, tally_error *err);

/* ---- A run's end ----------------------------------------------------------- */

/* Cycles, CPI, time, energy, cache hit rates and every signal's total, as
 * `tally run --stats` prints them, or as JSON (`--stats-json`). */
int tally_export_stats(tally_sim *sim, bool json, int exit_status, FILE *f, tally_error *err);
/* The same with a task-aware profile of the run (tally_profile_tasks_enable;
 * NULL: as tally_export_stats): the JSON's interrupt sources get their
 * latencies per task that was running when the line rose (tally_irq_tasks). */
int tally_export_stats_tasks(tally_sim *sim, const tally_profile *p, bool json, int exit_status, FILE *f,
                             tally_error *err);

/* Why a run stopped: for TALLY_STOP_TRAP the cause, the PC as
 * symbol+offset, the instruction, mtval and every register; otherwise
 * where it stopped and why (NULL: tally_stop_detail). */
void tally_export_stop(const tally_sim *sim, tally_stop stop, const char *why, FILE *f);

/* A measured run's events (tally/run.h): the module's parameters, then
 * per event its counter, plain words, signal and where, as `tally run
 * --count` prints them above its table. */
struct tally_measure;
void tally_export_events(const struct tally_measure *m, FILE *f);

/* The signal catalog: id, name, when it is high, what a counter of it
 * counts (`tally signals`), or as a JSON array. 0, or -1 when f failed. */
int tally_export_signals(bool json, FILE *f);

/* ---- Stored runs ----------------------------------------------------------- */

#define TALLY_EXPORT_NOT_WHOLE 2

typedef enum tally_run_format {
  TALLY_RUN_TABLE,             /* for people, as `tally report RUN` prints it */
  TALLY_RUN_CSV,
  TALLY_RUN_JSON,
} tally_run_format;

enum { TALLY_RUN_INTERVALS = 1, TALLY_RUN_TOTALS = 2 }; /* parts, or'ed; 0 means both */

/* One stored run. db names the store in messages (may be NULL). parts 0:
 * both for the table and JSON, the intervals for CSV (which is one table:
 * not both). Returns TALLY_EXPORT_NOT_WHOLE with err->msg saying why
 * ("INCOMPLETE: 3 intervals missing ...") when the run is not whole. */
int tally_export_run(tally_store *s, const char *db, uint64_t run_id, tally_run_format fmt, unsigned parts, FILE *f,
                     tally_error *err);
int tally_export_run_mem(tally_store *s, const char *db, uint64_t run_id, tally_run_format fmt, unsigned parts,
                         char **buf, size_t *len, tally_error *err);

/* The list of stored runs (TALLY_RUN_TABLE as `tally report` lists them,
 * CSV, or a JSON array). */
int tally_export_runs(tally_store *s, const char *db, tally_run_format fmt, FILE *f, tally_error *err);

/* For clients writing their own tables around these: s as a JSON string
 * (quoted and escaped), and as one CSV field (quoted when it must be,
 * RFC 4180). */
void tally_json_string(FILE *f, const char *s);
void tally_csv_field(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif

#endif
