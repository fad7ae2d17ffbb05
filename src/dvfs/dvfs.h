/*
 * Profile-guided DVFS (`tally dvfs`), after section 5 of the DSPInst
 * paper: profile a program with the loop/phase profiler, pick the regions
 * where the core mostly waits on memory, insert voltage/frequency switches
 * around them, and measure both programs. A client of the public API
 * (tally/tally.h) and of the instrumenter's (tally/inst.h) only.
 */
#ifndef TALLY_DVFS_H
#define TALLY_DVFS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tally/inst.h"
#include "tally/tally.h"

typedef struct dvfs_point {
  double mhz, volt;
} dvfs_point;

#define DVFS_MAX_POINTS 8

typedef enum dvfs_kind { DVFS_LOOPS, DVFS_FUNCTIONS } dvfs_kind;

typedef struct dvfs_opts {
  const char *in, *out, *core;
  const char *board;      /* --board NAME|FILE, NULL: virt */
  /* The operating points, fastest first: pts[0] is the model's start (the
   * program's normal point), the others the slower ones a region may run
   * at. From the model's [dvfs] points, or --points. */
  dvfs_point pts[DVFS_MAX_POINTS];
  size_t npts;
  const char *points_opt; /* --points as given, NULL: the model's table */
  dvfs_kind kind;         /* candidate regions: loops (default) or whole functions */
  double max_slowdown;    /* percent */
  uint64_t min_misses;    /* paper's first threshold: D-cache misses of a region */
  double min_mpc;         /* paper's second threshold: misses per cycle */
  double min_relocks;     /* break-even: cycles per entry >= this x relock x 2 */
  unsigned relock_cycles; /* the model's pll_relock_cycles */
  uint32_t sram_base, sram_size; /* the model's on-chip SRAM ([memory] sram_*; size 0: none), where the switch code runs
                                 * when it holds tally inst's analysis region */
  int argc;               /* the program's own arguments */
  char **argv;
  bool keep;              /* keep the scratch directory */
  bool oracle;            /* run the oracle (--no-oracle: not) */
  bool startup;           /* --startup: count start-up code (before main) in the regions */
  double switch_cycles;   /* --switch-cycles: the switch code's cycles per switch pair, besides the relocks */
  bool readd;             /* after the descent, the knapsack of single-region runs (--descent-only: not) */
  const char *tradeoff_csv; /* --tradeoff-csv FILE, NULL: none */
  const char *svg;          /* --svg FILE: the measured table as a picture, NULL: none */
  uint64_t max_cycles;      /* --max-cycles: every run's cycle budget, 0 = none */
  uint64_t max_insns;       /* --max-insns N: each run stops there (0: no bound) */
  double deadline;          /* --timeout: CLOCK_MONOTONIC seconds at which everything stops (0: none) */
  const volatile sig_atomic_t *stop; /* set by Ctrl-C or SIGTERM (NULL: none) */
} dvfs_opts;

/* One run of an ELF on tally. */
typedef struct dvfs_run {
  int exit_code;
  uint64_t cycles, instret;
  tally_energy e;
  char *out;      /* the program's stdout (malloc) */
  size_t out_len;
  bool stopped;   /* a bound or a stop request ended it: the counts are partial */
} dvfs_run;

/* A phase-profile row of phases.out (target/inst/phases.c). */
typedef struct dvfs_phase {
  uint32_t start, end;
  bool startup;           /* it began before main was first entered (start-up code) */
  uint64_t entries, cycles, instret, rmiss, wmiss;
} dvfs_phase;

/* An address range charged to accounting row `row`. */
typedef struct dvfs_range {
  uint32_t lo, hi;
  size_t row;
} dvfs_range;

#define DVFS_MAX_RANGES 8

/* A switch site of a region: an analysis call before or after pc. */
typedef enum dvfs_site_kind {
  DVFS_ENTER,           /* switch down (to the region's point) */
  DVFS_ENTER_TAKEN,     /* ... when the branch at pc is taken */
  DVFS_ENTER_NOT_TAKEN, /* ... when it is not */
  DVFS_LEAVE,           /* switch back up (if this region switched down) */
} dvfs_site_kind;

