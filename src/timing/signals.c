#include <string.h>

#include "signals.h"

const signal_info signal_catalog[SIG_COUNT] = {
#define SIGNAL_ROW(id, name, meaning) [SIG_##id] = {name, meaning},
  TALLY_SIGNAL_LIST(SIGNAL_ROW)
#undef SIGNAL_ROW
};

int signal_lookup(const char *name) {
  for (int i = 0; i < SIG_COUNT; i++)
    if (strcmp(signal_catalog[i].name, name) == 0)
      return i;
  return -1;
}
