/*
 * libtally: a measured run.
 *
 * A tally_measure is the statistics module (docs/statmod.md) watching one
 * simulation, and where its per-interval counts go: kept by an embedded
 * collector in a SQLite store, sent to a remote `tally collect`, handed to
 * a callback, or any of these together. It is what `tally run --count`
 * does, as a library object: the CLI, `tally serve` and the tools all use
 * these calls.
 *
 *   tally_sim *sim = tally_sim_new(NULL);
 *   tally_error err;
 *   tally_load_elf(sim, "aes.elf", &err);
 *   tally_set_core(sim, "tally5", NULL, 0, &err);
 *
 *   tally_measure_params p;
 *   tally_measure_params_default(&p);
 *   p.interval = 100000;                            // dispatch every 100,000 cycles
 *   tally_measure *m = tally_measure_new(sim, &p, &err);
 *   tally_measure_add(m, "dcache.read_miss@MixColumns", &err);
 *   tally_measure_add(m, "cycle@main", &err);
 *   tally_measure_store(m, "runs.db", &err);        // or tally_measure_collector, or neither
 *   tally_measure_on_interval(m, plot_point, ctx);  // optional
 *   tally_measure_start(m, "aes.elf", "tally5", &err);
 *   tally_stop why;
 *   while ((why = tally_measure_run(m, 10000000)) == TALLY_STOP_LIMIT)
 *     ;                                             // show progress, check a deadline...
 *   tally_measure_result res;
 *   tally_measure_finish(m, why == TALLY_STOP_EXIT ? NULL : "stopped", &res, &err);
 *   for (uint32_t i = 0; i < tally_measure_events(m); i++)
 *     printf("%s: %llu\n", tally_measure_event(m, i)->label, ...total...);
 *   tally_measure_free(m);
 *   tally_sim_free(sim);
 *
 * Errors: calls that can fail return 0 (or an object) on success and -1
 * (NULL) with err saying what and which ("--count 'x@main': unknown signal
 * 'x'"); err may be NULL. A call that fails changes nothing.
 *
 * Threading: one thread drives a measure and its simulation (every call
 * below) except tally_measure_cancel and tally_measure_progress, which may
 * be called from any thread while tally_measure_run runs. Interval
 * callbacks run on the driving thread, inside tally_measure_run.
 */
#ifndef TALLY_RUN_H
#define TALLY_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tally/tally.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TALLY_MAX_COUNTERS 1024
#define TALLY_MAX_ARRS 256
#define TALLY_MAX_INTERVAL 0xFFFFFFFFull /* the dispatch timer is a 32-bit decrementer */

/* The module's "synthesis" parameters and its dispatch period. */
typedef struct tally_measure_params {
  uint32_t counters;   /* 1 .. TALLY_MAX_COUNTERS; default 16 */
  uint32_t width;      /* bits per counter, 1 .. 64; default 32 (a counter saturates per interval) */
  uint32_t arrs;       /* address range registers, 0 .. TALLY_MAX_ARRS; default 16 */
  uint64_t interval;   /* dispatch period in core cycles, 1 .. TALLY_MAX_INTERVAL; 0 = not set
                          (required before tally_measure_start, unless configured by control packets) */
} tally_measure_params;

void tally_measure_params_default(tally_measure_params *p);

/* One event: a signal, counted anywhere or only while the PC is in [lo, hi),
 * and whatever runs or only while one task runs. */
typedef struct tally_event {
  int signal;          /* tally_signal_lookup id */
  bool anywhere;
  uint32_t lo, hi;     /* [lo, hi) when !anywhere */
  const char *func;    /* the function the range was named by, or NULL (a range given by addresses) */
  const char *task;    /* the task (or trap context, "irq:7") it counts in, or NULL: whatever runs */
  char text[192];      /* where func and task point when the spec names a task */
} tally_event;

