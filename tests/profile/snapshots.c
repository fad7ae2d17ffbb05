/*
 * snapshots: taking profiles while the program runs changes nothing of
 * the profile at the end. The law: a run stopped every N instructions for
 * a snapshot (tally_profile_take, as tally serve does for its live view,
 * which folds every block's executions) ends with the same inclusive
 * counts of every signal, per function and per arc, and the same self
 * counts, as the same run taken once at its end. So does a run whose
 * table of per-context block counts (src/core/ctx_count.h) holds only a
 * few records, so that it is added up and restarted again and again.
 *
 *   snapshots PROGRAM CORE N
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "core/cpu.h"
#include "core/ctx_count.h"
#include "tally/tally.h"

/* The profile at the end of a run on a new board (*simp: free it after the
 * profile, which reads the board's symbols). */
static tally_profile *profile_of(const char *elf, const char *core, uint64_t every, uint32_t records,
                                 tally_sim **simp) {
  tally_error err;
  tally_sim *sim = *simp = tally_sim_new(NULL);
  if (!sim || tally_load_elf(sim, elf, &err) != 0 || tally_set_core(sim, core, NULL, 0, &err) != 0 ||
      tally_profile_enable(sim, 0, &err) != 0) {
    fprintf(stderr, "snapshots: %s on %s: %s\n", elf, core, err.msg);
    exit(2);
  }
  if (records)
    api_sim_cpu(sim)->ctx_counts->max = records;
  while (tally_run(sim, every) == TALLY_STOP_LIMIT)
    tally_profile_free(tally_profile_take(sim));
  return tally_profile_take(sim);
}

static int compare(const char *how, const char *what, const char *name, const uint64_t *a, const uint64_t *b) {
  int bad = 0;
  for (int s = 0; s < tally_signal_count(); s++)
    if (a[s] != b[s]) {
      fprintf(stderr, "snapshots: %s %s: %s %llu at the end, %llu %s\n", what, name, tally_signal_name(s),
              (unsigned long long)a[s], (unsigned long long)b[s], how);
      bad = 1;
    }
  return bad;
}

/* Every function's self and inclusive counts and every arc's inclusive
 * counts of `often` are `once`'s. */
static int same(const tally_profile *once, const tally_profile *often, const char *how) {
  const tally_func_profile *fa, *fb;
  const tally_arc *aa, *ab;
  size_t nf = tally_profile_functions(once, &fa), nfb = tally_profile_functions(often, &fb);
  size_t na = tally_profile_arcs(once, &aa), nab = tally_profile_arcs(often, &ab);
  int bad = nf != nfb || na != nab;
  if (bad)
    fprintf(stderr, "snapshots: %zu functions and %zu arcs at the end, %zu and %zu %s\n", nf, na, nfb, nab, how);
  for (size_t i = 0; i < nf && i < nfb; i++) {
    bad |= compare(how, "self", fa[i].name, fa[i].self, fb[i].self);
    bad |= compare(how, "inclusive", fa[i].name, fa[i].inclusive, fb[i].inclusive);
  }
  /* arcs are made in the order the tree is walked: match them by name */
  for (size_t i = 0; i < na; i++) {
    size_t j = 0;
    while (j < nab && !(ab[j].caller == aa[i].caller && ab[j].callee == aa[i].callee))
      j++;
    char name[200];
    snprintf(name, sizeof name, "%s -> %s", aa[i].caller >= 0 ? fa[aa[i].caller].name : "?",
             aa[i].callee >= 0 ? fa[aa[i].callee].name : "?");
    if (j == nab || ab[j].calls != aa[i].calls) {
      fprintf(stderr, "snapshots: arc %s: not the same calls %s\n", name, how);
      bad = 1;
      continue;
    }
    bad |= compare(how, "arc", name, aa[i].inclusive, ab[j].inclusive);
  }
  return bad;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: snapshots PROGRAM CORE N\n");
    return 2;
  }
  tally_sim *sim_once, *sim_often, *sim_small;
  tally_profile *once = profile_of(argv[1], argv[2], UINT64_MAX, 0, &sim_once);
  tally_profile *often = profile_of(argv[1], argv[2], strtoull(argv[3], NULL, 0), 0, &sim_often);
  tally_profile *small = profile_of(argv[1], argv[2], UINT64_MAX, 16, &sim_small);
  int bad = same(once, often, "with snapshots") | same(once, small, "with 16 records");
  printf("snapshots: %s on %s, a snapshot every %s instructions, and a table of 16 per-context block counts: %s\n",
         argv[1], argv[2], argv[3], bad ? "DIFFER" : "the same in every signal");
  tally_profile_free(once);
  tally_profile_free(often);
  tally_profile_free(small);
  tally_sim_free(sim_once);
  tally_sim_free(sim_often);
  tally_sim_free(sim_small);
  return bad;
}
