/*
 * micro_arch = vexriscv-min: the part of an instruction's step that every
 * instruction takes (vexmin.c has the rules), inline so that the
 * execution loop's step is a few table lookups and maxima. Included after
 * timing.h by its callers (exec_loop.inc, vexmin.c), so that a caller that
 * never runs with a profile (TIMING_NO_ROWS) pays nothing for one.
 */
#ifndef TALLY_TIMING_VEXMIN_STEP_H
#define TALLY_TIMING_VEXMIN_STEP_H

#include "../core/isa.h"
#include "timing.h"
#ifdef VEXMIN_DEBUG
#include <stdio.h>
#endif

/* Each kind's VEXMIN_* facts (vexmin.h), constants: where the kind is
 * known when the code is compiled (each op's own code in the execution
 * loop) the step keeps only what that kind needs. */
#define VEXMIN_FACTS(k, fmt, cls)                                                                      \
  ((fmt == FMT_R || fmt == FMT_B || fmt == FMT_STORE || fmt == FMT_AMO   ? VEXMIN_RS1 | VEXMIN_RS2     \
    : fmt == FMT_I || fmt == FMT_SHIFT || fmt == FMT_LOAD || fmt == FMT_JALR || fmt == FMT_CSR ||       \
            fmt == FMT_LR                                                 ? VEXMIN_RS1                  \
                                                                          : 0) |                        \
   (cls == CLASS_LOAD ? VEXMIN_MEM | VEXMIN_LOAD : cls == CLASS_STORE ? VEXMIN_MEM : 0) |              \
   (cls == CLASS_CSR ? VEXMIN_CSR : 0) | (cls == CLASS_JUMP ? VEXMIN_JUMP : 0) |                        \
   (k == K_SLLI || k == K_SRLI || k == K_SRAI ? VEXMIN_SHIFT_IMM : 0) |                                 \
   (k == K_SLL || k == K_SRL || k == K_SRA ? VEXMIN_SHIFT_REG : 0) |                                    \
   (k == K_ILLEGAL || k == K_NOP || k == K_ECALL || k == K_EBREAK || k == K_MRET ? VEXMIN_GENERAL : 0))
#define VEXMIN_FACTS_ROW(name, mnem, match, mask, fmt, cls, flags) [K_##name] = VEXMIN_FACTS(K_##name, fmt, cls),
static const uint16_t vexmin_facts[K_COUNT] = {
  RV_INSN_LIST(VEXMIN_FACTS_ROW)
  /* the pseudo-ops as isa_infos has them */
  [K_ILLEGAL] = VEXMIN_FACTS(K_ILLEGAL, FMT_NONE, CLASS_PSEUDO),
  [K_SEMIHOST] = VEXMIN_FACTS(K_SEMIHOST, FMT_NONE, CLASS_SYSTEM),
  [K_NOP] = VEXMIN_FACTS(K_NOP, FMT_NONE, CLASS_ALU),
};
#undef VEXMIN_FACTS_ROW

static inline int64_t vexmin_max(int64_t a, int64_t b) { return a > b ? a : b; }

/* The wait states of a bus beat to addr (none on a board without any). */
static inline int64_t vexmin_wait(const timing *t, uint32_t addr) {
  return t->max_wait_states ? (int64_t)timing_wait_states(t, addr) : 0;
}

/* The row an instruction whose beat is acknowledged in row ack is valid in
 * decode in, behind one that entered execute in row e, memory in row m and
 * left memory after row mend: while that one is held in execute or
 * memory, the stages before it are held too, and the instruction becomes
 * valid only once the hold ends. */
static inline int64_t vexmin_valid_row(int64_t e, int64_t m, int64_t mend, int64_t ack) {
  int64_t dv = vexmin_max(ack, e);
  if (m - 1 > e && ack > e && ack <= m - 1) /* held in execute */
    dv = m;
  if (mend > m && ack > m && ack <= mend) /* held in memory */
    dv = mend + 1;
  return dv;
}

/* The instruction at pc whose fetch beat went out in row c (w: its wait
 * states) moves down the pipeline: f its kind's VEXMIN_* facts, rd the
 * register it writes (0 or 32: none), late the first row its
 * operands can be read in execute, shamt a shift's amount (0 for other
 * kinds), dw the wait states of a load's or store's beat; illegal: an
 * illegal instruction's trap (vexmin.c), trap: how it redirects the fetch
 * (vexmin.c's TRAP_*, 0 for none). Sets t->cycle to its retire cycle. */
