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
void core_jvexc_fall(core_cpu *cpu, core_block *blk, uint32_t i);
void core_jvexc_jal(core_cpu *cpu, core_block *blk, uint32_t i);
void core_jvexc_jalr(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t target);

/* T_JAL's whole rule with the models' flags as they are for rv32im
 * (no taken_path_fill, redirect_rvc_pair nor redirect_split_target): two
 * notes of the redirect, no call (jit.c's emit_vexc_jal) */
bool core_jvexc_jal_inline(const core_cpu *cpu);

/* T_JALR's common case at op i, notes alone (jit.c's emit_vexc_jalr) while
 * the 16 bytes from the jalr's word on are `words` (copied by the call) */
bool core_jvexc_jalr_inline(const core_cpu *cpu, core_block *blk, uint32_t i, uint8_t words[16]);

#endif
