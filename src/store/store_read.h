/*
 * Reading the store back, for reports: the runs, a run's counters, its
 * intervals in order with their values, and its totals with the verdict.
 *
 * Strings returned are owned by the returned structs and freed with the
 * matching free function. Functions return 0 on success (1 for "found" where
 * noted) and -1 on failure with the reason in store_error.
 */
#ifndef TALLY_STORE_STORE_READ_H
#define TALLY_STORE_STORE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* Opens an existing store for reading: never creates the file or the
 * schema. NULL with the reason in err when the file is missing, is not an
 * SQLite database, is not a tally store, or was written by a newer tally. */
store *store_open_existing(const char *path, char *err, unsigned errlen);

typedef struct store_run_view {
  uint64_t run_id;
  char *program, *core;            /* NULL when not known */
  uint32_t counters, width, arrs;  /* module parameters, 0 when not known */
  uint64_t period;                 /* dispatch period in cycles, 0 when not known */
  double freq_mhz;                 /* 0 when not known */
  char *started;                   /* UTC, "2026-11-22T07:29:00.123Z": first seen */
  char *finished;                  /* UTC, NULL while running */
  store_run_status status;
  char *note;                      /* the verdict's note, NULL if none */
  bool has_intervals_sent;         /* the board's final count is known */
  uint64_t intervals_sent;
  uint64_t received;               /* data packets stored */
  uint64_t duplicates;             /* repeats ignored */
  uint64_t intervals;              /* distinct interval indexes stored */
} store_run_view;

/* All runs, in the order they were first seen. */
int store_list_runs(store *s, store_run_view **runs, size_t *n);
void store_runs_free(store_run_view *runs, size_t n);
/* One run: 1 if found, 0 if there is no such run, -1 on error. */
int store_get_run(store *s, uint64_t run_id, store_run_view *run);
void store_run_view_clear(store_run_view *run);
/* The run seen last: 1 if any, 0 if the store has no runs, -1 on error. */
int store_latest_run(store *s, uint64_t *run_id);
/* The status a run has now (e.g. for a collector after finishing it):
 * 1 if found, 0 if no such run. */
int store_run_status_of(store *s, uint64_t run_id, store_run_status *status);

typedef struct store_counter_view {
  uint32_t index;
  char *signal;
  bool anywhere;
  uint32_t lo, hi;
  char *where, *label;             /* NULL if not given */
  bool enabled;
  const char *task;                /* a task counter's task (where's "%TASK" end: "main%alpha",
                                      "%alpha"; docs/statmod.md, "Task counters"), or NULL */
} store_counter_view;

/* A run's configured counters, by index. */
int store_get_counters(store *s, uint64_t run_id, store_counter_view **counters, size_t *n);
void store_counters_free(store_counter_view *counters, size_t n);

/* One interval, its chunks put together. */
typedef struct store_interval_view {
  uint64_t index, cycle_begin, cycle_end;
  uint32_t n;                      /* counters (the run's; see store_each_interval) */
  const uint64_t *values;          /* [n]; 0 where not present */
  const uint8_t *saturated;        /* [n] */
  const uint8_t *present;          /* [n]: 1 where a stored chunk carried the counter */
  bool whole;                      /* every counter present exactly once */
} store_interval_view;

/* Returns nonzero to stop the walk (store_each_interval then returns it). */
typedef int (*store_interval_fn)(void *ctx, const store_interval_view *iv);

/* Calls fn for each stored interval of the run in index order. n is the
 * run's counter count, or when that is unknown the highest counter any
 * chunk carries, plus one. */
int store_each_interval(store *s, uint64_t run_id, store_interval_fn fn, void *ctx);

/* One stored data packet (a chunk of an interval), as the collector wrote
 * it: values of counters [first, first + n). */
typedef struct store_chunk_view {
  uint32_t seq;
  uint64_t index;
  uint32_t first, n;
  const uint64_t *values;          /* [n] */
} store_chunk_view;

typedef int (*store_chunk_fn)(void *ctx, const store_chunk_view *ch);

/* Calls fn with each stored chunk of the run, in sequence-number order (a
 * collector restarted mid-run takes up what its predecessor stored). A
 * nonzero return from fn stops the walk and is returned. Chunks wider than
 * max_counters are damage: -1. */
int store_each_chunk(store *s, uint64_t run_id, uint32_t max_counters, store_chunk_fn fn, void *ctx);

/* A run's totals and what the stored intervals say about them. */
typedef struct store_totals_view {
  uint32_t n;                      /* counters */
  uint64_t *stored;                /* [n] sums of the stored intervals' values */
  uint64_t *saturated;             /* [n] intervals in which the counter saturated */
  bool has_board;                  /* the board's totals are known (the run was finished) */
  uint32_t nboard;                 /* how many the board sent */
  uint64_t *board;                 /* [n] the board's totals, 0 past nboard */
  uint64_t intervals_whole;        /* interval indexes with every counter present once */
  uint64_t intervals_partial;      /* interval indexes missing some counters */
  uint64_t overlaps;               /* counters carried twice for one interval */
  uint64_t missing;                /* indexes below the board's count with no data at all */
  uint64_t first_missing;          /* the lowest such index (when missing > 0) */
  uint64_t beyond;                 /* interval indexes stored at or past the board's count */
  bool whole;                      /* the run can be reported as whole: finished, every
                                      interval whole, no overlaps, sums equal the board's */
} store_totals_view;

int store_get_totals(store *s, uint64_t run_id, store_totals_view *t);
void store_totals_clear(store_totals_view *t);

/* Removes a run and everything stored for it, in one transaction:
 * 1 removed, 0 no such run, -1 error. */
int store_delete_run(store *s, uint64_t run_id);

/* "running", "complete", "incomplete" */
const char *store_status_name(store_run_status status);

#endif
