/*
 * micro_arch = picorv32: instruction times by the rules of PicoRV32's state
 * machine (YosysHQ/picorv32, picorv32.v), checked cycle for cycle against
 * the RTL (tests/cores/picorv32, docs/core-models.md).
 *
 * PicoRV32 fetches the next instruction while it executes the current one
 * (mem_do_prefetch), so an instruction's time, from its launch to the next
 * launch, includes the fetch of its successor. The model charges it the
 * same way: each instruction's static cycles hold its execution and the
 * fetch of the instruction after it in sequence; a taken branch adds the
 * fetch of its target (the block's taken penalty), a jal its target's
 * (static), a jalr its target's when it runs (timing_pico_jalr).
 */
#ifndef TALLY_TIMING_PICORV32_H
#define TALLY_TIMING_PICORV32_H

#include <stdint.h>

#include "timing.h"

/* The times of one instruction (kind, imm as decoded, at pc, len bytes).
 * next_word: the aligned word that holds the instruction at pc + len (as
 * the bus reads it); target_len: the length of the instruction at a
 * branch's or jal's target (2 or 4; 4 when it cannot be read). Overwrites o's cycles and stall fields; for a branch, *taken_pen
 * is what taking it adds. */
void timing_pico_static(const timing *t, op_timing *o, uint8_t kind, int32_t imm, uint32_t pc, uint32_t len,
                        uint32_t next_word, uint32_t target_len, uint32_t *taken_pen);

/* A jalr to `target`, whose instruction is target_len bytes: the fetch of
 * the target, charged when it runs. */
uint32_t timing_pico_jalr(timing *t, uint32_t target, uint32_t target_len);

/* The most cycles timing_pico_jalr can add, and what a taken branch's
 * target fetch can add to branch_penalty (a refetched 32-bit target). */
static inline uint32_t timing_pico_jump_bound(const timing *t) { return 1 + 2 * t->model.wait_states; }
static inline uint32_t timing_pico_branch_bound(const timing *t) {
  uint32_t w = t->model.wait_states;
  return 1 + 2 * w + (w ? 3 + 2 * w : 0);
}

/* Whether PicoRV32 (COMPRESSED_ISA, ENABLE_MUL, ENABLE_DIV, ENABLE_COUNTERS,
 * CATCH_ILLINSN, no IRQ) decodes the instruction: the counter reads
 * rdcycle[h], rdtime[h], rdinstret[h] (csrrs rd, CSR, x0) are its only
 * CSR instructions; it has no A extension, no fence.i, no mret or wfi. */
struct isa_insn;
int timing_pico_decodes(uint8_t kind, uint32_t csr, uint8_t rs1);

#endif
