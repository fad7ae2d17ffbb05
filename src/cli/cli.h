/* The tally command: subcommands and the helpers they share. */
#ifndef TALLY_CLI_CLI_H
#define TALLY_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit statuses of tally itself (a program's own status passes through). */
enum {
  EXIT_USAGE = 64,       /* bad command line */
  EXIT_NOINPUT = 66,     /* program file missing or not loadable */
  EXIT_INTERNAL = 70,    /* host-side failure */
  EXIT_CANTCREAT = 73,   /* an output file (the store) cannot be created */
  EXIT_BOUND = 124,      /* --max-insns or --timeout reached */
  EXIT_TRAP = 125,       /* the program took an exception it has no handler for */
  EXIT_HALT = 126,       /* the program waits for an interrupt that can never come */
  EXIT_INTERRUPTED = 130 /* Ctrl-C */
};

int cmd_run(int argc, char **argv);
int cmd_signals(int argc, char **argv);
int cmd_symbols(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_collect(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_inst(int argc, char **argv);
int cmd_dvfs(int argc, char **argv);

struct tally_sim;
/* End-of-run statistics: a table for people, JSON for tools. */
void stats_print(struct tally_sim *sim, FILE *f);
int stats_write_json(struct tally_sim *sim, const char *path, int exit_status);

/* "12,345,678" */
const char *fmt_count(uint64_t v, char *buf, size_t size);
/* Parses "123", "0x80000000", "10k", "5M", "2G" (k/M/G = 10^3/10^6/10^9,
 * Ki/Mi/Gi = 2^10/2^20/2^30). */
bool parse_u64(const char *s, uint64_t *out);
bool parse_seconds(const char *s, double *out);

#endif