/* Parses a plain spec "SIGNAL", "SIGNAL@FUNCTION" or "SIGNAL@0xLO-0xHI"
 * (SIGNAL a catalog name or number), each optionally followed by "%TASK"
 * ("cycle@main%alpha": only while task alpha runs), or "SIGNAL@%TASK"
 * (anywhere, only while TASK runs). A function name is kept as given
 * (ev->func points into spec, or into ev->text with a task) and resolved
 * by tally_measure_add_event; lo = hi = 0 until then. Unknown signals get
 * up to four suggestions in err. Needs no simulation: for checking options
 * before loading. */
int tally_event_parse(const char *spec, tally_event *ev, tally_error *err);

typedef struct tally_measure tally_measure;

/* A module with these parameters attached to sim (which must have a core
 * model: tally_set_core first; and its program loaded, to name functions).
 * Nothing counted yet. The measure must be freed before the simulation. */
tally_measure *tally_measure_new(tally_sim *sim, const tally_measure_params *p, tally_error *err);
void tally_measure_free(tally_measure *m);

/* Adds an event from its plain spec (tally_event_parse), resolving a
 * function name through the program's symbols (or tally_load_map's).
 * Events take counters 0, 1, 2, ... in the order added; equal ranges share
 * one ARR. Fails when the module has no counter or ARR left (err says which
 * parameter to raise). */
int tally_measure_add(tally_measure *m, const char *spec, tally_error *err);
/* The same from numbers: ev->func, when given with !anywhere, is resolved
 * if lo == hi, else only names the range. */
int tally_measure_add_event(tally_measure *m, const tally_event *ev, tally_error *err);

/* Task counters (an event with a task) follow the running task through
 * the profile's task layer (tally_profile_tasks_enable; docs/profile.md,
 * "Tasks"), turned on when the first such event is added: spec is its
 * --tasks spec (NULL or "auto": the kernel conventions). Call before
 * adding one to choose another. */
int tally_measure_tasks(tally_measure *m, const char *spec, tally_error *err);
/* After the run: -1 with err when an event names a task that never ran
 * ("'cycle@%alpa': no task 'alpa' ran; the tasks seen: alpha, beta, idle,
 * irq:7"), 0 otherwise. Its counts (0) are still the run's. */
int tally_measure_check_tasks(const tally_measure *m, tally_error *err);

/* ---- Where the intervals go -------------------------------------------
 * Choose before tally_measure_start. Any combination; with none, the
 * results (tally_measure_event) are all there is. */

/* Keeps the run in the SQLite store at db_path (NULL: tally_store_default_path)
 * through a collector embedded in this process: the board link's real
 * packets, gap detection, resends and verdict, through an in-process pipe.
 * The file is created if missing. */
int tally_measure_store(tally_measure *m, const char *db_path, tally_error *err);

/* Sends the run to a remote collector (`tally collect`, tally_collector)
 * at ADDR:PORT over UDP. Not with tally_measure_store. */
int tally_measure_collector(tally_measure *m, const char *addr, tally_error *err);

/* The run's key (docs/protocol.md, "Authentication"): every packet of its
 * stream carries a tag, and only RESEND and FINAL_ACK with a right tag are
 * taken; control packets (tally_measure_control) need it too. key_file: a
 * file whose bytes are the key (16 to 1,024), or key_env: an environment
 * variable whose value's bytes are; exactly one. Call after
 * tally_measure_store or tally_measure_collector, before
 * tally_measure_control and tally_measure_start. The collector needs the
 * same key (tally_collector_cfg). Errors: TALLY_E_INPUT (unreadable, too
 * short or too long), TALLY_E_USAGE (order, or both or neither given). */
int tally_measure_key(tally_measure *m, const char *key_file, const char *key_env, tally_error *err);
/* The same with the key's bytes (16 to 1,024), e.g. read from a pipe the
 * collector's process handed down: it never passes through a file or the
 * environment. */
int tally_measure_key_bytes(tally_measure *m, const void *key, size_t len, tally_error *err);

/* One interval as the module delivered it. values[i] and saturated[i] are
 * event i's (the order of tally_measure_event); for the final record
 * (final == true), values are the run's totals, intervals the number of
 * data intervals, and cycle_begin/cycle_end span the run. */
