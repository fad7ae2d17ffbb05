/*
 * tally run's network half: the statistics module's intervals go through
 * the real board link (src/net/board_link.h) over a UDP socket to a
 * collector, either one embedded in this process (a thread polling the real
 * collector, src/net/collector.h, into the SQLite store) or a remote
 * `tally collect` (--collector ADDR:PORT). With --control ADDR:PORT the
 * board waits for its configuration as control packets before the program
 * starts, as the paper's board did.
 *
 * The embedded form is the two-machine form with loopback in between: the
 * same packets, the same gap detection and resends, the same verdict.
 */
#ifndef TALLY_CLI_RUN_NET_H
#define TALLY_CLI_RUN_NET_H

#include <signal.h>
#include <stdbool.h>

#include "run_count.h"

typedef struct net_opts {
  const char *db;          /* --db FILE; NULL: store_default_path() */
  bool no_store;           /* --no-store: print only */
  const char *collector;   /* --collector ADDR:PORT: a remote tally collect */
  const char *control;     /* --control ADDR:PORT */
  const char *key;         /* --key FILE (with --control) */
} net_opts;

/* Checks the options together, before anything is loaded: addresses parse,
 * --key goes with --control, --db with storing. 0, or -1 after printing. */
int run_net_check(const net_opts *o, bool counting);

/* How the program's run ended, for the stored verdict. */
typedef enum run_end {
  RUN_END_EXIT,            /* the program exited: the counts are whole */
  RUN_END_STOPPED,         /* trap, halt, --max-insns, --timeout, Ctrl-C */
} run_end;

typedef struct run_net run_net;

/* Opens what the options ask for, before the program runs, so that a bad
 * store path, key or address loses nothing: the store and the embedded
 * collector (or the remote address), the key, the board link; adds the
 * board's sink to the module of `counting`. program and core go into the
 * run's description. NULL when nothing is asked for (no store, no
 * collector, no control) with *status 0, or after printing the reason with
 * *status the exit status. */
run_net *run_net_open(const net_opts *o, count_run *counting, tally_sim *sim, const char *program, const char *core,
                      int *status);

/* --control: waits until a control client sends START (the module is then
 * configured and started), or until *cancel. 0 when started; otherwise the
 * exit status to return (printed). Describes the run to the collector. */
int run_net_wait_start(run_net *n, const volatile sig_atomic_t *cancel);
/* Without --control: describes the run (call before count_start). 0 or -1. */
int run_net_describe(run_net *n);

/* The program did not run to its end: the final packets say so, and the
 * collector (embedded or remote) stores the run as incomplete. Call before
 * count_finish. NULL is fine. */
void run_net_cut_short(run_net *n);

/* After count_finish (the final record went out): waits for the embedded
 * collector's verdict, records a stopped program's run as incomplete,
 * prints where the run went and how to see it again, closes everything.
 * Returns 0, or EXIT_INTERNAL when the store could not keep the run whole
 * (printed). */
int run_net_finish(run_net *n, run_end end, const char *why);
/* Frees without reporting (setup failed). NULL is fine. */
void run_net_free(run_net *n);

#endif
