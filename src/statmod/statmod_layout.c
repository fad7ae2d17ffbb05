/*
 * The cycle layout of a unit of work (statmod_layout.h, docs/timing.md).
 */
#include <string.h>

#include "statmod_layout.h"

const uint8_t statmod_stall_parts[STATMOD_N_STALL_PARTS] = {
  SIG_STALL_ICACHE, SIG_STALL_LOAD_USE, SIG_STALL_MULDIV, SIG_STALL_DCACHE, SIG_STALL_WBUF,
  SIG_STALL_DVFS,   SIG_STALL_BRANCH,   SIG_STALL_JUMP,   SIG_STALL_SYSTEM,
};

const uint8_t statmod_layout_parts[STATMOD_N_LAYOUT_PARTS] = {
  SIG_STALL_ICACHE, SIG_STALL_LOAD_USE, SIG_COUNT /* issue */, SIG_STALL_MULDIV, SIG_STALL_DCACHE,
  SIG_STALL_WBUF,   SIG_STALL_DVFS,     SIG_WFI_IDLE,          SIG_STALL_BRANCH, SIG_STALL_JUMP,
  SIG_STALL_SYSTEM,
};

void statmod_lay_out(const statmod_unit *u, uint64_t cycles, statmod_layout *l) {
  memset(l, 0, sizeof *l);
  l->cycles = cycles;
  uint64_t stalls = 0;
  for (size_t i = 0; i < STATMOD_N_LAYOUT_PARTS; i++)
    if (statmod_layout_parts[i] != SIG_COUNT)
      stalls += (uint64_t)u->counts[statmod_layout_parts[i]];
  uint64_t at = 0;
  for (size_t i = 0; i < STATMOD_N_LAYOUT_PARTS; i++) {
    uint32_t s = statmod_layout_parts[i];
    uint64_t len = s == SIG_COUNT ? (cycles > stalls ? cycles - stalls : 0) : (uint64_t)u->counts[s];
    if (s == SIG_COUNT)
      l->first_issue = at;
    l->from[s] = at;
    l->len[s] = len;
    at += len;
  }
}
