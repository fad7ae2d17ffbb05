/*
 * What `tally inst` was asked to do, from its command line and from spec
 * files (inst_spec.c). Both go through inst_opt_set, one key at a time,
 * with the long option's name as the key: a spec line `points = bb` and
 * `--points bb` are the same call, so they cannot mean different things.
 */
#ifndef TALLY_CLI_INST_OPTS_H
#define TALLY_CLI_INST_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tally/inst.h"

#define INST_MAX_LIST 64

typedef struct inst_where {
  const char *where;
  int when;           /* TALLY_INST_BEFORE or TALLY_INST_AFTER */
  const char *origin; /* "FILE:LINE" of the spec line, NULL: the command line */
} inst_where;

typedef struct inst_opts {
  const char *in, *out, *tool, *call, *show;
  unsigned points;
  inst_where wheres[INST_MAX_LIST];
  size_t nwheres;
  inst_where rares[INST_MAX_LIST]; /* --rare: sites that run rarely (tally_inst_set_rare) */
  size_t nrares;
  const char *globs[INST_MAX_LIST];
  size_t nglobs;
  uint32_t range_lo[INST_MAX_LIST], range_hi[INST_MAX_LIST];
  size_t nranges;
  const char *analysis[INST_MAX_LIST];
  const char *analysis_origin[INST_MAX_LIST];
  size_t nanalysis;
  const char *call_origin;
  const char *origin; /* where the option being set comes from (inst_opt_set) */
  tally_inst_tactic tactic;
  bool bbcount_all;   /* --bbcount all */
  bool quiet;    /* -q: no summary on success */
  bool report;
  char **owned; /* strings read from spec files, freed by inst_opts_free */
  size_t nowned;
} inst_opts;

/* Applies one option: key is a long option's name without "--" (points,
 * before, after, rare, functions, range, tactic, bbcount, tool, analysis, call). 0, or
 * EXIT_USAGE with msg saying what is wrong with the value (without the
 * key: the caller says where it came from). `value` must outlive o. */
int inst_opt_set(inst_opts *o, const char *key, const char *value, char *msg, size_t size);

/* The checks once every option is in: nothing to instrument, --analysis
 * without --call, ...; the defaults the tools imply (--points loop for
 * phases, mem for memtrace). 0 or EXIT_USAGE, the message printed. */
int inst_opts_finish(inst_opts *o);

/* Reads a spec file into o (docs/tally-inst.md, "Spec files"): 0, or
 * EXIT_USAGE / EXIT_NOINPUT with "FILE:LINE: ..." printed. */
int inst_spec_read(inst_opts *o, const char *path);

/* Keeps a copy of s with o (for values read from files). NULL when out of memory. */
const char *inst_opts_keep(inst_opts *o, const char *s);
void inst_opts_free(inst_opts *o);

#endif
