/*
 * The store: statistics-module runs kept in one SQLite file.
 *
 * What is kept, per run: who ran what (program, core model, module
 * parameters, dispatch period), each counter's configuration with the plain
 * names of its (signal, where) pair, every interval received (once, however
 * often it arrived), the final totals the board reported, and whether the
 * run is complete (every interval present and the sums equal the board's
 * totals), incomplete (data could not be completed; never reported as whole)
 * or still running.
 *
 * Writes are batched into transactions; store_flush commits what is pending.
 * Every function returns 0 on success, -1 on failure with the reason in the
 * store's last error (store_error).
 */
#ifndef TALLY_STORE_STORE_H
#define TALLY_STORE_STORE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct store store;

typedef enum store_run_status {
  STORE_RUN_RUNNING = 0,
  STORE_RUN_COMPLETE = 1,
  STORE_RUN_INCOMPLETE = 2,
} store_run_status;

typedef struct store_run_info {
  uint64_t run_id;        /* chosen by the board, unique per run */
  const char *program;    /* path or name of the program, may be NULL */
  const char *core;       /* core model name, may be NULL */
  uint32_t counters, width, arrs;
  uint64_t period;        /* dispatch period in core cycles */
  double freq_mhz;        /* core clock at start, 0 if unknown */
} store_run_info;

typedef struct store_counter_info {
  uint32_t index;
  const char *signal;     /* catalog name, e.g. "dcache.read_miss" */
  bool anywhere;          /* no address restriction */
  uint32_t lo, hi;        /* PC range [lo, hi) when !anywhere */
  const char *where;      /* e.g. "MixColumns", "0x80000100-0x80000180", "anywhere" */
  const char *label;      /* plain words, e.g. "data-cache read misses in MixColumns" */
  bool enabled;
} store_counter_info;

/* The database `tally run`, `tally collect` and `tally report` use when not
 * given --db: $TALLY_DB if set and not empty, else STORE_DEFAULT_PATH in the
 * working directory. */
#define STORE_DEFAULT_PATH "tally.db"
const char *store_default_path(void);

/* Opens (creating if needed) the database at path. NULL on failure, with
 * the reason in err. */
store *store_open(const char *path, char *err, unsigned errlen);
void store_close(store *s);
const char *store_error(const store *s);

/* Creates the run, or updates its description if run_id is known (fields
 * given as NULL or 0 keep what is already stored). */
int store_begin_run(store *s, const store_run_info *run);
int store_set_counter(store *s, uint64_t run_id, const store_counter_info *c);

/* One data packet's worth of an interval: counters [first, first + n).
 * A repeat of an already stored (run, seq) is ignored (returns 0 and sets
 * *duplicate if non-NULL). */
int store_add_interval(store *s, uint64_t run_id, uint32_t seq, uint64_t index,
                       uint64_t cycle_begin, uint64_t cycle_end, uint32_t first, uint32_t n,
                       const uint64_t *values, const uint8_t *saturated, bool *duplicate);

/* Closes a run: the board's totals for counters [0, n), the number of data
 * intervals it sent, and the verdict with a one-line note (e.g. which
 * sequence numbers are missing). */
int store_finish_run(store *s, uint64_t run_id, store_run_status status, const uint64_t *totals,
                     uint32_t n, uint64_t intervals, const char *note);

/* Commits pending writes. */
int store_flush(store *s);

/* Batching: a transaction is committed after `rows` writes or once it is
 * `ms` milliseconds old (checked at each write), whichever comes first, and
 * by store_flush, store_finish_run and store_close. Defaults: 4096 rows,
 * 200 ms. rows >= 1. */
int store_set_batch(store *s, uint32_t rows, uint32_t ms);

#endif
