/*
 * Profile-guided DVFS (`tally dvfs`), after section 5 of the DSPInst
 * paper: profile a program with the loop/phase profiler, pick the regions
 * where the core mostly waits on memory, insert voltage/frequency switches
 * around them, and measure both programs. A client of the public API
 * (tally/tally.h) and of the instrumenter's (tally/inst.h) only.
 */
#ifndef TALLY_DVFS_H
#define TALLY_DVFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tally/inst.h"
#include "tally/tally.h"

typedef struct dvfs_point {
  double mhz, volt;
} dvfs_point;

typedef struct dvfs_opts {
  const char *in, *out, *core;
  dvfs_point high, low;   /* low.mhz == 0: half the model's clock at 5/6 of its voltage */
  double max_slowdown;    /* percent */
  uint64_t min_misses;    /* paper's first threshold: D-cache misses of a region */
  double min_mpc;         /* paper's second threshold: misses per cycle */
  double min_relocks;     /* break-even: cycles per entry >= this x relock x 2 */
  unsigned relock_cycles; /* the model's pll_relock_cycles (not in the public API) */
  int argc;               /* the program's own arguments */
  char **argv;
  bool keep;              /* keep the scratch directory */
} dvfs_opts;

/* One run of an ELF on tally. */
typedef struct dvfs_run {
  int exit_code;
  uint64_t cycles, instret;
  tally_energy e;
  char *out;      /* the program's stdout (malloc) */
  size_t out_len;
} dvfs_run;

/* A phase-profile row of phases.out (target/inst/phases.c). */
typedef struct dvfs_phase {
  uint32_t start, end;
  uint64_t entries, cycles, instret, rmiss, wmiss;
} dvfs_phase;

/* A candidate region: one function with the loops in it. */
typedef struct dvfs_region {
  char name[96];
  char where[160];         /* file:line of its first instruction */
  uint32_t lo, hi;
  uint64_t cycles, misses, entries;
  bool chosen;
  const char *why;         /* why chosen or not */
} dvfs_region;

/* dvfs_run.c: runs path on the core model (sets: extra --set overrides),
 * host files read-write under dir. 0, or an exit status with err. */
int dvfs_run_elf(const dvfs_opts *o, const char *path, const char *dir, const char *const *sets, int nsets,
                 dvfs_run *r, tally_error *err);
void dvfs_run_free(dvfs_run *r);
/* The model's starting operating point. */
int dvfs_model_point(const dvfs_opts *o, dvfs_point *p, tally_error *err);

/* dvfs_profile.c: instruments with the phase profiler, runs, reads the
 * rows. *rows is malloc'd. */
int dvfs_profile(const dvfs_opts *o, const char *dir, dvfs_phase **rows, size_t *nrows, dvfs_run *base,
                 tally_error *err);

/* dvfs_select.c: regions from the phase rows, with the thresholds. */
int dvfs_select(const dvfs_opts *o, const dvfs_phase *rows, size_t nrows, dvfs_region **regions, size_t *nregions,
                tally_error *err);

/* dvfs_insert.c: writes out with switches around the chosen regions. */
int dvfs_insert(const dvfs_opts *o, const char *dir, const dvfs_region *regions, size_t nregions, const char *out,
                tally_error *err);

#endif
