/*
 * The translator's parts for micro_arch picorv32 (picorv32.h) and for
 * data-dependent shifts (jit_pico.c). PicoRV32's instruction times are
 * static (the block builder sums them, timing_pico_static), except a
 * jalr's target fetch (T_JALR: timing_pico_jalr) and a shift by a
 * register amount on a core without a barrel shifter (T_MULDIV); its
 * memory has no caches and no latency beyond the static wait states, so
 * a load or store in RAM only counts its bus transfer (timing_load_slow,
 * timing_store_slow). In a run that charges no rows besides the totals
 * (no profile, no address regions) the translation does all of these
 * inline; otherwise jit.c calls the helpers below, which set the
 * instruction's profile row first, as the profiled loop does.
 */
#ifndef TALLY_CORE_JIT_PICO_H
#define TALLY_CORE_JIT_PICO_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"
#include "jit_x86.h"

/* T_JALR of micro_arch picorv32 at op i to `target` (helper; rows kept) */
void core_jpico_jalr(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t target);

/* T_JALR inline, the target in eax (kept); clobbers rcx, rdx. Only in a run
 * charging no rows. */
void jit_pico_emit_jalr(x86_buf *b, const core_cpu *cpu);

/* Whether the model's loads and stores in RAM are charged inline
 * (jit_pico_emit_access): micro_arch picorv32 without a write buffer
 * or an SRAM region, in a run charging no rows. */
bool jit_pico_inline_access(const timing *tm);
/* T_LOAD or T_STORE of op i of blk inline; clobbers rax, rdx. */
void jit_pico_emit_access(x86_buf *b, const core_block *blk, uint32_t i, bool store);

/* Whether T_MULDIV of `kind` can change the run (timing_muldiv_slow:
 * multiplies and divides only in the iterative modes, shifts by a
 * register without a barrel shifter). */
bool jit_muldiv_dynamic(const timing *tm, uint8_t kind);
/* T_MULDIV of a shift by a register amount (op i) inline; clobbers rcx,
 * rdx. Only in a run charging no rows. */
void jit_emit_shift_timing(x86_buf *b, const timing *tm, const core_block *blk, uint32_t i);

#endif
