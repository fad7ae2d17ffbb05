/*
 * --irq and --uart-rx (irq_opts.c): interrupt sources a user drives, for
 * the subcommands that run a program, and the latency report of -v.
 */
#ifndef TALLY_CLI_IRQ_OPTS_H
#define TALLY_CLI_IRQ_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#define IRQ_OPTS_MAX 64

/* The options' help, continuation lines indented by the string IND. */
#define IRQ_HELP_AT(IND)                                                                     \
  "      --irq SRC@CYCLE[,CYCLE...]  the line of PLIC source SRC rises at\n"              \
  IND "each CYCLE (the core model's cycles; a functional run's\n"                          \
  IND "are its instructions plus wfi sleep). Repeatable\n"                                 \
  "      --irq SRC@every=N[,first=F][,jitter=J][,seed=S][,count=K]\n"                     \
  IND "it rises at F, F+N, F+2N ... (F defaults to N), each\n"                             \
  IND "late by a draw in [0, J] (J < N) from seed S (default\n"                            \
  IND "0); K times, or to the end\n"                                                       \
  "      --uart-rx FILE     the UART receives from FILE (a pipe, or '-': stdin)\n"         \
  IND "instead of stdin: lines 'CYCLE TEXT', TEXT's bytes\n"                               \
  IND "(escapes \\n \\t \\s \\xHH ...) arriving at CYCLE, with\n"                     \
  IND "its receive interrupt (docs/tally-run.md)\n"
#define IRQ_HELP IRQ_HELP_AT("                         ")

typedef struct irq_opts {
  const char *irq[IRQ_OPTS_MAX];
  int nirq;
  const char *uart_rx;
} irq_opts;

/* Takes an --irq (true) or says it cannot (too many, on stderr). */
bool irq_opts_add(irq_opts *o, const char *spec, const char *cmd);

struct tally_sim;
/* Sets them on the loaded simulation: 0, or the exit status after saying
 * why (64 for a bad --irq, 66 for a --uart-rx that cannot be read). */
int irq_opts_apply(const irq_opts *o, struct tally_sim *sim, const char *cmd);

struct tally_profile;
/* -v: each source's rises, interrupts taken and latencies, and requests
 * still waiting with the reason; nothing when no source rose. With a
 * task-aware profile of the run (else NULL): the latencies per task that
 * was running when the line rose, too. */
void irq_report(struct tally_sim *sim, const struct tally_profile *p, FILE *f);

#endif
