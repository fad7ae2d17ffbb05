/*
 * The run loop's side of the horizon watcher (probe.h): the statistics
 * module's dispatch timer, reached through the timing model
 * (timing_watch_ops), never called by name.
 */
#include <string.h>

#include "../timing/timing.h"
#include "probe.h"

uint64_t probe_horizon(const core_cpu *cpu) {
  return cpu->tm && cpu->tm->watch ? cpu->tm->watch_ops->horizon(cpu->tm->watch) : UINT64_MAX;
}

void probe_step_begin(core_cpu *cpu, probe_step *p, const core_block *b) {
  uint64_t h = probe_horizon(cpu);
  p->on = h != UINT64_MAX && (!b || cpu->tm->cycle + b->timing->max_cycles >= h);
  if (p->on) {
    p->start = cpu->tm->cycle;
    memcpy(p->dyn, cpu->tm->sig_dyn, sizeof p->dyn);
  }
}

void probe_step_end(core_cpu *cpu, const probe_step *p, uint32_t pc, const core_block *b) {
  if (!p->on) {
    probe_passed(cpu);
    return;
  }
  if (cpu->tm->cycle < probe_horizon(cpu))
    return;
  int64_t counts[SIG_COUNT];
  for (int s = 0; s < SIG_COUNT; s++)
    counts[s] = cpu->tm->sig_dyn[s] - p->dyn[s];
  /* fetch reads: I-cache fills, or without an I-cache the static uncached fetch */
  uint32_t fetch_reads = (uint32_t)counts[SIG_ICACHE_MISS];
  if (b && !cpu->tm->fetch_ops)
    for (uint32_t i = 0; i < b->n_ops; i++)
      fetch_reads += b->timing->ops[i].fetch_reads;
  timing_unit u = {.pc = pc, .start = p->start, .fetch_reads = fetch_reads, .counts = counts};
  cpu->tm->watch_ops->reached(cpu->tm->watch, &u, 1);
}

/* A trap's entry alone: its penalty (stall.system) and its pulse. */
static void trap_unit(core_cpu *cpu, uint64_t start, uint32_t pc, tally_signal_id pulse) {
  if (!cpu->tm || cpu->tm->cycle < probe_horizon(cpu))
    return;
  int64_t counts[SIG_COUNT] = {0};
  int64_t penalty = (int64_t)(cpu->tm->cycle - start);
  counts[SIG_CYCLE] = counts[SIG_STALL_SYSTEM] = penalty;
  counts[pulse] = 1;
  timing_unit u = {.pc = pc, .start = start, .fetch_reads = 0, .counts = counts};
  cpu->tm->watch_ops->reached(cpu->tm->watch, &u, 1);
}

/* Its trap penalty is charged to the handler's first instruction, before
 * that instruction's own cycles. */
void probe_interrupt(core_cpu *cpu, uint64_t start) { trap_unit(cpu, start, cpu->mtvec & ~3u, SIG_INTERRUPT); }

/* Its trap penalty is the trapping instruction's, which did not issue. */
void probe_exception(core_cpu *cpu, uint64_t start, uint32_t pc) { trap_unit(cpu, start, pc, SIG_TRAP); }

/* The tail's cycles are the last of its instruction: only instret (its last
 * cycle) comes after them. */
void probe_passed(core_cpu *cpu) {
  uint64_t h = probe_horizon(cpu);
  if (!cpu->tm || cpu->tm->cycle < h)
    return;
  if (!cpu->tail_cycles || cpu->tm->cycle - cpu->tail_cycles >= h) {
    cpu->tm->watch_ops->reached(cpu->tm->watch, NULL, 0); /* on an instruction edge */
    return;
  }
  int64_t counts[SIG_COUNT] = {0};
  counts[SIG_CYCLE] = counts[cpu->tail_sig] = (int64_t)cpu->tail_cycles;
  counts[SIG_INSTRET] = 1;
  timing_unit u = {.pc = cpu->tail_pc, .start = cpu->tm->cycle - cpu->tail_cycles, .fetch_reads = 0,
                    .counts = counts};
  cpu->tm->watch_ops->reached(cpu->tm->watch, &u, 1);
}
