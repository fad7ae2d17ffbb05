/*
 * Registers for GDB (gdb_impl.h): x0..x31 and pc, and the CSRs, described
 * in a target description (qXfer:features:read:target.xml) with GDB's
 * RISC-V numbering (CSR n is register 65 + n). CSR reads and writes go
 * through tally_csr_read / tally_csr_write: the path of the program's own
 * csrr and csrw, taking effect between two instructions, so a counter GDB
 * sets is what the next instruction reads.
 */
#include <stdio.h>
#include <string.h>

#include "gdb_impl.h"

#define CSR_REGNUM 65
#define PC_REGNUM 32

static const char *const reg_names[32] = {
  "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
  "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

/* The machine-mode CSRs every run has; read_only ones refuse writes and
 * are not saved and restored around GDB's inferior calls. */
static const struct { unsigned num; const char *name; bool read_only; } base_csrs[] = {
  {0x300, "mstatus", false},  {0x301, "misa", true},      {0x304, "mie", false},
  {0x305, "mtvec", false},    {0x340, "mscratch", false}, {0x341, "mepc", false},
  {0x342, "mcause", false},   {0x343, "mtval", false},    {0x344, "mip", true},
  {0x320, "mcountinhibit", false}, {0xb00, "mcycle", false}, {0xb80, "mcycleh", false},
  {0xb02, "minstret", false}, {0xb82, "minstreth", false}, {0xf14, "mhartid", true},
};
#define NBASE (sizeof base_csrs / sizeof base_csrs[0])

void gdb_regs_init(gdb_session *s) {
  s->ncsr = 0;
  for (size_t i = 0; i < NBASE; i++)
    s->csr[s->ncsr++] = (uint16_t)base_csrs[i].num;
  if (!*tally_core_name(s->sim))
    return; /* without a core model the hpm CSRs read 0 and count nothing */
  /* the counters the core model has (a CSR of one it lacks is illegal or
   * reads 0: offered only if it exists) */
  static const unsigned hpm_bases[3] = {0x320, 0xb00, 0xb80}; /* mhpmevent, mhpmcounter, mhpmcounterh */
  for (unsigned b = 0; b < 3; b++)
    for (unsigned i = 3; i < 32 && s->ncsr < (int)(sizeof s->csr / sizeof s->csr[0]); i++) {
      uint32_t v;
      if (tally_csr_read(s->sim, hpm_bases[b] + i, &v))
        s->csr[s->ncsr++] = (uint16_t)(hpm_bases[b] + i);
    }
}

/* A CSR's name as GDB knows it. */
static const char *csr_name(unsigned num, char *buf, size_t size, bool *read_only) {
  *read_only = false;
  for (size_t i = 0; i < NBASE; i++)
    if (base_csrs[i].num == num) {
      *read_only = base_csrs[i].read_only;
      return base_csrs[i].name;
    }
  unsigned i = num & 0x1f;
  if ((num & ~0x1fu) == 0x320)
    snprintf(buf, size, "mhpmevent%u", i);
  else if ((num & ~0x1fu) == 0xb00)
    snprintf(buf, size, "mhpmcounter%u", i);
  else
    snprintf(buf, size, "mhpmcounter%uh", i);
  return buf;
}

size_t gdb_target_xml(const gdb_session *s, char *buf, size_t size) {
  size_t n = (size_t)snprintf(buf, size,
                              "<?xml version=\"1.0\"?><!DOCTYPE target SYSTEM \"gdb-target.dtd\">"
                              "<target version=\"1.0\"><architecture>riscv:rv32</architecture>"
                              /* bare metal: without it Debian's gdb-multiarch takes the ELF for
                               * GNU/Linux, whose stepi is a breakpoint after the instruction and
                               * a continue, running a whole trap handler over an ecall */
                              "<osabi>none</osabi>"
                              "<feature name=\"org.gnu.gdb.riscv.cpu\">");
  for (int i = 0; i < 32 && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, "<reg name=\"%s\" bitsize=\"32\" type=\"%s\" regnum=\"%d\"/>",
                          reg_names[i], i == 1 ? "code_ptr" : i == 2 || i == 8 ? "data_ptr" : "int", i);
  if (n < size)
    n += (size_t)snprintf(buf + n, size - n,
                          "<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\" regnum=\"32\"/></feature>"
                          "<feature name=\"org.gnu.gdb.riscv.csr\">");
  for (int i = 0; i < s->ncsr && n < size; i++) {
    char name[32];
    bool ro;
    const char *nm = csr_name(s->csr[i], name, sizeof name, &ro);
    n += (size_t)snprintf(buf + n, size - n, "<reg name=\"%s\" bitsize=\"32\" type=\"int\" regnum=\"%u\"%s/>", nm,
                          CSR_REGNUM + s->csr[i], ro ? " save-restore=\"no\"" : "");
  }
  if (n < size)
    n += (size_t)snprintf(buf + n, size - n, "</feature></target>");
  return n < size ? n : size - 1;
}

static uint32_t reg_value(const gdb_session *s, unsigned r) {
  return r < 32 ? tally_reg(s->sim, r) : tally_pc(s->sim);
}

void gdb_read_all_regs(gdb_session *s) {
  char out[33 * 8 + 1];
  for (unsigned r = 0; r < 33; r++)
    gdb_put_le32(out + 8 * r, reg_value(s, r));
  gdb_put_packet(s, out);
}

void gdb_write_all_regs(gdb_session *s, const char *hex) {
  if (strlen(hex) < 33 * 8) {
    gdb_put_packet(s, "E01");
    return;
  }
  uint32_t v[33];
  for (unsigned r = 0; r < 33; r++)
    if (!gdb_get_le32(hex + 8 * r, &v[r])) {
      gdb_put_packet(s, "E01");
      return;
    }
  for (unsigned r = 1; r < 32; r++)
    tally_set_reg(s->sim, r, v[r]);
  tally_set_pc(s->sim, v[32]);
  gdb_put_packet(s, "OK");
}

/* The CSR a register number names, if the description offers it. */
static bool offered_csr(const gdb_session *s, uint32_t r, unsigned *csr) {
  if (r < CSR_REGNUM || r > CSR_REGNUM + 0xfff)
    return false;
  for (int i = 0; i < s->ncsr; i++)
    if (s->csr[i] == r - CSR_REGNUM) {
      *csr = s->csr[i];
      return true;
    }
  return false;
}

void gdb_read_reg(gdb_session *s, const char *p) {
  uint32_t r, v;
  unsigned csr;
  char out[9];
  if (!gdb_parse_hex(&p, &r)) {
    gdb_put_packet(s, "E01");
    return;
  }
  if (r <= PC_REGNUM)
    v = reg_value(s, r);
  else if (!offered_csr(s, r, &csr) || !tally_csr_read(s->sim, csr, &v)) {
    gdb_put_packet(s, "E01");
    return;
  }
  gdb_put_le32(out, v);
  gdb_put_packet(s, out);
}

void gdb_write_reg(gdb_session *s, const char *p) {
  uint32_t r, v;
  unsigned csr;
  if (!gdb_parse_hex(&p, &r) || *p++ != '=' || strlen(p) < 8 || !gdb_get_le32(p, &v)) {
    gdb_put_packet(s, "E01");
    return;
  }
  if (r == PC_REGNUM)
    tally_set_pc(s->sim, v);
  else if (r < PC_REGNUM)
    tally_set_reg(s->sim, r, v);
  else if (!offered_csr(s, r, &csr) || !tally_csr_write(s->sim, csr, v)) {
    gdb_put_packet(s, "E01"); /* not offered, or read-only: GDB says it could not write it */
    return;
  }
  gdb_put_packet(s, "OK");
}
