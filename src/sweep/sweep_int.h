/* src/sweep: the sweep engine's insides (README.md). */
#ifndef TALLY_SWEEP_INT_H
#define TALLY_SWEEP_INT_H
#include <stdint.h>
#include "tally/sweep.h"

typedef struct sw_list {     /* a growable list of owned strings */
  char **v;
  size_t n;
} sw_list;

typedef struct sw_program {
  char *name;
  sw_list argv;              /* argv[0] = the ELF path */
} sw_program;

typedef struct sw_config {   /* a named list of overrides ([config NAME]) */
  char *name;
  char *core;                /* its own core model, or NULL: the sweep's */
  sw_list sets;
} sw_config;

typedef struct sw_axis {
  char *key;                 /* section.key */
  sw_list values;
} sw_axis;

struct tally_sweep {
  sw_program *progs;
  size_t nprogs;
  sw_config *cfgs;
  size_t ncfgs;
  sw_axis *axes;
  size_t naxes;
  sw_list sets;              /* overrides of every point */
  char *core;                /* core model name or .ini path */
  char *objective;           /* metric the best point minimises */
  char *pareto[2];
  sw_list record;            /* metrics shown in the table */
  uint64_t max_insns;        /* per point; 0 = none */
  uint64_t max_cycles;       /* per point, the cycle budget (tally_set_max_cycles); 0 = none */
  char *name;                /* what lists of sweeps call it; NULL: made up (sw_name) */
  int one_pass;              /* --one-pass: sweep_onepass.c */
  const volatile int *cancel; /* during tally_sweep_run: a running point stops when set */
};

/* One point, as its parts. */
typedef struct sw_point {
  size_t index;
  const sw_program *prog;
  const sw_config *cfg;      /* NULL when the sweep has no [config] */
  const char *core;          /* the core model */
  sw_list sets;              /* sweep sets, then config sets, then axis values */
  sw_list counters;          /* the statistics-module counters it records (sw_counters) */
  char *key;                 /* what the point is, the file's primary key */
} sw_point;

/* Statistics-module counters ("SIGNAL@WHERE" metrics: a signal counted on
 * the cycles whose instruction is in a function or address range) a sweep
 * may record at most. */
#define SW_MAX_COUNTERS 32
/* The counters the sweep records: the metrics of record, objective and
 * pareto that name a counter (have an '@'), each once, in that order. */
int sw_counters(const tally_sweep *s, sw_list *out);
/* Checks the counters' signals and syntax before anything runs (the
 * functions are looked up in each program when its point runs). */
int sw_counters_check(const tally_sweep *s, tally_error *err);

int sw_list_add(sw_list *l, const char *s);
void sw_list_free(sw_list *l);
int sw_split(sw_list *l, const char *s, const char *seps);
/* A new [config NAME] at the end of s->cfgs (no core, no overrides), or NULL
 * out of memory. */
sw_config *sw_config_add(tally_sweep *s, const char *name);

/* -1 with err when the sweep has more than TALLY_SWEEP_MAX_POINTS points. */
int sw_check_size(const tally_sweep *s, tally_error *err);
int sw_point_make(const tally_sweep *s, size_t index, sw_point *p);
void sw_point_free(sw_point *p);
/* The value axis a has at point index. */
const char *sw_axis_value(const tally_sweep *s, size_t a, size_t index);

/* ---- The file (sweep_db.c) ---- */
typedef struct sw_db sw_db;
sw_db *sw_db_open(const char *path, tally_error *err);
void sw_db_close(sw_db *d);
int sw_db_has(sw_db *d, const char *key);        /* 1, 0, -1 */
typedef struct sw_result {
  int exit_code;
  char stop[160];
  uint64_t cycles, instret;
  double energy_j;
  int nsignals;
  const uint64_t *signals;   /* tally_signal_count() totals */
  uint64_t counts[SW_MAX_COUNTERS]; /* the point's counters' totals (sw_point.counters) */
  uint64_t cache_bytes;      /* the sizes of its core model's caches (sw_cache_bytes) */
} sw_result;
/* The bytes of the caches a core model has (its enabled I- and D-cache's
 * sizes), from its text (tally_core_describe): the `cache_bytes` metric. */
uint64_t sw_cache_bytes(const char *model_text);
int sw_db_put(sw_db *d, const sw_point *p, const sw_result *r, tally_error *err);
/* A metric of a stored point: "cycles", "instructions", "energy_uj",
 * "exit", or a signal name. 1 found, 0 not stored, -1 error. */
int sw_db_metric(sw_db *d, const char *key, const char *metric, double *v);
long sw_db_merge(sw_db *d, const char *src, tally_error *err);
/* Records the sweep's description in the file (once per distinct sweep),
 * so that readers without the spec file (tally serve) can list and show
 * it (sweep_stored.c). */
int sw_db_note(sw_db *d, const tally_sweep *s, tally_error *err);

/* ---- The description as text (sweep_stored.c) ---- */
/* The sweep as lines of tab-separated fields, everything that decides its
 * points and its reports; malloc'd, or NULL. */
char *sw_spec_text(const tally_sweep *s);
/* The sweep's name, or one made from its programs and axes (malloc'd). */
char *sw_name(const tally_sweep *s);

/* ---- One simulation (sweep_point.c) ---- */
int sw_point_run(const tally_sweep *s, const sw_point *p, sw_result *r, uint64_t *signals, tally_error *err);
/* The same, with observers of the caches' misses (tally_on_icache_miss,
 * tally_on_dcache_miss; a NULL one is not set). */
typedef struct sw_observers {
  void (*icache)(void *ctx, uint32_t line_addr);
  void *ictx;
  void (*dcache)(void *ctx, uint32_t line_addr, uint32_t flags);
  void *dctx;
} sw_observers;
int sw_point_run_observed(const tally_sweep *s, const sw_point *p, const sw_observers *o, sw_result *r,
                          uint64_t *signals, tally_error *err);

/* ---- Every cache size and associativity in one run (sweep_onepass.c) ---- */
/* Runs the points todo[0..n) with one simulation per program and machine,
 * up to `jobs` at a time (stopping between them when *cancel): -1 with err
 * (TALLY_E_USAGE) when the sweep is outside the family where that is exact,
 * saying why. `done` is called after each point is stored. */
int sw_onepass(const tally_sweep *s, sw_db *db, const size_t *todo, size_t n, unsigned jobs,
               const volatile int *cancel, void (*done)(void *ctx, const sw_result *r), void *ctx,
               tally_error *err);

void sw_err(tally_error *err, tally_errcode code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#endif
