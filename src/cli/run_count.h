/*
 * tally run's statistics-module options: the events asked for with
 * --count SIGNAL[@WHERE], set up on a module attached to the simulation,
 * and the sinks that print what it delivers (a table on stderr, a CSV
 * file). Other sinks (the board link to a collector, an embedded store)
 * are added to the same module with statmod_add_sink(count_module(r), ...)
 * before count_start: the module delivers every interval to each sink in
 * turn.
 */
#ifndef TALLY_CLI_RUN_COUNT_H
#define TALLY_CLI_RUN_COUNT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../statmod/statmod.h"
#include "tally/tally.h"

/* One --count, as given. */
typedef struct count_spec {
  const char *text;       /* "dcache.read_miss@MixColumns" */
  int signal;
  bool anywhere;
  const char *func;       /* the function named, or NULL for an address range */
  uint32_t lo, hi;        /* the range (resolved for a function by count_setup) */
} count_spec;

typedef struct count_opts {
  count_spec *specs;
  int nspecs, cap;
  uint64_t interval;      /* 0 = not given */
  statmod_params params;
  bool counters_set, arrs_set;
  const char *map;        /* --map FILE: functions from a GNU ld map file */
  const char *csv;        /* --intervals-csv FILE */
  uint64_t show;          /* intervals to print (UINT64_MAX: all) */
  bool control;           /* --control: the events come as control packets, not --count */
} count_opts;

void count_opts_init(count_opts *o);
void count_opts_free(count_opts *o);

/* Option handlers: 0, or -1 after printing what is wrong. */
int count_parse_spec(count_opts *o, const char *arg);
int count_parse_option(count_opts *o, const char *opt, const char *arg); /* --interval, --counters, ... */
/* Checks the options together (before loading anything). */
int count_check(const count_opts *o);

typedef struct count_run count_run;

/* Resolves the events (function names through the program's symbols or
 * the map file), creates the module, attaches it to sim, configures every
 * counter, ARR and the timer, and adds the printing sinks. NULL after
 * printing the reason; *status is then the exit status to return. */
count_run *count_setup(tally_sim *sim, const count_opts *o, int *status);
/* The same for a module configured later (control packets): created with
 * o->params, attached, nothing counted yet, the printing sinks added. Call
 * count_configured once it has been started. */
count_run *count_setup_blank(tally_sim *sim, const count_opts *o, int *status);
/* Takes the module's configuration as it is now for the table and the CSV:
 * one column per enabled counter, labelled from its signal and its ARR's
 * name (count_set_arr_name). 0, or -1 (printed). */
int count_configured(count_run *r);
/* The name an ARR was chosen as (a function), "" if none. */
void count_set_arr_name(count_run *r, uint32_t arr, const char *name);
const char *count_arr_name(const count_run *r, uint32_t arr);
statmod *count_module(count_run *r);
/* Plain words of column i (the i-th --count): label ("cycles in main") and
 * where ("main"). */
const char *count_label(const count_run *r, uint32_t i);
const char *count_where(const count_run *r, uint32_t i);

/* Starts counting at the current cycle. 0 or -1 (printed). */
int count_start(count_run *r);
/* Ends the run (counters freeze, the last interval, the final record) and
 * prints the table on f. Returns 0, or -1 when the CSV file could not be
 * written completely (printed). */
int count_finish(count_run *r, FILE *f);
void count_free(count_run *r);

#endif
