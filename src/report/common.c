/* What several exports share. */
#include <string.h>

#include "export.h"

uint64_t report_at(const tally_profile *p, uint32_t pc, int signal) {
  const char *name = tally_signal_name(signal);
  if (!name || strcmp(name, "stall") != 0)
    return tally_profile_at(p, pc, signal);
  /* per-instruction rows hold the stall.* parts; "stall" is their sum */
  uint64_t sum = 0;
  for (int s = 0; s < tally_signal_count(); s++)
    if (strncmp(tally_signal_name(s), "stall.", 6) == 0)
      sum += tally_profile_at(p, pc, s);
  return sum;
}
