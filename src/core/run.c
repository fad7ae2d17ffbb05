/*
 * The outer loop: handles everything that happens *between* instructions
 * (pending code flushes, interrupts, the instruction budget) and hands the
 * stretches in between to the fast loop. When the next event falls inside a
 * block, it single-steps up to it, so events happen at the exact
 * instruction whatever the block boundaries are.
 */
#include <string.h>

#include "../profile/profile.h"
#include "../timing/timing.h"
#include "cpu.h"
#include "probe.h"

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* The PC sampler: the sample at cycle T goes to the instruction whose
 * cycles contain T. Blocks never run across a sample point (the cycle
 * horizon), so the instruction just stepped brackets it exactly. */
static void take_samples(core_cpu *cpu, uint32_t pc) {
  prof_state *p = cpu->tm->prof;
  while (p->next_sample < cpu->tm->cycle) {
    prof_sample(p, pc);
    p->next_sample += p->sample_period;
  }
}

/* Runs exactly one instruction through a one-instruction block. */
static void step_one(core_cpu *cpu) {
  uint32_t pc0 = cpu->pc;
  _Alignas(16) unsigned char buf[1024]; /* one instruction, its fetch ops, side arrays */
  core_block *b = core_block_get_single(cpu, cpu->pc, buf, sizeof buf);
  probe_step probe;
  if (cpu->tm)
    probe_step_begin(cpu, &probe, b);
  if (!b) {
    core_raise(cpu, CAUSE_FETCH_ACCESS, cpu->pc, cpu->pc);
    if (cpu->tm)
      probe_step_end(cpu, &probe, pc0, NULL);
    return;
  }
  uint64_t saved = cpu->horizon;
  cpu->horizon = cpu->instret + 1;
  if (cpu->tm) {
    cpu->tail_cycles = 0;
    core_exec(cpu, b);
    /* the one-instruction block is in no fold's list: fold its static counts now */
    timing_add_block(b->timing, (int64_t)b->timing->execs, cpu->tm->sig_dyn);
    if (cpu->tm->region_row) /* the current region is the instruction's */
      timing_add_block(b->timing, (int64_t)b->timing->execs, cpu->tm->region_row);
    if (cpu->tm->prof)
      for (uint32_t i = 0; i < b->n_ops; i++)
        timing_add_op(&b->timing->ops[i], (int64_t)b->timing->execs, prof_row(cpu->tm->prof, b->pcs[i]));
    b->timing->execs = 0;
    core_fold_events(cpu->tm, b, cpu->tm->sig_dyn, cpu->tm->region_row);
    if (cpu->tm->prof && cpu->tm->prof->sample_period)
      take_samples(cpu, pc0);
    probe_step_end(cpu, &probe, pc0, b);
  } else {
    core_exec(cpu, b);
  }
  cpu->horizon = saved;
}

bool core_exec(core_cpu *cpu, core_block *first) {
  if (!cpu->tm)
    return core_exec_fast(cpu, first);
  if (cpu->tm->prof)
    return core_exec_profiled(cpu, first);
  return cpu->tm->regions ? core_exec_timed_regions(cpu, first) : core_exec_timed(cpu, first);
}

/* The next timer interrupt that could be taken, as a cycle count. */
static uint64_t timer_event_cycle(const core_cpu *cpu) {
  if (!(cpu->mstatus & MSTATUS_MIE) || !(cpu->mie & MIP_MTIP))
    return UINT64_MAX;
  return core_timer_due_cycle(cpu);
}

/* Functional mode counts one cycle per instruction (plus wfi idle time), so
 * its timer horizon is an instruction count; timed mode has a cycle horizon. */
static void set_horizons(core_cpu *cpu, uint64_t limit) {
  uint64_t due = timer_event_cycle(cpu);
  cpu->horizon = limit;
  cpu->cycle_horizon = UINT64_MAX;
  if (cpu->tm) {
    cpu->cycle_horizon = due;
    const prof_state *p = cpu->tm->prof;
    if (p && p->sample_period)
      cpu->cycle_horizon = min_u64(due, p->next_sample);
    cpu->cycle_horizon = min_u64(cpu->cycle_horizon, probe_horizon(cpu)); /* a dispatch */
  }
  else if (due != UINT64_MAX)
    cpu->horizon = min_u64(limit, due > cpu->idle_cycles ? due - cpu->idle_cycles : 0);
  if (cpu->horizon <= cpu->instret) /* always make progress */
    cpu->horizon = cpu->instret + 1;
}

core_stop core_run(core_cpu *cpu, uint64_t budget) {
  uint64_t limit = budget > UINT64_MAX - cpu->instret ? UINT64_MAX : cpu->instret + budget;
  if (cpu->stop == CORE_STOP_LIMIT)
    cpu->stop = CORE_RUNNING;
  while (cpu->stop == CORE_RUNNING) {
    if (cpu->flush_pending)
      core_block_flush(cpu);
    uint64_t before = cpu->tm ? cpu->tm->cycle : 0;
    if (core_take_interrupt(cpu)) {
      if (cpu->tm)
        probe_interrupt(cpu, before);
      continue;
    }
    if (cpu->instret >= limit) {
      cpu->stop = CORE_STOP_LIMIT;
      break;
    }
    set_horizons(cpu, limit);
    /* Stopped short of a horizon because the next block would cross it:
     * step up to it one instruction at a time. */
    cpu->tail_cycles = 0;
    bool at_horizon = core_exec(cpu, NULL);
    if (cpu->tm)
      probe_passed(cpu);
    /* At the cycle horizon itself (a sample point on an instruction edge) no
     * block fits either: stepping is what moves past it. */
    if (at_horizon && cpu->instret < cpu->horizon && cpu->stop == CORE_RUNNING)
      step_one(cpu);
  }
  return cpu->stop;
}
