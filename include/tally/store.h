/*
 * libtally: stored runs.
 *
 * Statistics-module runs are kept in one SQLite file (written by
 * tally_measure_store or a tally_collector; `tally report` prints them).
 * Per run: who ran what, each counter's (signal, where) pair in plain
 * words, every interval received (once), the board's totals, and the
 * verdict: complete, incomplete (never to be reported as whole) or still
 * running.
 *
 *   tally_error err;
 *   tally_store *s = tally_store_open(tally_store_default_path(), false, &err);
 *   uint64_t id;
 *   tally_store_latest(s, &id, &err);
 *   tally_store_totals t;
 *   tally_store_get_totals(s, id, &t, &err);   // t.whole: can be reported as whole
 *   ...
 *   tally_store_totals_clear(&t);
 *   tally_store_close(s);
 *
 * Strings and arrays returned belong to the returned structs and are freed
 * with the matching free or clear function. Calls return 0 on success, 1
 * for "found" where noted, -1 with err on failure. A store is used by one
 * thread at a time; several stores (connections) may open one file.
 */
#ifndef TALLY_STORE_H
#define TALLY_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tally/tally.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tally_store tally_store;

typedef enum tally_store_status {
  TALLY_STORE_RUNNING = 0,
  TALLY_STORE_COMPLETE = 1,
  TALLY_STORE_INCOMPLETE = 2,
} tally_store_status;

/* $TALLY_DB if set and not empty, else "tally.db". */
const char *tally_store_default_path(void);
/* "running", "complete", "incomplete" */
const char *tally_store_status_name(tally_store_status s);

/* Opens the store at path. create: make the file and its schema if
 * missing; otherwise a missing file, a file that is not a tally store, or
 * one written by a newer tally is an error. */
tally_store *tally_store_open(const char *path, bool create, tally_error *err);
void tally_store_close(tally_store *s);

typedef struct tally_store_run {
  uint64_t run_id;
  char *program, *core;            /* NULL when not known */
  uint32_t counters, width, arrs;  /* module parameters, 0 when not known */
  uint64_t period;                 /* dispatch period in cycles, 0 when not known */
  double freq_mhz;                 /* 0 when not known */
  char *started;                   /* UTC "2026-11-22T07:29:00.123Z": first seen */
  char *finished;                  /* UTC, NULL while running */
  tally_store_status status;
  char *note;                      /* the verdict's note, NULL if none */
  bool has_intervals_sent;         /* the board's final count is known */
  uint64_t intervals_sent;
  uint64_t received;               /* data packets stored */
  uint64_t duplicates;             /* repeats ignored */
  uint64_t intervals;              /* distinct interval indexes stored */
} tally_store_run;

/* Every run, in the order first seen. */
int tally_store_list(tally_store *s, tally_store_run **runs, size_t *n, tally_error *err);
void tally_store_list_free(tally_store_run *runs, size_t n);
/* One run: 1 found, 0 no such run, -1 error. */
int tally_store_get_run(tally_store *s, uint64_t run_id, tally_store_run *run, tally_error *err);
void tally_store_run_clear(tally_store_run *run);
/* The run seen last: 1, 0 when the store has none, -1 error. */
int tally_store_latest(tally_store *s, uint64_t *run_id, tally_error *err);
/* Removes a run and everything stored for it: 1 removed, 0 no such run. */
int tally_store_delete(tally_store *s, uint64_t run_id, tally_error *err);

typedef struct tally_store_counter {
  uint32_t index;
  char *signal;                    /* "dcache.read_miss" */
  bool anywhere;
  uint32_t lo, hi;
  char *where, *label;             /* "MixColumns", "data-cache read misses in MixColumns"; NULL if not given */
  bool enabled;
  const char *task;                /* a task counter's task (the end of where: "MixColumns%alpha"), or NULL */
} tally_store_counter;

/* A run's configured counters, by index. */
int tally_store_counters(tally_store *s, uint64_t run_id, tally_store_counter **c, size_t *n, tally_error *err);
void tally_store_counters_free(tally_store_counter *c, size_t n);

/* One stored interval, its chunks put together. */
typedef struct tally_store_interval {
  uint64_t index, cycle_begin, cycle_end;
  uint32_t n;                      /* counters */
  const uint64_t *values;          /* [n]; 0 where not present */
  const uint8_t *saturated;        /* [n] */
  const uint8_t *present;          /* [n]: 1 where a stored packet carried the counter */
  bool whole;                      /* every counter present exactly once */
} tally_store_interval;

/* Calls fn for each stored interval in index order; fn returns nonzero to
 * stop the walk (that value is then returned). */
int tally_store_each_interval(tally_store *s, uint64_t run_id,
                              int (*fn)(void *ctx, const tally_store_interval *iv), void *ctx, tally_error *err);

/* A run's totals and the verification of what is stored against them. */
typedef struct tally_store_totals {
  uint32_t n;                      /* counters */
  uint64_t *stored;                /* [n] sums of the stored intervals */
  uint64_t *saturated;             /* [n] intervals in which the counter saturated */
  bool has_board;                  /* the board's totals are known (the run was finished) */
  uint32_t nboard;
  uint64_t *board;                 /* [n] the board's totals */
  uint64_t intervals_whole;        /* interval indexes with every counter present once */
  uint64_t intervals_partial;      /* indexes missing some counters */
  uint64_t overlaps;               /* counters carried twice for one interval */
  uint64_t missing;                /* indexes below the board's count with no data at all */
  uint64_t first_missing;          /* the lowest such (when missing > 0) */
  uint64_t beyond;                 /* indexes at or past the board's count */
  bool whole;                      /* finished, every interval whole, no overlaps, sums equal the board's */
} tally_store_totals;

/* Reads a run's totals and verifies the stored intervals against them. */
int tally_store_get_totals(tally_store *s, uint64_t run_id, tally_store_totals *t, tally_error *err);
void tally_store_totals_clear(tally_store_totals *t);

#ifdef __cplusplus
}
#endif

#endif
