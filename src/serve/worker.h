/* The worker's parts shared between worker.c and worker_profile.c. */
#ifndef TALLY_SERVE_WORKER_H
#define TALLY_SERVE_WORKER_H

#include <stdio.h>

#include <jansson.h>

#include "tally/lines.h"
#include "tally/tally.h"

/* Writes the profile the page shows (flat, arcs, stacks, annotated
 * disassembly) as JSON to f; lt gives source lines (NULL: none). */
int worker_write_profile(tally_sim *sim, const tally_profile *p, const tally_line_table *lt, FILE *f);

/* Prints the loaded program's function table as one JSON line, or why it
 * could not be loaded (loaded != 0: err says). Returns the exit status. */
int worker_check(tally_sim *sim, int loaded, const char *elf, tally_error *err);

#endif
