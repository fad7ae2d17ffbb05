/* What several exports share. */
#include "export.h"

/* A signal's total at pc: tally_profile_at, derived signals ("stall")
 * included. */
uint64_t report_at(const tally_profile *p, uint32_t pc, int signal) { return tally_profile_at(p, pc, signal); }
