/*
 * The outer loop: handles everything that happens *between* instructions
 * (pending code flushes, interrupts, the instruction budget) and hands the
 * stretches in between to the fast loop. When the next event falls inside a
 * block, it single-steps up to it, so events happen at the exact
 * instruction whatever the block boundaries are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../timing/timing.h"
#include "cpu.h"
#include "jit.h"
#include "probe.h"

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* The PC sampler: the sample at cycle T goes to the instruction whose
 * cycles contain T. Blocks never run across a sample point (the cycle
 * horizon), so the instruction just stepped brackets it exactly. */
static void take_samples(core_cpu *cpu, uint32_t pc) {
  cpu->tm->flow->sample_until(cpu->tm->prof, pc, cpu->tm->cycle);
}

/* Every signal's total now, as --stats and the statistics module count
 * them (derived and marker signals included): what the PMU counts. With
 * `fold`, the cached blocks' executions are folded first (a walk over
 * them); without, they must have none since the last fold. */
static void pmu_totals(core_cpu *cpu, uint64_t *totals, bool fold) {
  if (fold)
    core_fold_dirty(cpu); /* checks its law in a checking build */
  for (int i = 0; i < SIG_COUNT; i++)
    totals[i] = (uint64_t)((int64_t)cpu->tm->sig_folded[i] + cpu->tm->sig_dyn[i]);
  signal_derive(totals);
  uint64_t markers[4];
  timing_marker_totals(cpu->tm, cpu->tm->cycle, markers);
  for (int i = 0; i < 4; i++)
    totals[SIG_MARKER0 + i] = markers[i];
}

#ifdef TALLY_CHECK_LAWS
/* The law pmu_totals(..., false) rests on: after a PMU step no cached
 * block has executions left to fold. */
static void check_unfolded(core_cpu *cpu, const uint64_t *quick) {
  uint64_t full[SIG_COUNT];
  pmu_totals(cpu, full, true);
  if (memcmp(full, quick, sizeof full) != 0) {
    fprintf(stderr, "tally: internal error: signal totals after a PMU access at 0x%08x were not folded\n",
            (unsigned)cpu->pc);
    abort();
  }
}
#endif

/* Runs the first `max` instructions at pc (fewer if a branch ends them
 * sooner) as one block, exactly as far: one instruction, or a prefix that
 * prefix_that_fits() found to end before every horizon. */
static void step(core_cpu *cpu, uint32_t max) {
  uint32_t pc0 = cpu->pc;
  _Alignas(16) unsigned char buf[1024]; /* one instruction, its fetch ops, side arrays */
  core_block *b = core_block_get_prefix(cpu, cpu->pc, max, buf, sizeof buf);
  if (!b && max > 1)
    b = core_block_get_prefix(cpu, cpu->pc, 1, buf, sizeof buf);
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
  cpu->horizon = cpu->instret + b->n_insns;
  if (cpu->tm) {
    uint64_t totals[SIG_COUNT];
    bool pmu = b->timing->pmu; /* one instruction that reads or sets a counter: its boundaries */
    if (pmu) {
      core_track_blocks(cpu); /* from now on the timed loop lists the blocks it enters */
      pmu_totals(cpu, totals, true);
      pmu_step_begin(&cpu->tm->pmu, totals);
    }
    cpu->tail_cycles = 0;
    cpu->stepping = b;
    core_exec(cpu, b);
    cpu->stepping = NULL;
    /* the block is in no fold's list: fold its static counts now (a call
     * or trap in it may have folded them already, core_fold_context) */
    core_fold_stepped(cpu, b);
    /* a write takes effect at the end: the blocks were folded before the
     * step, and the stepped one (in no fold's list) just above */
    if (pmu && pmu_step_pending(&cpu->tm->pmu)) {
      pmu_totals(cpu, totals, false);
#ifdef TALLY_CHECK_LAWS
      check_unfolded(cpu, totals);
#endif
    }
    if (pmu)
      pmu_step_end(&cpu->tm->pmu, totals);
    if (cpu->tm->prof && cpu->tm->flow->next_sample(cpu->tm->prof) != UINT64_MAX)
      take_samples(cpu, pc0);
    probe_step_end(cpu, &probe, pc0, b);
  } else {
    core_exec(cpu, b);
  }
  cpu->horizon = saved;
}

/* How many instructions from pc surely end before the cycle horizon when
 * run as one block: the block's bound (build() in block.c) taken one
 * instruction at a time, and strictly below, so that no dispatch, sample
 * or interrupt can fall inside or at the end of them. Stepping near a
 * horizon then runs such prefixes and single-steps only the last few
 * instructions. 1 when nothing more is sure. */