typedef struct tally_interval {
  uint64_t index;                 /* 0, 1, 2, ... */
  uint64_t cycle_begin, cycle_end;/* the cycles [cycle_begin, cycle_end) */
  uint32_t n;                     /* events */
  const uint64_t *values;
  const uint8_t *saturated;       /* 1: the counter reached 2^width - 1 and stopped in this interval */
  bool final;
  uint64_t intervals;             /* final only */
} tally_interval;

typedef void (*tally_interval_fn)(void *ctx, const tally_interval *iv);

/* Calls fn for every interval and for the final record, on the driving
 * thread, in order. Up to 4 callbacks. */
int tally_measure_on_interval(tally_measure *m, tally_interval_fn fn, void *ctx, tally_error *err);

/* Warnings that end nothing ("the embedded collector stopped keeping up")
 * go to fn, which may be called from the embedded collector's thread; by
 * default they are dropped. */
void tally_measure_on_warning(tally_measure *m, void (*fn)(void *ctx, const char *msg), void *ctx);

/* ---- The paper's board: configuration by control packets ---------------
 * Instead of tally_measure_add: the module waits for authenticated control
 * packets (`tally config`, docs/protocol.md) on ADDR:PORT. key_path: a key
 * file (docs/tally-config.md), or NULL for unauthenticated control. Call
 * after tally_measure_store or tally_measure_collector (the run must go
 * somewhere). Errors: TALLY_E_INPUT for the key, TALLY_E_USAGE when the
 * address cannot be bound. */
int tally_measure_control(tally_measure *m, const char *addr, const char *key_path, tally_error *err);
/* The address control packets are taken on (port 0 resolved). */
const char *tally_measure_control_addr(const tally_measure *m);
/* Blocks until a control client sends START (the run is then described and
 * counting: the events are the enabled counters), or until *cancel becomes
 * nonzero (returns 1). 0 when started, -1 with err. program and core as
 * for tally_measure_start. */
int tally_measure_wait_start(tally_measure *m, const char *program, const char *core, const volatile int *cancel,
                             tally_error *err);

/* ---- Reconfiguration at a given cycle ----------------------------------
 * A change of the module's configuration in the middle of the run, at a
 * cycle given in advance: reproducible to the cycle, unlike a control
 * packet's arrival. `change` is one of
 *   "interval=N"          the dispatch period, from the timer's next reload
 *   "counter=I:SPEC"      event I (0, 1, ... in the order added) counts SPEC
 *                         (tally_event_parse) from then on; what it counted
 *                         so far in the interval stays in it
 *   "counter=I:off"       event I stops counting (it keeps what it has)
 *   "arr=J:WHERE"         address range register J is WHERE (a function or
 *                         0xLO-0xHI) from then on, for the counters using it
 * It is applied on the first instruction edge at or after `cycle` (after a
 * dispatch due there), with or without a cycle trace (which records it,
 * docs/cycle-trace.md). Before tally_measure_start; a new ARR that SPEC
 * needs is taken now. Returns k (0, 1, ... in the order given) for
 * tally_measure_at_applied, or -1 with err (TALLY_E_USAGE: what is wrong
 * and where). Results keep the events' first labels. */
int tally_measure_at(tally_measure *m, uint64_t cycle, const char *change, tally_error *err);
/* The cycle the k-th change was applied on, or UINT64_MAX if the run ended
 * before it. */
uint64_t tally_measure_at_applied(const tally_measure *m, uint32_t k);

/* ---- Running ----------------------------------------------------------- */

/* Describes the run to its destinations (program and core are the names
 * the store keeps; either may be NULL) and starts counting at the current
 * cycle. */
int tally_measure_start(tally_measure *m, const char *program, const char *core, tally_error *err);

/* Runs the simulation for at most max_insns more instructions, as tally_run
 * does, in slices so that tally_measure_cancel is seen within about a
 * million instructions (TALLY_STOP_CANCELLED). Call again on
 * TALLY_STOP_LIMIT to go on. */
