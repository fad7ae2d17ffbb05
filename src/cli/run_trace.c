/*
 * tally run --trace FILE [--trace-from FUNC|ADDR] [--trace-count N]: the
 * window of the instruction trace (include/tally/trace.h). Up to the
 * window's start the program runs one step at a time (tally_step) to stop
 * exactly there, a trap handler's first instruction included; in the window each step writes a line; after it the
 * caller's run loop goes on at full speed. docs/tally-trace.md.
 */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "run_trace.h"
#include "stopwatch.h"
#include "tally/trace.h"

#define POLL_EVERY 4096   /* steps between looks at Ctrl-C and --max-insns */

/* The window's first pc: a function's entry or an address. */
static int resolve_from(tally_sim *sim, const char *from, uint32_t *pc) {
  uint64_t v;
  if (tally_parse_number(from, &v)) {
    if (v > UINT32_MAX) {
      fprintf(stderr, "tally run: --trace-from %s: not a 32-bit address\n", from);
      return -1;
    }
    *pc = (uint32_t)v;
    return 0;
  }
  uint32_t hi;
  tally_error err;
  if (tally_function_range(sim, from, pc, &hi, &err) != 0) {
    fprintf(stderr, "tally run: --trace-from %s: %s\n", from, err.msg);
    return -1;
  }
  return 0;
}

/* Why stepping must end here, or NULL to go on. */
static const char *step_bound(tally_sim *sim, uint64_t n, uint64_t insn0, uint64_t max_insns,
                              volatile sig_atomic_t *interrupted) {
  if (max_insns && tally_instret(sim) - insn0 >= max_insns)
    return "--max-insns reached";
  if (n % POLL_EVERY)
    return NULL;
  if (*interrupted)
    return "interrupted";
  return stopwatch_reason();
}

static tally_stop run_to(tally_sim *sim, uint32_t pc, uint64_t insn0, uint64_t max_insns,
                         volatile sig_atomic_t *interrupted, const char **bound) {
  for (uint64_t n = 1; tally_pc(sim) != pc; n++) {
    tally_stop s = tally_step(sim); /* a handler's entry is a pc it can stop at */
    if (s != TALLY_STOP_LIMIT)
      return s;
    if ((*bound = step_bound(sim, n, insn0, max_insns, interrupted)))
      break;
  }
  return TALLY_STOP_LIMIT;
}

static tally_stop trace_lines(tally_trace *t, tally_sim *sim, uint64_t count, uint64_t insn0,
                              uint64_t max_insns, volatile sig_atomic_t *interrupted, const char **bound) {
  for (uint64_t n = 1; n <= count; n++) {
    tally_stop s = tally_trace_step(t);
    if (s != TALLY_STOP_LIMIT)
      return s;
    if ((*bound = step_bound(sim, n, insn0, max_insns, interrupted)))
      break;
  }
  return TALLY_STOP_LIMIT;
}

tally_stop trace_window(tally_sim *sim, const trace_opts *o, uint64_t max_insns,
                        volatile sig_atomic_t *interrupted, const char **bound, int *status) {
  *status = 0;
  uint32_t from = 0;
  if (o->from && resolve_from(sim, o->from, &from) != 0) {
    *status = EXIT_USAGE;
    return TALLY_STOP_ERROR;
  }
  bool out = o->file[0] == '-' && !o->file[1];
  FILE *f = out ? stdout : fopen(o->file, "w");
  if (!f) {
    fprintf(stderr, "tally run: --trace %s: cannot create: %s\n", o->file, strerror(errno));
    *status = EXIT_CANTCREAT;
    return TALLY_STOP_ERROR;
  }
  tally_error perr;
  if (!out && tally_protect_host_fd(sim, fileno(f), &perr) != 0)   /* the program never writes it */
    fprintf(stderr, "tally run: --trace %s: %s\n", o->file, perr.msg);
  tally_trace *t = tally_trace_open(sim, f, o->binary ? TALLY_TRACE_BINARY : TALLY_TRACE_TEXT);
  uint64_t insn0 = tally_instret(sim);
  tally_stop s = TALLY_STOP_ERROR;
  if (!t)
    fprintf(stderr, "tally run: --trace: out of memory\n");
  else if (!o->from || (s = run_to(sim, from, insn0, max_insns, interrupted, bound)) == TALLY_STOP_LIMIT)
    s = *bound ? TALLY_STOP_LIMIT : trace_lines(t, sim, o->count, insn0, max_insns, interrupted, bound);
  tally_trace_free(t);   /* the binary form's end record */
  /* a full disk shows only here: say so, never fail in silence */
  int bad = fflush(f) != 0 || ferror(f);
  if ((!out && fclose(f) != 0) || bad) {
    fprintf(stderr, "tally run: --trace %s: cannot write: %s\n", o->file, strerror(errno));
    *status = EXIT_INTERNAL;
  }
  if (!t)
    *status = EXIT_INTERNAL;
  return s;
}
