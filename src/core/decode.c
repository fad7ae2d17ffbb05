/*
 * 32-bit instruction decode, driven by the MATCH/MASK columns of
 * isa_table.h. Decoding happens once per instruction when a block is built,
 * so a scan over the table is cheap enough and keeps the table the only
 * place an encoding is written.
 */
#include "isa.h"

const isa_info isa_infos[K_COUNT] = {
#define ISA_INFO_ROW(name, mnem, match, mask, fmt, cls, flags) [K_##name] = {mnem, fmt, cls, flags},
  RV_INSN_LIST(ISA_INFO_ROW)
#undef ISA_INFO_ROW
  [K_ILLEGAL] = {"illegal", FMT_NONE, CLASS_PSEUDO, ISA_END_BLOCK},
  [K_SEMIHOST] = {"ebreak", FMT_NONE, CLASS_SYSTEM, ISA_END_BLOCK},
  [K_NOP] = {"nop", FMT_NONE, CLASS_ALU, 0},
  [K_FALLTHRU] = {"(fallthrough)", FMT_NONE, CLASS_PSEUDO, ISA_END_BLOCK},
  [K_IFETCH] = {"(fetch)", FMT_NONE, CLASS_PSEUDO, 0},
};

typedef struct decode_row {
  uint32_t match, mask;
  uint8_t kind;
} decode_row;

static const decode_row decode_rows[] = {
#define ISA_DECODE_ROW(name, mnem, match, mask, ...) {match, mask, K_##name},
  RV_INSN_LIST(ISA_DECODE_ROW)
#undef ISA_DECODE_ROW
};

static int32_t sext(uint32_t v, unsigned bits) {
  uint32_t m = 1u << (bits - 1);
  return (int32_t)((v ^ m) - m);
}

static int32_t imm_i(uint32_t w) { return (int32_t)w >> 20; }
static int32_t imm_s(uint32_t w) { return sext(((w >> 25) << 5) | ((w >> 7) & 0x1f), 12); }
static int32_t imm_u(uint32_t w) { return (int32_t)(w & 0xfffff000u); }

static int32_t imm_b(uint32_t w) {
  uint32_t v = ((w >> 31) & 1) << 12 | ((w >> 7) & 1) << 11 | ((w >> 25) & 0x3f) << 5 |
               ((w >> 8) & 0xf) << 1;
  return sext(v, 13);
}

static int32_t imm_j(uint32_t w) {
  uint32_t v = ((w >> 31) & 1) << 20 | ((w >> 12) & 0xff) << 12 | ((w >> 20) & 1) << 11 |
               ((w >> 21) & 0x3ff) << 1;
  return sext(v, 21);
}

static void decode_operands(uint32_t w, isa_insn *out) {
  uint8_t rd = (w >> 7) & 31, rs1 = (w >> 15) & 31, rs2 = (w >> 20) & 31;
  switch ((isa_fmt)isa_infos[out->kind].fmt) {
  case FMT_R: case FMT_AMO:
    out->rd = rd; out->rs1 = rs1; out->rs2 = rs2; break;
  case FMT_LR:
    out->rd = rd; out->rs1 = rs1; break;
  case FMT_I: case FMT_LOAD: case FMT_JALR:
    out->rd = rd; out->rs1 = rs1; out->imm = imm_i(w); break;
  case FMT_SHIFT:
    out->rd = rd; out->rs1 = rs1; out->imm = (int32_t)((w >> 20) & 31); break;
  case FMT_STORE:
    out->rs1 = rs1; out->rs2 = rs2; out->imm = imm_s(w); break;
  case FMT_B:
    out->rs1 = rs1; out->rs2 = rs2; out->imm = imm_b(w); break;
  case FMT_U:
    out->rd = rd; out->imm = imm_u(w); break;
  case FMT_J:
    out->rd = rd; out->imm = imm_j(w); break;
  case FMT_CSR: case FMT_CSRI: /* for CSRI, rs1 holds the 5-bit zimm */
    out->rd = rd; out->rs1 = rs1; out->csr = (uint16_t)(w >> 20); break;
  case FMT_NONE:
    break;
  }
}

void isa_decode(uint32_t bits, isa_insn *out) {
  *out = (isa_insn){.raw = bits, .kind = K_ILLEGAL, .len = 4};
  if (isa_insn_len(bits) == 2) {
    isa_decode_rvc(bits & 0xffffu, out);
    return;
  }
  for (size_t i = 0; i < sizeof decode_rows / sizeof decode_rows[0]; i++) {
    if ((bits & decode_rows[i].mask) == decode_rows[i].match) {
      out->kind = decode_rows[i].kind;
      decode_operands(bits, out);
      return;
    }
  }
}
