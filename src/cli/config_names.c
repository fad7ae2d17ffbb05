/*
 * tally config with function names, as tally run --count takes them:
 * `--arr I=FUNC` and `--counter I=SIGNAL@FUNC` (or SIGNAL@0xLO-0xHI)
 * through the symbols of the program the board runs (--program ELF, or
 * --map FILE for a raw binary). A counter with a range gets an ARR of its
 * own unless one already holds that range. Everything is resolved before
 * the first packet goes out: a misspelt name costs no board state.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "config_req.h"
#include "tally/tally.h"

/* A simulation holding the program's symbols, or NULL after saying why
 * (*status). Only the symbols are read: the program may be linked for any
 * board (docs/boards.md). */
static tally_sim *load_symbols(const char *program, const char *map, int *status) {
  tally_config cfg;
  tally_config_default(&cfg);
  cfg.ram_size = 4096; /* nothing is loaded into it */
  tally_sim *sim = tally_sim_new(&cfg);
  *status = EXIT_INTERNAL;
  if (!sim) {
    fprintf(stderr, "tally config: out of memory for the program's symbols\n");
    return NULL;
  }
  tally_error err;
  *status = EXIT_NOINPUT;
  if (program && tally_load_symbols(sim, program, &err) != 0) {
    fprintf(stderr, "tally config: --program: %s\n", err.msg);
    tally_sim_free(sim);
    return NULL;
  }
  if (map && tally_load_map(sim, map, &err) != 0) {
    fprintf(stderr, "tally config: --map: %s\n", err.msg);
    tally_sim_free(sim);
    return NULL;
  }
  *status = 0;
  return sim;
}

/* "--arr '3=main'", as the option was given. */
static const char *given(const request *r, char *buf, size_t size) {
  snprintf(buf, size, "%s '%s'", r->type == REQ_ARR ? "--arr" : "--counter", r->option);
  return buf;
}

static bool needs_symbols(const request *reqs, int n) {
  for (int i = 0; i < n; i++)
    if (reqs[i].func[0])
      return true;
  return false;
}

/* An ARR given as a range and a name: a name that is one of the program's
 * functions must be the function the range lies in, or the counters'
 * labels would name code they do not count. Names that are no function
 * (a loop, a phase) are the user's own. False after saying why. */
static bool check_named_range(tally_sim *sim, const request *r) {
  uint32_t lo, hi;
  tally_error err;
  if (r->type != REQ_ARR || r->func[0] || !r->named || !r->name[0] ||
      tally_function_range(sim, r->name, &lo, &hi, &err) != 0)
    return true;
  if (r->lo >= lo && r->hi <= hi)
    return true;
  char b[320], there[160];
  tally_symbolize(sim, r->lo, there, sizeof there); /* "main+0x10", or the bare address */
  fprintf(stderr,
          "tally config: %s: 0x%08x-0x%08x is not inside %s (0x%08x-0x%08x): 0x%08x is %s%s; give a "
          "range inside %s, or a name of your own\n",
          given(r, b, sizeof b), r->lo, r->hi, r->name, lo, hi, r->lo,
          strncmp(there, "0x", 2) ? "" : "outside every function", strncmp(there, "0x", 2) ? there : "", r->name);
  return false;
}

/* The function's range into r->lo, r->hi; false after saying why. */
static bool resolve_function(tally_sim *sim, request *r) {
  tally_error err;
  if (tally_function_range(sim, r->func, &r->lo, &r->hi, &err) == 0)
    return true;
  char b[320];
  fprintf(stderr, "tally config: %s: %s\n", given(r, b, sizeof b), err.msg);
  return false;
}

static bool arr_taken(const request *reqs, int n, unsigned index) {
  for (int i = 0; i < n; i++)
    if (reqs[i].type == REQ_ARR && reqs[i].index == index)
      return true;
  return false;
}

/* The ARR for a counter's range: one set to that range already, or a new
 * one at the lowest free index. -1 when there is no room for a request. */
static int arr_for(request *reqs, int *nreq, int cap, const request *c) {
  for (int i = 0; i < *nreq; i++)
    if (reqs[i].type == REQ_ARR && reqs[i].lo == c->lo && reqs[i].hi == c->hi)
      return (int)reqs[i].index;
  if (*nreq >= cap)
    return -1;
  unsigned index = 0;
  while (arr_taken(reqs, *nreq, index))
    index++;
  request *a = &reqs[(*nreq)++];
  *a = (request){.type = REQ_ARR, .index = index, .lo = c->lo, .hi = c->hi, .named = c->func[0] != 0,
                 .option = c->option};
  snprintf(a->name, sizeof a->name, "%s", c->func);
  return (int)index;
}

int config_resolve(request *reqs, int *nreq, int cap, const char *program, const char *map) {
  tally_sim *sim = NULL;
  if (needs_symbols(reqs, *nreq)) {
    if (!program && !map) {
      for (int i = 0; i < *nreq; i++)
        if (reqs[i].func[0]) {
          char b[320];
          fprintf(stderr, "tally config: %s names the function '%s': give the program the board runs "
                          "(--program ELF, or --map FILE for a raw binary)\n", given(&reqs[i], b, sizeof b),
                  reqs[i].func);
          break;
        }
      return EXIT_USAGE;
    }
  }
  if (program || map) { /* names given with ranges are checked against the program too */
    int status;
    if (!(sim = load_symbols(program, map, &status)))
      return status;
  }
  int rc = 0;
  for (int i = 0; i < *nreq && rc == 0; i++)
    if (reqs[i].func[0] ? !resolve_function(sim, &reqs[i]) : sim && !check_named_range(sim, &reqs[i]))
      rc = EXIT_USAGE;
  int n = *nreq; /* the ARRs added below need nothing resolved */
  for (int i = 0; i < n && rc == 0; i++) {
    if (reqs[i].type != REQ_COUNTER || !reqs[i].needs_arr)
      continue;
    int arr = arr_for(reqs, nreq, cap, &reqs[i]);
    if (arr < 0) {
      fprintf(stderr, "tally config: too many settings in one call\n");
      rc = EXIT_USAGE;
    }
    reqs[i].arr = (unsigned)arr;
  }
  tally_sim_free(sim);
  return rc;
}
