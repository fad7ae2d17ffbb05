/* The worker's parts shared between worker.c and worker_profile.c. */
#ifndef TALLY_SERVE_WORKER_H
#define TALLY_SERVE_WORKER_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "tally/lines.h"
#include "tally/tally.h"

/* Writes the profile the page shows (flat, arcs, stacks, annotated
 * disassembly) as JSON to f; lt gives source lines (NULL: none). */
int worker_write_profile(tally_sim *sim, const tally_profile *p, const tally_line_table *lt, FILE *f);

/* Prints the loaded program's function table as one JSON line, or why it
 * could not be loaded (loaded != 0: err says). Returns the exit status. */
/* raw: a .bin at [bin_lo, bin_hi) with its .map, checked against each other. */
int worker_check(tally_sim *sim, int loaded, const char *elf, bool raw, uint32_t bin_lo, uint64_t bin_hi,
                 tally_error *err);

#endif