typedef struct dvfs_site {
  uint32_t pc;
  int when; /* TALLY_INST_BEFORE or _AFTER */
  dvfs_site_kind kind;
} dvfs_site;

#define DVFS_MAX_SITES 64
typedef struct dvfs_sites {
  dvfs_site v[DVFS_MAX_SITES];
  size_t n;
  bool overflow;
} dvfs_sites;

/* A candidate region: one loop (its header and natural body) or
 * one function, with the loops in it. */
typedef struct dvfs_region {
  char name[96];
  char where[160];         /* func+off of its first instruction */
  dvfs_kind kind;
  int func;                /* the function it lies in */
  int parent;              /* the innermost candidate loop holding it, -1 */
  uint32_t lo, hi;         /* [lo, hi): from its first range's start to its last's end */
  dvfs_range ranges[DVFS_MAX_RANGES]; /* its instructions (a loop's body may be in pieces) */
  size_t nranges;
  uint64_t cycles, misses, entries;
  int point;               /* index into opts.pts; 0: not switched */
  const char *fails;       /* why it cannot be chosen (thresholds, sites), NULL: it can */
  bool dropped;            /* taken out for --max-slowdown */
  const char *why;         /* why chosen or not */
  dvfs_sites sites;        /* where its switches go (when it can be a region) */
} dvfs_region;

/* One row of per-region accounting: what ran at pcs in the region. */
typedef struct dvfs_tally {
  uint64_t cycles, instret;
  double seconds, joules;
} dvfs_tally;

/* Per-region accounting of a run (dvfs_account.c): nranges ranges, rows[0
 * .. nrows-1] for them and rows[nrows] for everything else. */
typedef struct dvfs_acct {
  const dvfs_range *ranges;
  size_t nranges, nrows;
  dvfs_tally *rows; /* nrows + 1 */
} dvfs_acct;

/* dvfs_run.c: runs path on the core model (sets: extra --set overrides),
 * host files read-write under dir; with acct (else NULL) stepped, its
 * rows filled. 0, or an exit status with err. */
int dvfs_run_elf(const dvfs_opts *o, const char *path, const char *dir, const char *const *sets, int nsets,
                 dvfs_acct *acct, dvfs_run *r, tally_error *err);
void dvfs_run_free(dvfs_run *r);
/* A board with path loaded on the model (for reading the model): NULL
 * with *rc and err on failure. */
tally_sim *dvfs_new_sim(const dvfs_opts *o, const char *path, const char *dir, const char *const *sets, int nsets,
                        FILE *out, tally_error *err, int *rc);
/* dvfs_model.c: the model's operating points (o->pts, o->npts: its
 * [dvfs] points, or --points) and pll_relock_cycles. */
int dvfs_model_read(dvfs_opts *o, tally_error *err);
bool dvfs_parse_points(const char *s, dvfs_point *pts, size_t *n, char *why, size_t whylen);

/* Why runs must stop now ("interrupted", "--timeout reached",
 * "--max-insns reached"), or NULL. */
const char *dvfs_bound(const dvfs_opts *o, const tally_sim *sim);

/* dvfs_account.c: runs sim to its end one instruction at a time, charging
 * every instruction's cycles, time and energy to the row of the range
 * holding its pc (rows[nrows]: no range); TALLY_STOP_LIMIT when
 * dvfs_bound stopped it. */
tally_stop dvfs_account_run(const dvfs_opts *o, tally_sim *sim, const dvfs_range *ranges, size_t n, size_t nrows,
                            dvfs_tally *rows);

/* dvfs_profile.c: instruments with the phase profiler, runs, reads the
 * rows. *rows is malloc'd. */
int dvfs_profile(const dvfs_opts *o, const char *dir, dvfs_phase **rows, size_t *nrows, dvfs_run *base,
                 tally_error *err);

/* dvfs_loops.c: the direct target of a branch or jump (false: none). */
bool dvfs_target(const tally_inst_insn *in, uint32_t *target);
/* The candidate loops of the program: header and natural body, nested
 * loops with their parent. *loops is malloc'd. */
