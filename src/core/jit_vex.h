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
 * model's state (two or more, or the block's first op alone: a block of
 * one jump or branch, a load or store first; from the block's first op
 * too, whose fetch may be a redirect: no shift by a register, CSR access or general step
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

/* Whether the model's loads and stores in RAM are charged inline
 * (jit_vexmin_emit_access): micro_arch vexriscv-min without a D-cache,
 * SRAM region or SDRAM rows, in a run charging no rows. Wait states
 * need no call: the step takes a RAM beat's own. */
bool jit_vexmin_inline_access(const timing *tm);
/* T_LOAD or T_STORE inline, right after the op's step (r15: cpu->tm);
 * clobbers nothing. */
void jit_vexmin_emit_access(x86_buf *b, bool store);

/* The forward jumps to a replay's miss path (jit_vexmin_emit_hit) */
#define JIT_VEXMIN_FWD 48
typedef struct jit_vexmin_fwd {
  uint8_t *at[JIT_VEXMIN_FWD];
  uint32_t n;
} jit_vexmin_fwd;

/* When step (from jit_vexmin_step_at, with arg) is a replay on a board
 * without wait states: emits its hit inline and returns true. The code
 * compares the start state with the way the stretch took last, then the
 * one before it (the model's
 * rows and the registers it reads relative to the last fetch beat's row,
 * and from a block's first op how it was entered) and on a match stores
 * that way's end state and the cycle count, falling through; the jumps in
 * *miss go where the caller then calls step as before, which looks at
 * every way and notes a new one. rbx: cpu, r15: cpu->tm, r11: the cycle
 * count; clobbers rax, rcx, rdx, rsi and rdi. */
bool jit_vexmin_emit_hit(x86_buf *b, const struct core_jit *j, const core_cpu *cpu, const void *step, uint32_t arg,
                         jit_vexmin_fwd *miss);

#endif
