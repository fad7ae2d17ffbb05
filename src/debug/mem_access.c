/*
 * The memory an instruction touches, from its bits (mem_access.h): RV32
 * loads, stores and AMOs (lr.w reads, sc.w writes, the others do both),
 * and c.lw, c.sw, c.lwsp, c.swsp. The address is rs1 (or sp) plus the
 * immediate, with the registers as they are before the instruction runs.
 */
#include "mem_access.h"

static int32_t sext(uint32_t v, int bits) {
  uint32_t m = 1u << (bits - 1);
  return (int32_t)((v ^ m) - m);
}

static mem_access access_rv32(const tally_sim *sim, uint32_t in) {
  mem_access a = {0};
  uint32_t op = in & 0x7f, f3 = (in >> 12) & 7, rs1 = (in >> 15) & 31;
  uint32_t base = tally_reg(sim, rs1);
  static const uint32_t load_len[8] = {1, 2, 4, 0, 1, 2, 0, 0};
  if (op == 0x03 && load_len[f3]) {
    a = (mem_access){true, 'r', base + (uint32_t)sext(in >> 20, 12), load_len[f3]};
  } else if (op == 0x23 && f3 <= 2) {
    uint32_t imm = ((in >> 25) << 5) | ((in >> 7) & 31);
    a = (mem_access){true, 'w', base + (uint32_t)sext(imm, 12), 1u << f3};
  } else if (op == 0x2f && f3 == 2) {
    uint32_t f5 = in >> 27;
    a = (mem_access){true, f5 == 2 ? 'r' : f5 == 3 ? 'w' : 'a', base, 4};
  }
  return a;
}

/* c.lw, c.sw (rs1' + uimm), c.lwsp, c.swsp (sp + uimm). */
static mem_access access_rvc(const tally_sim *sim, uint32_t in) {
  mem_access a = {0};
  uint32_t q = in & 3, f3 = (in >> 13) & 7;
  if (q == 0 && (f3 == 2 || f3 == 6)) {
    uint32_t off = ((in >> 10) & 7) << 3 | ((in >> 6) & 1) << 2 | ((in >> 5) & 1) << 6;
    uint32_t rs1 = 8 + ((in >> 7) & 7);
    a = (mem_access){true, f3 == 2 ? 'r' : 'w', tally_reg(sim, rs1) + off, 4};
  } else if (q == 2 && f3 == 2) {
    uint32_t off = ((in >> 12) & 1) << 5 | ((in >> 4) & 7) << 2 | ((in >> 2) & 3) << 6;
    a = (mem_access){true, 'r', tally_reg(sim, 2) + off, 4};
  } else if (q == 2 && f3 == 6) {
    uint32_t off = ((in >> 9) & 15) << 2 | ((in >> 7) & 3) << 6;
    a = (mem_access){true, 'w', tally_reg(sim, 2) + off, 4};
  }
  return a;
}

mem_access debug_mem_access(const tally_sim *sim, uint32_t pc) {
  unsigned char b[4];
  if (!tally_read_mem(sim, pc, b, 2))
    return (mem_access){0};
  uint32_t in = (uint32_t)b[0] | (uint32_t)b[1] << 8;
  if ((in & 3) != 3)
    return access_rvc(sim, in);
  if (!tally_read_mem(sim, pc + 2, b + 2, 2))
    return (mem_access){0};
  return access_rv32(sim, in | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
}
