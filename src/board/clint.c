/*
 * CLINT for one hart: msip at 0x0, mtimecmp at 0x4000, mtime at 0xbff8.
 * mtime is derived from the hart's cycle count, never from host time, so
 * timer interrupts land on the same instruction in every run.
 */
#include "board.h"

static uint32_t half(uint64_t v, uint32_t off) { return (uint32_t)(off & 4 ? v >> 32 : v); }

static uint64_t set_half(uint64_t v, uint32_t off, uint32_t w) {
  return off & 4 ? (v & 0xffffffffu) | (uint64_t)w << 32 : (v & ~(uint64_t)0xffffffffu) | w;
}

bool clint_load(core_cpu *cpu, uint32_t off, unsigned size, uint32_t *val) {
  if (size != 4)
    return false;
  if (off == 0)
    *val = (cpu->mip_soft & MIP_MSIP) ? 1 : 0;
  else if (off == 0x4000 || off == 0x4004)
    *val = half(cpu->mtimecmp, off);
  else if (off == 0xbff8 || off == 0xbffc)
    *val = half(core_mtime_now(cpu), off);
  else
    *val = 0;
  return true;
}

bool clint_store(core_cpu *cpu, uint32_t off, unsigned size, uint32_t val) {
  if (size != 4)
    return false;
  if (off == 0) {
    cpu->mip_soft = (val & 1) ? cpu->mip_soft | MIP_MSIP : cpu->mip_soft & ~MIP_MSIP;
  } else if (off == 0x4000 || off == 0x4004) {
    cpu->mtimecmp = set_half(cpu->mtimecmp, off, val);
  } else if (off == 0xbff8 || off == 0xbffc) {
    uint64_t now = core_mtime_now(cpu);
    cpu->mtime_adj += (int64_t)(set_half(now, off, val) - now);
  }
  return true;
}