int dvfs_find_loops(const tally_inst *ti, dvfs_region **loops, size_t *n, tally_error *err);
/* Whether pc is one of the region's instructions. */
bool dvfs_region_has(const dvfs_region *r, uint32_t pc);
/* The switch sites of loops[self]; NULL, or why it cannot be a region. */
const char *dvfs_loop_sites(const tally_inst *ti, const dvfs_region *loops, size_t nloops, size_t self,
                            dvfs_sites *s);
/* dvfs_insert.c: the sites of a function region (entry, returns, tail calls). */
const char *dvfs_function_sites(const tally_inst *ti, const dvfs_region *r, dvfs_sites *s);

/* dvfs_select.c: a region's misses per cycle (the paper's second
 * threshold), and idx[0..m) ordered by it: most first when most_first,
 * fewest first otherwise (an insertion sort, stable: m is small). */
double dvfs_region_mpc(const dvfs_region *r);
void dvfs_order_by_mpc(const dvfs_region *v, size_t *idx, size_t m, bool most_first);

/* dvfs_select.c: regions from the phase rows, with the thresholds;
 * candidates without cycles stay in the list (not shown). */
int dvfs_select(const dvfs_opts *o, const dvfs_phase *rows, size_t nrows, dvfs_region **regions, size_t *nregions,
                tally_error *err);
/* Chooses, outermost first, every candidate that can be chosen, is not
 * dropped and has no chosen loop around it, at the slowest point (again
 * after a drop: the loops inside a dropped one get their turn). */
void dvfs_choose(const dvfs_opts *o, dvfs_region *v, size_t n);
/* Whether v[k] can be switched beside the chosen regions as they are: it
 * passed the thresholds and its sites can be placed, no chosen loop holds
 * it or lies inside it, and it shares no code with a chosen region. */
bool dvfs_can_join(const dvfs_region *v, size_t n, size_t k);

/* dvfs_knap.c: the knapsack of the fit. n regions, each switched at one
 * of the points 1..npts-1 or not at all (0); cost and gain [i*npts+p]:
 * the time that point adds and the energy it saves (percent; a gain <= 0
 * or not finite: never taken); conflict [i*n+j]: i and j cannot both be
 * switched. */
#define DVFS_KNAP_MAX_NODES 4000000ul
typedef struct dvfs_knap {
  size_t n, npts;
  const double *cost, *gain;
  const bool *conflict;
  unsigned long max_nodes; /* the search stops after this many nodes */
} dvfs_knap;
typedef struct dvfs_knap_sol {
  int *pick;           /* [n] (the caller's): each region's point, 0: none */
  double cost, gain;   /* sums over the picked points */
  unsigned long nodes; /* nodes searched */
  bool complete;       /* false: stopped at max_nodes (best found so far) */
} dvfs_knap_sol;
/* The combination with the largest gain whose cost is at most budget
 * (exact unless !sol->complete). 0, or -1 out of memory. */
int dvfs_knap_solve(const dvfs_knap *k, double budget, dvfs_knap_sol *sol);

/* What the fit measured and decided (dvfs_fit.c), for the report. */
typedef struct dvfs_fitlog {
  size_t m;              /* regions measured alone */
  size_t *region;        /* [m]: their indices among the regions */
  double *cost, *gain;   /* [m*npts]: whole-run time added and energy saved,
                            percent of the original's, with only that region
                            switched at that point (point 0: 0) */
  bool *conflict;        /* [m*m]: dvfs_can_join's rules */
  unsigned descent_runs; /* real runs of the descent */
  unsigned alone_runs;   /* real runs measuring regions alone */
  unsigned alone_reused; /* ... taken from the descent's runs instead */
  unsigned verify_runs;  /* real runs of knapsack choices */
  unsigned rounds;       /* knapsack solutions tried */
  bool accepted;         /* a knapsack choice replaced the descent's */
  bool incomplete;       /* a search stopped at DVFS_KNAP_MAX_NODES */
} dvfs_fitlog;
void dvfs_fitlog_free(dvfs_fitlog *f);
/* The predicted best combination within limit (percent) from the
 * single-region runs: sol->pick has f->m entries. 0, or -1 out of memory. */
