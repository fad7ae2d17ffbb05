/*
 * micro_arch vexriscv-min under the translator (jit_vex.h): the model's
 * step before each instruction, the interpreter's own (exec_loop.inc's
 * vexmin_op, compiled here without its loop, VEXMIN 1 as in
 * exec_timed_vexmin.c), so both engines share every rule of vexmin.c and
 * vexmin_step.h.
 */
#define TIMED 1
#define VEXMIN 1
#define PROFILED 0
#define REGIONS 0
#define TIMING_NO_ROWS    /* never with a profile (jit_vexmin_translated) */
#define TIMING_NO_REGIONS /* ... nor with address regions */
#define EXEC_LOOP_HELPERS_ONLY
/* only the step is used here: the loop's other helpers go unused */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "exec_loop.inc"
#pragma GCC diagnostic pop

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "jit.h"
#include "jit_vex.h"

bool jit_vexmin_translated(const core_cpu *cpu) {
  const timing *tm = cpu->tm;
  return tm && tm->vexmin && !tm->prof && !tm->regions && !cpu->track;
}

#if defined(__x86_64__) && defined(__linux__)
/* VEXMIN_AT(k) of an op of kind k: the kind's facts a constant, as in
 * the interpreter's code for the kind */
#define STEP_FN(name, ...)                                                                  \
  static void step_##name(core_cpu *cpu, core_block *blk, uint32_t i) {                     \
    vexmin_op(cpu, cpu->tm, cpu->x, blk->pcs[i], &blk->ops[i], vexmin_facts[K_##name]);     \
  }
RV_INSN_LIST(STEP_FN)
STEP_FN(NOP)
STEP_FN(ILLEGAL)
STEP_FN(SEMIHOST)
#undef STEP_FN

#define STEP_ROW(name, ...) [K_##name] = (const void *)step_##name,
static const void *const step_fns[K_COUNT] = {
  RV_INSN_LIST(STEP_ROW)
  [K_NOP] = (const void *)step_NOP,
  [K_ILLEGAL] = (const void *)step_ILLEGAL,
  [K_SEMIHOST] = (const void *)step_SEMIHOST,
};
#undef STEP_ROW

/* ---- the replay of a block's steps (jit_vex.h, "replay") ---- */

#define MEMO_REGS 16    /* registers a replayed stretch may read (before writing) and write */
#define MEMO_SLOTS 4096 /* entries of the table (direct-mapped) */

/* The state a stretch of ops (from..n_ops) starts from, relative to the
 * row the last fetch beat went out in (v->c, the base): the stage rows
 * of the instruction before, and when each register the stretch reads
 * before writing it can be read, no earlier than the base (a register
 * ready by then is ready for every op of the stretch: each op's fetch
 * goes out after it, and it enters execute rows later) */
typedef struct memo_key {
  const core_block *blk;
  uint32_t pc, from;
  int32_t dv, e, m, mend, w;
  int32_t ready[MEMO_REGS];
} memo_key;

/* ... and where the stretch leaves it, relative to the same base */
typedef struct memo_entry {
  memo_key key;
  bool valid;
  int32_t c, dv, e, m, mend, w;
  int32_t ready[MEMO_REGS]; /* of the registers the stretch writes (memo_plan.writes) */
} memo_entry;

/* The registers ops from..end of blk read before writing them, and
 * those they write (32: an op with no destination, as vexmin_move
 * writes), or false when more than MEMO_REGS */
typedef struct memo_plan {
  uint8_t reads[MEMO_REGS], writes[MEMO_REGS];
  uint32_t nreads, nwrites;
} memo_plan;

/* ... kept for the stretch from op `from` of blk, which ends at op `end` */
typedef struct plan_slot {
  const core_block *blk;
  uint32_t from, end;
  memo_plan plan;
} plan_slot;

#define PLAN_SLOTS 1024

struct jit_vexmin_memo {
  memo_entry slots[MEMO_SLOTS];
  plan_slot plans[PLAN_SLOTS];
};

static bool add_reg(uint8_t *list, uint32_t *n, uint8_t r) {
  for (uint32_t k = 0; k < *n; k++)
    if (list[k] == r)
      return true;
  if (*n == MEMO_REGS)
    return false;
  list[(*n)++] = r;
  return true;
}

static bool plan_of(const core_block *blk, uint32_t from, uint32_t end, memo_plan *p) {
  p->nreads = p->nwrites = 0;
  for (uint32_t i = from; i < end; i++) {
    const core_op *op = &blk->ops[i];
    uint32_t f = vexmin_facts[op->kind];
    uint8_t rs[2] = {f & VEXMIN_RS1 ? op->rs1 : 0, f & VEXMIN_RS2 ? op->rs2 : 0};
    for (int k = 0; k < 2; k++) {
      bool written = false;
      for (uint32_t j = 0; j < p->nwrites; j++)
        written |= p->writes[j] == rs[k];
      if (rs[k] && !written && !add_reg(p->reads, &p->nreads, rs[k]))
        return false;
    }
    uint8_t rd = op->rd < 32 ? op->rd : 0;
    if (!add_reg(p->writes, &p->nwrites, rd ? rd : 32))
      return false;
  }
  return true;
}

/* Whether op i (i > 0) may be replayed: in sequence after the one before
 * (so its fetch is not a redirect), and of a kind whose step depends on
 * the model's state alone (no load or store, shift by a register, CSR
 * access or general step) */
static bool replayable(const core_block *blk, uint32_t i) {
  uint8_t k = blk->ops[i].kind;
  if (k == K_FALLTHRU || k == K_IFETCH || blk->pcs[i] != blk->pcs[i - 1] + 4)
    return false;
  return !(vexmin_facts[k] & (VEXMIN_GENERAL | VEXMIN_MEM | VEXMIN_SHIFT_REG | VEXMIN_CSR));
}

/* The end of the stretch of replayable ops from op `from` (from > 0) */
static uint32_t run_end(const core_block *blk, uint32_t from) {
  uint32_t end = from;
  while (end < blk->n_ops && replayable(blk, end))
    end++;
  return end;
}

/* Whether the stretch from op `from` is replayed: two steps at least, and
 * registers that fit the table */
static bool replays(const core_block *blk, uint32_t from) {
  uint32_t end = run_end(blk, from);
  memo_plan p;
  return end >= from + 2 && plan_of(blk, from, end, &p);
}

static int32_t rel(int64_t row, int64_t base) { return (int32_t)(row - base); }

/* When register reg can be read, relative to base: 0 for any row up to
 * it (jit_vex.h: all the same to the stretch) */
static int32_t ready_rel(const timing_vexmin *v, uint8_t reg, int64_t base) {
  return v->ready[reg] > base ? rel(v->ready[reg], base) : 0;
}

/* The stage rows of a stretch's start state, relative to base: kept in
 * registers and compared with the table's entry field by field (a whole
 * key built on the stack was compared 8 bytes at a time, the compiler
 * merging its 4-byte fields, and each compare waited on forwarding two
 * 4-byte stores: 40 % of the replay's samples on crc32, perf) */
typedef struct memo_rows {
  int32_t dv, e, m, mend, w;
} memo_rows;

/* The key's slot: its rows mixed by independent multiplies (a chain of
 * them was the replay's longest wait) */
static uint32_t key_slot(const core_block *blk, uint32_t from, memo_rows r, const timing_vexmin *v,
                         const memo_plan *pl, int64_t base) {
  uint64_t h = (uint64_t)(uintptr_t)blk * 0x9e3779b97f4a7c15ull + from;
  h += (uint64_t)(uint32_t)r.dv * 0xff51afd7ed558ccdull + (uint64_t)(uint32_t)r.e * 0xc4ceb9fe1a85ec53ull +
       (uint64_t)(uint32_t)r.m * 0x87c37b91114253d5ull + (uint64_t)(uint32_t)r.mend * 0x4cf5ad432745937full +
       (uint64_t)(uint32_t)r.w * 0x52dce729da3ed7d9ull;
  for (uint32_t i = 0; i < pl->nreads; i++)
    h += (uint64_t)(uint32_t)ready_rel(v, pl->reads[i], base) * (0x2545f4914f6cdd1dull + 2 * i);
  return (uint32_t)(h >> 40 ^ h >> 20) & (MEMO_SLOTS - 1);
}

/* Whether entry k is the stretch's from this start state */
static bool same_key(const memo_key *k, const core_block *blk, uint32_t from, memo_rows r, const timing_vexmin *v,
                     const memo_plan *pl, int64_t base) {
  uint32_t diff = (uint32_t)(k->dv ^ r.dv) | (uint32_t)(k->e ^ r.e) | (uint32_t)(k->m ^ r.m) |
                  (uint32_t)(k->mend ^ r.mend) | (uint32_t)(k->w ^ r.w) | (k->from ^ from) | (k->pc ^ blk->pc);
  for (uint32_t i = 0; i < pl->nreads; i++)
    diff |= (uint32_t)(k->ready[i] ^ ready_rel(v, pl->reads[i], base));
  return diff == 0 && k->blk == blk;
}

/* VEXMIN_AT of the stretch of ops from op `from` of blk (replays: none
 * takes a redirect, reads memory, shifts by a register or is a general
 * one, so their steps depend on the model's state alone): replayed from the
 * table when the stretch ran from the same relative state before, else
 * stepped one by one as the interpreter does and noted. */
static void core_jvexmin_replay(core_cpu *cpu, core_block *blk, uint32_t from) {
  timing *tm = cpu->tm;
  timing_vexmin *v = &tm->vm;
  core_jit *j = cpu->jit;
  if (!j->vexmin_memo && !(j->vexmin_memo = calloc(1, sizeof *j->vexmin_memo))) {
    for (uint32_t i = from, end = run_end(blk, from); i < end; i++) /* no table: stepped */
      vexmin_op(cpu, tm, cpu->x, blk->pcs[i], &blk->ops[i], vexmin_facts[blk->ops[i].kind]);
    return;
  }
  plan_slot *ps = &j->vexmin_memo->plans[((uintptr_t)blk >> 4 ^ from) & (PLAN_SLOTS - 1)];
  if (ps->blk != blk || ps->from != from) {
    ps->blk = blk;
    ps->from = from;
    ps->end = run_end(blk, from);
    plan_of(blk, from, ps->end, &ps->plan);
  }
  const memo_plan *pl = &ps->plan;
  uint32_t end = ps->end;
  int64_t base = v->c;
  memo_rows rows = {.dv = rel(v->dv, base), .e = rel(v->e, base), .m = rel(v->m, base), .mend = rel(v->mend, base),
                    .w = rel(v->w, base)};
  memo_entry *e = &j->vexmin_memo->slots[key_slot(blk, from, rows, v, pl, base)];
  if (e->valid && same_key(&e->key, blk, from, rows, v, pl, base)) {
    v->c = base + e->c;
    v->dv = base + e->dv;
    v->e = base + e->e;
    v->m = base + e->m;
    v->mend = base + e->mend;
    v->w = base + e->w;
    for (uint32_t r = 0; r < pl->nwrites; r++)
      v->ready[pl->writes[r]] = base + e->ready[r];
    uint32_t last = end - 1;
    uint32_t pc = blk->pcs[last];
    v->jumped = (vexmin_facts[blk->ops[last].kind] & VEXMIN_JUMP) != 0;
    v->seq_pc = v->jumped ? 1 : pc + 4;
    v->trap = 0;
    v->next_pc = pc + 4;
    timing_count(tm, SIG_CYCLE, v->w + 1 - (int64_t)tm->cycle);
    tm->cycle = (uint64_t)(v->w + 1);
    return;
  }
  memo_key *k = &e->key; /* the start state, noted before the steps move it */
  *k = (memo_key){.blk = blk, .pc = blk->pc, .from = from, .dv = rows.dv, .e = rows.e, .m = rows.m,
                  .mend = rows.mend, .w = rows.w};
  for (uint32_t r = 0; r < pl->nreads; r++)
    k->ready[r] = ready_rel(v, pl->reads[r], base);
  for (uint32_t i = from; i < end; i++)
    vexmin_op(cpu, tm, cpu->x, blk->pcs[i], &blk->ops[i], vexmin_facts[blk->ops[i].kind]);
  e->valid = true;
  e->c = rel(v->c, base);
  e->dv = rel(v->dv, base);
  e->e = rel(v->e, base);
  e->m = rel(v->m, base);
  e->mend = rel(v->mend, base);
  e->w = rel(v->w, base);
  for (uint32_t r = 0; r < pl->nwrites; r++)
    e->ready[r] = rel(v->ready[pl->writes[r]], base);
}

void core_jvexmin_forget(core_jit *j) {
  if (j->vexmin_memo)
    memset(j->vexmin_memo, 0, sizeof *j->vexmin_memo);
}

void core_jvexmin_free(core_jit *j) {
  free(j->vexmin_memo);
  j->vexmin_memo = NULL;
}

const void *jit_vexmin_step_at(const core_block *blk, uint32_t i) {
  for (uint32_t k = 1; k <= i;) { /* the stretches replayed, in order */
    if (!replays(blk, k)) {
      k++;
      continue;
    }
    uint32_t end = run_end(blk, k);
    if (i < end)
      return i == k ? (const void *)core_jvexmin_replay : NULL;
    k = end;
  }
  uint8_t kind = blk->ops[i].kind;
  return kind < K_COUNT ? step_fns[kind] : NULL;
}

#define TM(field) x86_m(R15, (int32_t)offsetof(timing, field)) /* timed code: r15 is cpu->tm */

void jit_vexmin_emit_taken(x86_buf *b) {
  x86_store_imm8(b, TM(vm.jumped), 1);
  x86_store_imm32(b, TM(vm.seq_pc), 1);
}
#endif
