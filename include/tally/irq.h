/*
 * External interrupts a user drives (docs/tally-run.md, "External
 * interrupts"): scripted and periodic lines into the board's PLIC, timed
 * input to its UART, and the latency of each interrupt taken, from the
 * cycle its line rose to the cycle the handler's first instruction begins
 * at. Call after loading the program (and after tally_set_core), before
 * running.
 */
#ifndef TALLY_IRQ_H
#define TALLY_IRQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tally/tally.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Adds a source: "SRC@CYCLE[,CYCLE...]" (the line of PLIC source SRC
 * rises at each cycle) or "SRC@every=N[,first=F][,jitter=J][,seed=S]
 * [,count=K]" (at F, F+N, F+2N ... (F defaults to N), each late by a
 * SplitMix64 draw from seed S in [0, J], J < N; K rises, or no end).
 * Returns 0, or -1 with err (TALLY_E_USAGE) naming what is wrong: a bad
 * spec, a source the board lacks, a board without a PLIC. */
int tally_irq_add(tally_sim *sim, const char *spec, tally_error *err);

/* Feeds the UART's receiver from a file or a pipe ('-': stdin) of lines
 * "CYCLE TEXT": TEXT's bytes (C escapes \n \r \t \s \0 \\ \xHH) arrive at
 * CYCLE, lines in time order, '#' lines and blank lines skipped. Read to
 * its end now. Returns 0, or -1 with err (TALLY_E_INPUT: FILE:LINE and
 * what is wrong). */
int tally_uart_rx(tally_sim *sim, const char *path, tally_error *err);

/* One PLIC source's interrupts so far. */
typedef struct tally_irq_source {
  unsigned source;            /* PLIC source id */
  uint64_t rises;             /* edges, or assertions of a level */
  uint64_t requests;          /* requests the gateway made (pending bit set) */
  uint64_t merged;            /* edges while one was pending or in service: no request */
  uint64_t taken;             /* interrupts taken for a request: latencies measured */
  uint64_t polled;            /* requests claimed with no interrupt taken for them */
  uint64_t lat_min, lat_median, lat_max; /* cycles (median: the lower middle one); 0 when none */
  bool waiting;               /* a request still waits for its interrupt ... */
  uint64_t waiting_since;     /* ... since this cycle ... */
  char why[128];              /* ... because ("external interrupts are off in mie (MEIE is 0)") */
} tally_irq_source;

/* The sources with any rise or request, by id, into out[max]; returns how
 * many there are (0 on a board without a PLIC). */
size_t tally_irq_sources(tally_sim *sim, tally_irq_source *out, size_t max);

/* Every latency measured for source src, in order; *n of them. */
const uint64_t *tally_irq_latencies(tally_sim *sim, unsigned src, size_t *n);
/* The cycle each of those interrupts' line rose, in the same order. */
const uint64_t *tally_irq_rises(tally_sim *sim, unsigned src, size_t *n);

/* Latency per source and per task that was running when the line rose,
 * with a task-aware profile (tally_profile_tasks_enable) of the same run:
 * the task is the one the profile's timeline (tally_profile_task_changes)
 * has running in the cycle before the rise's (the one that ran when the
 * line rose: a change at the rise's cycle is the interrupt's own trap when
 * it is taken at once); a trap context ("irq:7") when the line rose while
 * a handler ran. */
typedef struct tally_irq_task {
  unsigned source;            /* PLIC source id */
  int task;                   /* index into tally_profile_tasks(p); -1: the rise is past the
                                 timeline's end (its log filled up), the task is not known */
  uint64_t taken;             /* interrupts taken whose line rose while it ran */
  uint64_t lat_min, lat_median, lat_max; /* cycles (median: the lower middle one) */
} tally_irq_task;

/* Per source (ascending), per task (by index, -1 last): into out[max];
 * returns how many there are (0 without tasks or without a PLIC). The
 * entries of a source add up to its tally_irq_source.taken. */
size_t tally_irq_tasks(tally_sim *sim, const tally_profile *p, tally_irq_task *out, size_t max);

#ifdef __cplusplus
}
#endif

#endif
