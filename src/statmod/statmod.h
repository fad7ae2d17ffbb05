/*
 * The statistics module: n counters of (signal, address range) events on a
 * simulated board, configured at run time, read out and reset on a dispatch
 * timer. It watches the timing model and never changes a simulated cycle.
 *
 * "Synthesis" parameters (fixed when the module is created):
 *   counters  number of counters, 1 .. STATMOD_MAX_COUNTERS (default 16)
 *   width     bits per counter, 1 .. 64 (default 32); a counter saturates at
 *             2^width - 1 within an interval and the interval says so
 *   arrs      number of address range registers (default 16)
 *
 * Run-time configuration (what control packets carry): the dispatch period
 * in core cycles, each ARR's PC range [lo, hi), each counter's (signal, ARR
 * or STATMOD_ANYWHERE, enable), start and stop.
 *
 * Output: one statmod_interval per dispatch, through a sink callback. An
 * interval covers the core cycles [cycle_begin, cycle_end); a counter counts
 * the cycles in it on which its signal is high while the instruction owning
 * the cycle has its PC inside the counter's ARR (docs/timing.md says which
 * cycles of an instruction each signal is high on; an instruction whose
 * cycles straddle a dispatch is split exactly). Counters are reset at each
 * dispatch: an event on the dispatch cycle itself counts in the new interval.
 * After the program ends the counters freeze, the timer runs down, the last
 * interval is dispatched, and then one interval marked `final` carries the
 * run's per-counter totals (the sums of all intervals' values) so that a
 * collector can verify it has every interval.
 */
#ifndef TALLY_STATMOD_STATMOD_H
#define TALLY_STATMOD_STATMOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STATMOD_MAX_COUNTERS 1024
#define STATMOD_MAX_ARRS 256
#define STATMOD_ANYWHERE 0xFFFFu /* counter ARR selector: no address restriction */

typedef struct statmod_params {
  uint32_t counters;   /* default 16 */
  uint32_t width;      /* default 32 */
  uint32_t arrs;       /* default 16 */
} statmod_params;

typedef struct statmod_arr {
  uint32_t lo, hi;     /* PC range [lo, hi); lo == hi: empty (matches nothing) */
} statmod_arr;

typedef struct statmod_counter_cfg {
  uint16_t signal;     /* tally signal id (src/timing/signals.h) */
  uint16_t arr;        /* ARR index or STATMOD_ANYWHERE */
  bool enabled;
  uint8_t task;        /* 0: whatever runs; k (1..STATMOD_TASK_REGS): only while the task
                          named by task register k is the running one */
} statmod_counter_cfg;

/* Task registers: the names of the tasks counters can be restricted to
 * (SIGNAL@%TASK, SIGNAL@FUNCTION%TASK). Which task runs is told to the
 * module from outside (statmod_task_switch: the task layer of the
 * profile, src/profile/tasks.c, sees the program switch). */
#define STATMOD_TASK_REGS 16
#define STATMOD_TASK_NAME 64

/* One dispatch. For a data interval, values[i] is counter i's count in
 * [cycle_begin, cycle_end), at most 2^width - 1, and saturated[i] is 1 if
 * it hit that ceiling. For the final record (final == true), values[i] is
 * counter i's run total (sum of its interval values, 64-bit, never
 * saturating), intervals is the number of data intervals dispatched, and
 * cycle_begin/cycle_end span the whole run. */
typedef struct statmod_interval {
  uint64_t index;            /* 0, 1, 2, ... (data); the count of data intervals (final) */
  uint64_t cycle_begin, cycle_end;
  uint32_t n;                /* number of counters (params.counters) */
  const uint64_t *values;
  const uint8_t *saturated;
  bool final;
  uint64_t intervals;        /* final only */
} statmod_interval;

typedef void (*statmod_sink)(void *ctx, const statmod_interval *iv);

/* ---- Functions ---------------------------------------------------------
 * Errors: every function that can fail returns 0 on success and -1 with a
 * one-line message in err (what and which: "counter 17 does not exist: the
 * module has 16 counters (0-15)"); err may be NULL. Nothing is changed by a
 * call that fails.
 *
 * Threading: one thread drives a module and the simulation it watches.
 * Control functions are called between runs of the simulation (between
 * tally_run calls) or from inside a sink. A change made from inside a sink
 * (a control packet read while an interval is delivered) is checked at once
 * and takes effect at the end of the instruction the dispatch fell in, the
 * next instruction edge.
 */

