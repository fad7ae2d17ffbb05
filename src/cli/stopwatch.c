/*
 * How tally's subcommands stop a run from outside: Ctrl-C, SIGTERM and the
 * --timeout alarm all call tally_request_stop, which the simulator looks
 * at wherever a program can spin or sleep without returning (device polls,
 * stdin waits, the statistics module's dispatches of a long wfi sleep), so
 * a stop never waits for the end of an instruction slice that may never
 * come. The state is the command's, one run per process.
 */
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <sys/time.h>

#include "stopwatch.h"
#include "tally/tally.h"

static struct tally_sim *volatile watched;
static volatile sig_atomic_t *volatile flag;
static volatile sig_atomic_t why; /* 0, SIGINT/SIGTERM, or SIGALRM */
static volatile sig_atomic_t any; /* any of the three came */

static void on_signal(int sig) {
  if (!why)
    why = sig;
  any = 1;
  if (sig != SIGALRM && flag)
    *flag = 1;
  if (watched)
    tally_request_stop(watched);
}

static void stop_signals(sigset_t *set) {
  sigemptyset(set);
  sigaddset(set, SIGINT);
  sigaddset(set, SIGTERM);
  sigaddset(set, SIGALRM);
}

void stopwatch_hold(void) {
  sigset_t set;
  stop_signals(&set);
  pthread_sigmask(SIG_BLOCK, &set, NULL);
}

void stopwatch_start(struct tally_sim *sim, volatile sig_atomic_t *interrupted) {
  watched = sim;
  flag = interrupted;
  why = any = 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal; /* no SA_RESTART: a blocking call sees EINTR */
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGALRM, &sa, NULL);
  sigset_t set;
  stop_signals(&set);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

void stopwatch_arm(double timeout) {
  if (timeout <= 0)
    return;
  struct itimerval t = {0};
  t.it_value.tv_sec = (time_t)timeout;
  t.it_value.tv_usec = (suseconds_t)((timeout - (double)t.it_value.tv_sec) * 1e6);
  if (!t.it_value.tv_sec && !t.it_value.tv_usec)
    t.it_value.tv_usec = 1;
  setitimer(ITIMER_REAL, &t, NULL);
}

volatile sig_atomic_t *stopwatch_flag(void) { return &any; }

const char *stopwatch_reason(void) {
  return why == SIGALRM ? "--timeout reached" : why ? "interrupted" : NULL;
}

void stopwatch_stop(void) {
  struct itimerval off = {0};
  setitimer(ITIMER_REAL, &off, NULL);
  watched = NULL;
}
