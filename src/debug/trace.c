/*
 * The instruction trace (include/tally/trace.h, docs/tally-trace.md).
 *
 * Each step runs one instruction with tally_run(sim, 1): stopping between
 * two instructions is exact (the run loop meets its event horizons the
 * same way), so the traced run's cycles and signals are an untraced run's.
 * What an instruction did is read around that step through the public
 * API: the cycle counter, the registers and the signal totals before and
 * after. The memory an instruction touches is worked out from its bits
 * and the registers before it ran (loads, stores, AMOs, their compressed
 * forms), since the API has no hook into the memory system.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tally/trace.h"

struct tally_trace {
  tally_sim *sim;
  FILE *out;
  int nsig;
  int sig_cycle, sig_instret;   /* implied by every line: not listed */
  uint64_t *before, *after;     /* signal totals around one step */
  /* The totals after one step are the next step's before (reading them
   * is most of a step's cost): valid while the run is where it was then. */
  bool have_before;
  uint64_t before_cycle, before_instret;
  uint64_t lines, cycles;
};

/* A memory access worked out from an instruction's bits. */
typedef struct mem_access {
  bool valid;
  char kind;        /* 'r' load, 'w' store, 'a' atomic read-modify-write */
  uint32_t addr, len;
} mem_access;

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
    uint32_t f5 = in >> 27;   /* lr.w reads, sc.w writes, the rest do both */
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

static mem_access access_at(const tally_sim *sim, uint32_t pc) {
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

tally_trace *tally_trace_new(tally_sim *sim, FILE *out) {
  tally_trace *t = calloc(1, sizeof *t);
  if (!t)
    return NULL;
  t->sim = sim;
  t->out = out;
  t->nsig = tally_signal_count();
  t->sig_cycle = tally_signal_lookup("cycle");
  t->sig_instret = tally_signal_lookup("instret");
  t->before = calloc((size_t)t->nsig, sizeof *t->before);
  t->after = calloc((size_t)t->nsig, sizeof *t->after);
  if (!t->before || !t->after) {
    tally_trace_free(t);
    return NULL;
  }
  fprintf(out, "# tally trace 1: cycle +cycles pc symbol+offset: disassembly | registers written | memory | signals\n");
  return t;
}

void tally_trace_free(tally_trace *t) {
  if (!t)
    return;
  free(t->before);
  free(t->after);
  free(t);
}

/* "| a0=0x00000005 sp=0x80fffff0": the registers whose value changed
 * (a write of the value already there is not seen). */
static void write_regs(tally_trace *t, const uint32_t *old) {
  static const char *const abi[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
    "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
  fputs(" |", t->out);
  for (unsigned r = 1; r < 32; r++) {
    uint32_t v = tally_reg(t->sim, r);
    if (v != old[r])
      fprintf(t->out, " %s=0x%08" PRIx32, abi[r], v);
  }
}

/* "| load dcache.read.hit*2": every signal the instruction raised but the
 * two every line implies, with its cycles when more than one. */
static void write_signals(tally_trace *t) {
  fputs(" |", t->out);
  for (int i = 0; i < t->nsig; i++) {
    uint64_t d = t->after[i] - t->before[i];
    if (!d || i == t->sig_cycle || i == t->sig_instret)
      continue;
    if (d == 1)
      fprintf(t->out, " %s", tally_signal_name(i));
    else
      fprintf(t->out, " %s*%" PRIu64, tally_signal_name(i), d);
  }
}

static void write_line(tally_trace *t, uint32_t pc, uint64_t c0, uint64_t c1, const char *sym, const char *dis,
                       const uint32_t *regs, const mem_access *m) {
  fprintf(t->out, "%" PRIu64 " +%" PRIu64 " %08" PRIx32 " %s: %s", c0, c1 - c0, pc, sym, dis);
  write_regs(t, regs);
  fputs(" |", t->out);
  if (m->valid)
    fprintf(t->out, " %c 0x%08" PRIx32 "/%" PRIu32, m->kind, m->addr, m->len);
  write_signals(t);
  fputc('\n', t->out);
}

tally_stop tally_trace_step(tally_trace *t) {
  uint32_t pc = tally_pc(t->sim), regs[32];
  for (unsigned r = 0; r < 32; r++)
    regs[r] = tally_reg(t->sim, r);
  mem_access m = access_at(t->sim, pc);
  char dis[96], sym[128];
  if (!tally_disasm_at(t->sim, pc, dis, sizeof dis))
    snprintf(dis, sizeof dis, "(not in RAM)");
  tally_symbolize(t->sim, pc, sym, sizeof sym);
  uint64_t c0 = tally_cycles(t->sim), i0 = tally_instret(t->sim);
  if (!t->have_before || t->before_cycle != c0 || t->before_instret != i0)
    tally_signal_totals(t->sim, t->before);
  tally_stop st = tally_run(t->sim, 1);
  uint64_t c1 = tally_cycles(t->sim);
  if (c1 == c0 && tally_instret(t->sim) == i0 && tally_pc(t->sim) == pc)
    return st;   /* nothing ran: the program had stopped */
  tally_signal_totals(t->sim, t->after);
  write_line(t, pc, c0, c1, sym, dis, regs, &m);
  uint64_t *swap = t->before;   /* this step's after is the next one's before */
  t->before = t->after;
  t->after = swap;
  t->have_before = true;
  t->before_cycle = c1;
  t->before_instret = tally_instret(t->sim);
  t->lines++;
  t->cycles += c1 - c0;
  return st;
}

uint64_t tally_trace_lines(const tally_trace *t) { return t->lines; }
uint64_t tally_trace_cycles(const tally_trace *t) { return t->cycles; }
