/*
 * The options of `tally inst`, one key at a time (inst_opts.h): the
 * command line's getopt loop and the spec file reader both call
 * inst_opt_set, so a spec file means exactly what the same options mean.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inst_opts.h"

static const struct {
  const char *name;
  unsigned flags;
} point_kinds[] = {
  {"insn", ~0u}, {"bb", TALLY_INST_LEADER}, {"func-entry", TALLY_INST_FUNC_ENTRY}, {"func-exit", TALLY_INST_RET},
  {"loop", TALLY_INST_LOOP}, {"call", TALLY_INST_CALL}, {"load", TALLY_INST_LOAD}, {"store", TALLY_INST_STORE},
  {"mem", TALLY_INST_LOAD | TALLY_INST_STORE},
};
#define NKINDS (sizeof point_kinds / sizeof point_kinds[0])

/* KIND[,KIND...], blanks around a kind allowed (spec files). */
static int set_points(inst_opts *o, const char *s, char *msg, size_t size) {
  char buf[256];
  if (strlen(s) >= sizeof buf)
    return snprintf(msg, size, "too long"), EXIT_USAGE;
  snprintf(buf, sizeof buf, "%s", s);
  unsigned flags = 0;
  for (char *save = NULL, *tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
    size_t k = 0;
    while (k < NKINDS && strcmp(point_kinds[k].name, tok) != 0)
      k++;
    if (k == NKINDS)
      return snprintf(msg, size, "unknown kind '%s' (insn, bb, func-entry, func-exit, loop, call, load, store, mem)",
                      tok), EXIT_USAGE;
    flags |= point_kinds[k].flags;
  }
  if (!flags)
    return snprintf(msg, size, "no kind given"), EXIT_USAGE;
  o->points |= flags;
  return 0;
}

static int set_range(inst_opts *o, const char *s, char *msg, size_t size) {
  if (o->nranges == INST_MAX_LIST)
    return snprintf(msg, size, "more than %d ranges", INST_MAX_LIST), EXIT_USAGE;
  char *end;
  unsigned long a = strtoul(s, &end, 0);
  unsigned long b = *end == '-' ? strtoul(end + 1, &end, 0) : 0;
  if (*end || a >= b || b > 0x100000000ul)
    return snprintf(msg, size, "want 0xLO-0xHI with LO < HI, got '%s'", s), EXIT_USAGE;
  o->range_lo[o->nranges] = (uint32_t)a;
  o->range_hi[o->nranges] = (uint32_t)(b - 1) + 1u; /* 0x100000000 wraps to 0: the top */
  o->nranges++;
  return 0;
}

static int add_list(const char **list, size_t *n, const char *v, char *msg, size_t size) {
  if (*n == INST_MAX_LIST)
    return snprintf(msg, size, "given more than %d times", INST_MAX_LIST), EXIT_USAGE;
  list[(*n)++] = v;
  return 0;
}

static int set_tactic(inst_opts *o, const char *v, char *msg, size_t size) {
  if (strcmp(v, "auto") == 0) o->tactic = TALLY_INST_TACTIC_AUTO;
  else if (strcmp(v, "jump") == 0) o->tactic = TALLY_INST_TACTIC_JUMP;
  else if (strcmp(v, "trap") == 0) o->tactic = TALLY_INST_TACTIC_TRAP;
  else return snprintf(msg, size, "want auto, jump or trap, got '%s'", v), EXIT_USAGE;
  return 0;
}

