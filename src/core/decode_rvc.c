/*
 * RV32C: every 16-bit form expands to the base instruction it stands for
 * (the executor never sees a compressed op, only len == 2). Each row names
 * the encoding, its operand layout and the base kind; reserved encodings
 * (zero immediates where the spec forbids them, rd = x0 for c.lwsp, RV64/FP
 * forms) fall through to K_ILLEGAL.
 */
#include "isa.h"

typedef enum rvc_fmt {
  C_ADDI4SPN, C_LW, C_SW, C_ADDI, C_JAL, C_LI, C_ADDI16SP, C_LUI, C_SRLI, C_SRAI,
  C_ANDI, C_ALU, C_J, C_BRANCH, C_SLLI, C_LWSP, C_JR, C_MV, C_EBREAK, C_JALR, C_ADD, C_SWSP
} rvc_fmt;

typedef struct rvc_row {
  uint16_t match, mask;
  uint8_t fmt;  /* rvc_fmt */
  uint8_t kind; /* base instruction it expands to */
} rvc_row;

/* Order matters where masks overlap: the more specific row comes first. */
static const rvc_row rvc_rows[] = {
  {0x0000, 0xe003, C_ADDI4SPN, K_ADDI}, /* c.addi4spn rd', sp, nzuimm */
  {0x4000, 0xe003, C_LW, K_LW},         /* c.lw  rd', uimm(rs1') */
  {0xc000, 0xe003, C_SW, K_SW},         /* c.sw  rs2', uimm(rs1') */
  {0x0001, 0xe003, C_ADDI, K_ADDI},     /* c.addi rd, nzimm (c.nop when rd = 0) */
  {0x2001, 0xe003, C_JAL, K_JAL},       /* c.jal  offset (ra) */
  {0x4001, 0xe003, C_LI, K_ADDI},       /* c.li   rd, imm */
  {0x6101, 0xef83, C_ADDI16SP, K_ADDI}, /* c.addi16sp nzimm (rd = sp) */
  {0x6001, 0xe003, C_LUI, K_LUI},       /* c.lui  rd, nzimm */
  {0x8001, 0xec03, C_SRLI, K_SRLI},     /* c.srli rd', shamt */
  {0x8401, 0xec03, C_SRAI, K_SRAI},     /* c.srai rd', shamt */
  {0x8801, 0xec03, C_ANDI, K_ANDI},     /* c.andi rd', imm */
  {0x8c01, 0xfc63, C_ALU, K_SUB},       /* c.sub  rd', rs2' */
  {0x8c21, 0xfc63, C_ALU, K_XOR},       /* c.xor */
  {0x8c41, 0xfc63, C_ALU, K_OR},        /* c.or */
  {0x8c61, 0xfc63, C_ALU, K_AND},       /* c.and */
  {0xa001, 0xe003, C_J, K_JAL},         /* c.j    offset (x0) */
  {0xc001, 0xe003, C_BRANCH, K_BEQ},    /* c.beqz rs1', offset */
  {0xe001, 0xe003, C_BRANCH, K_BNE},    /* c.bnez rs1', offset */
  {0x0002, 0xe003, C_SLLI, K_SLLI},     /* c.slli rd, shamt */
  {0x4002, 0xe003, C_LWSP, K_LW},       /* c.lwsp rd, uimm(sp) */
  {0x9002, 0xffff, C_EBREAK, K_EBREAK}, /* c.ebreak */
  {0x8002, 0xf07f, C_JR, K_JALR},       /* c.jr   rs1 */
  {0x8002, 0xf003, C_MV, K_ADD},        /* c.mv   rd, rs2 */
  {0x9002, 0xf07f, C_JALR, K_JALR},     /* c.jalr rs1 (ra) */
  {0x9002, 0xf003, C_ADD, K_ADD},       /* c.add  rd, rs2 */
  {0xc002, 0xe003, C_SWSP, K_SW},       /* c.swsp rs2, uimm(sp) */
};

static uint32_t bit(uint32_t h, unsigned i) { return (h >> i) & 1u; }
static uint32_t bits(uint32_t h, unsigned hi, unsigned lo) { return (h >> lo) & ((1u << (hi - lo + 1)) - 1u); }
static int32_t sext(uint32_t v, unsigned n) { uint32_t m = 1u << (n - 1); return (int32_t)((v ^ m) - m); }

static uint8_t creg(uint32_t h, unsigned lo) { return (uint8_t)(8 + bits(h, lo + 2, lo)); }
static int32_t imm6(uint32_t h) { return sext(bit(h, 12) << 5 | bits(h, 6, 2), 6); }
static uint32_t shamt6(uint32_t h) { return bit(h, 12) << 5 | bits(h, 6, 2); }
static uint32_t uimm_lw(uint32_t h) { return bits(h, 12, 10) << 3 | bit(h, 6) << 2 | bit(h, 5) << 6; }

