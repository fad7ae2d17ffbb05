/*
 * The instruction trace's text form, version 1 (docs/tally-trace.md):
 *   CYCLE +TAKEN PC SYMBOL: DISASSEMBLY | REGISTERS | MEMORY | SIGNALS
 */
#include <inttypes.h>

#include "trace_impl.h"

static const char *const abi[32] = {
  "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
  "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

void trace_text_header(FILE *out) {
  fprintf(out, "# tally trace 1: cycle +cycles pc symbol+offset: disassembly | registers written | memory | signals\n");
}

void trace_text_line(FILE *out, const trace_record *r, const char *const *names) {
  fprintf(out, "%" PRIu64 " +%" PRIu64 " %08" PRIx32 " %s", r->cycle, r->taken, r->pc, r->text);
  fputs(" |", out);
  for (uint32_t i = 0; i < r->nregs; i++)
    fprintf(out, " %s=0x%08" PRIx32, abi[r->reg[i] & 31], r->val[i]);
  fputs(" |", out);
  if (r->mem.valid)
    fprintf(out, " %c 0x%08" PRIx32 "/%" PRIu32, r->mem.kind, r->mem.addr, r->mem.len);
  fputs(" |", out);
  for (uint32_t i = 0; i < r->nsigs; i++) {
    const char *name = names[r->sig[i]] ? names[r->sig[i]] : "?";
    if (r->count[i] == 1)
      fprintf(out, " %s", name);
    else
      fprintf(out, " %s*%" PRIu64, name, r->count[i]);
  }
  fputc('\n', out);
}
