/*
 * micro_arch = vexriscv-min (vexmin.h): the rules, in cycles ("rows": the
 * cycle an instruction is in a stage) as VexRiscv_Min.v's retire traces
 * show them. W is the board's wait states at the address a beat goes to;
 * a bus beat whose request the memory first sees in row c is acknowledged
 * in row c + 1 + W, the next no earlier than c + W + 2.
 *
 * - Fetch: one beat per instruction, issued once the instruction before
 *   is valid in decode (the fetch holds no more), W + 2 after the last
 *   beat. An instruction is valid in decode in the row its beat is
 *   acknowledged, or when the one before moves on to execute.
 * - Execute: one row after it is valid in decode, after the one before
 *   left execute, and (no bypass) 3 rows after each register it reads was
 *   written back. A shift by n > 1 stays n rows (LightShifterPlugin).
 * - A load or store sends its request from execute: the bus sees it 2
 *   rows later, and no earlier than the last data beat allows (execute
 *   waits). A load stays in memory until its acknowledge.
 * - An illegal instruction is removed from decode in the row it is valid
 *   there and its trap moves on in its place: into execute the row after,
 *   or two rows after when decode is halted in that row by a register the
 *   instruction's encoding reads (RS1_USE, RS2_USE: an R-type one reads
 *   both) not yet written back, and not while a load ahead of it is held
 *   in memory (the row after its acknowledge at the earliest), as any
 *   instruction entering execute; it no longer waits for the instruction
 *   before it to be written back (div_redo.S on VexRiscv_Min.v at W = 0:
 *   lw, add, then the illegal div, the add held a row in execute behind
 *   the lw: the handler's first beat goes out 4 rows after the add's
 *   retire, where that wait gave 5; fence_pair.S's lw, then the illegal
 *   divu, waits for the lw held in memory); the trap is taken from
 *   write-back, and the model times it as an instruction entering execute
 *   3 rows after the trap did; the instruction's cycles end with the
 *   trap's write-back row (vexmin_step.h), the 3 rows after it are the
 *   handler's first instruction's, as the RTL's trap clock splits them.
 * - A CSR instruction stays in execute until the one before it was
 *   written back.
 * - While an instruction is held in execute (a shift) or memory (a load),
 *   the stages before it are held too: the next instruction, if its beat
 *   is acknowledged during the hold, is valid in decode only the row after
 *   it ends; if it was valid already it enters execute the row after.
 * - The shifter counts down only in rows execute is not held by memory: a
 *   shift behind a load waiting there stays that many rows longer.
 * - A jump, taken branch or trap redirects the fetch: its target's beat
 *   goes out the row after the jump was written back, after the beats the
 *   fetch issued on the wrong path before then. A wrong-path instruction
 *   held in execute (a shift by more than 1, a CSR instruction) as the
 *   jump leaves memory holds the redirect a row more; not behind an
 *   illegal instruction's trap.
 * - A taken branch redirects even to pc + 4 (the instruction there is
 *   fetched again). The first wrong-path instruction is held in decode
 *   while the jump ahead of it is held. When it is halted in decode by a
 *   register not yet written back and a second wrong-path beat went out,
 *   that beat's response waits in the fetch's last stage until the flush,
 *   and the target's beat goes out a row later.
 * - Every fetch beat (the wrong path's and those after the finisher store
 *   too) and every IO load and store is a bus transaction (mem.read,
 *   mem.write), as the RTL's buses count them.
 * - A trap or mret stops the fetch after one beat down the wrong path; an
 *   ecall's or ebreak's target beat goes out 4 rows after it would have
 *   been written back, an mret's 3, an illegal instruction's 1.
 * - The run ends with the finisher store's acknowledge.
 */
#include "vexmin.h"

#include "../core/isa.h"
#include "timing.h"
#include "vexmin_step.h"

