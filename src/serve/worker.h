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

#endif
