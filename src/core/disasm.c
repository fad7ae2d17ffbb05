/*
 * Disassembly from the same decode tables the executor uses, so what a trap
 * report or a profile shows is exactly what ran. Compressed instructions are
 * shown as the base instruction they expand to, with a "c." prefix, except
 * where that name is another compressed instruction's (disasm_rvc_alias).
 */
#include <stdio.h>

#include "isa.h"

static const char *const reg_names[32] = {
  "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
  "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

const char *isa_reg_name(unsigned r) { return r < 32 ? reg_names[r] : "?"; }

typedef struct csr_name { uint16_t num; const char *name; } csr_name;

static const csr_name csr_names[] = {
  {0x300, "mstatus"}, {0x301, "misa"}, {0x304, "mie"}, {0x305, "mtvec"}, {0x310, "mstatush"},
  {0x320, "mcountinhibit"}, {0x340, "mscratch"}, {0x341, "mepc"}, {0x342, "mcause"},
  {0x343, "mtval"}, {0x344, "mip"}, {0xb00, "mcycle"}, {0xb02, "minstret"},
  {0xb80, "mcycleh"}, {0xb82, "minstreth"}, {0xc00, "cycle"}, {0xc01, "time"},
  {0xc02, "instret"}, {0xc80, "cycleh"}, {0xc81, "timeh"}, {0xc82, "instreth"},
  {0xf11, "mvendorid"}, {0xf12, "marchid"}, {0xf13, "mimpid"}, {0xf14, "mhartid"},
  {0xf15, "mconfigptr"},
};

const char *isa_csr_name(unsigned csr) {
  for (size_t i = 0; i < sizeof csr_names / sizeof csr_names[0]; i++)
    if (csr_names[i].num == csr)
      return csr_names[i].name;
  return NULL;
}

/* Compressed instructions whose "c." + expansion name would be another
 * compressed instruction (c.j expands to jal zero, but c.jal is jal ra;
 * c.li to addi rd, zero, but c.addi adds to rd): shown by their own RVC
 * name, as objdump shows them. -1 when in is none of these. */
static int disasm_rvc_alias(const isa_insn *in, uint32_t pc, char *buf, size_t size) {
  unsigned quadrant = in->raw & 3, funct3 = (in->raw >> 13) & 7;
  const char *rd = isa_reg_name(in->rd), *rs1 = isa_reg_name(in->rs1), *rs2 = isa_reg_name(in->rs2);
  if (quadrant == 1 && (funct3 == 1 || funct3 == 5))
    return snprintf(buf, size, "%s 0x%08x", funct3 == 1 ? "c.jal" : "c.j", pc + (uint32_t)in->imm);
  if (quadrant == 1 && funct3 == 2)
    return snprintf(buf, size, "c.li %s, %d", rd, in->imm);
  if (quadrant == 2 && funct3 == 4 && in->kind == K_JALR)
    return snprintf(buf, size, "%s %s", in->rd ? "c.jalr" : "c.jr", rs1);
  if (quadrant == 2 && funct3 == 4 && in->kind == K_ADD && in->rs1 == 0)
    return snprintf(buf, size, "c.mv %s, %s", rd, rs2);
  return -1;
}

int isa_disasm(const isa_insn *in, uint32_t pc, char *buf, size_t size) {
  const isa_info *info = &isa_infos[in->kind];
  const char *c = in->len == 2 ? "c." : "";
  const char *rd = isa_reg_name(in->rd), *rs1 = isa_reg_name(in->rs1), *rs2 = isa_reg_name(in->rs2);
  char csrbuf[16];
  const char *csr = isa_csr_name(in->csr);
  if (!csr) {
    snprintf(csrbuf, sizeof csrbuf, "0x%03x", in->csr);
    csr = csrbuf;
  }
  if (in->kind == K_ILLEGAL)
    return in->len == 2 ? snprintf(buf, size, ".half 0x%04x", in->raw & 0xffff)
                        : snprintf(buf, size, ".word 0x%08x", in->raw);
  int alias = in->len == 2 ? disasm_rvc_alias(in, pc, buf, size) : -1;
  if (alias >= 0)
    return alias;
  const char *m = info->mnemonic;
  switch ((isa_fmt)info->fmt) {
  case FMT_R: return snprintf(buf, size, "%s%s %s, %s, %s", c, m, rd, rs1, rs2);
  case FMT_I: case FMT_SHIFT: return snprintf(buf, size, "%s%s %s, %s, %d", c, m, rd, rs1, in->imm);
  case FMT_LOAD: return snprintf(buf, size, "%s%s %s, %d(%s)", c, m, rd, in->imm, rs1);
  case FMT_STORE: return snprintf(buf, size, "%s%s %s, %d(%s)", c, m, rs2, in->imm, rs1);
  case FMT_B: return snprintf(buf, size, "%s%s %s, %s, 0x%08x", c, m, rs1, rs2, pc + (uint32_t)in->imm);
  case FMT_U: return snprintf(buf, size, "%s%s %s, 0x%x", c, m, rd, (uint32_t)in->imm >> 12);
  case FMT_J: return snprintf(buf, size, "%s%s %s, 0x%08x", c, m, rd, pc + (uint32_t)in->imm);
  case FMT_JALR: return snprintf(buf, size, "%s%s %s, %d(%s)", c, m, rd, in->imm, rs1);
  case FMT_CSR: return snprintf(buf, size, "%s %s, %s, %s", m, rd, csr, rs1);
  case FMT_CSRI: return snprintf(buf, size, "%s %s, %s, %u", m, rd, csr, in->rs1);
  case FMT_AMO: return snprintf(buf, size, "%s %s, %s, (%s)", m, rd, rs2, rs1);
  case FMT_LR: return snprintf(buf, size, "%s %s, (%s)", m, rd, rs1);
  case FMT_NONE: return snprintf(buf, size, "%s%s", c, m);
  }
  return snprintf(buf, size, "?");
}
