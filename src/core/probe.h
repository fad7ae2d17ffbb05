/*
 * What the run loop does for the statistics module's dispatch timer
 * (src/statmod/statmod_run.h): its dispatch cycle is a cycle horizon, and
 * whatever runs across it is run so that its own counts are known for the
 * exact split at the dispatch cycle:
 *
 *   - blocks stop short of the horizon and the instructions up to it are
 *     stepped one at a time, each probed around its step: probe_step_*;
 *   - an interrupt's entry is a unit of its own: probe_interrupt; so is
 *     an exception raised before its instruction ran: probe_exception;
 *   - the stall no block bound covers that ends a block's last instruction
 *     (wfi's sleep, a DVFS relock: cpu->tail_*): probe_passed.
 */
#ifndef TALLY_CORE_PROBE_H
#define TALLY_CORE_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "../timing/signals.h"
#include "cpu.h"

/* The statistics module's next dispatch cycle, UINT64_MAX when none. */
uint64_t probe_horizon(const core_cpu *cpu);

typedef struct probe_step {
  bool on;
  uint64_t start;
  int64_t dyn[SIG_COUNT];
} probe_step;

/* Around an instruction run alone through block b (NULL: its fetch faults). */
void probe_step_begin(core_cpu *cpu, probe_step *p, const core_block *b);
void probe_step_end(core_cpu *cpu, const probe_step *p, uint32_t pc, const core_block *b);

/* An interrupt was taken; `start` is the cycle count before its entry. */
void probe_interrupt(core_cpu *cpu, uint64_t start);

/* An exception raised before the instruction at pc ran (a trigger or a
 * PMP check, guard.c); `start` is the cycle count before its entry. */
void probe_exception(core_cpu *cpu, uint64_t start, uint32_t pc);

/* After a run nothing was probed for: the count passes a dispatch only on
 * an instruction edge or by a tail. */
void probe_passed(core_cpu *cpu);

#endif
