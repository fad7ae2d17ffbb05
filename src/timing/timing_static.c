/*
 * What each instruction costs when nothing dynamic happens, from the core
 * model's per-class numbers. Called once per instruction when a block is
 * built; the result is summed into the block's static cycles.
 */
#include "../core/isa.h"
#include "timing.h"

#include <stdio.h>

#include "picorv32.h"

uint32_t timing_reads(uint8_t kind, uint8_t rs1, uint8_t rs2) {
  uint32_t m = 0;
  switch ((isa_fmt)isa_infos[kind].fmt) {
  case FMT_R: case FMT_B: case FMT_STORE: case FMT_AMO:
    m = 1u << rs1 | 1u << rs2; break;
  case FMT_I: case FMT_SHIFT: case FMT_LOAD: case FMT_JALR: case FMT_CSR: case FMT_LR:
    m = 1u << rs1; break;
  default:
    break;
  }
  return m & ~1u; /* x0 never waits */
}

static bool is_link(uint8_t r) { return r == 1 || r == 5; }

/* Without an I-cache each instruction is read from memory, one bus word at a
 * time, on the instruction port; the latency is fixed at the current clock.
 * A 32-bit instruction that straddles two bus words also costs the core's
 * own extra fetch step (PicoRV32 with COMPRESSED_ISA: one cycle, whether
 * reached in sequence or by a jump). */
static void uncached_fetch(const timing *t, uint32_t pc, uint32_t len, op_timing *o) {
  uint32_t bus = t->model.bus_bytes ? t->model.bus_bytes : 4;
  uint32_t reads = (pc + len - 1) / bus - pc / bus + 1;
  o->fetch_reads = (uint8_t)reads;
  uint32_t waits = t->max_wait_states ? reads * timing_wait_states(t, pc) : 0; /* the board's (docs/boards.md) */
  o->fetch_stall = (uint16_t)(reads * t->mem_read_first + (reads > 1 ? t->model.split_fetch_penalty : 0) + waits);
}

uint32_t timing_static_hits(const timing *t, uint8_t kind) {
  isa_class cls = (isa_class)isa_infos[kind].cls;
  if (t->dcache_on && (cls == CLASS_LOAD || kind == K_LR_W))
    return 1u << SIG_DCACHE_READ_HIT;
  if (t->dcache_wb && cls == CLASS_STORE)
    return 1u << SIG_DCACHE_WRITE_HIT;
  return 0;
}

