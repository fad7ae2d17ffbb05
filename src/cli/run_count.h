/*
 * tally run's statistics-module options: the events asked for with
 * --count SIGNAL[@WHERE] and where the counts go (--db, --no-store,
 * --collector, --control, --key), a measured run made of them through the
 * public API (include/tally/run.h), and what is printed: a table on
 * stderr, a CSV file, and where the run went.
 */
#ifndef TALLY_CLI_RUN_COUNT_H
#define TALLY_CLI_RUN_COUNT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tally/run.h"

typedef struct count_opts {
  const char **specs;     /* --count, as given */
  int nspecs, cap;
  tally_measure_params params;
  bool counters_set, arrs_set;
  const char *map;        /* --map FILE: functions from a GNU ld map file */
  const char *csv;        /* --intervals-csv FILE */
  uint64_t show;          /* intervals to print (UINT64_MAX: all) */
  /* where the counts go */
  const char *db;         /* --db FILE; NULL: the default store */
  bool no_store;          /* --no-store: print only */
  const char *collector;  /* --collector ADDR:PORT: a remote tally collect */
  const char *control;    /* --control ADDR:PORT: the events come as control packets */
  const char *key;        /* --key FILE (with --control or --collector) */
  const char *key_env;    /* --key-env VAR: the same from an environment variable */
  const char *tasks;      /* --tasks[=SPEC] (cmd_run.c): how the task counters find the running task */
  const char **ats;       /* --at CYCLE:CHANGE, as given */
  int nats, atcap;
} count_opts;

void count_opts_init(count_opts *o);
void count_opts_free(count_opts *o);

/* Option handlers: 0, or -1 after printing what is wrong. */
int count_parse_spec(count_opts *o, const char *arg);
int count_parse_option(count_opts *o, const char *opt, const char *arg); /* --interval, --counters, ... */
int count_parse_at(count_opts *o, const char *arg);                      /* --at CYCLE:CHANGE */
/* Checks the options together (before loading anything). */
int count_check(const count_opts *o);
/* Whether the module is asked for at all. */
bool count_wanted(const count_opts *o);

typedef struct count_run count_run;

/* Makes the measured run: loads --map, adds the events (or, with
 * --control, waits for them until *cancel), opens where the counts go,
 * describes the run and starts counting. NULL after printing the reason;
 * *status is then the exit status to return. */
count_run *count_setup(tally_sim *sim, const count_opts *o, const char *program, const char *core,
                       const volatile sig_atomic_t *cancel, int *status);
/* Ends the run (why: NULL when the program ran to its end), prints the
 * table on f and where the run went. Returns 0, or the exit status for a
 * failure (printed). */
int count_finish(count_run *r, const char *why, FILE *f);
/* The module's measure, for another interval consumer (--perfetto). */
tally_measure *count_measure(count_run *r);
void count_free(count_run *r);

#endif