int inst_opt_set(inst_opts *o, const char *key, const char *v, char *msg, size_t size) {
  if (strcmp(key, "points") == 0)
    return set_points(o, v, msg, size);
  if (strcmp(key, "before") == 0 || strcmp(key, "after") == 0) {
    if (o->nwheres == INST_MAX_LIST)
      return snprintf(msg, size, "more than %d --before/--after", INST_MAX_LIST), EXIT_USAGE;
    o->wheres[o->nwheres++] = (inst_where){v, key[0] == 'a' ? TALLY_INST_AFTER : TALLY_INST_BEFORE, o->origin};
    return 0;
  }
  if (strcmp(key, "rare") == 0) {
    if (o->nrares == INST_MAX_LIST)
      return snprintf(msg, size, "more than %d --rare", INST_MAX_LIST), EXIT_USAGE;
    o->rares[o->nrares++] = (inst_where){v, TALLY_INST_BEFORE, o->origin};
    return 0;
  }
  if (strcmp(key, "functions") == 0)
    return add_list(o->globs, &o->nglobs, v, msg, size);
  if (strcmp(key, "range") == 0)
    return set_range(o, v, msg, size);
  if (strcmp(key, "tactic") == 0)
    return set_tactic(o, v, msg, size);
  if (strcmp(key, "bbcount") == 0) {
    if (strcmp(v, "flow") != 0 && strcmp(v, "all") != 0)
      return snprintf(msg, size, "want flow or all, got '%s'", v), EXIT_USAGE;
    return o->bbcount_all = v[0] == 'a', 0;
  }
  if (strcmp(key, "analysis") == 0) {
    size_t i = o->nanalysis;
    int rc = add_list(o->analysis, &o->nanalysis, v, msg, size);
    if (!rc)
      o->analysis_origin[i] = o->origin;
    return rc;
  }
  if (strcmp(key, "tool") == 0)
    return o->tool = v, 0;
  if (strcmp(key, "call") == 0)
    return o->call = v, o->call_origin = o->origin, 0;
  return snprintf(msg, size, "unknown key (points, before, after, rare, functions, range, tactic, bbcount, tool, analysis, call)"),
         EXIT_USAGE;
}

static bool tool_is(const inst_opts *o, const char *name) { return o->tool && strcmp(o->tool, name) == 0; }

int inst_opts_finish(inst_opts *o) {
  char msg[64];
  if (!o->points && !o->nwheres && tool_is(o, "phases"))
    set_points(o, "loop", msg, sizeof msg); /* the phase profiler reads the counters at loop entries */
  if (!o->points && !o->nwheres && tool_is(o, "memtrace"))
    set_points(o, "mem", msg, sizeof msg); /* the tracer records every data access */
  for (size_t w = 0; w < o->nwheres && tool_is(o, "memtrace") && !o->call; w++)
    if (o->wheres[w].when == TALLY_INST_AFTER) {
      /* the address is worked out from the registers before the access */
      fprintf(stderr, "tally inst: --after %s: memtrace records an access before it is made: use --before\n",
              o->wheres[w].where);
      return EXIT_USAGE;
    }
  if (!o->points && !o->nwheres) {
    fprintf(stderr, "tally inst: nothing to instrument: give --points, --before or --after\n");
    return EXIT_USAGE;
  }
  if (o->nanalysis && !o->call) {
    fprintf(stderr, "tally inst: --analysis needs --call FUNC(...) to say what to call\n");
    return EXIT_USAGE;
  }
  if (o->call && !o->nanalysis && (!o->tool || strcmp(o->tool, "none") == 0)) {
    fprintf(stderr, "tally inst: --call %s: no analysis code to find it in (--analysis FILE or --tool)\n", o->call);
    return EXIT_USAGE;
  }
  return 0;
}

const char *inst_opts_keep(inst_opts *o, const char *s) {
  char **n = realloc(o->owned, (o->nowned + 1) * sizeof *n);
  if (!n)
    return NULL;
  o->owned = n;
  if (!(n[o->nowned] = strdup(s)))
    return NULL;
  return n[o->nowned++];
}

void inst_opts_free(inst_opts *o) {
  for (size_t i = 0; i < o->nowned; i++)
    free(o->owned[i]);
  free(o->owned);
  o->owned = NULL;
  o->nowned = 0;
}