op_timing timing_static(const timing *t, uint8_t kind, uint8_t rd, uint8_t rs1, uint8_t rs2,
                        int32_t imm, uint32_t pc, uint32_t len, timing_hazards *hz) {
  bool compressed = len == 2;
  const core_model *m = &t->model;
  op_timing o = {0};
  uint32_t pulses = 0, cpi = 0;
  isa_class cls = (isa_class)isa_infos[kind].cls;
  if (kind == K_IFETCH || kind == K_FALLTHRU)
    return o;
  pulses |= 1u << SIG_INSTRET;
  if (compressed)
    pulses |= 1u << SIG_COMPRESSED;
  switch (cls) {
  case CLASS_ALU:
    cpi = isa_infos[kind].fmt == FMT_R ? m->cpi_alu_reg : m->cpi_alu;
    if (isa_is_shift_reg(kind)) {
      cpi = m->cpi_shift;
    } else if (isa_is_shift_imm(kind)) {
      uint32_t amount = (uint32_t)imm & 31;
      cpi = m->cpi_shift;
      o.stall_sig = SIG_STALL_MULDIV;
      o.stall_cycles = m->shift == SHIFT_TWO_STAGE ? amount / 4 + amount % 4 : m->shift == SHIFT_SERIAL ? amount : 0;
    }
    break;
  case CLASS_LOAD: cpi = m->cpi_load; pulses |= 1u << SIG_LOAD; o.is_load = 1; break;
  case CLASS_STORE: cpi = m->cpi_store; pulses |= 1u << SIG_STORE; break;
  case CLASS_AMO:
    cpi = m->cpi_amo;
    pulses |= kind == K_LR_W ? 1u << SIG_LOAD : kind == K_SC_W ? 1u << SIG_STORE : 1u << SIG_AMO;
    o.is_load = kind != K_SC_W;
    if (kind != K_LR_W && kind != K_SC_W) {
      o.stall_sig = SIG_STALL_DCACHE;
      o.stall_cycles = m->amo_penalty;
    }
    break;
  case CLASS_BRANCH:
    cpi = m->cpi_branch;
    pulses |= 1u << SIG_BRANCH;
    o.predict_taken = m->predict == PREDICT_TAKEN || (m->predict == PREDICT_BACKWARD_TAKEN && imm < 0);
    break;
  case CLASS_JUMP:
    pulses |= 1u << SIG_JUMP;
    if (is_link(rd))
      pulses |= 1u << SIG_CALL;
    else if (kind == K_JALR && rd == 0 && is_link(rs1) && imm == 0)
      pulses |= 1u << SIG_RET;
    cpi = kind == K_JAL ? m->cpi_jal : m->cpi_jalr;
    o.stall_sig = SIG_STALL_JUMP;
    o.stall_cycles = kind == K_JAL ? m->jal_penalty : m->jalr_penalty;
    break;
  case CLASS_MUL:
    pulses |= 1u << SIG_MUL;
    cpi = kind == K_MUL ? m->cpi_mul : m->cpi_mulh;
    if (m->mul_mode == MULDIV_FIXED) {
      o.stall_sig = SIG_STALL_MULDIV;
      o.stall_cycles = m->mul_latency;
    }
    break;
  case CLASS_DIV:
    pulses |= 1u << SIG_DIV;
    cpi = m->cpi_div;
    if (m->div_mode == MULDIV_FIXED) {
      o.stall_sig = SIG_STALL_MULDIV;
      o.stall_cycles = m->div_latency;
    }
    break;
  case CLASS_CSR:
    pulses |= 1u << SIG_CSR;
    cpi = m->cpi_csr;
    o.stall_sig = SIG_STALL_SYSTEM;
    o.stall_cycles = m->csr_penalty;
    break;
  case CLASS_FENCE: case CLASS_SYSTEM: case CLASS_PSEUDO:
    pulses |= 1u << SIG_SYSTEM;
    cpi = m->cpi_system;
    o.stall_sig = SIG_STALL_SYSTEM;
    o.stall_cycles = kind == K_FENCE_I ? m->fence_i_penalty : kind == K_MRET ? m->mret_penalty : 0;
    break;
  }
  if (kind == K_NOP) /* an ALU op writing x0: still issues as an ALU op */
    pulses &= ~(1u << SIG_SYSTEM);
  uint32_t reads = timing_reads(kind, rs1, rs2);
  for (int i = 0; i < 2; i++)
    if (hz->left[i] && (reads >> hz->rd[i] & 1u) && hz->left[i] > o.load_use)
      o.load_use = hz->left[i];
  if (!o.stall_cycles)
    o.stall_sig = 0;
  if (!t->model.icache.enabled && !timing_in_sram(t, pc)) /* on-chip SRAM: no wait */
    uncached_fetch(t, pc, len, &o);
  pulses |= timing_static_hits(t, kind);
  o.pulses = pulses;
  o.cycles = o.fetch_stall + cpi + o.load_use + o.stall_cycles;
  if (t->vexmin) { /* all of it dynamic (vexmin.c) */
    o.cycles = o.fetch_stall = o.stall_cycles = 0;
    o.load_use = 0;
    o.stall_sig = 0;
  }
  /* this op's cycles bring the results still on their way closer; its own
   * result replaces any older late one to the same register (not with
   * [pipeline] overwrite_keeps_wait: there a reader waits for it all the
   * same) */
  bool shift = isa_is_shift(kind);
  uint32_t late = t->vexmin ? 0 : o.is_load ? m->load_use_penalty
                  : cls == CLASS_MUL ? m->mul_use_penalty
                  : shift ? m->shift_use_penalty
                  : cls == CLASS_CSR ? m->csr_use_penalty
                  : cls == CLASS_DIV ? m->div_use_penalty
                  : kind == K_SC_W ? m->sc_use_penalty : 0;
  for (int i = 0; i < 2; i++) {
    hz->left[i] = hz->left[i] > o.cycles ? (uint8_t)(hz->left[i] - o.cycles) : 0;
    if (rd && hz->rd[i] == rd && !m->overwrite_keeps_wait)
      hz->left[i] = 0;
  }
  o.late = rd ? (uint8_t)late : 0;
  if (rd && late) {
    int slot = hz->left[0] <= hz->left[1] ? 0 : 1;
    hz->rd[slot] = rd;
    hz->left[slot] = (uint8_t)late;
  }
  return o;
}

bool timing_decodes(const timing *t, uint8_t kind, uint8_t len, uint32_t csr, uint8_t rs1, char *why,
                    size_t whylen) {
  const core_model *m = &t->model;
  uint8_t cls = isa_infos[kind].cls;
  const char *lacks = len == 2 && !(m->isa & ISA_EXT_C)                                 ? "C extension"
                      : (cls == CLASS_MUL || cls == CLASS_DIV) && !(m->isa & ISA_EXT_M) ? "M extension"
                      : cls == CLASS_AMO && !(m->isa & ISA_EXT_A)                       ? "A extension"
                      : t->pico && !timing_pico_decodes(kind, csr, rs1)                 ? "such instruction (PicoRV32's ISA)"
                                                                                          : NULL;
  if (lacks && why)
    snprintf(why, whylen, "core model %s has no %s", m->name, lacks);
  return !lacks;
}
