/*
 * tally run --inst-cost ORIG.elf: what the instrumentation of PROGRAM
 * (an output of `tally inst`) cost, exactly, against ORIG.elf (the program
 * before instrumentation) run on the same core with the same arguments.
 * docs/tally-inst.md, "What the instrumentation costs".
 */
#ifndef TALLY_CLI_RUN_INST_COST_H
#define TALLY_CLI_RUN_INST_COST_H

#include <stdio.h>

#include "host_files.h"
#include "tally/tally.h"

typedef struct inst_cost inst_cost;

/* Runs ORIG to its end on a board of its own (the same --board, core and --set overrides as
 * given, its output and input discarded, the same host-file policy and
 * argv), then attaches the counters that split the instrumented run
 * (sim, loaded, its core set) between the program and the analysis
 * region. NULL after printing why; *status is then the exit status. */
inst_cost *inst_cost_setup(tally_sim *sim, const char *orig, const char *board, const char *core,
                           const char *const *sets, int nsets, const host_files_opts *files, int argc, char **argv,
                           int *status);

/* After the run (why: NULL when the program ran to its end; status its
 * exit status): prints the table on f. 0, or an exit status. */
int inst_cost_finish(inst_cost *c, const char *why, int status, FILE *f);
void inst_cost_free(inst_cost *c);

#endif
