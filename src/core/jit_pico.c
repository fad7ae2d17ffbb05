/*
 * micro_arch picorv32 under the translator (jit_pico.h): the dynamic parts
 * of its timing, inline or as helpers. Each does what the timed loop does
 * at the same point (exec_loop.inc's T_JALR, T_LOAD, T_STORE, T_MULDIV,
 * on timing.c's and picorv32.c's functions), with the same numbers.
 */
#include "jit_pico.h"

#if defined(__x86_64__) && defined(__linux__)
#include <stddef.h>

#include "../timing/picorv32.h"
#include "../timing/timing.h"
#include "isa.h"

#define TM(field) x86_m(R15, (int32_t)offsetof(timing, field)) /* timed code: r15 is cpu->tm */
#define SIG(s) x86_m(R15, (int32_t)(offsetof(timing, sig_dyn) + 8u * (s)))
#define RC R11 /* tm->cycle (jit.c) */
#define RAM R12

/* the length of the instruction at `to` as T_JALR reads it: 4 unless its
 * first halfword is in RAM and compressed */
static uint32_t target_len(const core_cpu *cpu, uint32_t to) {
  uint32_t off = to - cpu->ram_base;
  return off < cpu->ram_size - 1 && (cpu->ram[off] & 3) != 3 ? 2 : 4;
}

void core_jpico_jalr(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t target) {
  timing *tm = cpu->tm;
  if (tm->prof) /* PROF_AT */
    tm->prof_row = timing_row(tm, blk->pcs[i]);
  timing_pico_jalr(tm, target, target_len(cpu, target));
}

/* charges c cycles (c > 0) to the cycle count and to sig: charge() of
 * timing.c, with tm->cycle in r11 */
static void emit_charge_imm(x86_buf *b, uint32_t c, int sig) {
  x86_alu_ri(b, true, ALU_ADD, RC, (int32_t)c);
  x86_alu_mi64(b, ALU_ADD, SIG(SIG_CYCLE), (int32_t)c);
  x86_alu_mi64(b, ALU_ADD, SIG(sig), (int32_t)c);
}

/* ... c in register r (64-bit, may be 0) */
static void emit_charge_reg(x86_buf *b, int r, int sig) {
  x86_alu_rr(b, true, ALU_ADD, RC, r);
  x86_op_mem(b, true, 0x01, r, SIG(SIG_CYCLE)); /* add [m], r */
  x86_op_mem(b, true, 0x01, r, SIG(sig));
}

/* timing_pico_jalr: a target that is a 32-bit instruction at 2 mod 4
 * takes two words (1 + 2W cycles), any other one (W) */
void jit_pico_emit_jalr(x86_buf *b, const core_cpu *cpu) {
  uint32_t w = cpu->tm->model.wait_states;
  x86_mov_rr(b, RCX, RAX);
  x86_alu_ri(b, false, ALU_SUB, RCX, (int32_t)cpu->ram_base);
  x86_alu_ri(b, false, ALU_CMP, RCX, (int32_t)(cpu->ram_size - 2)); /* off < ram_size - 1 */
  uint8_t *outside = x86_jcc_fwd(b, CC_A);
  x86_movzx8(b, RDX, x86_mi(RAM, RCX, 0));
  x86_alu_ri(b, false, ALU_AND, RDX, 3);
  x86_alu_ri(b, false, ALU_CMP, RDX, 3);
  uint8_t *compressed = x86_jcc_fwd(b, CC_NE);
  x86_patch_here(b, outside);
  x86_mov_rr(b, RDX, RAX);
  x86_alu_ri(b, false, ALU_AND, RDX, 2);
  uint8_t *aligned = x86_jcc_fwd(b, CC_E);
  emit_charge_imm(b, 1 + 2 * w, SIG_STALL_ICACHE);
  x86_alu_mi64(b, ALU_ADD, SIG(SIG_MEM_READ), 2);
  uint8_t *done = x86_jmp_fwd(b);
  x86_patch_here(b, compressed);
  x86_patch_here(b, aligned);
  if (w)
    emit_charge_imm(b, w, SIG_STALL_ICACHE);
  x86_alu_mi64(b, ALU_ADD, SIG(SIG_MEM_READ), 1);
  x86_patch_here(b, done);
}

