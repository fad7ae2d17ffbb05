/*
 * The instruction trace (include/tally/trace.h, docs/tally-trace.md).
 *
 * Each line is one step of the hart (tally_step: one instruction retired,
 * or one trap taken): stopping between two instructions is exact (the run
 * loop meets its event horizons the same way), so the traced run's cycles
 * and signals are an untraced run's.
 * What an instruction did is read around that step through the public
 * API: the cycle counter, the registers and the signal totals before and
 * after. The memory an instruction touches is worked out from its bits
 * and the registers before it ran (mem_access.h), since the API has no
 * hook into the memory system.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tally/trace.h"
#include "trace_impl.h"

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
  const char **names;           /* the signals' names, by id */
  trace_bin_writer *bin;        /* the binary form, or NULL: text */
  trace_record rec;             /* the step's record (large: kept here, not on the stack) */
};

tally_trace *tally_trace_open(tally_sim *sim, FILE *out, tally_trace_format format) {
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
  t->names = calloc((size_t)t->nsig, sizeof *t->names);
  if (!t->before || !t->after || !t->names || t->nsig > TRACE_SIG_MAX) {
    tally_trace_free(t);
    return NULL;
  }
  for (int i = 0; i < t->nsig; i++)
    t->names[i] = tally_signal_name(i);
  if (format == TALLY_TRACE_BINARY) {
    if (!(t->bin = trace_bin_open(out, t->names, t->nsig))) {
      tally_trace_free(t);
      return NULL;
    }
  } else {
    trace_text_header(out);
  }
  return t;
}

tally_trace *tally_trace_new(tally_sim *sim, FILE *out) { return tally_trace_open(sim, out, TALLY_TRACE_TEXT); }

void tally_trace_free(tally_trace *t) {
  if (!t)
    return;
  trace_bin_close(t->bin);
  free(t->before);
  free(t->after);
  free(t->names);
  free(t);
}

/* The registers whose value changed (a write of the value already there
 * is not seen). */
static void changed_regs(const tally_trace *t, const uint32_t *old, trace_record *r) {
  r->nregs = 0;
  for (unsigned i = 1; i < 32; i++) {
    uint32_t v = tally_reg(t->sim, i);
    if (v != old[i]) {
      r->reg[r->nregs] = (uint8_t)i;
      r->val[r->nregs++] = v;
    }
  }
}

/* Every signal the instruction raised but the two every line implies,
 * with its cycles. */
static void raised_signals(const tally_trace *t, trace_record *r) {
  r->nsigs = 0;
  for (int i = 0; i < t->nsig; i++) {
    uint64_t d = t->after[i] - t->before[i];
    if (!d || i == t->sig_cycle || i == t->sig_instret)
      continue;
    r->sig[r->nsigs] = (uint16_t)i;
    r->count[r->nsigs++] = d;
  }
}

/* What can be known of the instruction at pc before it runs. */
static void describe(tally_trace *t, uint32_t pc, trace_record *r) {
  r->pc = pc;
  r->mem = debug_mem_access(t->sim, pc);
  unsigned char b[4] = {0};
  r->insn = 0;
  if (tally_read_mem(t->sim, pc, b, 2))
    r->insn = (uint32_t)b[0] | (uint32_t)b[1] << 8;
  if ((r->insn & 3) == 3 && tally_read_mem(t->sim, pc + 2, b + 2, 2))
    r->insn |= (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  char dis[96], sym[128];
  if (!tally_disasm_at(t->sim, pc, dis, sizeof dis))
    snprintf(dis, sizeof dis, "(not in RAM)");
  tally_symbolize(t->sim, pc, sym, sizeof sym);
  snprintf(r->text, sizeof r->text, "%s: %s", sym, dis);
}

/* The registers and the record's description at the pc now. */
static void at_pc(tally_trace *t, uint32_t *regs) {
  for (unsigned r = 0; r < 32; r++)
    regs[r] = tally_reg(t->sim, r);
  describe(t, tally_pc(t->sim), &t->rec);
}

/* One instruction's line. A step (tally_step) ends after one instruction
 * retires or one trap is taken: a trapping instruction's line holds its
 * cycles up to and including the trap's entry, and the handler's first
 * instruction is the next line. An interrupt's entry is a step with no
 * instruction: its cycles go to the line of the handler's first
 * instruction, stepped next, as the core model charges them
 * (docs/timing.md), and that line shows the `interrupt` signal. */
tally_stop tally_trace_step(tally_trace *t) {
  uint32_t regs[32];
  uint32_t pc = tally_pc(t->sim);
  trace_record *rec = &t->rec;
  uint64_t c0 = tally_cycles(t->sim), i0 = tally_instret(t->sim), traps0 = tally_traps_taken(t->sim);
  if (!t->have_before || t->before_cycle != c0 || t->before_instret != i0)
    tally_signal_totals(t->sim, t->before);
  tally_stop st = TALLY_STOP_LIMIT;
  if (tally_interrupt_due(t->sim))
    st = tally_step(t->sim);   /* the entry alone: the line is the handler's first instruction's */
  at_pc(t, regs);
  if (st == TALLY_STOP_LIMIT)
    st = tally_step(t->sim);
  uint64_t c1 = tally_cycles(t->sim);
  if (c1 == c0 && tally_instret(t->sim) == i0 && tally_pc(t->sim) == pc && tally_traps_taken(t->sim) == traps0)
    return st;   /* nothing ran: the program had stopped */
  tally_signal_totals(t->sim, t->after);
  rec->cycle = c0;
  rec->taken = c1 - c0;
  changed_regs(t, regs, rec);
  raised_signals(t, rec);
  if (t->bin)
    trace_bin_record(t->bin, rec);
  else
    trace_text_line(t->out, rec, t->names);
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
