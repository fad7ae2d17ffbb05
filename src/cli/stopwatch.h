/* Ctrl-C, SIGTERM and --timeout for a running program (stopwatch.c). */
#ifndef TALLY_CLI_STOPWATCH_H
#define TALLY_CLI_STOPWATCH_H

#include <signal.h>

struct tally_sim;

/* Blocks those signals in this thread and the threads it starts from now
 * on (the embedded collector's), so that they reach the simulating thread. */
void stopwatch_hold(void);
/* Catches SIGINT, SIGTERM and SIGALRM here (unblocking them): each asks the
 * simulation to stop (tally_request_stop), so that it stops even while the
 * program sleeps or waits for input. `interrupted` (may be NULL) is set on
 * SIGINT or SIGTERM. */
void stopwatch_start(struct tally_sim *sim, volatile sig_atomic_t *interrupted);
/* The --timeout alarm: SIGALRM after `timeout` seconds of wall time (0: none). */
void stopwatch_arm(double timeout);
/* Set by any of the three (--timeout included): for the waits that must
 * end on a stop (GDB's connection and packets, --control's START). */
volatile sig_atomic_t *stopwatch_flag(void);
/* Why the run was asked to stop: "interrupted", "--timeout reached", or NULL. */
const char *stopwatch_reason(void);
/* Disarms the alarm and forgets the simulation. */
void stopwatch_stop(void);

#endif
