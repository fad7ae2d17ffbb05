#include <string.h>

#include "signals.h"

const signal_info signal_catalog[SIG_COUNT] = {
#define SIGNAL_ROW(id, name, meaning, noun) [SIG_##id] = {name, meaning, noun},
  TALLY_SIGNAL_LIST(SIGNAL_ROW)
#undef SIGNAL_ROW
};

int signal_lookup(const char *name) {
  for (int i = 0; i < SIG_COUNT; i++)
    if (strcmp(signal_catalog[i].name, name) == 0)
      return i;
  return -1;
}

void signal_derive(uint64_t *totals) {
  static const int stalls[] = {SIG_STALL_ICACHE, SIG_STALL_LOAD_USE, SIG_STALL_MULDIV, SIG_STALL_DCACHE,
                               SIG_STALL_WBUF, SIG_STALL_BRANCH, SIG_STALL_JUMP, SIG_STALL_SYSTEM, SIG_STALL_DVFS};
  totals[SIG_STALL] = 0;
  for (size_t i = 0; i < sizeof stalls / sizeof stalls[0]; i++)
    totals[SIG_STALL] += totals[stalls[i]];
}
