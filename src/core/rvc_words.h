/*
 * [pipeline] redirect_rvc_pair: what the fetch stage holds when the fetch
 * is redirected, read from the words of code (the interpreter's and
 * translator's redirects, exec_loop.inc; a load's replay after a store,
 * computed when its block is built, block.c).
 */
#ifndef TALLY_CORE_RVC_WORDS_H
#define TALLY_CORE_RVC_WORDS_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"

/* [pipeline] redirect_rvc_pair: a redirect of the fetch costs a cycle more
 * when the fetch stage holds, for its first cycle, a word of two 16-bit
 * instructions: the decompressor is not ready for a new word that cycle
 * and the target's fetch starts one later (IBusCachedPlugin:
 * stages_1_input_ready low). rvc_pair_at: the word at pc is one (not when
 * pc is at 2 mod 4: that word was reached before). */
static inline bool rvc_pair_at(const core_cpu *cpu, uint32_t pc) {
  uint32_t bits = 0;
  if ((pc & 2) || !core_read_mem(cpu, pc, &bits, 4))
    return false;
  return (bits & 3) != 3 && (bits >> 16 & 3) != 3;
}
/* ... the same when the word at pc (2 mod 4) starts a 32-bit instruction
 * and the word after holds a 16-bit one in its upper half: the decompressor
 * keeps the first half in its buffer and takes the next word whole, the
 * 32-bit instruction with its lower half, and holds it for the 16-bit one
 * (stages_1_input_ready low while bufferValid and isInputHighRvc) */
static inline bool rvc_held_at(const core_cpu *cpu, uint32_t pc) {
  uint16_t lo = 0, hi = 0;
  if (!(pc & 2))
    return rvc_pair_at(cpu, pc);
  return core_read_mem(cpu, pc, &lo, 2) && core_read_mem(cpu, pc + 4, &hi, 2) && (lo & 3) == 3 && (hi & 3) != 3;
}

#endif
