/*
 * The translator's parts for the cached VexRiscv models (the timing
 * model's VexRiscv rules, timing.vex_rules: cores/vexriscv.ini,
 * cores/vexriscv-imac.ini), jit_vexc.c. Their rules read state a block
 * cannot know when it is translated (the line fetched ahead, a refill on
 * its way, the wrong path's words, a store pending, late results carried
 * across block edges), so every dynamic charge is the interpreter's own,
 * called from the translated code: the block's entry, each fetch op,
 * load, store, multiply, divide and shift by a register, each branch
 * taken or not, jal and jalr, and the slow halves of loads and stores
 * outside RAM. The block's static cycles are charged at its entry as the
 * interpreter charges them; blocks with a CSR access, a system
 * instruction, an atomic or fence.i run in the interpreter's loop.
 */
#ifndef TALLY_CORE_JIT_VEXC_H
#define TALLY_CORE_JIT_VEXC_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"

struct jit_timed_fns;

/* Whether a timed run of cpu's model is translated with the helpers
 * below: a model with the VexRiscv rules (not vexriscv-min), in a run
 * that charges no rows besides the totals (no profile, no address
 * regions: those keep interpreting); the PMU's listing of blocks entered
 * is made at each entry, as the PMU loop makes it */
bool jit_vexc_translated(const core_cpu *cpu);

/* The timed helpers (jit.h's jit_timed_fns; .branch is NULL: a branch
 * calls one of the two below with its op) */
extern const struct jit_timed_fns core_jvexc_fns;
void core_jvexc_taken(core_cpu *cpu, core_block *blk, uint32_t i);
/* ENTER's first fetch missing after the entry for a late result known
 * (jit.c's emit_vexc_hz_entry), `wait` cycles at the entry */
void core_jvexc_entry_miss_wait(core_cpu *cpu, core_block *b, uint32_t wait);
void core_jvexc_fall(core_cpu *cpu, core_block *blk, uint32_t i);
void core_jvexc_jal(core_cpu *cpu, core_block *blk, uint32_t i);
void core_jvexc_jalr(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t target);

/* What an inline redirect rule (jit.c's emit_vexc_jal, emit_vexc_jalr,
 * emit_vexc_taken) was decided on, to be compared at run time: the 16 bytes
 * from the jump's word (RAM offset o; every read the rules make of the
 * jump's and the next instructions' bytes falls in them), and the halfword
 * at a static target (RAM offset ho) that split_target_at reads */
typedef struct core_jvexc_code {
  bool window, half;
  uint32_t o, ho;
  uint16_t hv;
  uint8_t w[16];
} core_jvexc_code;

/* Whether T_JAL at op i comes to its notes alone (fetch_ahead_data's
 * bubbles, csr_drain's timing_note_redirect) while `c` holds: no refill
 * of the word after it (taken_path_fill), no word of two held
 * (redirect_rvc_pair), no split target (redirect_split_target) */
bool core_jvexc_jal_inline(const core_cpu *cpu, core_block *blk, uint32_t i, core_jvexc_code *c);

/* ... T_JALR at op i while `c` holds and its target is at 0 mod 4 when
 * the model has redirect_split_target (jit.c tests that at run time):
 * no wrong-path lookup, no fence.i on that path, no word of two held, no
 * CSR instruction after it */
bool core_jvexc_jalr_inline(const core_cpu *cpu, core_block *blk, uint32_t i, core_jvexc_code *c);

/* ... T_BRANCH(1) of the branch at op i while `c` holds: a jal's case
 * when predicted taken, a jalr's (its target static) when not */
bool core_jvexc_taken_inline(const core_cpu *cpu, core_block *blk, uint32_t i, core_jvexc_code *c);

#endif
