/*
 * The outer loop: handles everything that happens *between* instructions
 * (pending code flushes, interrupts, the instruction budget) and hands the
 * stretches in between to the fast loop. When the next event falls inside a
 * block, it single-steps up to it, so events happen at the exact
 * instruction whatever the block boundaries are.
 */
#include "cpu.h"

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Runs exactly one instruction through a throwaway one-op block. */
static void step_one(core_cpu *cpu) {
  _Alignas(16) unsigned char buf[sizeof(core_block) + 2 * sizeof(core_op) + 3 * sizeof(uint32_t)];
  core_block *b = core_block_build_single(cpu, cpu->pc, buf, sizeof buf);
  if (!b) {
    core_raise(cpu, CAUSE_FETCH_ACCESS, cpu->pc, cpu->pc);
    return;
  }
  uint64_t saved = cpu->horizon;
  cpu->horizon = cpu->instret + 1;
  core_exec_fast(cpu, b);
  cpu->horizon = saved;
}

core_stop core_run(core_cpu *cpu, uint64_t budget) {
  uint64_t limit = budget > UINT64_MAX - cpu->instret ? UINT64_MAX : cpu->instret + budget;
  if (cpu->stop == CORE_STOP_LIMIT)
    cpu->stop = CORE_RUNNING;
  while (cpu->stop == CORE_RUNNING) {
    if (cpu->flush_pending)
      core_block_flush(cpu);
    if (core_take_interrupt(cpu))
      continue;
    if (cpu->instret >= limit) {
      cpu->stop = CORE_STOP_LIMIT;
      break;
    }
    uint64_t event = core_next_event(cpu);
    cpu->horizon = min_u64(limit, event);
    if (cpu->instret >= cpu->horizon) /* defensive: always make progress */
      cpu->horizon = cpu->instret + 1;
    /* Stopped short of the horizon because the next block would cross it:
     * step up to it one instruction at a time. */
    if (core_exec_fast(cpu, NULL) && cpu->instret < cpu->horizon)
      step_one(cpu);
  }
  return cpu->stop;
}
