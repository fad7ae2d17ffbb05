/*
 * Memory accesses the fast loop does not handle inline: anything outside
 * RAM goes to the board's devices; RAM accesses that straddle its end fault;
 * stores into watched RAM (predecoded code, the HTIF tohost word, a task
 * pointer) do the
 * store and then tell the loop to resync.
 */
#include <string.h>

#include "cpu.h"

static bool ram_range(const core_cpu *cpu, uint32_t addr, uint32_t len, uint32_t *off) {
  uint32_t o = addr - cpu->ram_base;
  if (o >= cpu->ram_size || len > cpu->ram_size - o)
    return false;
  *off = o;
  return true;
}

bool core_read_mem(const core_cpu *cpu, uint32_t addr, void *dst, uint32_t len) {
  uint32_t off;
  if (!ram_range(cpu, addr, len, &off))
    return false;
  memcpy(dst, cpu->ram + off, len);
  return true;
}

bool core_write_mem(core_cpu *cpu, uint32_t addr, const void *src, uint32_t len) {
  uint32_t off;
  if (!ram_range(cpu, addr, len, &off))
    return false;
  memcpy(cpu->ram + off, src, len);
  /* a host write into code must be seen by the next fetch */
  for (uint32_t c = off >> WATCH_SHIFT; c <= (off + len - 1) >> WATCH_SHIFT && len; c++)
    if (cpu->watch[c] & WATCH_CODE)
      cpu->flush_pending = true;
  return true;
}

bool core_fetch_insn(const core_cpu *cpu, uint32_t pc, uint32_t *bits) {
  uint16_t lo, hi;
  if (!core_read_mem(cpu, pc, &lo, 2))
    return false;
  *bits = lo;
  if (isa_insn_len(lo) == 2)
    return true;
  if (!core_read_mem(cpu, pc + 2, &hi, 2))
    return false;
  *bits |= (uint32_t)hi << 16;
  return true;
}

bool core_load_slow(core_cpu *cpu, uint32_t addr, unsigned size, uint32_t *val) {
  uint32_t off;
  if (ram_range(cpu, addr, size, &off)) {
    *val = 0;
    memcpy(val, cpu->ram + off, size);
    return true;
  }
  return cpu->bus->load(cpu, addr, size, val);
}

core_store_result core_store_slow(core_cpu *cpu, uint32_t addr, unsigned size, uint32_t val) {
  uint32_t off;
  if (!ram_range(cpu, addr, size, &off))
    return cpu->bus->store(cpu, addr, size, val) ? STORE_DONE_EXIT : STORE_FAULT;
  memcpy(cpu->ram + off, &val, size);
  uint8_t w = cpu->watch[off >> WATCH_SHIFT] | cpu->watch[(off + size - 1) >> WATCH_SHIFT];
  if (!(w & (WATCH_CODE | WATCH_HTIF | WATCH_TASK)))
    return STORE_DONE;
  if (w & WATCH_TASK) /* after this instruction, the loop tells the profile (run.c) */
    cpu->task_store = true;
  if ((w & WATCH_CODE) && core_code_overlaps(cpu, off, size))
    cpu->flush_pending = true;
  else if (!(w & (WATCH_HTIF | WATCH_TASK)))
    return STORE_DONE; /* data beside the code: nothing to resync */
  if (w & WATCH_HTIF)
    cpu->bus->watched_store(cpu, addr, size);
  return STORE_DONE_EXIT;
}
