/*
 * The instruction trace (include/tally/trace.h, docs/tally-trace.md).
 *
 * Each step runs one instruction with tally_run(sim, 1): stopping between
 * two instructions is exact (the run loop meets its event horizons the
 * same way), so the traced run's cycles and signals are an untraced run's.
 * What an instruction did is read around that step through the public
 * API: the cycle counter, the registers and the signal totals before and
 * after. The memory an instruction touches is worked out from its bits
 * and the registers before it ran (mem_access.h), since the API has no
 * hook into the memory system.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mem_access.h"
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
  mem_access m = debug_mem_access(t->sim, pc);
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