static inline void vexmin_move(timing *t, uint32_t pc, int64_t c, int64_t w, uint32_t f, uint8_t rd,
                               int64_t late, uint32_t shamt, int64_t dw, bool illegal, uint8_t trap) {
  timing_vexmin *v = &t->vm;
  int64_t ack = c + 1 + w, dv = vexmin_valid_row(v->e, v->m, v->mend, ack);
  int64_t e = vexmin_max(dv + 1, v->m);
  if (illegal) { /* its trap moves on in its place (vexmin.c) */
    e = vexmin_max(e, dv + 1 + (late > dv + 1));
    if (v->mend > v->m && e > v->m && e <= v->mend) /* behind a load held in memory */
      e = v->mend + 1;
    e += 3;
  } else {
    e = vexmin_max(e, late);
  }
  if (v->mend > v->m && e > v->m && e <= v->mend)
    e = v->mend + 1;
  int64_t eend = e;
  if (f & VEXMIN_MEM) {
    int64_t cyc = vexmin_max(e + 2, v->dnext);
    eend = cyc - 2;
    v->dack = cyc + 1 + dw;
    v->dnext = cyc + dw + 3;
  } else if (shamt > 1) {
    eend = e + shamt - 1;
    if (v->mend > e) /* the shifter counts only while memory is not held */
      eend += v->mend - vexmin_max(e, v->m);
  } else if (f & VEXMIN_CSR) {
    eend = vexmin_max(e, v->w + 1);
  }
  int64_t m = vexmin_max(eend + 1, v->mend + 1), mend = m;
  if (f & VEXMIN_LOAD)
    mend = vexmin_max(m, v->dack - 1);
  int64_t wb = vexmin_max(mend + 1, v->w + 1);
  v->ready[rd ? rd : 32] = wb + 3; /* ready[0] stays 0 (x0 never waits); 32: no register */
#ifdef VEXMIN_DEBUG
  fprintf(stderr, "VM %08x c=%ld dv=%ld e=%ld eend=%ld m=%ld mend=%ld w=%ld\n", pc, (long)c, (long)dv, (long)e, (long)eend, (long)m, (long)mend, (long)wb);
#endif
  v->c = c;
  v->dv = dv;
  v->e = e;
  v->m = m;
  v->mend = mend;
  v->w = wb;
  v->jumped = (f & VEXMIN_JUMP) != 0;
  v->seq_pc = v->jumped ? 1 : pc + 4;
  v->trap = trap;
  v->next_pc = pc + 4;
  /* the cycle signal counted what the engine charged since: this replaces
   * it. An illegal instruction's cycles end with its trap's write-back row,
   * 3 before the row the model times it by (vexmin.c): the RTL takes the
   * trap there (CsrPlugin_exception), and the 3 rows are the handler's
   * first instruction's, as after an ecall. */
  int64_t end = wb + 1 - (illegal ? 3 : 0);
  timing_count(t, SIG_CYCLE, end - (int64_t)t->cycle);
  t->cycle = (uint64_t)end;
}

/* A taken branch redirects the fetch even to pc + 4, its successor in
 * sequence: the RTL flushes the instruction fetched there and fetches it
 * again (a branch's outcome is known only after its step). */
static inline void vexmin_taken(timing *t) {
  t->vm.jumped = 1;
  t->vm.seq_pc = 1;
}

/* After the engine's charges for a load or store (the memory's port, a
 * device's wait states: counted as stall signals), the cycle count goes
 * back to the instruction's retire, which the model's step set and
 * which already includes its data beat's wait. Left higher, it would be
 * taken back only at the next step: a block ending there (a budget, a
 * store that leaves) would hand the next one a count it goes below (the
 * block-bound law), and a stop there would report cycles the run later
 * goes back on. */
static inline void vexmin_settle(timing *t) {
  int64_t r = t->vm.w + 1;
  timing_count(t, SIG_CYCLE, r - (int64_t)t->cycle);
  t->cycle = (uint64_t)r;
}

#endif
