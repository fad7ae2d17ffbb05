/*
 * Inside a measured run (include/tally/run.h): the measure itself
 * (measure.c: events, results, running) and where its intervals go
 * (measure_net.c: the real board link over UDP to a collector, either one
 * embedded in this process, a thread polling the real collector into the
 * SQLite store through an in-process pipe, or a remote `tally collect`;
 * and control packets applied to the module).
 *
 * The embedded form is the two-machine form with a pipe in between: the
 * same packets, the same gap detection and resends, the same verdict.
 */
#ifndef TALLY_API_MEASURE_INTERNAL_H
#define TALLY_API_MEASURE_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "../statmod/statmod.h"
#include "tally/run.h"

#define MEASURE_LABEL_MAX 320
#define MEASURE_MAX_CALLBACKS 4
#define MEASURE_SLICE 1000000ull   /* instructions between looks at the cancel flag */

typedef struct measure_net measure_net;

/* The last module change (statmod_schedule's k) of each tally_measure_at. */
typedef struct measure_at {
  uint32_t *last;
  uint32_t n, cap;
} measure_at;

typedef struct measure_callback {
  tally_interval_fn fn;
  void *ctx;
} measure_callback;

struct tally_measure {
  tally_sim *sim;
  statmod *sm;
  tally_measure_params p;
  /* events: one per counter used, in the order added */
  uint32_t n;
  tally_event_info *ev;            /* [p.counters] */
  char (*label)[MEASURE_LABEL_MAX];
  char (*where)[MEASURE_LABEL_MAX];
  char (*arr_name)[MEASURE_LABEL_MAX]; /* [p.arrs]: the function an ARR was chosen as, or "" */
  statmod_arr *arr_range;          /* [p.arrs]: the range each ARR up to arrs_used was given for events */
  uint32_t arrs_used;
  /* an interval in event order, for the callbacks */
  uint64_t *vals;
  uint8_t *sat;
  measure_callback cb[MEASURE_MAX_CALLBACKS];
  int ncb;
  measure_net *net;
  void (*warn_fn)(void *ctx, const char *msg);
  void *warn_ctx;
  bool started, finished;
  /* progress and cancel: read and written from other threads */
  atomic_uint_fast64_t prog_instret, prog_cycles, prog_intervals;
  atomic_int cancel;
  measure_at at;                   /* tally_measure_at, in the order given */
  char task_spec[128];             /* tally_measure_tasks: how tasks are found ("": auto) */
  bool tasks_on;                   /* the module follows the running task */
  /* the result's strings */
  char note[1024];
};

/* Sets an ARR's function name (control packets name it too). */
void measure_set_arr_name(tally_measure *m, uint32_t arr, const char *name);
const char *measure_arr_name(const tally_measure *m, uint32_t arr);
/* Takes the module's configuration as it is now as the events: one per
 * enabled counter (after control packets configured it). */
void measure_configured(tally_measure *m);
/* Fills the plain words of a counter's configuration. Returns the signal's
 * catalog name. */
const char *measure_words(const tally_measure *m, uint32_t counter, char *label, size_t lsize, char *where,
                          size_t wsize, bool *anywhere, uint32_t *lo, uint32_t *hi);

/* The task register for task `name` (one already holding it, else the
 * next free one, set now), with the task layer turned on if it is not:
 * 0 and *reg, or -1 with err (text names the spec). */
int measure_tasks_on(tally_measure *m, tally_error *err);
int measure_task_reg(tally_measure *m, const char *text, const char *name, uint8_t *reg, tally_error *err);

/* The range [lo, hi) of a function (or of the named regions "inst" and
 * "program" of an instrumented program); text names the spec in err. */
int measure_where(const tally_measure *m, const char *text, const char *func, uint32_t *lo, uint32_t *hi,
                  tally_error *err);
/* The ARR for ev's range [lo, hi): one already holding it under the same
 * name, else the next free one (*fresh), set in the module now if set_now
 * (else the caller sets it when its change comes). */
int measure_take_arr(tally_measure *m, const tally_event *ev, bool set_now, uint32_t *arr, bool *fresh,
                     tally_error *err);


/* ---- measure_net.c ---- */

/* The embedded store and collector (db NULL: the default path). */
int mnet_store(tally_measure *m, const char *db, tally_error *err);
/* A remote collector. */
int mnet_remote(tally_measure *m, const char *addr, tally_error *err);
/* The key of the stream and control (a file or an environment variable),
 * before the board link is opened. */
int mnet_key(tally_measure *m, const char *key_file, const char *key_env, tally_error *err);
int mnet_key_bytes(tally_measure *m, const void *key, size_t len, tally_error *err);
/* Control packets: loads the key (key: a file, or NULL for the one
 * mnet_key set, if any), opens the board link. */
int mnet_control(tally_measure *m, const char *addr, const char *key, tally_error *err);
const char *mnet_control_addr(const measure_net *n);
/* Opens the board link if not yet (tally_measure_start), describes the run
 * and starts the embedded collector's thread. */
int mnet_begin(tally_measure *m, const char *program, const char *core, tally_error *err);
/* --control: blocks until START or *cancel (1). */
int mnet_wait_start(tally_measure *m, const char *program, const char *core, const volatile int *cancel,
                    tally_error *err);
uint64_t mnet_run_id(const measure_net *n);
/* The program did not run to its end: the final packets say so. */
void mnet_cut_short(measure_net *n);
/* After the final record went out: the verdict into res; a stopped
 * program's run recorded incomplete with `why`. -1 with err when the store
 * failed. */
int mnet_finish(tally_measure *m, const char *why, tally_measure_result *res, tally_error *err);
void mnet_free(measure_net *n);

#endif