static uint32_t prefix_that_fits(core_cpu *cpu) {
  const timing *tm = cpu->tm;
  if (!tm || cpu->cycle_horizon <= tm->cycle)
    return 1;
  uint64_t room = cpu->cycle_horizon - tm->cycle;
  uint64_t worst = timing_block_bound(tm);
  if (worst >= room) /* no instruction fits: the loop below would say so */
    return 1;
  /* the block cached at pc, or else the longest prefix (no more is
   * stepped at once): building a cached block at every instruction
   * stepped cost more than the stepping, and filled the cache with blocks
   * that never run whole (and that each dispatch folded) */
  core_block *b = core_block_find(cpu, cpu->pc);
  _Alignas(16) unsigned char buf[1024];
  if (!b)
    b = core_block_get_prefix(cpu, cpu->pc, CORE_PREFIX_MAX, buf, sizeof buf);
  if (!b || !b->timing)
    return 1;
  uint32_t fit = 0;
  for (uint32_t i = 0; i < b->n_ops; i++) {
    worst += b->timing->ops[i].cycles + timing_dynamic_bound(tm, b->ops[i].kind);
    if (worst >= room)
      break;
    fit = b->insn_idx[i + 1];
  }
  uint64_t left = cpu->horizon > cpu->instret ? cpu->horizon - cpu->instret : 1;
  if (fit > left)
    fit = (uint32_t)left;
  uint32_t k = 1; /* a power of two: fewer distinct prefixes to cache */
  while (k * 2 <= fit && k * 2 <= CORE_PREFIX_MAX)
    k *= 2;
  return k;
}

bool core_exec(core_cpu *cpu, core_block *first) {
  if (!cpu->tm) /* the translator runs whole stretches; stepping interprets */
    return cpu->jit && !first ? core_exec_jit(cpu) : core_exec_fast(cpu, first);
  if (cpu->tm->prof || cpu->tm->regions) {
    if (cpu->tm->prof)
      cpu->track_complete = false; /* the profiled loops list no blocks to fold (the regions loops do) */
    if (cpu->jit && !first && !core_jit_timed_why(cpu))
      return core_exec_jit(cpu); /* translated, with the same charges to the same rows */
    /* a model without the VexRiscv rules runs the loops without their checks */
    bool plain = !cpu->tm->vexmin && !cpu->tm->vex_rules;
    if (cpu->tm->prof)
      return plain ? core_exec_profiled_plain(cpu, first) : core_exec_profiled(cpu, first);
    return plain ? core_exec_timed_regions_plain(cpu, first) : core_exec_timed_regions(cpu, first);
  }
  if (cpu->jit && !first && !core_jit_timed_why(cpu))
    return core_exec_jit(cpu); /* translated, with the same charges */
  if (cpu->track) /* as above: without the VexRiscv checks for a model without them */
    return !cpu->tm->vexmin && !cpu->tm->vex_rules ? core_exec_timed_pmu_plain(cpu, first)
                                                   : core_exec_timed_pmu(cpu, first);
  if (cpu->tm->vexmin)
    return core_exec_timed_vexmin(cpu, first);
  return cpu->tm->vex_rules ? core_exec_timed_vex(cpu, first) : core_exec_timed(cpu, first);
}

/* The next timer interrupt that could be taken, as a cycle count. */
static uint64_t timer_event_cycle(const core_cpu *cpu) {
  if (!(cpu->mstatus & MSTATUS_MIE) || !(cpu->mie & MIP_MTIP))
    return UINT64_MAX;
  return core_timer_due_cycle(cpu);
}

/* The cycle budget: checked between instructions (a block never crosses
 * it, set_horizons, and a wfi sleep ends at it, core_wfi), so a run
 * stops at the first instruction boundary at or past it. */
static bool cycle_budget_spent(core_cpu *cpu) {
  if (!cpu->max_cycles)
    return false;
  uint64_t now = cpu->tm ? cpu->tm->cycle : cpu->instret + cpu->idle_cycles;
  if (now < cpu->max_cycles)
    return false;
  core_set_stop(cpu, CORE_STOP_CYCLES, "the cycle budget (%llu cycles) is used up",
                (unsigned long long)cpu->max_cycles);
  return true;
}

/* The board's events due by now (interrupt lines rising, bytes arriving):
 * between instructions, at the first boundary at or past their cycle, as a
 * one-instruction-at-a-time run would see them (their cycle is a horizon,
 * set_horizons). */
static void due_events(core_cpu *cpu) {
  if (cpu->ext_due == UINT64_MAX || !cpu->bus->events)
    return;
  uint64_t now = cpu->tm ? cpu->tm->cycle : cpu->instret + cpu->idle_cycles;
  if (now >= cpu->ext_due)
    cpu->bus->events(cpu, now);
}

/* Functional mode counts one cycle per instruction (plus wfi idle time), so
 * its timer horizon is an instruction count; timed mode has a cycle horizon.
 * The board's next event is one more such horizon. */