struct core_cpu;
struct sym_table;

#define STATMOD_DEFAULT_COUNTERS 16u
#define STATMOD_DEFAULT_WIDTH 32u
#define STATMOD_DEFAULT_ARRS 16u
#define STATMOD_MAX_PERIOD 0xFFFFFFFFull /* the dispatch timer is a 32-bit decrementer */
#define STATMOD_MAX_SINKS 8

typedef struct statmod statmod;

typedef enum statmod_state {
  STATMOD_IDLE = 0,     /* configured (or not yet), never started */
  STATMOD_RUNNING,      /* counting; the timer runs */
  STATMOD_STOPPED,      /* stopped: the last interval and the final record were delivered */
} statmod_state;

typedef struct statmod_status {
  statmod_state state;
  statmod_params params;
  uint64_t period;           /* dispatch period in core cycles; 0 = not set */
  uint64_t cycle;            /* the simulation's cycle count now (0 when not attached) */
  uint64_t intervals;        /* data intervals delivered in this run */
  uint64_t interval_begin;   /* RUNNING: the cycle the current interval began */
  uint64_t next_dispatch;    /* RUNNING: its end, the next dispatch cycle; else UINT64_MAX */
  uint32_t enabled;          /* enabled counters */
  uint64_t inexact;          /* dispatches that could not be split exactly: always 0 (a bug otherwise) */
} statmod_status;

/* Fills the defaults: 16 counters of 32 bits, 16 ARRs. */
void statmod_params_default(statmod_params *p);
/* Checks parameters: counters 1..STATMOD_MAX_COUNTERS, width 1..64, arrs
 * 0..STATMOD_MAX_ARRS (0: anywhere counters only). Start from
 * statmod_params_default and change what differs. */
int statmod_params_check(const statmod_params *p, char *err, size_t errlen);

/* A module with these parameters, all counters disabled, ARRs empty, no
 * period. NULL with err on bad parameters or no memory. */
statmod *statmod_new(const statmod_params *p, char *err, size_t errlen);
/* Detaches the module if attached (stop it first: freeing does not deliver). */
void statmod_free(statmod *m);
const statmod_params *statmod_params_of(const statmod *m);

/* Records go to every sink, in the order they were added. */
int statmod_add_sink(statmod *m, statmod_sink fn, void *ctx, char *err, size_t errlen);
void statmod_remove_sink(statmod *m, statmod_sink fn, void *ctx);

/* Attaches the module to a simulated core with a timing model (the API's
 * tally_statmod_attach does this for a tally_sim); detaching stops nothing
 * and delivers nothing. */
int statmod_attach(statmod *m, struct core_cpu *cpu, char *err, size_t errlen);
void statmod_detach(statmod *m);

/* Run-time control, as the control packets carry it. */
int statmod_set_period(statmod *m, uint64_t cycles, char *err, size_t errlen);
int statmod_set_arr(statmod *m, uint32_t index, uint32_t lo, uint32_t hi, char *err, size_t errlen);
int statmod_set_counter(statmod *m, uint32_t index, const statmod_counter_cfg *c, char *err, size_t errlen);
/* Starts counting at the current cycle: counters reset, the first interval
 * begins, the timer is loaded with the period. Needs an attached module and
 * a period. A stopped module can be started again (a new run: intervals
 * are numbered from 0 again). */
int statmod_start(statmod *m, char *err, size_t errlen);
/* Ends the run at the current cycle, as the end of the program does: the
 * counters freeze, the timer runs down (the last interval ends at its
 * natural boundary, the first dispatch cycle at or after now), that
 * interval is delivered unless the run ended exactly on a dispatch, and
 * then the final record. */
int statmod_stop(statmod *m, char *err, size_t errlen);
void statmod_query(const statmod *m, statmod_status *st);

/* ---- Changes in the middle of a run --------------------------------------
 * A change of the run-time configuration, as a control packet or a
 * scripted reconfiguration carries it. */
