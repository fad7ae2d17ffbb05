/* Profile snapshots behind the public tally_profile API (report.c). */
#ifndef TALLY_PROFILE_REPORT_H
#define TALLY_PROFILE_REPORT_H

#include "../symbols/symtab.h"
#include "profile.h"
#include "tally/tally.h"

struct tally_profile {
  prof_state *state;          /* live: per-pc rows and the tree */
  tally_func_profile *funcs;
  size_t nfuncs, nfuncs_real; /* the last function is "[unknown]" */
  int unknown, root_func;
  uint64_t *self_store;
  tally_arc *arcs;
  size_t narcs, arcs_cap;
  uint64_t totals[SIG_COUNT];
  uint64_t samples_taken;
};

tally_profile *profile_snapshot(prof_state *st, const sym_table *syms, uint32_t entry, uint64_t now,
                                const uint64_t *totals);
void profile_free(tally_profile *p);
void profile_stacks(const tally_profile *p, void (*fn)(void *, const char *const *, size_t, uint64_t),
                    void *ctx);

#endif
