/*
 * The translator's parts for micro_arch vexriscv-min (vexmin.h,
 * jit_vex.c). Every instruction's time is dynamic there: its step
 * (vexmin_step.h) reads the model's state (the rows the last instruction
 * spent in each stage, when each register is written back) and its
 * operands (a shift's amount, a load's or store's address), and sets the
 * cycle count to when the instruction retires. The translation calls the
 * interpreter's own step (exec_loop.inc's vexmin_op) as each instruction
 * starts, one helper per kind so that the kind's facts are constants in
 * it as they are in the interpreter's code for the kind, and marks a
 * taken branch's redirect inline (vexmin_taken). The rest of a block (its
 * operations, horizons, ways out) is the plain timed translation's: the
 * model's static cycles are 0 and its penalties unused.
 */
#ifndef TALLY_CORE_JIT_VEX_H
#define TALLY_CORE_JIT_VEX_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"
#include "jit_x86.h"

/* Whether a timed run of tm's model is translated with the steps below:
 * micro_arch vexriscv-min in a run that charges no rows besides the
 * totals (no profile, no address regions, no PMU listing: those loops
 * keep interpreting) */
bool jit_vexmin_translated(const core_cpu *cpu);

/* The helper translated code calls before op i of blk runs, or NULL for
 * none: void fn(core_cpu *cpu, core_block *blk, uint32_t arg), *arg set.
 * The step of the op's kind (exec_loop.inc's VEXMIN_AT; arg i), or, for a
 * stretch of ops in sequence whose steps depend on nothing but the
 * model's state (two or more, from the block's first op too, whose fetch
 * may be a redirect: no shift by a register, CSR access or general step
 * among them, a load or store only as the last op and only when its
 * beat's wait states are known as the stretch starts), one replay of all their steps before its
 * first (core_jvexmin_replay; arg: the stretch's entry in j's table,
 * made here): the stretch's end state looked up among the start states
 * it ran from before, relative to the row of the last fetch beat, and
 * stepped and noted when missing. */
const void *jit_vexmin_step_at(struct core_jit *j, const core_cpu *cpu, const core_block *blk, uint32_t i,
                               uint32_t *arg);

/* The table: emptied with the translations (core_jit_flush), freed with
 * the translator */
void core_jvexmin_forget(struct core_jit *j);
void core_jvexmin_free(struct core_jit *j);

/* vexmin_taken inline (r15: cpu->tm): a taken branch redirects the fetch */
void jit_vexmin_emit_taken(x86_buf *b);

#endif
