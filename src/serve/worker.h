/* The worker's parts shared between worker.c and worker_profile.c. */
#ifndef TALLY_SERVE_WORKER_H
#define TALLY_SERVE_WORKER_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "tally/lines.h"
#include "tally/tally.h"

/* Writes the profile the page shows (flat, arcs, stacks, timeline,
 * annotated disassembly) as JSON to f; lt gives source lines (NULL: none),
 * sources their text (worker_read_sources; NULL: none). */
int worker_write_profile(tally_sim *sim, const tally_profile *p, const tally_line_table *lt, json_t *sources,
                         FILE *f);

/* The text of the program's source files that lie in root (tally serve
 * --source-dir, a real path), read before the sandbox shuts files off:
 * {file as the line table names it: [lines] or null (outside root, not a
 * regular file, too large, unreadable)}. At most WORKER_SOURCE_FILES files
 * of WORKER_SOURCE_BYTES each; bytes that are not printable ASCII become
 * '?'. */
#define WORKER_SOURCE_FILES 64
#define WORKER_SOURCE_BYTES (1u << 20)
json_t *worker_read_sources(const tally_sim *sim, const tally_line_table *lt, const char *root);

/* Calls the profile's timeline keeps (the page's call timeline): about 48
 * bytes each in the run, 30 of JSON; past it the timeline stops, cut. */
#define WORKER_TIMELINE_CALLS 200000

/* Prints the loaded program's function table as one JSON line, or why it
 * could not be loaded (loaded != 0: err says). Returns the exit status.
 * raw: a .bin at [bin_lo, bin_hi) with its .map, checked against each other. */
int worker_check(tally_sim *sim, int loaded, const char *elf, bool raw, uint32_t bin_lo, uint64_t bin_hi,
                 tally_error *err);

#endif