int dvfs_fitlog_predict(const dvfs_fitlog *f, size_t npts, double limit, dvfs_knap_sol *sol);

/* dvfs_fit.c: inserts and runs until the run is within --max-slowdown
 * (the descent: the chosen region with the fewest misses per cycle one
 * point faster at a time); then (unless --descent-only) measures every
 * region alone at every slower point, solves the knapsack of those
 * measurements and keeps its choice when a real run of it is within the
 * limit and takes less energy. OUT.elf and *after are the final
 * choice's; *log what was measured (dvfs_fitlog_free). */
int dvfs_fit(dvfs_opts *o, const char *dir, dvfs_region *regs, size_t nregs, const dvfs_run *base, dvfs_run *after,
             dvfs_fitlog *log, tally_error *err);

/* dvfs_insert.c: writes out with switches around the regions whose point
 * is not 0 (each to its own point). */
int dvfs_insert(const dvfs_opts *o, const char *dir, const dvfs_region *regions, size_t nregions, const char *out,
                tally_error *err);

/* dvfs_refs.c: the references. */
#define DVFS_ORACLE_MAX_RUNS 64
typedef struct dvfs_oracle {
  int *points;         /* the best point of every region (indexed like the regions) */
  size_t selected;     /* regions tried: those that passed the thresholds */
  unsigned runs;       /* trial runs */
  bool exhaustive;     /* every combination (else greedy) */
  uint64_t cycles;
  double seconds, joules;
} dvfs_oracle;
/* The whole original program at pts[point]. */
int dvfs_static_run(const dvfs_opts *o, const char *dir, size_t point, dvfs_run *r, tally_error *err);
int dvfs_oracle_search(const dvfs_opts *o, const char *dir, const dvfs_region *regions, size_t n,
                       const dvfs_run *base, dvfs_oracle *best, tally_error *err);
void dvfs_oracle_free(dvfs_oracle *b);
bool dvfs_same_output(const dvfs_run *a, const dvfs_run *b);
/* Percent more simulated time than base. */
double dvfs_slowdown(const dvfs_run *r, const dvfs_run *base);

/* dvfs_report.c */
void dvfs_print_candidates(const dvfs_opts *o, const dvfs_region *v, size_t n);
void dvfs_print_measured(const dvfs_opts *o, const dvfs_region *v, size_t n, const dvfs_tally *before,
                         const dvfs_tally *after, const dvfs_run *base, const dvfs_run *sw);
void dvfs_print_alone(const dvfs_opts *o, const dvfs_region *v, const dvfs_fitlog *f);
/* The predicted trade-off at 1..5% and --max-slowdown: 0, or -1 out of memory. */
int dvfs_print_tradeoff(const dvfs_opts *o, const dvfs_region *v, const dvfs_fitlog *f);
/* Writes --tradeoff-csv: 0, or an exit status with err. */
int dvfs_write_tradeoff(const dvfs_opts *o, const dvfs_region *v, const dvfs_fitlog *f, tally_error *err);
void dvfs_print_refs(const dvfs_opts *o, const dvfs_region *v, size_t n, const dvfs_run *base, const dvfs_run *sw,
                     const dvfs_run *statics, const dvfs_oracle *orc);

/* dvfs_svg.c: writes --svg, the measured table (one row per chosen
 * region, outside, whole run) and the references as bar charts in percent
 * of the original. 0, or an exit status with err (the file removed). */
int dvfs_write_svg(const dvfs_opts *o, const dvfs_region *v, size_t n, const dvfs_tally *before,
                   const dvfs_tally *after, const dvfs_run *base, const dvfs_run *sw, const dvfs_run *statics,
                   const dvfs_oracle *orc, tally_error *err);
/* s as XML character data or attribute text: & < > " ' as entities,
 * control characters and bytes above ASCII (maybe not UTF-8) as '?'. */
void dvfs_svg_escape(FILE *f, const char *s);

#endif
