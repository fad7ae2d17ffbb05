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

#define MEMO_REGS 16  /* registers a replayed stretch may read (before writing) and write */
#define MEMO_WAYS 4   /* start states kept per stretch */
#define MEMO_MAX 65536 /* stretches kept until the translations are emptied */
#define MEMO_CHUNK 256 /* stretches allocated at once: never moved, translated code points at them */

/* The model's rows relative to a base (the row the last fetch beat went
 * out in, v->c) */
typedef struct memo_rows {
  int32_t dv, e, m, mend, w, dnext;
} memo_rows;

/* How a stretch from a block's first op was entered: in sequence (mode
 * 0), or as a redirect's target (1), with what decides whether the
 * wrong-path instruction after the jump holds the redirect
 * (timing_vexmin_wrong_held): its word, when the registers its encoding
 * reads can be read (relative to the base, 0 up to it), and a shift's
 * amount when it shifts by a register; 0 in stretches from later ops */
typedef struct memo_entry {
  int32_t mode;
  uint32_t word;
  int32_t r1, r2, shamt;
} memo_entry;

/* One start state a stretch ran from (its rows, when each register the
 * stretch reads before writing it can be read, no earlier than the base:
 * a register ready by then is ready for every op of the stretch, each
 * op's fetch going out after it; the wait states of a final load's or
 * store's beat) and where the stretch left the model, relative to the
 * same base */
typedef struct memo_way {
  memo_rows in;
  int32_t dw;
  memo_entry entry;
  int32_t beats; /* the wrong path's bus reads */
  /* For the check inline in the translated code (jit_vexmin_emit_hit):
   * whether it may check this way (a board without wait states, and
   * entered in sequence, or as a redirect whose wrong-path word was read
   * from RAM and is no shift by a register), and for a redirect, the
   * wrong-path word's address, its offset in RAM, its bits as RAM held
   * them, and the registers its encoding names (entry.r1, entry.r2) */
  uint8_t inl, wr1, wr2;
  uint32_t wpc, woff, wraw;
  int32_t ready_in[MEMO_REGS];
  int32_t c, dack;
  memo_rows out;
  int32_t ready_out[MEMO_REGS]; /* of the registers the stretch writes (writes) */
} memo_way;

/* A stretch of ops from..end - 1 of blk, made when its replay is
 * translated: the registers it reads before writing them and those it
 * writes (32: an op with no destination, as vexmin_move writes), and the
 * start states it ran from, MEMO_WAYS of them, replaced in turn */
typedef struct memo_stretch {
  const core_block *blk;
  uint32_t from, end;
  uint8_t reads[MEMO_REGS], writes[MEMO_REGS];
  uint8_t nreads, nwrites, nways, next, hot; /* hot: the way that matched last */
  bool mem;                                  /* its last op is a load or store */
  bool jump;                                 /* ... a jump */
  uint32_t pc0, last_pc;                     /* its first op's address, its last one's */
  uint8_t mem_rs1;                           /* the load's or store's address: x[mem_rs1] + mem_imm */
  uint32_t mem_imm;
  /* the ways the translated code checks inline: the one taken last, then
   * the one taken before it (a loop's blocks may alternate between two) */
  const memo_way *hotp, *hotq;
  memo_way ways[MEMO_WAYS];
} memo_stretch;

struct jit_vexmin_memo {
  memo_stretch *chunk[MEMO_MAX / MEMO_CHUNK];
  uint32_t n;
};

static memo_stretch *memo_at(const struct jit_vexmin_memo *t, uint32_t idx) {
  return &t->chunk[idx / MEMO_CHUNK][idx % MEMO_CHUNK];
}

static bool add_reg(uint8_t *list, uint8_t *n, uint8_t r) {
  for (uint32_t k = 0; k < *n; k++)
    if (list[k] == r)
      return true;
  if (*n == MEMO_REGS)
    return false;
  list[(*n)++] = r;
  return true;
}

static bool written_in(const core_block *blk, uint32_t from, uint32_t end, uint8_t r) {
  for (uint32_t i = from; i < end; i++)
    if (blk->ops[i].rd == r)
      return true;
  return false;
}

