/*
 * include/tally/cycletrace.h over the recorder of src/statmod/cycle_trace.h.
 */
#include <stdlib.h>
#include <string.h>

#include "../statmod/cycle_trace.h"
#include "api_internal.h"
#include "tally/cycletrace.h"

struct tally_cycle_trace {
  statmod_ctrace *t;
};

tally_cycle_trace *tally_cycle_trace_start(tally_sim *sim, FILE *out, uint64_t from, uint64_t to,
                                           tally_error *err) {
  core_cpu *cpu = api_sim_cpu(sim);
  if (!cpu->tm) {
    api_fail(err, TALLY_E_USAGE, "the cycle trace needs a core model (cycles are counted on one)");
    return NULL;
  }
  tally_cycle_trace *ct = malloc(sizeof *ct);
  if (!ct) {
    api_error(err, "out of memory for the cycle trace");
    return NULL;
  }
  char msg[256];
  if (!(ct->t = statmod_ctrace_new(cpu, out, from, to, msg, sizeof msg))) {
    api_error(err, "%s", msg);
    free(ct);
    return NULL;
  }
  return ct;
}

int tally_cycle_trace_finish(tally_cycle_trace *ct, tally_error *err) {
  char msg[256];
  int rc = statmod_ctrace_end(ct->t, msg, sizeof msg);
  if (rc != 0)
    api_fail(err, strncmp(msg, "cannot write", 12) == 0 ? TALLY_E_CREATE : TALLY_E_INTERNAL, "%s", msg);
  statmod_ctrace_free(ct->t);
  free(ct);
  return rc;
}

uint64_t tally_cycle_trace_cycles(const tally_cycle_trace *ct) { return statmod_ctrace_cycles(ct->t); }
