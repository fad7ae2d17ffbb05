/*
 * libtally: design-space sweeps (`tally sweep`, docs/tally-sweep.md).
 *
 * A sweep is programs x configurations x parameter axes, every point one
 * independent simulation of a core model with `--set` overrides. Points run
 * on a pool of threads (one tally_sim each); every finished point is kept
 * in a SQLite file at once, in one transaction, keyed by what the point is
 * (program, arguments, core, overrides), so an interrupted sweep started
 * again runs only the points the file does not hold.
 *
 *   tally_sweep *s = tally_sweep_new();
 *   tally_error err;
 *   tally_sweep_load_spec(s, "fig5.ini", &err);       // and/or:
 *   tally_sweep_add_axis(s, "icache.ways=1,2,4", &err);
 *   tally_sweep_run(s, "sweep.db", 0, progress, ctx, NULL, &err);
 *   tally_sweep_write(s, "sweep.db", TALLY_SWEEP_TABLE, stdout, &err);
 *   tally_sweep_free(s);
 *
 * Built only on the public API (tally.h): a client like the CLI. Errors as
 * in tally.h: 0 or -1 with err saying what and where.
 */
#ifndef TALLY_SWEEP_H
#define TALLY_SWEEP_H
#include <stddef.h>
#include <stdio.h>
#include "tally/tally.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct tally_sweep tally_sweep;

tally_sweep *tally_sweep_new(void);
void tally_sweep_free(tally_sweep *s);

/* Reads a spec file (INI; docs/tally-sweep.md): [sweep] options, [program
 * NAME] elf/args, [set] overrides of every point, [config NAME] named
 * override lists, [axis] key = v1, v2, ... Adds to what is there. */
int tally_sweep_load_spec(tally_sweep *s, const char *path, tally_error *err);
/* A program: the ELF path (its base name is the program's argv[0], as
 * tally run gives it) and its arguments, separated by blanks. */
int tally_sweep_add_program(tally_sweep *s, const char *name, const char *elf, const char *args, tally_error *err);
/* An axis "section.key=v1,v2,..." (values as `tally run --set` takes them). */
int tally_sweep_add_axis(tally_sweep *s, const char *spec, tally_error *err);
/* An override of every point, "section.key=value". */
int tally_sweep_add_set(tally_sweep *s, const char *spec, tally_error *err);
/* [sweep] options by name: name (what lists of sweeps show; a spec file
 * without one is named after the file), core, board (a shipped board's
 * name or a board file: every point runs on it, docs/boards.md; checked
 * at once), objective, pareto ("M1,M2"), record ("sig1,sig2"),
 * max_insns, one_pass. */
int tally_sweep_option(tally_sweep *s, const char *key, const char *value, tally_error *err);

/* Points: programs x configurations x the axes' product (SIZE_MAX when it
 * overflows). Running, writing or submitting more than
 * TALLY_SWEEP_MAX_POINTS is refused as a usage error. */
#define TALLY_SWEEP_MAX_POINTS 1000000u
size_t tally_sweep_points(const tally_sweep *s);

typedef struct tally_sweep_status {
  size_t total;        /* points in the sweep */
  size_t skipped;      /* already in the file when the run began */
  size_t done;         /* finished in this run */
  size_t failed;       /* of which did not exit 0 */
  double elapsed;      /* host seconds since the run began */
  double eta;          /* host seconds left (estimate), < 0 when not known yet */
} tally_sweep_status;
typedef void (*tally_sweep_progress_fn)(void *ctx, const tally_sweep_status *st);

/* Runs every point the file db does not hold yet on `jobs` threads (0: one
 * per online core); progress (may be NULL) is called after each point,
 * serialised. *cancel != 0 (may be NULL) stops handing out points; the
 * running ones finish and are kept. first/count select a slice of the
 * points (count 0: all), for one task of a job array. */
int tally_sweep_run(tally_sweep *s, const char *db, unsigned jobs, size_t first, size_t count,
                    tally_sweep_progress_fn progress, void *ctx, const volatile int *cancel, tally_error *err);

/* Copies every point of the file src not in db into db (the merge step of
 * a job array). Returns the number copied, or -1. */
long tally_sweep_merge(const char *db, const char *src, tally_error *err);

/* Submits the sweep of the spec file `spec` to Slurm (sbatch on PATH): a
 * job array whose task i runs `tally sweep SPEC --slice` on one slice of
 * the points into DIR/task-i.db, and a merge job, after every task ended
 * well, that copies them into db (docs/tally-sweep.md). `tally` is the
 * tally executable the tasks run; tasks run in the current directory.
 * Writes DIR/array.sh, DIR/merge.sh and DIR/jobs ("ARRAY MERGE TASKS
 * POINTS"). TALLY_E_NOANSWER when sbatch fails. */
int tally_sweep_slurm_submit(const tally_sweep *s, const char *tally, const char *spec, const char *db,
                             unsigned tasks, const char *dir, tally_error *err);

/* Points the file db holds (any sweep's), or -1 when it cannot be read;
 * a missing file holds 0 and is not created. */
long tally_sweep_stored(const char *db, tally_error *err);

/* The sweeps a file holds points of. Every tally_sweep_run records its
 * sweep's description in the file (and a merge copies them), so a reader
 * without the spec file can list the sweeps and load one again. */
typedef struct tally_sweep_entry {
  long id;                   /* its number in the file */
  char *name;                /* [sweep] name, the spec file's name, or made from programs and axes */
  size_t points;             /* points of the sweep */
  size_t stored;             /* of which the file holds */
} tally_sweep_entry;
/* The file's sweeps, oldest first (none for a file of an older tally);
 * free with tally_sweep_list_free. -1 when db cannot be read. */
int tally_sweep_list(const char *db, tally_sweep_entry **out, size_t *n, tally_error *err);
void tally_sweep_list_free(tally_sweep_entry *v, size_t n);
/* Adds sweep `id` of the file db, as it was run, to the empty sweep s:
 * then tally_sweep_write shows it as `tally sweep` did. TALLY_E_USAGE
 * when the file has no such sweep. */
int tally_sweep_load_stored(tally_sweep *s, const char *db, long id, tally_error *err);

typedef enum tally_sweep_format {
  TALLY_SWEEP_TABLE = 0, /* every point, its axes and metrics, aligned text */
  TALLY_SWEEP_CSV,
  TALLY_SWEEP_JSON,
  TALLY_SWEEP_PARETO,    /* the points no other point beats in both pareto metrics (smaller is better) */
  TALLY_SWEEP_BEST,      /* the point with the smallest objective */
} tally_sweep_format;
/* Writes the sweep's points as the file db holds them (points not run yet
 * are listed as such in the table, left out elsewhere). */
int tally_sweep_write(const tally_sweep *s, const char *db, tally_sweep_format fmt, FILE *out, tally_error *err);

#ifdef __cplusplus
}
#endif
#endif