static bool plan_of(const core_block *blk, uint32_t from, uint32_t end, memo_stretch *p) {
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

/* Whether an op of kind k has a step that depends on the model's state
 * alone (no load or store, shift by a register, CSR access or general
 * step) once its fetch row is known */
static bool kind_replayable(uint8_t k) {
  if (k == K_FALLTHRU || k == K_IFETCH || k >= K_COUNT)
    return false;
  return !(vexmin_facts[k] & (VEXMIN_GENERAL | VEXMIN_MEM | VEXMIN_SHIFT_REG | VEXMIN_CSR));
}

/* ... op i (i > 0), in sequence after the one before (so its fetch is not
 * a redirect) */
static bool replayable(const core_block *blk, uint32_t i) {
  return blk->pcs[i] == blk->pcs[i - 1] + 4 && kind_replayable(blk->ops[i].kind);
}

/* Whether op i (i > from), a load or store, may end the stretch from op
 * `from`: in sequence, and its beat's wait states known as the stretch
 * starts (none on the board, or its address register not written by the
 * ops before it in the stretch). It is the last op: the block may be
 * left after it (a fault, a device, the finisher), and the model's state
 * is then the one the interpreter has there, after its step. */
static bool mem_ends(const timing *tm, const core_block *blk, uint32_t from, uint32_t i) {
  const core_op *op = &blk->ops[i];
  uint32_t f = vexmin_facts[op->kind];
  if (!(f & VEXMIN_MEM) || (f & VEXMIN_GENERAL) || blk->pcs[i] != blk->pcs[i - 1] + 4)
    return false;
  return !tm->max_wait_states || !written_in(blk, from, i, op->rs1);
}

/* Whether the block's first op is a load or store that is a stretch of
 * its own: its beat's wait states are known as it starts (its address
 * register as it is), and its fetch, maybe a redirect, is in the key */
static bool first_mem(const core_block *blk) {
  uint8_t k = blk->ops[0].kind;
  return k < K_COUNT && (vexmin_facts[k] & VEXMIN_MEM) && !(vexmin_facts[k] & VEXMIN_GENERAL);
}

/* The end of the stretch of replayable ops from op `from`: the block's
 * first op too, whose fetch may be a redirect (its inputs are the
 * model's state and the wrong path's instruction: memo_entry) */
static uint32_t run_end(const timing *tm, const core_block *blk, uint32_t from) {
  if (from == 0 && blk->n_ops && first_mem(blk))
    return 1;
  if (from == 0 && !(blk->n_ops && kind_replayable(blk->ops[0].kind)))
    return 0;
  uint32_t end = from ? from : 1;
  while (end < blk->n_ops && replayable(blk, end))
    end++;
  if (end < blk->n_ops && end > from && mem_ends(tm, blk, from, end))
    end++;
  return end;
}

/* Whether the stretch from op `from` is replayed: two steps at least, or
 * the block's first op alone (its step, maybe a redirect's, is dearer
 * than the replay's hit), and registers that fit the table */
static bool replays(const timing *tm, const core_block *blk, uint32_t from) {
  uint32_t end = run_end(tm, blk, from);
  memo_stretch p;
  return end >= from + (from ? 2 : 1) && plan_of(blk, from, end, &p);
}

static int32_t rel(int64_t row, int64_t base) { return (int32_t)(row - base); }

/* When register reg can be read, relative to base: 0 for any row up to
 * it (all the same to the stretch) */
static int32_t ready_rel(const timing_vexmin *v, uint8_t reg, int64_t base) {
  return v->ready[reg] > base ? rel(v->ready[reg], base) : 0;
}

/* Whether way k is the stretch's from this start state: compared field
 * by field in registers (a key built on the stack and compared 8 bytes
 * at a time waited on store forwarding) */
/* Way e is the one the stretch took last: the inline checks' first */
static void take_hot(memo_stretch *s, const memo_way *e) {
  if (s->hotp != e) {
    s->hotq = s->hotp;
    s->hotp = e;
  }
}

static bool same_start(const memo_way *k, const memo_stretch *s, memo_rows r, int32_t dw, memo_entry en,
                       const timing_vexmin *v, int64_t base) {
  uint32_t diff = (uint32_t)(k->in.dv ^ r.dv) | (uint32_t)(k->in.e ^ r.e) | (uint32_t)(k->in.m ^ r.m) |
                  (uint32_t)(k->in.mend ^ r.mend) | (uint32_t)(k->in.w ^ r.w) | (uint32_t)(k->in.dnext ^ r.dnext) |
                  (uint32_t)(k->dw ^ dw) | (uint32_t)(k->entry.mode ^ en.mode) | (k->entry.word ^ en.word) |
                  (uint32_t)(k->entry.r1 ^ en.r1) | (uint32_t)(k->entry.r2 ^ en.r2) |
                  (uint32_t)(k->entry.shamt ^ en.shamt);
  for (uint32_t i = 0; i < s->nreads; i++)
    diff |= (uint32_t)(k->ready_in[i] ^ ready_rel(v, s->reads[i], base));
  return diff == 0;
}

static void step_ops(core_cpu *cpu, const core_block *blk, uint32_t from, uint32_t end) {
  for (uint32_t i = from; i < end; i++)
    vexmin_op(cpu, cpu->tm, cpu->x, blk->pcs[i], &blk->ops[i], vexmin_facts[blk->ops[i].kind]);
}

/* How the stretch s from a block's first op is entered (memo_entry), or
 * false when that is not a function of the model's rows: the run's first
 * instruction, or the target of a trap or mret */
static bool entry_of(const core_cpu *cpu, const memo_stretch *s, int64_t base, memo_entry *en, memo_way *inl) {
  const timing_vexmin *v = &cpu->tm->vm;
  inl->inl = !cpu->tm->max_wait_states;
  if (s->pc0 == v->seq_pc)
    return true;
  if (!v->started || v->trap)
    return false;
  uint32_t word, off = v->next_pc - cpu->ram_base;
  if (off < cpu->ram_size && cpu->ram_size - off >= 4) { /* core_fetch_insn's word, read from RAM */
    memcpy(&word, cpu->ram + off, 4);
    inl->wpc = v->next_pc;
    inl->woff = off;
    inl->wraw = word;
    if ((word & 3) != 3)
      word &= 0xffff;
  } else {
    word = vexmin_wrong_word(cpu, v->next_pc);
    inl->inl = 0;
  }
  uint32_t r1 = word >> 15 & 31, r2 = word >> 20 & 31;
  bool shift_reg = (word & 0x7f) == 0x33 && (word >> 12 & 3) == 1;
  if (shift_reg) /* its amount, a register's value, is in the key */
    inl->inl = 0;
  inl->wr1 = (uint8_t)r1;
  inl->wr2 = (uint8_t)r2;
  *en = (memo_entry){.mode = 1, .word = word, .r1 = ready_rel(v, (uint8_t)r1, base),
                     .r2 = ready_rel(v, (uint8_t)r2, base), .shamt = shift_reg ? (int32_t)(cpu->x[r2] & 31) : 0};
  return true;
}

/* VEXMIN_AT of the stretch `idx` (replays: none but the block's first
 * op takes a redirect, none shifts by a register or is a general one, a
 * load or store only last with its wait states known, so their steps
 * depend on the model's state, the entry and that alone): replayed from one of its ways when it ran from the same relative
 * state before, else stepped one by one as the interpreter does and
 * noted. */
static void core_jvexmin_replay(core_cpu *cpu, core_block *blk, uint32_t idx) {
  (void)blk;
  timing *tm = cpu->tm;
  timing_vexmin *v = &tm->vm;
  memo_stretch *s = memo_at(cpu->jit->vexmin_memo, idx);
  int64_t base = v->c;
  int32_t dw = 0;
  memo_rows rows = {.dv = rel(v->dv, base), .e = rel(v->e, base), .m = rel(v->m, base), .mend = rel(v->mend, base),
                    .w = rel(v->w, base), .dnext = 0};
  if (s->mem) { /* the data bus's next free row matters only to the last op; up to the base all the same */
    rows.dnext = v->dnext > base ? rel(v->dnext, base) : 0;
    dw = (int32_t)vexmin_wait(tm, cpu->x[s->mem_rs1] + s->mem_imm);
  }
  memo_entry en = {0};
  memo_way inl = {.inl = !tm->max_wait_states};
  if (s->from == 0 && !entry_of(cpu, s, base, &en, &inl)) {
    step_ops(cpu, s->blk, s->from, s->end); /* the first instruction, or after a trap */
    return;
  }
  for (uint32_t n = 0; n < s->nways; n++) {
    uint32_t k = s->hot + n; /* the way that matched last first */
    if (k >= s->nways)
      k -= s->nways;
    const memo_way *e = &s->ways[k];
    if (!same_start(e, s, rows, dw, en, v, base))
      continue;
    s->hot = (uint8_t)k;
    take_hot(s, e);
    if (e->beats)
      timing_count(tm, SIG_MEM_READ, e->beats);
    v->c = base + e->c;
    v->dv = base + e->out.dv;
    v->e = base + e->out.e;
    v->m = base + e->out.m;
    v->mend = base + e->out.mend;
    v->w = base + e->out.w;
    if (s->mem) {
      v->dnext = base + e->out.dnext;
      v->dack = base + e->dack;
    }
    for (uint32_t r = 0; r < s->nwrites; r++)
      v->ready[s->writes[r]] = base + e->ready_out[r];
    v->jumped = s->jump;
    v->seq_pc = s->jump ? 1 : s->last_pc + 4;
    v->trap = 0;
    v->next_pc = s->last_pc + 4;
    timing_count(tm, SIG_CYCLE, v->w + 1 - (int64_t)tm->cycle);
    tm->cycle = (uint64_t)(v->w + 1);
    return;
  }
  memo_way *e = &s->ways[s->next]; /* the start state, noted before the steps move it */
  s->next = (uint8_t)((s->next + 1) % MEMO_WAYS);
  if (s->nways < MEMO_WAYS)
    s->nways++;
  e->in = rows;
  e->dw = dw;
  e->entry = en;
  e->inl = 0; /* until its end state is noted */
  e->wpc = inl.wpc;
  e->woff = inl.woff;
  e->wraw = inl.wraw;
  e->wr1 = inl.wr1;
  e->wr2 = inl.wr2;
  for (uint32_t r = 0; r < s->nreads; r++)
    e->ready_in[r] = ready_rel(v, s->reads[r], base);
  int64_t reads = tm->sig_dyn[SIG_MEM_READ];
  step_ops(cpu, s->blk, s->from, s->end);
  e->beats = (int32_t)(tm->sig_dyn[SIG_MEM_READ] - reads);
  e->c = rel(v->c, base);
  e->out = (memo_rows){.dv = rel(v->dv, base), .e = rel(v->e, base), .m = rel(v->m, base),
                       .mend = rel(v->mend, base), .w = rel(v->w, base), .dnext = rel(v->dnext, base)};
  e->dack = rel(v->dack, base);
  for (uint32_t r = 0; r < s->nwrites; r++)
    e->ready_out[r] = rel(v->ready[s->writes[r]], base);
  e->inl = inl.inl;
  s->hot = (uint8_t)(e - s->ways);
  take_hot(s, e);
}

/* ... with no stretch kept for it (the table full): stepped */
static void core_jvexmin_steps(core_cpu *cpu, core_block *blk, uint32_t from) {
  step_ops(cpu, blk, from, run_end(cpu->tm, blk, from));
}

void core_jvexmin_forget(core_jit *j) {
  if (j->vexmin_memo)
    j->vexmin_memo->n = 0;
}

void core_jvexmin_free(core_jit *j) {
  if (j->vexmin_memo)
    for (uint32_t k = 0; k < MEMO_MAX / MEMO_CHUNK; k++)
      free(j->vexmin_memo->chunk[k]);
  free(j->vexmin_memo);
  j->vexmin_memo = NULL;
}

/* A new stretch from..end of blk in j's table: its index, or -1 when the
 * table is full */
static int64_t new_stretch(core_jit *j, const core_block *blk, uint32_t from, uint32_t end, bool mem) {
  if (!j->vexmin_memo && !(j->vexmin_memo = calloc(1, sizeof *j->vexmin_memo)))
    return -1;
  struct jit_vexmin_memo *t = j->vexmin_memo;
  if (t->n == MEMO_MAX)
    return -1;
  memo_stretch **chunk = &t->chunk[t->n / MEMO_CHUNK];
  if (!*chunk && !(*chunk = malloc(MEMO_CHUNK * sizeof **chunk)))
    return -1;
  memo_stretch *s = memo_at(t, t->n);
  memset(s, 0, offsetof(memo_stretch, ways));
  for (uint32_t k = 0; k < MEMO_WAYS; k++)
    s->ways[k].inl = 0;
  s->hotp = s->hotq = &s->ways[0];
  s->blk = blk;
  s->from = from;
  s->end = end;
  s->mem = mem;
  s->jump = (vexmin_facts[blk->ops[end - 1].kind] & VEXMIN_JUMP) != 0;
  s->pc0 = blk->pcs[0];
  s->last_pc = blk->pcs[end - 1];
  s->mem_rs1 = blk->ops[end - 1].rs1;
  s->mem_imm = (uint32_t)blk->ops[end - 1].imm;
  plan_of(blk, from, end, s);
  return t->n++;
}

const void *jit_vexmin_step_at(core_jit *j, const core_cpu *cpu, const core_block *blk, uint32_t i,
                               uint32_t *arg) {
  const timing *tm = cpu->tm;
  *arg = i;
  for (uint32_t k = 0; k <= i;) { /* the stretches replayed, in order */
    if (!replays(tm, blk, k)) {
      k++;
      continue;
    }
    uint32_t end = run_end(tm, blk, k);
    if (i >= end) {
      k = end;
      continue;
    }
    if (i != k)
      return NULL;
    int64_t idx = new_stretch(j, blk, k, end, vexmin_facts[blk->ops[end - 1].kind] & VEXMIN_MEM);
    if (idx < 0)
      return (const void *)core_jvexmin_steps;
    *arg = (uint32_t)idx;
    return (const void *)core_jvexmin_replay;
  }
  uint8_t kind = blk->ops[i].kind;
  return kind < K_COUNT ? step_fns[kind] : NULL;
}

#define TM(field) x86_m(R15, (int32_t)offsetof(timing, field)) /* timed code: r15 is cpu->tm */

void jit_vexmin_emit_taken(x86_buf *b) {
  x86_store_imm8(b, TM(vm.jumped), 1);
  x86_store_imm32(b, TM(vm.seq_pc), 1);
}

bool jit_vexmin_inline_access(const timing *tm) {
  return tm->vexmin && !tm->dcache_on && !tm->dcache_wb && !tm->model.dcache.store_load_replay &&
         tm->model.sram_size == 0 && !tm->sdram_rows && !tm->prof && !tm->regions;
}

#define SIG(s) x86_m(R15, (int32_t)(offsetof(timing, sig_dyn) + 8u * (s)))

/* T_LOAD and T_STORE of micro_arch vexriscv-min on RAM (core_jt_load,
 * core_jt_store without a D-cache): timing_load_slow's and
 * timing_store_slow's read_cycles / write_cycles count the transfer
 * (mem.read or mem.write) and its one bus beat (energy; a read is also
 * one of mem_read_txns, as count_read_beats counts it); the latency
 * they work out is dropped on this model (the step charged the beat,
 * wait states included), and with no SDRAM rows (the gate) it changes
 * nothing. vexmin_settle, which follows them in C, is a no-op here: the
 * op's step (or its replay) has just set the cycle count to vm.w + 1
 * (vexmin_step.h; a load or store never takes the illegal
 * instruction's end) and nothing in between moves it. Left in, its load
 * of vm.w and add to the cycle signal made nettle-sha256 slower than
 * the call it replaced (about 10 %, AMD EPYC). */
void jit_vexmin_emit_access(x86_buf *b, bool store) {
  x86_alu_mi64(b, ALU_ADD, SIG(store ? SIG_MEM_WRITE : SIG_MEM_READ), 1);
  x86_alu_mi64(b, ALU_ADD, store ? TM(mem_write_beats) : TM(mem_read_beats), 1);
  if (!store)
    x86_alu_mi64(b, ALU_ADD, TM(mem_read_txns), 1); /* count_read_beats */
}

/* ---- the replay's hit on its hot way, inline (jit_vexmin_emit_hit) ---- */

#define VM(field) TM(vm.field)
#define WAY(field) x86_m(RSI, (int32_t)offsetof(memo_way, field))

/* a forward jump to the miss path when cc holds */
static void miss_if(x86_buf *b, int cc, jit_vexmin_fwd *miss) {
  uint8_t *at = x86_jcc_fwd(b, cc);
  if (miss->n < JIT_VEXMIN_FWD)
    miss->at[miss->n++] = at;
  else
    b->overflow = true; /* never: a stretch has at most MEMO_REGS reads */
}

/* edx = (int32_t)(row - base) of the row at m, base in rax: rel */
static void emit_rel(x86_buf *b, x86_mem m) {
  x86_load64(b, RDX, m);
  x86_alu_rr(b, true, ALU_SUB, RDX, RAX);
}

/* ... 0 when the row is not after the base: ready_rel */
static void emit_rel_after(x86_buf *b, x86_mem m) {
  emit_rel(b, m);
  uint8_t *after = x86_jcc_fwd(b, CC_G);
  x86_alu_rr(b, false, ALU_XOR, RDX, RDX);
  x86_patch_here(b, after);
}

/* miss unless edx equals the way's field at way_off */
static void emit_same(x86_buf *b, x86_mem way_field, jit_vexmin_fwd *miss) {
  x86_alu_rm(b, ALU_CMP, RDX, way_field);
  miss_if(b, CC_NE, miss);
}

/* entry_of's key inline for a stretch from the block's first op */
static void emit_entry_check(x86_buf *b, const memo_stretch *s, jit_vexmin_fwd *miss) {
  x86_alu_mi32(b, ALU_CMP, VM(seq_pc), (int32_t)s->pc0);
  uint8_t *redirect = x86_jcc_fwd(b, CC_NE);
  x86_alu_mi32(b, ALU_CMP, WAY(entry.mode), 0); /* in sequence */
  miss_if(b, CC_NE, miss);
  uint8_t *done = x86_jmp_fwd(b);
  x86_patch_here(b, redirect);
  x86_alu_mi32(b, ALU_CMP, WAY(entry.mode), 1);
  miss_if(b, CC_NE, miss);
  x86_cmp_mem8_imm(b, VM(started), 0);
  miss_if(b, CC_E, miss);
  x86_cmp_mem8_imm(b, VM(trap), 0);
  miss_if(b, CC_NE, miss);
  x86_load32(b, RCX, VM(next_pc)); /* the same wrong-path address ... */
  x86_alu_rm(b, ALU_CMP, RCX, WAY(wpc));
  miss_if(b, CC_NE, miss);
  x86_load32(b, RCX, WAY(woff)); /* ... holding the same bits */
  x86_load64(b, RDX, x86_m(RBX, (int32_t)offsetof(core_cpu, ram)));
  x86_load32(b, RCX, x86_mi(RDX, RCX, 0));
  x86_alu_rm(b, ALU_CMP, RCX, WAY(wraw));
  miss_if(b, CC_NE, miss);
  for (int k = 0; k < 2; k++) { /* when the registers it names can be read */
    x86_movzx8(b, RCX, k ? WAY(wr2) : WAY(wr1));
    emit_rel_after(b, x86_mis(R15, RCX, 3, (int32_t)offsetof(timing, vm.ready)));
    emit_same(b, k ? WAY(entry.r2) : WAY(entry.r1), miss);
  }
  x86_patch_here(b, done);
}

/* [m] = base (rax) + the way's field at way_field */
static void emit_out(x86_buf *b, x86_mem m, x86_mem way_field) {
  x86_movsxd_mem(b, RDX, way_field);
  x86_alu_rr(b, true, ALU_ADD, RDX, RAX);
  x86_store64(b, m, RDX);
}

/* [m] += rdx, 64-bit */
static void emit_add_to(x86_buf *b, x86_mem m) { x86_op_mem(b, true, 0x01, RDX, m); }

/* core_jvexmin_replay's hit, for the way it took last: the end state's
 * stores */
static void emit_hit_stores(x86_buf *b, const memo_stretch *s) {
  x86_movsxd_mem(b, RDX, WAY(beats));
  emit_add_to(b, TM(sig_dyn[SIG_MEM_READ]));
  emit_out(b, VM(c), WAY(c));
  emit_out(b, VM(dv), WAY(out.dv));
  emit_out(b, VM(e), WAY(out.e));
  emit_out(b, VM(m), WAY(out.m));
  emit_out(b, VM(mend), WAY(out.mend));
  if (s->mem) {
    emit_out(b, VM(dnext), WAY(out.dnext));
    emit_out(b, VM(dack), WAY(dack));
  }
  for (uint32_t r = 0; r < s->nwrites; r++)
    emit_out(b, x86_m(R15, (int32_t)(offsetof(timing, vm.ready) + 8u * s->writes[r])),
             WAY(ready_out[r]));
  x86_store_imm8(b, VM(jumped), s->jump);
  x86_store_imm32(b, VM(seq_pc), s->jump ? 1 : s->last_pc + 4);
  x86_store_imm8(b, VM(trap), 0);
  x86_store_imm32(b, VM(next_pc), s->last_pc + 4);
  emit_out(b, VM(w), WAY(out.w)); /* last: rdx keeps the retire row */
  x86_alu_ri(b, true, ALU_ADD, RDX, 1); /* the cycle count to w + 1, counted */
  x86_mov_rr64(b, RCX, RDX);
  x86_alu_rr(b, true, ALU_SUB, RDX, R11);
  emit_add_to(b, TM(sig_dyn[SIG_CYCLE]));
  x86_mov_rr64(b, R11, RCX);
}

static void emit_check(x86_buf *b, const memo_stretch *s, jit_vexmin_fwd *miss);

bool jit_vexmin_emit_hit(x86_buf *b, const core_jit *j, const core_cpu *cpu, const void *step, uint32_t arg,
                         jit_vexmin_fwd *miss) {
  miss->n = 0;
  if (step != (const void *)core_jvexmin_replay || cpu->tm->max_wait_states)
    return false;
  const memo_stretch *s = memo_at(j->vexmin_memo, arg);
  x86_load64(b, RAX, VM(c)); /* the base */
  x86_mov_imm64(b, RDI, (uint64_t)(uintptr_t)s);
  x86_load64(b, RSI, x86_m(RDI, (int32_t)offsetof(memo_stretch, hotp)));
  jit_vexmin_fwd first = {.n = 0};
  emit_check(b, s, &first);
  uint8_t *hit = x86_jmp_fwd(b);
  for (uint32_t k = 0; k < first.n; k++)
    x86_patch_here(b, first.at[k]);
  x86_load64(b, RSI, x86_m(RDI, (int32_t)offsetof(memo_stretch, hotq)));
  emit_check(b, s, miss);
  x86_patch_here(b, hit);
  emit_hit_stores(b, s);
  return true;
}

/* Misses unless the start state is the one of the way at rsi (base in
 * rax) */
static void emit_check(x86_buf *b, const memo_stretch *s, jit_vexmin_fwd *miss) {
  x86_cmp_mem8_imm(b, WAY(inl), 1);
  miss_if(b, CC_NE, miss);
  static const struct { size_t vm, way; } rows[] = {
    {offsetof(timing, vm.dv), offsetof(memo_way, in.dv)}, {offsetof(timing, vm.e), offsetof(memo_way, in.e)},
    {offsetof(timing, vm.m), offsetof(memo_way, in.m)},   {offsetof(timing, vm.mend), offsetof(memo_way, in.mend)},
    {offsetof(timing, vm.w), offsetof(memo_way, in.w)},
  };
  for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
    emit_rel(b, x86_m(R15, (int32_t)rows[k].vm));
    emit_same(b, x86_m(RSI, (int32_t)rows[k].way), miss);
  }
  if (s->mem) { /* the data bus's next free row (no wait states: dw 0) */
    emit_rel_after(b, VM(dnext));
    emit_same(b, WAY(in.dnext), miss);
  }
  if (s->from == 0)
    emit_entry_check(b, s, miss);
  for (uint32_t r = 0; r < s->nreads; r++) {
    emit_rel_after(b, x86_m(R15, (int32_t)(offsetof(timing, vm.ready) + 8u * s->reads[r])));
    emit_same(b, WAY(ready_in[r]), miss);
  }
}
#endif