tally_stop tally_measure_run(tally_measure *m, uint64_t max_insns);

/* Asks tally_measure_run to stop at the end of its current slice. Any
 * thread; async-signal-safe. */
void tally_measure_cancel(tally_measure *m);

typedef struct tally_progress {
  uint64_t instret;    /* instructions retired */
  uint64_t cycles;     /* core cycles */
  uint64_t intervals;  /* data intervals dispatched */
} tally_progress;

/* As of the end of the last slice. Any thread. */
void tally_measure_progress(const tally_measure *m, tally_progress *p);

/* What became of the run. */
typedef enum tally_run_verdict {
  TALLY_VERDICT_NONE = 0,    /* not stored nor sent (results only) */
  TALLY_VERDICT_COMPLETE,    /* every interval stored and the sums equal the board's totals */
  TALLY_VERDICT_INCOMPLETE,  /* stored, but never to be taken as whole: `note` says why */
  TALLY_VERDICT_UNKNOWN,     /* sent to a remote collector that did not acknowledge the end */
} tally_run_verdict;

typedef struct tally_measure_result {
  uint64_t run_id;           /* 0 when not stored nor sent */
  tally_run_verdict verdict;
  uint64_t intervals;        /* data intervals dispatched */
  uint64_t stored_intervals; /* intervals the store holds (embedded store only) */
  uint64_t packets_sent, resent; /* board link (store or collector) */
  const char *db;            /* the embedded store's path, or NULL */
  const char *collector;     /* the collector's address, or NULL */
  const char *note;          /* "" or what is missing or wrong */
  uint32_t control_bad_tags, control_stale, control_malformed; /* control packets refused */
  const char *spool;         /* a remote run no collector acknowledged: the spool file keeping its
                                packets ($TMPDIR or /tmp, tally-RUNID.spool) for `tally collect
                                --import`; NULL otherwise (the file is removed once acknowledged) */
  uint32_t replies_refused;  /* RESEND or FINAL_ACK the board did not take: without a right tag (keyed),
                                or an acknowledgement that does not answer its final packets */
} tally_measure_result;

/* Ends the run: counters freeze, the last interval and the final record go
 * out, the embedded collector's verdict is awaited. stopped_why: NULL when
 * the program ran to its end; otherwise why it did not ("--max-insns
 * reached", "cancelled", ...), and a stored run is then recorded as
 * incomplete with that reason. The result's strings live until
 * tally_measure_free. Returns 0, or -1 when the store could not keep the
 * run (result still filled; err says what). */
int tally_measure_finish(tally_measure *m, const char *stopped_why, tally_measure_result *res, tally_error *err);

/* ---- Results ----------------------------------------------------------- */

/* One event's description and, after tally_measure_finish, its total. */
typedef struct tally_event_info {
  uint32_t counter;          /* the module counter it runs on */
  const char *signal;        /* catalog name: "dcache.read_miss" */
  const char *label;         /* plain words: "data-cache read misses in MixColumns" */
  const char *where;         /* "MixColumns", "0x80000100-0x80000180" or "anywhere"; with a
                                task "MixColumns%alpha", "%alpha" */
  const char *task;          /* the task it counts in, or NULL: whatever runs */
  bool anywhere;
  uint32_t lo, hi;
  uint64_t total;            /* the run's total (0 before the final record) */
  bool saturated;            /* saturated in some interval: the total is a lower bound */
} tally_event_info;

/* Events configured (after tally_measure_wait_start: the enabled counters). */
uint32_t tally_measure_events(const tally_measure *m);
const tally_event_info *tally_measure_event(const tally_measure *m, uint32_t i);
const tally_measure_params *tally_measure_params_of(const tally_measure *m);
/* The run id the board link chose (0 when the run goes nowhere). Known
 * after tally_measure_start. */
uint64_t tally_measure_run_id(const tally_measure *m);

#ifdef __cplusplus
}
#endif

#endif