static int32_t imm_cj(uint32_t h) {
  uint32_t v = bit(h, 12) << 11 | bit(h, 11) << 4 | bits(h, 10, 9) << 8 | bit(h, 8) << 10 |
               bit(h, 7) << 6 | bit(h, 6) << 7 | bits(h, 5, 3) << 1 | bit(h, 2) << 5;
  return sext(v, 12);
}

static int32_t imm_cb(uint32_t h) {
  uint32_t v = bit(h, 12) << 8 | bits(h, 11, 10) << 3 | bits(h, 6, 5) << 6 | bits(h, 4, 3) << 1 |
               bit(h, 2) << 5;
  return sext(v, 9);
}

/* Fills operands; returns 0 when the encoding is reserved. */
static int rvc_operands(rvc_fmt fmt, uint32_t h, isa_insn *o) {
  uint8_t rd = (uint8_t)bits(h, 11, 7), rs2 = (uint8_t)bits(h, 6, 2);
  switch (fmt) {
  case C_ADDI4SPN: {
    uint32_t u = bits(h, 12, 11) << 4 | bits(h, 10, 7) << 6 | bit(h, 6) << 2 | bit(h, 5) << 3;
    o->rd = creg(h, 2); o->rs1 = 2; o->imm = (int32_t)u;
    return u != 0;
  }
  case C_LW: o->rd = creg(h, 2); o->rs1 = creg(h, 7); o->imm = (int32_t)uimm_lw(h); return 1;
  case C_SW: o->rs2 = creg(h, 2); o->rs1 = creg(h, 7); o->imm = (int32_t)uimm_lw(h); return 1;
  case C_ADDI: o->rd = o->rs1 = rd; o->imm = imm6(h); return 1;
  case C_JAL: o->rd = 1; o->imm = imm_cj(h); return 1;
  case C_J: o->rd = 0; o->imm = imm_cj(h); return 1;
  case C_LI: o->rd = rd; o->rs1 = 0; o->imm = imm6(h); return 1;
  case C_ADDI16SP: {
    uint32_t v = bit(h, 12) << 9 | bit(h, 6) << 4 | bit(h, 5) << 6 | bits(h, 4, 3) << 7 | bit(h, 2) << 5;
    o->rd = o->rs1 = 2; o->imm = sext(v, 10);
    return v != 0;
  }
  case C_LUI: o->rd = rd; o->imm = imm6(h) * 4096; return o->imm != 0;
  case C_SRLI: case C_SRAI: o->rd = o->rs1 = creg(h, 7); o->imm = (int32_t)shamt6(h); return bit(h, 12) == 0;
  case C_ANDI: o->rd = o->rs1 = creg(h, 7); o->imm = imm6(h); return 1;
  case C_ALU: o->rd = o->rs1 = creg(h, 7); o->rs2 = creg(h, 2); return 1;
  case C_BRANCH: o->rs1 = creg(h, 7); o->rs2 = 0; o->imm = imm_cb(h); return 1;
  case C_SLLI: o->rd = o->rs1 = rd; o->imm = (int32_t)shamt6(h); return bit(h, 12) == 0;
  case C_LWSP: {
    uint32_t u = bit(h, 12) << 5 | bits(h, 6, 4) << 2 | bits(h, 3, 2) << 6;
    o->rd = rd; o->rs1 = 2; o->imm = (int32_t)u;
    return rd != 0;
  }
  case C_JR: o->rd = 0; o->rs1 = rd; o->imm = 0; return rd != 0;
  case C_JALR: o->rd = 1; o->rs1 = rd; o->imm = 0; return rd != 0;
  case C_MV: o->rd = rd; o->rs1 = 0; o->rs2 = rs2; return 1;
  case C_ADD: o->rd = o->rs1 = rd; o->rs2 = rs2; return 1;
  case C_EBREAK: return 1;
  case C_SWSP: o->rs2 = rs2; o->rs1 = 2; o->imm = (int32_t)(bits(h, 12, 9) << 2 | bits(h, 8, 7) << 6); return 1;
  }
  return 0;
}

void isa_decode_rvc(uint32_t half, isa_insn *out) {
  *out = (isa_insn){.raw = half, .kind = K_ILLEGAL, .len = 2};
  for (size_t i = 0; i < sizeof rvc_rows / sizeof rvc_rows[0]; i++) {
    const rvc_row *r = &rvc_rows[i];
    if ((half & r->mask) != r->match)
      continue;
    isa_insn o = {.raw = half, .kind = r->kind, .len = 2};
    if (rvc_operands((rvc_fmt)r->fmt, half, &o))
      *out = o;
    return;
  }
}