/* timing_vexmin.trap: how the last instruction redirects the fetch
 * (TRAP_JUMP: a jump's misaligned-target trap, timing_vexmin_jump_trap) */
enum { TRAP_DECODE = 1, TRAP_EXECUTE, TRAP_RETURN, TRAP_JUMP };

void timing_vexmin_init(timing *t) {
  t->vm.seq_pc = 1; /* the first instruction is fetched after reset */
}

int64_t timing_vexmin_redirect(timing *t, int64_t w, int64_t *held_row, unsigned *held_kinds) {
  timing_vexmin *v = &t->vm;
  *held_row = -1;
  *held_kinds = 0;
  if (!v->started) {
    v->started = 1;
    for (int i = 0; i < 33; i++)
      v->ready[i] = 0;
    v->e = v->m = v->mend = v->w = v->dv = -16;
    v->dnext = 0;
    return 3; /* the first beat after reset */
  }
  /* the wrong-path beats issued before the redirect, then the target's */
  int64_t at = v->w + 1 + (v->trap == TRAP_EXECUTE || v->trap == TRAP_JUMP ? 3 : v->trap == TRAP_RETURN ? 2 : 0);
  /* a jump that traps as misaligned: the wrong path's beats go out up to
   * the row a jump redirects in, and no more until its trap redirects
   * (jump_misaligned.S on VexRiscv_Min.v's bus trace: two at W = 0, one at
   * W = 1..3, the handler's 3 rows later than a jump's target) */
  int64_t stop = v->trap == TRAP_JUMP ? v->w + 1 : at;
  int64_t last = v->c, dv = v->dv, e = v->e, m = v->m, mend = v->mend, first = -1;
  int beats = 0;
  for (;;) {
    int64_t next = vexmin_max(last + w + 2, dv + 1);
    if (next >= stop)
      break;
    if (first >= 0 && v->trap && v->trap != TRAP_JUMP) /* a trap halts the fetch after one */
      break;
    if (first < 0)
      first = next;
    last = next;
    beats++;
    /* the first one behind the jump is held while the jump is (in
     * execute, behind a load held in memory) */
    dv = vexmin_valid_row(e, m, mend, next + 1 + w);
    e = vexmin_max(dv + 1, m);
    m = mend = e + 1;
  }
  int64_t c = vexmin_max(at, last + w + 2);
  timing_count(t, SIG_MEM_READ, beats); /* the wrong path's beats are bus reads too */
  *held_kinds = 0;
  /* not behind an illegal instruction's trap: the RTL's retire trace has
   * no such row (div_csr.S on VexRiscv_Min.v: divu is illegal there, a
   * csrr after it on the wrong path; the handler's first instruction
   * retires 11 rows after the addi before the divu at W = 0, the trap a
   * row late as the divu reads the addi's a0, where the hold gave 12;
   * one row too many at W = 1 and 2 as well) */
  if (at + 1 > c && v->trap != TRAP_DECODE) {
    /* the wrong-path instruction reached execute right behind the jump:
     * held there, it holds the redirect a row more */
    if (first >= 0 && first + 1 + w <= v->e)
      *held_kinds |= VEXMIN_HELD_EXECUTE;
    /* a second wrong-path beat went out: its response waits in the fetch's
     * last stage while the first one is halted in decode, and the target's
     * beat goes out only once that stage is flushed */
    if (beats >= 2)
      *held_kinds |= VEXMIN_HELD_DECODE;
  }
  *held_row = *held_kinds ? at + 1 : -1;
  return c;
}

