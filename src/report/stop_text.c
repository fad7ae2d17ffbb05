/*
 * Why a run stopped, for people (tally_export_stop; what `tally run` prints
 * when a program does not exit): a trap's cause, the PC as symbol+offset,
 * the instruction, mtval and every register; or where the run was stopped.
 * From the public API only.
 */
#include <stdio.h>

#include "tally/export.h"

static void print_registers(const tally_sim *sim, FILE *f) {
  static const char *const names[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
    "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
  };
  for (unsigned r = 0; r < 32; r++)
    fprintf(f, "%s%4s 0x%08x%s", r % 4 ? "  " : "    ", names[r], tally_reg(sim, r),
            r % 4 == 3 ? "\n" : "");
}

static void describe_pc(const tally_sim *sim, uint32_t pc, FILE *f) {
  char sym[160], dis[96];
  tally_symbolize(sim, pc, sym, sizeof sym);
  int len = tally_disasm_at(sim, pc, dis, sizeof dis);
  fprintf(f, "  at    0x%08x  <%s>\n", pc, sym);
  if (len) {
    tally_trap t = tally_last_trap(sim);
    if (len == 2)
      fprintf(f, "  insn  %04x        %s\n", t.insn & 0xffff, dis);
    else
      fprintf(f, "  insn  %08x    %s\n", t.insn, dis);
  } else {
    fprintf(f, "  insn  (not in RAM: nothing to fetch there)\n");
  }
}

static void report_trap(const tally_sim *sim, FILE *f) {
  tally_trap t = tally_last_trap(sim);
  char n[32];
  fprintf(f, "tally: the program trapped: %s (mcause %u), %s\n", tally_cause_name(t.cause), t.cause,
          tally_stop_detail(sim));
  describe_pc(sim, t.pc, f);
  char why[320];
  if (t.cause == 2 && tally_core_lacks(sim, t.pc, why, sizeof why))
    fprintf(f, "  note  %s: the real core traps here too\n", why);
  else if (t.cause == 2 && tally_program_isa_lacks(sim, why, sizeof why))
    fprintf(f, "  note  %s\n", why);
  fprintf(f, "  mtval 0x%08x\n", t.tval);
  fprintf(f, "  after %s instructions\n", tally_format_count(t.instret, n, sizeof n));
  fprintf(f, "  registers:\n");
  print_registers(sim, f);
}

static void report_stop(const tally_sim *sim, const char *why, FILE *f) {
  char sym[160], dis[96], n[32];
  uint32_t pc = tally_pc(sim);
  tally_symbolize(sim, pc, sym, sizeof sym);
  if (!tally_disasm_at(sim, pc, dis, sizeof dis))
    snprintf(dis, sizeof dis, "?");
  fprintf(f, "tally: stopped: %s after %s instructions, next pc 0x%08x <%s>: %s\n", why,
          tally_format_count(tally_instret(sim), n, sizeof n), pc, sym, dis);
}

void tally_export_stop(const tally_sim *sim, tally_stop stop, const char *why, FILE *f) {
  if (stop == TALLY_STOP_TRAP)
    report_trap(sim, f);
  else
    report_stop(sim, why ? why : tally_stop_detail(sim), f);
}