static void set_horizons(core_cpu *cpu, uint64_t limit) {
  uint64_t due = min_u64(timer_event_cycle(cpu), cpu->ext_due);
  cpu->horizon = limit;
  cpu->cycle_horizon = UINT64_MAX;
  if (cpu->tm) {
    cpu->cycle_horizon = due;
    if (cpu->tm->prof)
      cpu->cycle_horizon = min_u64(due, cpu->tm->flow->next_sample(cpu->tm->prof));
    cpu->cycle_horizon = min_u64(cpu->cycle_horizon, probe_horizon(cpu)); /* a dispatch */
    if (cpu->tm->pmu.n) /* so that a block that must be stepped never fits (TIMING_MUST_STEP) */
      cpu->cycle_horizon = min_u64(cpu->cycle_horizon, cpu->tm->cycle + TIMING_HORIZON_MAX);
    if (cpu->max_cycles)
      cpu->cycle_horizon = min_u64(cpu->cycle_horizon, cpu->max_cycles);
  } else {
    if (due != UINT64_MAX)
      cpu->horizon = min_u64(limit, due > cpu->idle_cycles ? due - cpu->idle_cycles : 0);
    if (cpu->max_cycles) /* a cycle is an instruction here, or idle time */
      cpu->horizon = min_u64(cpu->horizon, cpu->max_cycles > cpu->idle_cycles ? cpu->max_cycles - cpu->idle_cycles : 0);
  }
  if (cpu->horizon <= cpu->instret) /* always make progress */
    cpu->horizon = cpu->instret + 1;
}

/* A store hit a WATCH_TASK chunk (mem.c): the loop left after that
 * instruction, so the cycle count and every count so far are exact here;
 * the contexts get theirs before the profile looks at the task pointer
 * (a task switch changes the context on top). */
static void task_store_seen(core_cpu *cpu) {
  cpu->task_store = false;
  timing *tm = cpu->tm;
  if (!tm || !tm->prof || !tm->flow->watched)
    return;
  core_fold_context(cpu);
  tm->flow->watched(tm->prof, tm->cycle);
}

/* With `trap_ends`, a trap taken ends the run too (core_step). The check
 * is here, between the fast loop's returns, which a trap always causes
 * (exec_loop.inc leaves the loop on one): the hot loop never sees it. */
static core_stop run_loop(core_cpu *cpu, uint64_t budget, bool trap_ends) {
  uint64_t limit = budget > UINT64_MAX - cpu->instret ? UINT64_MAX : cpu->instret + budget;
  uint64_t traps = cpu->traps;
  if (cpu->stop == CORE_STOP_LIMIT || cpu->stop == CORE_STOP_CYCLES) /* a budget raised since goes on */
    cpu->stop = CORE_RUNNING;
  atomic_store(&cpu->stop_request, 0); /* a new call goes on */
  cpu->debug_hit.hit = false;
  while (cpu->stop == CORE_RUNNING) {
    /* a step ends at the boundary it reached: an interrupt due after its
     * instruction is the next step's */
    if (trap_ends && (cpu->traps != traps || cpu->instret >= limit)) {
      cpu->stop = CORE_STOP_LIMIT;
      break;
    }
    if (cpu->task_store)
      task_store_seen(cpu);
    if (core_poll_stop_request(cpu) || cycle_budget_spent(cpu))
      break;
    if (cpu->flush_pending)
      core_block_flush(cpu);
    due_events(cpu);
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
    if (cpu->guard) {
      /* a trigger armed or a PMP entry locked: every instruction is
       * checked before it runs (guard.c), so the loops need not */
      uint64_t traps_before = cpu->traps;
      uint32_t pc = cpu->pc;
      if (!core_guard_check(cpu)) {
        if (cpu->stop == CORE_RUNNING)
          step(cpu, 1);
      } else if (cpu->tm && cpu->traps != traps_before) {
        probe_exception(cpu, before, pc);
      }
      continue;
    }
    /* Stopped short of a horizon because the next block would cross it:
     * step up to it one instruction at a time. */
    cpu->tail_cycles = 0;
    bool at_horizon = core_exec(cpu, NULL);
    if (cpu->tm)
      probe_passed(cpu);
    /* At the cycle horizon itself (a sample point on an instruction edge) no
     * block fits either: stepping is what moves past it. */
    if (at_horizon && cpu->instret < cpu->horizon && cpu->stop == CORE_RUNNING && !cycle_budget_spent(cpu))
      step(cpu, prefix_that_fits(cpu));
  }
  /* a run that can go on stops at a boundary: what is due there is seen
   * now (as the next call would first), so that tally_interrupt_due and
   * a debugger's reads of mip and the devices are exact between calls */
  if (cpu->stop == CORE_STOP_LIMIT || cpu->stop == CORE_STOP_CYCLES)
    due_events(cpu);
  return cpu->stop;
}

core_stop core_run(core_cpu *cpu, uint64_t budget) { return run_loop(cpu, budget, false); }

core_stop core_step(core_cpu *cpu) { return run_loop(cpu, 1, true); }