typedef enum statmod_change_kind {
  STATMOD_CHANGE_PERIOD = 1,  /* period */
  STATMOD_CHANGE_ARR = 2,     /* ARR index = arr */
  STATMOD_CHANGE_COUNTER = 3, /* counter index = cfg */
  STATMOD_CHANGE_START = 4,
  STATMOD_CHANGE_STOP = 5,
} statmod_change_kind;

typedef struct statmod_change {
  statmod_change_kind kind;
  uint32_t index;
  uint64_t period;
  statmod_arr arr;
  statmod_counter_cfg cfg;
} statmod_change;

/* Applies c as the statmod_set_* call of its kind would. */
int statmod_apply(statmod *m, const statmod_change *c, char *err, size_t errlen);

/* Schedules c for cycle `at` of the next run (statmod_start): it is applied
 * on the first instruction edge at or after `at` (after any dispatch due
 * there), the same edge whether the run is traced or not, so a scripted
 * reconfiguration is reproducible to the cycle. Changes for the same cycle
 * are applied in the order scheduled. Checked now (indices, signal, range);
 * only before the run starts. Returns k, the change's number (0, 1, ...
 * in the order scheduled), or -1 with err. */
int statmod_schedule(statmod *m, uint64_t at, const statmod_change *c, char *err, size_t errlen);
/* The cycle the k-th scheduled change was applied on (in the order
 * scheduled), or UINT64_MAX if it has not been (the run ended first). */
uint64_t statmod_schedule_applied(const statmod *m, uint32_t k);

/* Called after each change applied while the module runs (whatever made
 * it: a scheduled change, a control packet, a call), with the cycle it
 * takes effect from: the cycles before were counted under the old
 * configuration, this one and those after under the new (a new period: from
 * the next reload of the timer after this cycle). One observer (the cycle
 * trace); NULL removes it. */
typedef void (*statmod_change_fn)(void *ctx, uint64_t cycle, const statmod_change *c);
void statmod_on_change(statmod *m, statmod_change_fn fn, void *ctx);

/* Task register k (1..STATMOD_TASK_REGS) names a task ("alpha", or a
 * trap context "irq:7"); "" empties it. Only while the module is not
 * running. */
int statmod_set_task(statmod *m, uint32_t k, const char *name, char *err, size_t errlen);
/* Its name, "" when empty or k out of range. */
const char *statmod_task_of(const statmod *m, uint32_t k);
/* The running task (or trap context) is now `name`, from the current
 * cycle on: the task counters whose register names it count from here,
 * the others stop. Called on every switch, whether the module runs or
 * not (the name is kept for the next start). Never changes a cycle. */
void statmod_task_switch(statmod *m, const char *name);
/* Dispatches that fell inside a switching instruction's own cycles (the
 * store, trap entry or mret that switched): their split between the two
 * intervals is to the switch's cycle, not to the dispatch's. */
uint64_t statmod_task_inexact(const statmod *m);

/* The current configuration. */
statmod_counter_cfg statmod_counter(const statmod *m, uint32_t index);
statmod_arr statmod_arr_of(const statmod *m, uint32_t index);

/* The plain words for a counter, in one place for every front end (the
 * CLI, the board link's COUNTER_INFO, the store):
 *   where: `fname` when given (the function the range was chosen as),
 *          else "0x80000100-0x80000180", or "anywhere";
 *   label: "data-cache read misses in MixColumns", "cycles in
 *          0x80000100-0x80000180"; an anywhere counter's label is the
 *          signal's noun alone ("cycles").
 * `range` is the counter's ARR (ignored for an anywhere counter). Returns
 * the signal's catalog name ("dcache.read_miss"), or NULL for an unknown
 * signal (label and where then say so). */
const char *statmod_words(const statmod_counter_cfg *c, const statmod_arr *range, const char *fname, char *label,
                          size_t label_size, char *where, size_t where_size);
/* The name of the function whose range is exactly [lo, hi) in syms, or
 * NULL (to name an ARR that came as two addresses). */
const char *statmod_range_name(const struct sym_table *syms, uint32_t lo, uint32_t hi);
/* A task counter's words: " while TASK runs" appended to label, where
 * becomes "WHERE%TASK" ("%TASK" for an anywhere counter). */
void statmod_task_words(const char *task, bool anywhere, char *label, size_t label_size, char *where,
                        size_t where_size);

#endif