bool jit_pico_inline_access(const timing *tm) {
  return tm->pico && !tm->dcache_on && tm->model.dcache.write_buffer == 0 && tm->model.sram_size == 0 &&
         tm->mem_read_first == 0 && tm->mem_write_beat == 0 && !tm->sdram_rows && !tm->max_wait_states &&
         !tm->prof && !tm->regions;
}

/* timing_load_slow and timing_store_slow on PicoRV32's memory, whose
 * transfers take no cycles beyond the static wait states (read_latency
 * and write_latency are 0: compute_memory_cycles leaves them so; no board
 * wait states, no SDRAM rows), a bus width in one beat: the transfer and its
 * beat counted, the port waited for (memory_transaction with busy
 * 0: the stall is what is left of mem_busy_until, and a store moves it
 * up to now). */
void jit_pico_emit_access(x86_buf *b, const core_block *blk, uint32_t i, bool store) {
  const block_timing *bt = blk->timing;
  uint32_t delta = bt->static_cycles - bt->ops[i].end; /* now = tm->cycle - delta */
  x86_alu_mi64(b, ALU_ADD, SIG(store ? SIG_MEM_WRITE : SIG_MEM_READ), 1);
  x86_alu_mi64(b, ALU_ADD, store ? TM(mem_write_beats) : TM(mem_read_beats), 1); /* one bus beat: energy */
  if (!store)
    x86_alu_mi64(b, ALU_ADD, TM(mem_read_txns), 1); /* count_read_beats */
  x86_lea64(b, RAX, x86_m(RC, -(int32_t)delta));
  x86_load64(b, RDX, TM(mem_busy_until));
  x86_alu_rr(b, true, ALU_CMP, RDX, RAX);
  uint8_t *free_port = x86_jcc_fwd(b, CC_BE);
  x86_alu_rr(b, true, ALU_SUB, RDX, RAX); /* the port is busy after now: that long */
  emit_charge_reg(b, RDX, SIG_STALL_DCACHE);
  uint8_t *done = x86_jmp_fwd(b);
  x86_patch_here(b, free_port);
  if (store)
    x86_store64(b, TM(mem_busy_until), RAX);
  x86_patch_here(b, done);
}

bool jit_muldiv_dynamic(const timing *tm, uint8_t kind) {
  switch (isa_infos[kind].cls) {
  case CLASS_MUL: return tm->model.mul_mode == MULDIV_ITERATIVE;
  case CLASS_DIV: return tm->model.div_mode == MULDIV_ITERATIVE;
  default: return isa_is_shift_reg(kind) && tm->model.shift != SHIFT_BARREL;
  }
}

/* timing_muldiv_slow of a shift: the steps of the amount (two-stage: a
 * step per 4 bits and per bit left over; serial: one per bit) less what
 * the fetch hides (the op's overlap), charged as stall.muldiv */
void jit_emit_shift_timing(x86_buf *b, const timing *tm, const core_block *blk, uint32_t i) {
  const core_op *op = &blk->ops[i];
  uint32_t overlap = blk->timing->ops[i].overlap;
  x86_load32(b, RCX, x86_m(RBX, (int32_t)(offsetof(core_cpu, x) + 4u * op->rs2)));
  x86_alu_ri(b, false, ALU_AND, RCX, 31);
  if (tm->model.shift == SHIFT_TWO_STAGE) {
    x86_mov_rr(b, RDX, RCX);
    x86_shift_ri(b, false, SH_SHR, RDX, 2);
    x86_alu_ri(b, false, ALU_AND, RCX, 3);
    x86_alu_rr(b, false, ALU_ADD, RCX, RDX);
  }
  if (overlap) {
    x86_alu_ri(b, false, ALU_SUB, RCX, (int32_t)overlap);
    uint8_t *more = x86_jcc_fwd(b, CC_A);
    x86_alu_rr(b, false, ALU_XOR, RCX, RCX);
    x86_patch_here(b, more);
  }
  emit_charge_reg(b, RCX, SIG_STALL_MULDIV);
}
#endif