bool timing_vexmin_wrong_held(const timing *t, uint32_t word, const uint32_t *x, int64_t held_row,
                              unsigned kinds) {
  uint32_t opc = word & 0x7f, r1 = word >> 15 & 31, r2 = word >> 20 & 31;
  if (kinds & VEXMIN_HELD_EXECUTE) {
    if ((word & 0x5f) == 0x13 && (word >> 12 & 3) == 1 && (word & 0x20 ? x[r2] & 31 : r2) > 1)
      return true; /* a shift by more than 1 */
    if (opc == 0x73 && (word >> 12 & 7)) /* a CSR instruction */
      return true;
  }
  if (kinds & VEXMIN_HELD_DECODE) {
    /* the registers its encoding reads (RS1_USE, RS2_USE): not written
     * back in time for it to leave decode before the redirect */
    bool rs1 = opc == 0x13 || opc == 0x03 || opc == 0x67 || opc == 0x33 || opc == 0x23 || opc == 0x63 ||
               (opc == 0x73 && (word >> 12 & 3) && !(word >> 14 & 1));
    bool rs2 = opc == 0x33 || opc == 0x23 || opc == 0x63;
    int64_t at = held_row - 1;
    if ((rs1 && r1 && t->vm.ready[r1] > at - 1) || (rs2 && r2 && t->vm.ready[r2] > at - 1))
      return true;
  }
  return false;
}

void timing_vexmin_step(timing *t, uint32_t pc, uint8_t kind, uint8_t rd, uint32_t reads,
                        uint32_t shamt, uint32_t addr, uint32_t wrong_word, const uint32_t *x) {
  timing_vexmin *v = &t->vm;
  int64_t w = vexmin_wait(t, pc), c;
  if (pc == v->seq_pc) {
    c = vexmin_max(v->c + w + 2, v->dv + 1);
  } else {
    int64_t held;
    unsigned kinds;
    c = timing_vexmin_redirect(t, w, &held, &kinds);
    if (held >= 0 && timing_vexmin_wrong_held(t, wrong_word, x, held, kinds))
      c = held;
  }
  int64_t late = 0;
  while (reads) {
    int reg = __builtin_ctz(reads);
    reads &= reads - 1;
    late = vexmin_max(late, v->ready[reg]);
  }
  uint32_t f = vexmin_facts[kind];
  int64_t dw = f & VEXMIN_MEM ? vexmin_wait(t, addr) : 0;
  uint8_t trap = kind == K_ECALL || kind == K_EBREAK ? TRAP_EXECUTE
                 : kind == K_ILLEGAL                 ? TRAP_DECODE
                 : kind == K_MRET                    ? TRAP_RETURN
                                                     : 0;
  vexmin_move(t, pc, c, w, f, rd < 32 ? rd : 0, late, shamt, dw, kind == K_ILLEGAL, trap);
}

void timing_vexmin_jump_trap(timing *t) {
  t->vm.trap = TRAP_JUMP;
  t->vm.jumped = 1;
  t->vm.seq_pc = 1;
}

void timing_vexmin_device(timing *t, bool store) {
  timing_count(t, store ? SIG_MEM_WRITE : SIG_MEM_READ, 1);
}

/* The fetch beats that go out after the finisher store's, up to the end of
 * the run in row r: the fetch goes on in sequence behind it (the bus
 * counts them). */
static int64_t exit_beats(const timing *t, int64_t r) {
  const timing_vexmin *v = &t->vm;
  int64_t w = vexmin_wait(t, v->next_pc), last = v->c, dv = v->dv, e = v->e, m = v->m, mend = v->mend, n = 0;
  for (;;) {
    int64_t next = vexmin_max(last + w + 2, dv + 1);
    if (next >= r)
      return n;
    n++;
    last = next;
    dv = vexmin_valid_row(e, m, mend, next + 1 + w);
    e = vexmin_max(dv + 1, m);
    m = mend = e + 1;
  }
}

void timing_vexmin_exit_store(timing *t) {
  int64_t r = vexmin_max(t->vm.w + 1, t->vm.dack);
  timing_count(t, SIG_MEM_READ, exit_beats(t, r));
  timing_count(t, SIG_CYCLE, r - (int64_t)t->cycle);
  t->cycle = (uint64_t)r;
}
