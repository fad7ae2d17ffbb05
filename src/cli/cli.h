/* The tally command: subcommands and the helpers they share. */
#ifndef TALLY_CLI_CLI_H
#define TALLY_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tally/tally.h"

/* Exit statuses of tally itself (a program's own status passes through). */
enum {
  EXIT_USAGE = 64,       /* bad command line */
  EXIT_DATAERR = 65,     /* an input file that is not what it should be (a spool file) */
  EXIT_NOINPUT = 66,     /* program file missing or not loadable */
  EXIT_UNAVAILABLE = 69, /* the collector never confirmed the run (--collector) */
  EXIT_INTERNAL = 70,    /* host-side failure */
  EXIT_CANTCREAT = 73,   /* an output file (the store) cannot be created */
  EXIT_CYCLES = 123,     /* --max-cycles reached (the run's cycle budget) */
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
int cmd_trace(int argc, char **argv);
int cmd_collect(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_inst(int argc, char **argv);
int cmd_dvfs(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_serve(int argc, char **argv);   /* src/serve/cmd_serve.c */

/* The status for a program that exited by itself: its code's low byte,
 * 1 for a non-zero code whose low byte is 0; says on stderr what the
 * program reported when it was an HTIF failure or does not fit. */
int cli_exit_status(const tally_sim *sim, const char *cmd);

struct option;
/* Prints a one-line hint on stderr when an argument after PROGRAM (argv's
 * index `program`) is one of the subcommand's own long options. */
void cli_hint_after_program(const char *cmd, const struct option *longs, int argc, char **argv, int program);

/* Numbers for people, as the library formats and parses them. */
static inline const char *fmt_count(uint64_t v, char *buf, size_t size) { return tally_format_count(v, buf, size); }
static inline bool parse_u64(const char *s, uint64_t *out) { return tally_parse_number(s, out); }
static inline bool parse_seconds(const char *s, double *out) { return tally_parse_seconds(s, out); }

struct tally_sim;
/* --board NAME|FILE (board_opts.c): fills cfg->board and cfg->ram_size
 * for `program` (an ELF gets the RAM its segments need, up to twice the
 * board's, unless --ram-size was given: ram_size 0 means it was not; raw:
 * the program is a raw binary) and *ram_base (where a raw binary goes by
 * default). board NULL: virt. 0, or after saying why EXIT_USAGE (an
 * unknown name) or EXIT_NOINPUT (a board file that cannot be read). */
struct tally_config;
int cli_board_config(struct tally_config *cfg, const char *board, const char *program, bool raw, uint64_t ram_size,
                     uint32_t *ram_base, const char *cmd);
/* tally_sim_open, saying why not on stderr ("tally CMD: ..."); NULL then,
 * *status the exit status. */
struct tally_sim *cli_sim_open(const struct tally_config *cfg, const char *cmd, int *status);
/* The --help lines of --board and --raw. */
#define BOARD_HELP \
  "      --board NAME|FILE  the board: memory map and devices (a shipped name:\n" \
  "                         virt, the default, or litex; or a board file;\n" \
  "                         docs/boards.md)\n"

/* Sets the core model (core_opts.c): 0, EXIT_USAGE for a bad --core name
 * or --set value, EXIT_NOINPUT for a model file that cannot be read. */
int cli_set_core(struct tally_sim *sim, const char *name, const char *const *sets, int nsets, const char *cmd);

/* --engine interp|jit (core_opts.c): the engine's number, or -1 after
 * saying why; and setting it (engine -1: the default, left alone): 0, or
 * after saying why EXIT_USAGE (no translator on this host). */
int cli_parse_engine(const char *word, const char *cmd);
int cli_set_engine(struct tally_sim *sim, int engine, const char *cmd);
#define ENGINE_HELP \
  "      --engine interp|jit  how the program runs: interpreted, or\n" \
  "                         translated into host code (x86-64 Linux; the\n" \
  "                         default there, else interp; $TALLY_ENGINE sets the\n" \
  "                         default). Same results either way, cycles, profiles\n" \
  "                         and counters too; the VexRiscv and PicoRV32 models\n" \
  "                         interpret (-v says why; docs/jit.md)\n"

#endif
