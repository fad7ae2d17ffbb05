/*
 * The block cache: decodes straight-line code once into core_blocks, finds
 * them by start address, and throws all of them away when code changes
 * (fence.i, or a store into a chunk of RAM that holds predecoded code).
 *
 * Blocks live in a bump arena, so a flush is O(1) besides clearing the hash
 * table, and chaining pointers between blocks never dangle: they all die
 * together. A flush requested from inside the fast loop waits until the loop
 * has returned (flush_pending), since the running block is in the arena.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../timing/picorv32.h"
#include "../timing/regions.h"
#include "../timing/timing.h"
#include "cpu.h"
#include "ctx_count.h"
#include "jit.h"
#include "rvc_words.h"

#define ARENA_CHUNK (4u << 20)

/* Blocks of at most a few instructions, for stepping near horizons, so
 * that stepping through the same code near every horizon decodes it once.
 * Found by (pc, max) in two direct-mapped tables, single instructions (most
 * of the steps: the last few dozen cycles before each horizon) in one of
 * their own, longer prefixes in the other; the blocks themselves lie one
 * after the other in a pool, emptied with the tables when full, so that
 * the host's pages touched are the bytes used (fixed slots of the largest
 * size, spread by the hash, cost a page fault for nearly every block).
 * They go with the block cache (core_block_flush). */
#define ONE_BITS 12u
#define ONE_SLOTS (1u << ONE_BITS)
#define PREFIX_BITS 11u
#define PREFIX_SLOTS (1u << PREFIX_BITS)
#define PREFIX_BYTES 2304u /* the most a block of CORE_PREFIX_MAX instructions takes */
#define POOL_BYTES (2u << 20)
struct core_singles {
  core_block *one[ONE_SLOTS];
  core_block *prefix[PREFIX_SLOTS];
  uint8_t max[PREFIX_SLOTS];
  size_t used;
  _Alignas(16) unsigned char pool[POOL_BYTES];
};

struct block_arena {
  struct block_arena *next;
  size_t used, size;
  _Alignas(16) unsigned char data[];
};

static void *arena_alloc(core_cpu *cpu, size_t n) {
  n = (n + 15) & ~(size_t)15;
  block_arena *a = cpu->arena;
  if (!a || a->used + n > a->size) {
    size_t size = n > ARENA_CHUNK ? n : ARENA_CHUNK;
    block_arena *na = malloc(sizeof *na + size);
    if (!na)
      return NULL;
    na->next = a;
    na->used = 0;
    na->size = size;
    cpu->arena = a = na;
  }
  void *p = a->data + a->used;
  a->used += n;
  return p;
}

static void arena_release(core_cpu *cpu) {
  block_arena *a = cpu->arena;
  while (a && a->next) { /* keep one chunk for reuse */
    block_arena *next = a->next;
    free(a);
    a = next;
  }
  if (a)
    a->used = 0;
  cpu->arena = a;
}

/* Adds the bytes [off, last] (RAM offsets) to the chunks' code spans */
static void code_span_add(core_cpu *cpu, uint32_t off, uint32_t last) {
  const uint32_t chunk = 1u << WATCH_SHIFT;
  for (uint32_t c = off >> WATCH_SHIFT; c <= last >> WATCH_SHIFT; c++) {
    uint32_t base = c << WATCH_SHIFT;
    uint32_t lo = off > base ? off - base : 0;
    uint32_t hi = last - base < chunk ? last - base : chunk - 1;
    uint16_t s = cpu->code_span[c];
    if (s) {
      lo = lo < (s & 0xffu) ? lo : (s & 0xffu);
      hi = hi > (uint32_t)(s >> 8) ? hi : (uint32_t)(s >> 8);
    }
    cpu->code_span[c] = (uint16_t)(lo | hi << 8);
  }
}

bool core_code_overlaps(const core_cpu *cpu, uint32_t off, uint32_t len) {
  uint32_t last = off + len - 1;
  for (uint32_t c = off >> WATCH_SHIFT; c <= last >> WATCH_SHIFT; c++) {
    uint16_t s = cpu->code_span[c];
    uint32_t base = c << WATCH_SHIFT;
    if (s && off <= base + (s >> 8) && base + (s & 0xffu) <= last)
      return true;
  }
  return false;
}

void core_watch_set(core_cpu *cpu, uint32_t addr, uint32_t len, uint8_t bits) {
  uint32_t off = addr - cpu->ram_base;
  if (off >= cpu->ram_size || len == 0)
    return;
  uint32_t last = off + len - 1 < cpu->ram_size ? off + len - 1 : cpu->ram_size - 1;
  if (bits & WATCH_CODE) {
    /* 4 bytes either side: the words a block's decode reads around its
     * own (is_semihost_call's slli before and srai after an ebreak) */
    off = off > 4 ? off - 4 : 0;
    last = last + 4 < cpu->ram_size ? last + 4 : cpu->ram_size - 1;
    code_span_add(cpu, off, last);
  }
  /* Also mark the chunk before: a misaligned store that starts there may
   * spill into this one, and the fast path only checks its first byte. */
  uint32_t first = off >> WATCH_SHIFT;
  if (first > 0)
    first--;
  for (uint32_t c = first; c <= last >> WATCH_SHIFT; c++)
    cpu->watch[c] |= bits;
  if (bits & WATCH_CODE) {
    if (cpu->code_watch_hi == 0 || first < cpu->code_watch_lo)
      cpu->code_watch_lo = first;
    if ((last >> WATCH_SHIFT) + 1 > cpu->code_watch_hi)
      cpu->code_watch_hi = (last >> WATCH_SHIFT) + 1;
  }
}

/* Adds the translated loop copy's rounds (block_timing.rounds) to the
 * three counts each stands for. */
static void take_rounds(block_timing *bt) {
  uint64_t r = bt->rounds;
  if (!r)
    return;
  bt->execs += r;
  bt->outcomes[1] += r;
  bt->entry_hits += r;
  bt->rounds = 0;
}

/* Moves the static counts of a block's executions into sig (and the
 * region's and the profile's rows). */
static void fold_block(timing *tm, core_block *b, int64_t *sig) {
  block_timing *bt = b->timing;
  if (!bt)
    return;
  take_rounds(bt);
  if (!bt->execs)
    return;
  int64_t *region = tm->regions ? tm->regions->rows + (size_t)bt->region * SIG_COUNT : NULL;
  timing_add_block(bt, (int64_t)bt->execs, sig);
  if (region) /* range counters: the block's region gets them too */
    timing_add_block(bt, (int64_t)bt->execs, region);
  if (tm->prof)
    for (uint32_t i = 0; i < b->n_ops; i++)
      timing_add_op(&bt->ops[i], (int64_t)bt->execs, timing_row(tm, b->pcs[i]));
  bt->execs = 0;
  core_fold_events(tm, b, sig, region);
}

void core_fold_events(timing *tm, core_block *b, int64_t *sig, int64_t *region_row) {
  block_timing *bt = b->timing;
  if (!(bt->outcomes[0] | bt->outcomes[1] | bt->entry_hits | bt->entry_load_use))
    return;
  timing_add_block_events(tm, bt, true, true, sig);
  if (region_row)
    timing_add_block_events(tm, bt, true, true, region_row);
  if (tm->prof) { /* the branch is the block's last op, the rest its first instruction's */
    timing_add_block_events(tm, bt, true, false, timing_row(tm, b->pcs[b->n_ops - 1]));
    timing_add_block_events(tm, bt, false, true, timing_row(tm, b->pc));
  }
  bt->outcomes[0] = bt->outcomes[1] = bt->entry_hits = bt->entry_load_use = 0;
}

/* Moves the static counts of every cached block's executions into the run's
 * totals (and the profile's rows), so the blocks can go or be read again. */
void core_fold_blocks(core_cpu *cpu) {
  timing *tm = cpu->tm;
  if (!tm)
    return;
  int64_t sig[SIG_COUNT] = {0};
  /* the profiled loop counted into the per-context records: the contexts'
   * shares, and the blocks' counts folded below */
  if (cpu->ctx_counts && cpu->ctx_counts->used)
    core_ctx_counts_fold(cpu, tm->prof != NULL);
  if (!cpu->cached_lost) {
    for (uint32_t i = 0; i < cpu->ncached; i++)
      fold_block(tm, cpu->cached[i], sig);
  } else {
    for (uint32_t h = 0; h <= cpu->hash_mask; h++)
      for (core_block *b = cpu->hash[h]; b; b = b->hash_next)
        fold_block(tm, b, sig);
  }
  for (int i = 0; i < SIG_COUNT; i++)
    tm->sig_folded[i] += (uint64_t)sig[i];
  for (uint32_t i = 0; i < cpu->ndirty; i++)
    cpu->dirty[i]->timing->listed = false;
  cpu->ndirty = 0;
  /* the list is complete from here only if the loop that runs next lists
   * what it enters: before the first PMU access it does not */
  cpu->track_complete = cpu->track;
}

#ifdef TALLY_CHECK_LAWS
/* The law core_fold_dirty rests on: the listed blocks were all that had
 * executions to fold. */
static void check_no_more_to_fold(core_cpu *cpu) {
  uint64_t before[SIG_COUNT];
  memcpy(before, cpu->tm->sig_folded, sizeof before);
  core_fold_blocks(cpu);
  if (memcmp(before, cpu->tm->sig_folded, sizeof before) != 0) {
    fprintf(stderr, "tally: internal error: a block entered since the last fold was not listed (pc 0x%08x)\n",
            (unsigned)cpu->pc);
    abort();
  }
}
#endif

void core_fold_dirty(core_cpu *cpu) {
  timing *tm = cpu->tm;
  if (!tm)
    return;
  if (!cpu->track_complete) {
    core_fold_blocks(cpu);
    return;
  }
  /* The blocks with executions to fold stay listed, those with none (not
   * entered since the last fold) leave the list: after each of the
   * statistics module's dispatches, listing again every block entered
   * cost more than this, and walking every block ever listed more still
   * where many run now and then (nsichneu). */
  int64_t sig[SIG_COUNT] = {0};
  uint32_t kept = 0;
  for (uint32_t i = 0; i < cpu->ndirty; i++) {
    core_block *b = cpu->dirty[i];
    if (!(b->timing->execs | b->timing->rounds)) { /* fold_block passes over it, as over any block with none */
      b->timing->listed = false;
      continue;
    }
    fold_block(tm, b, sig);
    cpu->dirty[kept++] = b;
  }
  cpu->ndirty = kept;
  for (int i = 0; i < SIG_COUNT; i++)
    tm->sig_folded[i] += (uint64_t)sig[i];
#ifdef TALLY_CHECK_LAWS
  check_no_more_to_fold(cpu);
#endif
}

void core_track_blocks(core_cpu *cpu) {
  if (cpu->track)
    return;
  if (cpu->jit)
    cpu->flush_pending = true; /* translations made before list no blocks (jit.c, timed_fns) */
  cpu->track = true;
}

void core_track(core_cpu *cpu, core_block *b) {
  if (cpu->ndirty == cpu->dirty_cap) {
    uint32_t cap = cpu->dirty_cap ? 2 * cpu->dirty_cap : 256;
    core_block **v = realloc(cpu->dirty, cap * sizeof *v);
    if (!v) { /* the next fold walks the whole cache */
      cpu->track_complete = false;
      return;
    }
    cpu->dirty = v;
    cpu->dirty_cap = cap;
  }
  cpu->dirty[cpu->ndirty++] = b;
  b->timing->listed = true;
}

void core_fold_stepped(core_cpu *cpu, core_block *b) {
  timing *tm = cpu->tm;
  block_timing *bt = b->timing;
  if (bt->cc == &cpu->ctx_counts->step) /* the profiled loop counted it there */
    core_ctx_counts_take_step(cpu, bt);
  take_rounds(bt);
  timing_add_block(bt, (int64_t)bt->execs, tm->sig_dyn);
  if (tm->region_row) /* the current region is the instruction's */
    timing_add_block(bt, (int64_t)bt->execs, tm->region_row);
  if (tm->prof) {
    for (uint32_t i = 0; i < b->n_ops; i++)
      timing_add_op(&bt->ops[i], (int64_t)bt->execs, timing_row(tm, b->pcs[i]));
    timing_add_block(bt, (int64_t)bt->execs, tm->ctx_row); /* the context it ran in */
    timing_add_block_events(tm, bt, true, true, tm->ctx_row);
  }
  bt->execs = 0;
  core_fold_events(tm, b, tm->sig_dyn, tm->region_row);
}

void core_signal_totals(core_cpu *cpu, uint64_t *totals) {
  core_fold_blocks(cpu);
  for (int i = 0; i < SIG_COUNT; i++)
    totals[i] = cpu->tm ? (uint64_t)((int64_t)cpu->tm->sig_folded[i] + cpu->tm->sig_dyn[i]) : 0;
}

static void singles_empty(struct core_singles *s) {
  memset(s->one, 0, sizeof s->one);
  memset(s->prefix, 0, sizeof s->prefix);
  s->used = 0;
}

void core_block_flush(core_cpu *cpu) {
  core_fold_blocks(cpu); /* the blocks' counts must outlive them */
  if (cpu->ctx_counts)
    core_ctx_counts_drop(cpu, false);
  /* the buckets of the listed blocks alone when they are few: a program
   * that stores near its code flushes often, and the table is 512 KiB */
  if (!cpu->cached_lost && cpu->ncached < (cpu->hash_mask + 1) / 16) {
    for (uint32_t i = 0; i < cpu->ncached; i++)
      cpu->hash[(cpu->cached[i]->pc >> 1) & cpu->hash_mask] = NULL;
  } else {
    memset(cpu->hash, 0, ((size_t)cpu->hash_mask + 1) * sizeof *cpu->hash);
  }
  for (uint32_t c = cpu->code_watch_lo; c < cpu->code_watch_hi; c++) {
    cpu->watch[c] &= (uint8_t)~WATCH_CODE;
    cpu->code_span[c] = 0;
  }
  cpu->code_watch_lo = cpu->code_watch_hi = 0;
  arena_release(cpu);
  if (cpu->jit) /* translations go with their blocks */
    core_jit_flush(cpu->jit);
  if (cpu->singles)
    singles_empty(cpu->singles);
  cpu->ncached = 0;
  cpu->cached_lost = false;
  cpu->flush_pending = false;
  cpu->flushes++;
}

/* An ebreak between `slli x0,x0,0x1f` and `srai x0,x0,7` is a semihosting
 * call (the RISC-V semihosting spec); all three must be 32-bit. On a board
 * without semihosting it is the breakpoint it looks like. */
/* The notes of a block's last instructions for the next block
 * (fetch_carry): those of its ops [0, n), `real` of them instructions, with
 * their timing `ops`. A block's own when it is built; those of the part of
 * it that ran when it is left early (exec_loop.inc's leave_carry). */
void core_block_tail(block_timing *bt, const core_block *b, const op_timing *ops, uint32_t n, uint32_t real) {
  bt->tail_prev_ex = 0;
  uint32_t seen = 0, x2 = 0;
  for (uint32_t i = n; i-- > 0 && seen < 2;) {
    uint8_t k = b->ops[i].kind;
    if (k == K_IFETCH || k == K_FALLTHRU)
      continue;
    uint8_t c = isa_infos[k].cls;
    uint32_t x = c == CLASS_CSR || c == CLASS_MUL || c == CLASS_DIV ? ops[i].stall_cycles : 0;
    if (seen++ == 0) {
      bt->tail_stall = (uint8_t)(x > 255 ? 255 : x);
      bt->tail_cycles = (uint8_t)(ops[i].cycles > 255 ? 255 : ops[i].cycles);
      x2 = x + ops[i].load_use;
    } else {
      bt->tail_prev_ex = (uint8_t)(x > 255 ? 255 : x);
      x2 += x;
    }
  }
  bt->tail_stall2 = (uint8_t)(x2 > 255 ? 255 : x2);
  /* where its last instruction, and the one before, are (fetch_carry) */
  uint32_t t = n;
  while (t > 0 && (b->ops[t - 1].kind == K_IFETCH || b->ops[t - 1].kind == K_FALLTHRU))
    t--;
  uint32_t q = t ? t - 1 : 0;
  while (q > 0 && (b->ops[q - 1].kind == K_IFETCH || b->ops[q - 1].kind == K_FALLTHRU))
    q--;
  bt->tail_op = (uint16_t)t;
  bt->tail_rank = (uint8_t)(t && real - 1 < TIMING_HEADS ? real - 1 : TIMING_HEADS);
  bt->tail_csr_first = t && real == 1 && isa_infos[b->ops[t - 1].kind].cls == CLASS_CSR;
  bt->tail_div = t && isa_infos[b->ops[t - 1].kind].cls == CLASS_DIV;
  bt->tail_prev_div = q && isa_infos[b->ops[q - 1].kind].cls == CLASS_DIV;
  uint8_t tc = t ? isa_infos[b->ops[t - 1].kind].cls : CLASS_PSEUDO;
  /* a branch predicted not taken lets the fetch run on past it in
   * sequence, as any instruction does (fetch_ahead's divide before the
   * instruction ahead across a block edge; div_branch.S) */
  bt->tail_flow = tc == CLASS_JUMP || (tc == CLASS_BRANCH && ops[t - 1].predict_taken);
  bt->tail_fence = t && b->ops[t - 1].kind == K_FENCE_I;
  bt->tail_csr = tc == CLASS_CSR;
  bt->tail_w1 = t ? ops[t - 1].load_use : 0;
  /* [pipeline] fetch_ahead_insns 2: the one before its last (X) for
   * fetch_ahead's div3_ahead: no divide and no wait of its own (its
   * static one: a wait at the block's entry is not looked at), and its
   * cycles; with a divide before it in the block, the overlap it leaves
   * to the instruction after the next one (fetch_carry's ahead_d3) */
  uint32_t r = q ? q - 1 : 0;
  while (r > 0 && (b->ops[r - 1].kind == K_IFETCH || b->ops[r - 1].kind == K_FALLTHRU))
    r--;
  bt->tail_pair = q && !r;
  bool x_ok = q && isa_infos[b->ops[q - 1].kind].cls != CLASS_DIV && ops[q - 1].load_use == 0;
  bt->tail_prev_cycles = (uint8_t)(x_ok && ops[q - 1].cycles < 200 ? ops[q - 1].cycles : 0);
  uint32_t h3 = r && q && isa_infos[b->ops[r - 1].kind].cls == CLASS_DIV ? ops[r - 1].stall_cycles : 0;
  bt->tail_d3 = (uint16_t)(x_ok && h3 >= 2 && h3 < 60000 ? h3 - 2 + bt->tail_prev_cycles : 0);
  bt->tail_single = seen < 2;
}

static bool is_semihost_call(const core_cpu *cpu, uint32_t pc) {
  uint32_t before, after;
  return !cpu->no_semihost && core_fetch_insn(cpu, pc - 4, &before) && before == 0x01f01013u &&
         core_fetch_insn(cpu, pc + 4, &after) && after == 0x40705013u;
}

static bool writes_only_x0(const isa_insn *in) {
  isa_class cls = (isa_class)isa_infos[in->kind].cls;
  return in->rd == 0 && (cls == CLASS_ALU || cls == CLASS_MUL || cls == CLASS_DIV);
}

/* Turns a decoded instruction at `pc` into an op. */
static core_op make_op(const core_cpu *cpu, const isa_insn *in, uint32_t pc) {
  core_op op = {.imm = in->imm, .kind = in->kind, .rd = in->rd, .rs1 = in->rs1, .rs2 = in->rs2};
  if (op.rd == 0)
    op.rd = CORE_REG_SINK;
  switch (in->kind) {
  case K_AUIPC: op.kind = K_LUI; op.imm = (int32_t)(pc + (uint32_t)in->imm); break;
  case K_JAL: case K_BEQ: case K_BNE: case K_BLT: case K_BGE: case K_BLTU: case K_BGEU:
    op.imm = (int32_t)(pc + (uint32_t)in->imm); break;
  case K_CSRRW: case K_CSRRS: case K_CSRRC: case K_CSRRWI: case K_CSRRSI: case K_CSRRCI:
    op.imm = in->csr; break;
  case K_ILLEGAL: op.imm = (int32_t)in->raw; break;
  case K_EBREAK: if (in->len == 4 && is_semihost_call(cpu, pc)) op.kind = K_SEMIHOST; break;
  default: break;
  }
  if (writes_only_x0(in))
    op.kind = K_NOP;
  return op;
}

/* A block under construction: ops and their side arrays. */
typedef struct block_draft {
  core_op ops[CORE_BLOCK_MAX_OPS];
  uint32_t pcs[CORE_BLOCK_MAX_OPS + 1];
  uint8_t insn_idx[CORE_BLOCK_MAX_OPS + 1];
  op_timing times[CORE_BLOCK_MAX_OPS];
  uint32_t reads[CORE_BLOCK_MAX_OPS]; /* registers each op reads (timing_reads of the decoded
                                         instruction: an op writing x0 became K_NOP) */
  uint32_t n_ops, n_insns;
  uint32_t fetch_granule;  /* last granule a fetch op was emitted for */
  uint8_t prev_load_rd;
  timing_hazards hz;
  bool pmu;                /* its one instruction touches the PMU */
  bool bad_target;         /* its ending jal or branch's target is misaligned (core_block) */
  uint32_t taken_pen;      /* micro_arch picorv32: what taking the ending branch adds */
} block_draft;

static void emit(block_draft *d, core_op op, uint32_t pc, op_timing t) {
  d->reads[d->n_ops] = 0;
  d->pcs[d->n_ops] = pc;
  d->insn_idx[d->n_ops] = (uint8_t)d->n_insns;
  d->times[d->n_ops] = t;
  d->ops[d->n_ops++] = op;
}

/* Timed blocks get a fetch op before each instruction that touches a new
 * fetch granule (I-cache line, or bus word without an I-cache). */
static void emit_fetches(const core_cpu *cpu, block_draft *d, uint32_t pc, uint32_t len) {
  uint32_t shift = cpu->tm->fetch_shift;
  for (uint32_t g = pc >> shift; g <= (pc + len - 1) >> shift; g++) {
    if (d->n_ops > 0 && g == d->fetch_granule)
      continue;
    d->fetch_granule = g;
    /* the first fetch is done on entry, if the line is a new one; every
     * later one is a lookup, counted as a hit until it misses */
    op_timing t = {.pulses = d->n_ops ? (1u << SIG_ICACHE_ACCESS) | (1u << SIG_ICACHE_HIT) : 0};
    emit(d, (core_op){.kind = K_IFETCH, .imm = (int32_t)(g << shift)}, pc, t);
  }
}

/* A CSR instruction whose value or effect needs the exact signal totals
 * at its boundaries (timing/pmu.h): it runs alone in its block, and that
 * block is always stepped (run.c). */
static bool touches_pmu(const core_cpu *cpu, const isa_insn *in) {
  if (!cpu->tm)
    return false;
  switch (in->kind) {
  case K_CSRRW: case K_CSRRS: case K_CSRRC: case K_CSRRWI: case K_CSRRSI: case K_CSRRCI:
    return pmu_needs_step(&cpu->tm->pmu, in->csr);
  default:
    return false;
  }
}

/* The length of the instruction at pc (4 when it cannot be read). */
static uint32_t insn_len_at(const core_cpu *cpu, uint32_t pc) {
  uint32_t bits;
  return core_fetch_insn(cpu, pc, &bits) && (bits & 3) != 3 ? 2 : 4;
}

/* The aligned word at addr, as the core's bus reads it (halves that cannot
 * be read: all ones). */
static uint32_t word_at(const core_cpu *cpu, uint32_t addr) {
  uint32_t lo, hi;
  if (!core_fetch_insn(cpu, addr, &lo))
    lo = 0xffff;
  if (!core_fetch_insn(cpu, addr + 2, &hi))
    hi = 0xffff;
  return (lo & 0xffff) | (hi & 0xffff) << 16;
}

/* [dcache] replay_decode_wait: a load replayed after a store ([dcache]
 * store_load_replay) is redone from write-back; when the instruction in
 * decode then waits there for the late result of one before it (a load's,
 * a multiply's or a shift's), the redo costs a cycle more. nettle-sha256
 * (std, -2815 at every W): `sw a4,12(sp); lw s1,36(t4); lw s9,12(sp); srli
 * s11,t0,7; slli a4,t0,25; or a4,s11,a4`: the second lw retires 7 cycles
 * after the first, not 6. replay_wait.S (std and imac, every W): the same
 * after sw X then lw X, after sw X, sw Y, lw X and after sw X, lw Y, lw X;
 * 7 with the shift or a load second and its reader third, 6 with that pair
 * one instruction sooner or later. replay_dmiss_k1.S and the RTL's retire
 * traces of sw, lw, then three of {lh, mul, srli, a reader, nop} (std and
 * imac, W = 0 and 2): 7 also with a load or a multiply first and its reader
 * second or third (that reader held in decode as the load is redone), 6
 * with a shift first and its reader second (it has left decode by then),
 * or a load third. So: the three after the load go from execute a cycle
 * apart, or later by their use waits (the late result's penalty, less the
 * distance's cycles beyond 1), the first of them in execute the cycle before
 * the load's redo; the one in decode at the redo is the first not in
 * execute by then, and it waits when it enters a cycle later than it would
 * have. Measured with all four instructions 32-bit and none of the three
 * after the load a branch, jump or system op, none reading the load's
 * result: only that shape is marked. Decided when the block is built, as
 * replay_rvc_pair is. */
static inline bool replay_decode_wait_at(const core_cpu *cpu, uint32_t load_pc, uint32_t rd) {
  uint32_t pc = load_pc, bits = 0;
  const core_model *m = &cpu->tm->model;
  isa_insn in[3];
  int enter[3]; /* the cycle each enters execute, the redo's at 0 */
  if (!core_fetch_word(cpu, pc, &bits) || isa_insn_len(bits) != 4)
    return false;
  pc += 4;
  for (int i = 0; i < 3; i++) {
    if (!core_fetch_word(cpu, pc, &bits) || isa_insn_len(bits) != 4)
      return false;
    isa_decode(bits, &in[i]);
    pc += 4;
    uint32_t cls = isa_infos[in[i].kind].cls;
    if (cls != CLASS_ALU && cls != CLASS_LOAD && cls != CLASS_STORE && cls != CLASS_MUL)
      return false;
    uint32_t reads = timing_reads(in[i].kind, in[i].rs1, in[i].rs2);
    if (rd && rd < 32 && (reads >> rd & 1u))
      return false;
    enter[i] = i ? enter[i - 1] + 1 : -1;
    for (int p = 0; p < i; p++) {
      uint8_t k = in[p].kind, prd = in[p].rd;
      uint32_t pen = isa_infos[k].cls == CLASS_LOAD  ? m->load_use_penalty
                     : isa_infos[k].cls == CLASS_MUL ? m->mul_use_penalty
                     : isa_is_shift(k)               ? m->shift_use_penalty
                                                     : 0;
      if (pen && prd && prd < 32 && (reads >> prd & 1u) && enter[p] + 1 + (int)pen > enter[i])
        enter[i] = enter[p] + 1 + (int)pen;
    }
  }
  for (int i = 0; i < 3; i++)
    if (enter[i] > 0) /* in decode at the redo */
      return enter[i] > 1;
  return false;
}
/* ... the bytes after the load's pc it reads at most */
#define REPLAY_WAIT_REACH 16

/* [pipeline] redirect_rvc_pair: a load replayed after a store ([dcache]
 * store_load_replay) is redone from write-back, a redirect as well:
 * memory, execute and decode hold the three instructions after it, the
 * fetch stage the word after them (an aligned word of two 16-bit
 * instructions: its first cycle; when the three end at 2 mod 4, a 32-bit
 * instruction there before a 16-bit one, which the decompressor holds:
 * rvc_held_at; replay_rvc_held.S, and xgboost built rv32imac: c.sw, c.lw
 * of the word, c.sub, sltiu, c.add, then bgeu at 2 mod 4 before c.addi:
 * the c.lw retires 7 cycles after the c.sw, not 6; replay_rvc_held.S's
 * B, a 32-bit instruction after the one at 2 mod 4: 6); when one of them waits in decode for the
 * load's result, the fetch stage holds the instruction after that one, and
 * only a 32-bit one at 2 mod 4 before a 16-bit one keeps the decompressor
 * not ready for a new word all along (rvc_held_at). hazards.S built
 * rv32imac: c.sw, c.lw of the word, andi of its result, then add at 2 mod 4
 * before c.sw: the c.lw retires 7 cycles after the c.sw, not 6;
 * replay_rvc.S: the same pair before an addi and two c.nop, then a word of
 * two c.nop: 7; before c.sw of its result, or andi of it and c.nop: 6. One
 * of the two after it reading the load's rd waits (load_use_penalty 2); a
 * wait for another late result is not looked at. Decided when the block is
 * built, from the code after the load (replay_rvc_mark), so that a replay
 * decodes nothing. [pipeline] replay_shift_wait: one of the three waiting
 * in decode for the result of a shift right before it (shift_use_penalty)
 * is the one in decode at the redo, and the fetch stage holds the word
 * after it (rvc_held_at there), not the word after the three: CoreMark
 * built rv32imac, main's c.sw, c.lui, c.lw of the word, slli, c.add of its
 * result, c.slli at 0x4000052a: the c.lw retires 7 cycles after the c.sw
 * on VexRiscv_IMAC.v's retire trace, not 8; replay_shift.S's A (no cycle
 * more), B (c.lw at 0 mod 4, the c.add at 2 mod 4 before a word of two: one
 * more) and C (no wait: as before). No constant fitted. */
static inline bool replay_rvc_pair(const core_cpu *cpu, uint32_t load_pc, uint32_t rd) {
  uint32_t pc = load_pc, bits = 0, shift_rd = 0, shift_pen = cpu->tm->model.shift_use_penalty;
  int enter = -2; /* replay_shift_wait: the cycle each enters execute, the redo's at 0 */
  if (!core_fetch_word(cpu, pc, &bits))
    return false;
  pc += isa_insn_len(bits);
  for (int i = 0; i < 3; i++) {
    isa_insn in;
    if (!core_fetch_word(cpu, pc, &bits))
      return false;
    isa_decode(bits, &in);
    pc += in.len;
    uint32_t reads = timing_reads(in.kind, in.rs1, in.rs2);
    if (i < 2 && rd && rd < 32 && (reads >> rd & 1u))
      return (pc & 2) && rvc_held_at(cpu, pc);
    enter += 1;
    if (cpu->tm->model.replay_shift_wait && shift_rd && (reads >> shift_rd & 1u))
      enter += (int)shift_pen;
    if (enter > 0) /* in decode at the redo: the fetch stage holds the word after it */
      return rvc_held_at(cpu, pc);
    shift_rd = isa_is_shift(in.kind) && in.rd < 32 ? in.rd : 0;
  }
  return rvc_held_at(cpu, pc);
}
/* ... the bytes after the load's pc it reads at most: the load, three
 * instructions of 4 bytes, then rvc_held_at's two halfwords 4 bytes apart */
#define REPLAY_RVC_REACH (4 + 3 * 4 + 6)
/* ... kept in each load's op_timing (exec_loop.inc's T_LOAD reads it at
 * every replay); returns how many bytes past the block's end it must watch
 * (a write there rebuilds it, as a write to its own code does) */
static uint32_t replay_rvc_mark(const core_cpu *cpu, const core_block *b, block_timing *bt) {
  const core_model *m = &cpu->tm->model;
  uint32_t past = 0;
  if ((!m->redirect_rvc_pair && !m->dcache.replay_decode_wait) || !m->dcache.store_load_replay)
    return 0;
  uint32_t span = m->redirect_rvc_pair ? REPLAY_RVC_REACH : 0;
  if (m->dcache.replay_decode_wait && REPLAY_WAIT_REACH > span)
    span = REPLAY_WAIT_REACH;
  for (uint32_t i = 0; i < b->n_ops; i++) {
    if (isa_infos[b->ops[i].kind].cls != CLASS_LOAD)
      continue;
    if (m->redirect_rvc_pair)
      bt->ops[i].replay_rvc = replay_rvc_pair(cpu, b->pcs[i], b->ops[i].rd);
    if (m->dcache.replay_decode_wait)
      bt->ops[i].replay_wait = replay_decode_wait_at(cpu, b->pcs[i], b->ops[i].rd);
    uint32_t reach = b->pcs[i] + span - b->end_pc;
    if (b->pcs[i] + span > b->end_pc && reach > past)
      past = reach;
  }
  return past;
}

/* An instruction on a wrong path that lets the one after it reach decode
 * behind it: not a jal nor a branch predicted taken (they redirect from
 * decode, so what follows them is never decoded), nor an illegal or
 * system instruction (its exception in decode flushes the fetch behind). */
static bool wrong_path_passes(const core_model *m, const isa_insn *in) {
  isa_class cls = (isa_class)isa_infos[in->kind].cls;
  if (in->kind == K_ILLEGAL || in->kind == K_JAL || cls == CLASS_SYSTEM)
    return false;
  return cls != CLASS_BRANCH ||
         !(m->predict == PREDICT_TAKEN || (m->predict == PREDICT_BACKWARD_TAKEN && in->imm < 0));
}

/* [pipeline] fence_i_late_flush: the offset from the conditional branch
 * at pc (or jalr, with fence_i_jalr_flush) of a fence.i among the
 * fence_i_wrong_path_reach instructions after it, which its wrong path
 * holds when it redirects (fence.i asks for the I-cache flush from decode:
 * timing_wrong_path_fence_i), else 0, and in *how where it is
 * (TIMING_WP_FENCE_I_*). Kept in the block (exec_loop.inc's T_BRANCH reads
 * it at every taken branch); the block watches those words. */
static uint8_t wrong_path_fence_i(const core_cpu *cpu, uint32_t pc, uint8_t *how) {
  const core_model *m = &cpu->tm->model;
  uint32_t bits = 0, off;
  isa_insn in;
  if (!m->fence_i_late_flush || !core_fetch_word(cpu, pc, &bits))
    return 0;
  isa_decode(bits, &in);
  if (isa_infos[in.kind].cls != CLASS_BRANCH && (in.kind != K_JALR || !m->fence_i_jalr_flush))
    return 0;
  off = in.len;
  bool branch = isa_infos[in.kind].cls == CLASS_BRANCH;
  uint32_t target = pc + (uint32_t)in.imm;
  for (uint32_t k = 0; k < m->fence_i_wrong_path_reach; k++) {
    if (!core_fetch_word(cpu, pc + off, &bits))
      return 0;
    isa_decode(bits, &in);
    if (in.kind == K_FENCE_I) {
      *how = (uint8_t)((k > 0 ? TIMING_WP_FENCE_I_SECOND : 0) |
                       (branch && target == pc + off ? TIMING_WP_FENCE_I_AT_TARGET : 0));
      return (uint8_t)off;
    }
    if (!wrong_path_passes(m, &in))
      return 0;
    off += in.len;
  }
  return 0;
}

/* An instruction the modelled core does not decode: illegal. Without the C
 * extension there are no 16-bit instructions: a word whose low bits are not
 * 11 is an illegal 32-bit instruction (a `.word 0` too, not a c.unimp), so it
 * issues no `compressed` pulse and traps with the whole word in mtval, as
 * VexRiscv's decoder does (DecoderSimplePlugin: the instruction is the
 * exception's badAddr) and as PicoRV32 without COMPRESSED_ISA reads it. */
static void illegal_here(const timing *tm, uint32_t bits, isa_insn *in) {
  if (in->len == 2 && !(tm->model.isa & ISA_EXT_C))
    *in = (isa_insn){.raw = bits, .len = 4};
  in->kind = K_ILLEGAL;
}

/* [pipeline] fence_i_use_overlap: the instruction at pc, with a late
 * result (a load, a multiply, a shift), comes right after a fence.i: its
 * block ends after it, so that the wait of a reader after it, which passes
 * during the flush (exec_loop.inc's fence_use_pass), passes through the next
 * block's entry hazards (tm->hz, timing_hazard_entry) always: the same
 * cycles whether the blocks run chained, fresh, split or stepped (an
 * in-block take-back was laid out by no hazard walk: split every 97 or 500
 * cycles, std rand_3 at W = 0 counted 2 cycles of stall.load_use more than
 * unsplit, where a D-cache miss's walk took the lb's wait back a second
 * time at 0x40000818; rand_39 2 fewer). A block starting there some other
 * way is cut too: a block edge moves no cycle. */
static bool fence_use_cut(const core_cpu *cpu, uint32_t pc, const isa_insn *in, bool late) {
  const core_model *m = &cpu->tm->model;
  uint8_t c = isa_infos[in->kind].cls;
  uint32_t before, next, line = m->icache.line;
  bool use = late && m->fence_i_use_overlap && (c == CLASS_ALU || c == CLASS_MUL || c == CLASS_LOAD);
  /* [pipeline] fence_i_csr_refetch_next: a store or an ALU op there, then
   * a CSR instruction first on the next line: that one is the next
   * block's first (fence_overlap_enter's fence_csr2_line) */
  bool csr = false;
  if (!use && m->fence_i_csr_refetch_next && m->fence_i_csr_refetch && (c == CLASS_ALU || c == CLASS_STORE) &&
      line && !((pc + in->len) & (line - 1u)) && core_fetch_insn(cpu, pc + in->len, &next)) {
    isa_insn n;
    isa_decode(next, &n);
    csr = isa_infos[n.kind].cls == CLASS_CSR;
  }
  /* [pipeline] fence_i_csr_refetch_load: a load there (a late result or
   * not), then a CSR instruction: that one is the next block's first, so
   * that the load keeps fence.i's overlap for its device wait
   * (fence_overlap_enter) */
  if (!use && !csr && m->fence_i_csr_refetch_load && m->fence_i_csr_refetch && c == CLASS_LOAD &&
      core_fetch_insn(cpu, pc + in->len, &next)) {
    isa_insn n;
    isa_decode(next, &n);
    csr = isa_infos[n.kind].cls == CLASS_CSR;
  }
  if (!use && !csr)
    return false;
  if (pc < 4 || !core_fetch_insn(cpu, pc - 4, &before))
    return false;
  isa_insn f;
  isa_decode(before, &f);
  return f.kind == K_FENCE_I && f.len == 4;
}

/* Decodes up to `max` instructions from pc, and none at or past the next
 * address-region boundary (range counters: a block lies in one region).
 * Returns false when the first instruction cannot be fetched. */
static bool decode_run(core_cpu *cpu, uint32_t pc, uint32_t max, block_draft *d) {
  bool ended = false;
  d->n_ops = d->n_insns = 0;
  d->prev_load_rd = 0;
  d->hz = (timing_hazards){{0, 0}, {0, 0}};
  d->pmu = false;
  d->bad_target = false;
  d->taken_pen = 0;
  uint32_t limit = cpu->tm && cpu->tm->regions ? timing_region_limit(cpu->tm->regions, pc) : 0;
  uint32_t room = limit ? limit - pc : UINT32_MAX, start = pc;
  while (d->n_insns < max && (d->n_insns == 0 || pc - start < room)) {
    uint32_t bits;
    if (!core_fetch_insn(cpu, pc, &bits))
      break;
    isa_insn in;
    isa_decode(bits, &in);
    if (cpu->tm && (cpu->tm->pico || cpu->tm->model.isa != ISA_RV32IMAC) &&
        !timing_decodes(cpu->tm, in.kind, in.len, in.csr, in.rs1, NULL, 0))
      illegal_here(cpu->tm, bits, &in);
    if (touches_pmu(cpu, &in)) {
      if (d->n_insns > 0)
        break; /* it starts a block of its own */
      d->pmu = true;
    }
    /* with a profile, a function's entry starts a block: running on into
     * it changes the calling context (exec_loop.inc, profile_fallthrough) */
    if (d->n_insns > 0 && cpu->tm && cpu->tm->prof && cpu->tm->flow->is_entry(cpu->tm->prof, pc))
      break;
    /* a jal's or branch's target is known now: without C one at 2 mod 4
     * traps when the jump is taken (jalr's: exec_semantics.inc) */
    if ((in.kind == K_JAL || isa_infos[in.kind].cls == CLASS_BRANCH) && ((pc + (uint32_t)in.imm) & cpu->jump_align))
      d->bad_target = true;
    op_timing t = {0};
    if (cpu->tm) {
      if (cpu->tm->fetch_ops)
        emit_fetches(cpu, d, pc, in.len);
      t = timing_static(cpu->tm, in.kind, in.rd, in.rs1, in.rs2, in.imm, pc, in.len, &d->hz);
      if (cpu->tm->pico)
        timing_pico_static(cpu->tm, &t, in.kind, in.imm, pc, in.len, word_at(cpu, (pc + in.len) & ~3u),
                           insn_len_at(cpu, pc + (uint32_t)in.imm), &d->taken_pen);
      d->prev_load_rd = t.is_load ? in.rd : 0;
    }
    emit(d, make_op(cpu, &in, pc), pc, t);
    d->reads[d->n_ops - 1] = timing_reads(in.kind, in.rs1, in.rs2);
    d->n_insns++;
    pc += in.len;
    if (isa_infos[in.kind].flags & ISA_END_BLOCK) {
      ended = true;
      break;
    }
    if (d->n_insns == 1 && cpu->tm && fence_use_cut(cpu, start, &in, t.late))
      break;
  }
  if (d->n_insns == 0)
    return false;
  if (!ended)
    emit(d, (core_op){.kind = K_FALLTHRU}, pc, (op_timing){0});
  d->pcs[d->n_ops] = pc;
  d->insn_idx[d->n_ops] = (uint8_t)d->n_insns;
  return true;
}

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

/* block_timing.leaves of a block built with a profile: whether running
 * on to end_pc, and the ending branch's taken target, leave the function
 * of the last instruction. Jumps are looked at when they run
 * (exec_loop.inc, profile_jump). */
static uint8_t profile_leaves(const core_cpu *cpu, const core_block *b) {
  const timing *tm = cpu->tm;
  const core_op *last = &b->ops[b->n_ops - 1];
  uint32_t at = b->pcs[b->n_ops - 1];
  if (last->kind == K_FALLTHRU) { /* the instruction before it */
    last--;
    at = b->pcs[b->n_ops - 2];
  }
  uint8_t bits = 0;
  bool branch = isa_infos[last->kind].cls == CLASS_BRANCH;
  if ((branch || b->ops[b->n_ops - 1].kind == K_FALLTHRU) && tm->flow->crosses(tm->prof, at, b->end_pc))
    bits |= 1u;
  if (branch && tm->flow->crosses(tm->prof, at, (uint32_t)last->imm))
    bits |= 2u;
  /* a plain jal to a function's entry or into another function: a tail
   * call, known now rather than asked at every run (profile_jump) */
  uint32_t to = (uint32_t)last->imm;
  if (last->kind == K_JAL && last->rd == CORE_REG_SINK &&
      (tm->flow->is_entry(tm->prof, to) || tm->flow->crosses(tm->prof, at, to)))
    bits |= 4u;
  return bits;
}

/* Builds the block at pc of at most max instructions into buf (bufsize
 * bytes) or, without one, into the arena; *used, when given, gets the bytes
 * it took. */
static core_block *build_sized(core_cpu *cpu, uint32_t pc, uint32_t max, void *buf, size_t bufsize,
                               size_t *used) {
  block_draft d;
  if (!decode_run(cpu, pc, max, &d))
    return NULL;
  uint32_t n = d.n_ops;
  size_t head = align16(sizeof(core_block) + n * sizeof(core_op));
  size_t side = align16((n + 1) * sizeof(uint32_t) + (n + 1));
  sig_count_pair counts[SIG_COUNT];
  uint32_t nsum = cpu->tm ? timing_block_sum(d.times, n, counts) : 0;
  size_t timed = cpu->tm ? align16(sizeof(block_timing) + n * sizeof(op_timing)) + nsum * sizeof(sig_count_pair) : 0;
  /* a cached block's with a profile line-aligned (its cc and home record
   * on one line, timing.h): room to move it up to the next line */
  size_t lift = !buf && cpu->tm && cpu->tm->prof ? 48 : 0;
  size_t size = head + side + lift + timed;
  if (used)
    *used = size;
  core_block *b = buf ? (size <= bufsize ? buf : NULL) : arena_alloc(cpu, size);
  if (!b) {
    core_set_stop(cpu, CORE_STOP_ERROR, "out of memory for predecoded code");
    return NULL;
  }
  *b = (core_block){.pc = pc, .end_pc = d.pcs[n], .n_insns = d.n_insns, .n_ops = n, .bad_target = d.bad_target};
  memcpy(b->ops, d.ops, n * sizeof(core_op));
  b->pcs = (uint32_t *)((char *)b + head);
  memcpy(b->pcs, d.pcs, (n + 1) * sizeof(uint32_t));
  b->insn_idx = (uint8_t *)(b->pcs + n + 1);
  memcpy(b->insn_idx, d.insn_idx, n + 1);
  if (cpu->tm) {
    uintptr_t at = (uintptr_t)b + head + side; /* 16-aligned: b and the sizes are */
    block_timing *bt = (block_timing *)(lift ? (at + 63) & ~(uintptr_t)63 : at);
    *bt = (block_timing){0};
    uint32_t sum = 0, bound = timing_block_bound(cpu->tm);
    for (uint32_t i = 0; i < n; i++) {
      bt->ops[i] = d.times[i];
      sum += d.times[i].cycles;
      bt->ops[i].end = sum;
      bound += timing_dynamic_bound(cpu->tm, d.ops[i].kind);
    }
    bt->static_cycles = sum;
    bt->dyn_bound = bound;
    sig_count_pair *pairs = (sig_count_pair *)((char *)bt + align16(sizeof(block_timing) + n * sizeof(op_timing)));
    memcpy(pairs, counts, nsum * sizeof *pairs);
    bt->sum = pairs;
    bt->nsum = nsum;
    bt->max_cycles = sum + bound;
    if (d.pmu) {
      bt->pmu = true;
      bt->max_cycles = TIMING_MUST_STEP;
    }
    if (cpu->tm->regions)
      bt->region = (uint16_t)timing_region_of(cpu->tm->regions, pc);
    bt->predict_taken = bt->ops[n - 1].predict_taken; /* a conditional branch always ends its block */
    if (b->ops[n - 1].kind != K_FALLTHRU) /* its last instruction's (not the one after a cut block) */
      bt->wrong_path_fence_i = wrong_path_fence_i(cpu, d.pcs[n - 1], &bt->wrong_path_fence_i_how);
    bt->branch_pen[0] = cpu->tm->branch_cost[0][bt->predict_taken];
    bt->branch_pen[1] = cpu->tm->branch_cost[1][bt->predict_taken];
    if (cpu->tm->pico) {
      bt->branch_pen[0] = 0;
      bt->branch_pen[1] = d.taken_pen;
    }
    /* its first instructions, and the late results on their way at its end */
    uint32_t real = 0;
    for (uint32_t i = 0; i < n; i++) {
      uint8_t k = b->ops[i].kind;
      if (k == K_IFETCH || k == K_FALLTHRU)
        continue;
      if (real == 0)
        bt->head_reads = d.reads[i];
      if (real < TIMING_HEADS) {
        const op_timing *o = &bt->ops[i];
        bt->head[real] = (timing_head){.reads = d.reads[i],
                                       .rd = b->ops[i].rd < 32 ? b->ops[i].rd : 0, .late = o->late, .stall = o->load_use,
                                       .base = o->cycles - o->load_use};
      }
      real++;
    }
    bt->n_head = (uint8_t)(real < TIMING_HEADS ? real : TIMING_HEADS);
    core_block_tail(bt, b, bt->ops, n, real);
    bt->short_block = real <= TIMING_HEADS;
    bt->tail_hz = d.hz;
    if (cpu->tm->prof)
      bt->leaves = profile_leaves(cpu, b);
    bt->cc = &cpu->ctx_counts->none; /* no context yet */
    for (int w = 0; w < TIMING_CTX_WAYS; w++)
      bt->ccw[w] = bt->cc;
    b->timing = bt;
  }
  /* with fence_i_late_flush, the words after the ending branch or jalr too
   * (wrong_path_fence_i); the words after a load that replay_rvc_mark read */
  uint32_t past = cpu->tm && cpu->tm->model.fence_i_late_flush ? 4 * cpu->tm->model.fence_i_wrong_path_reach : 0;
  if (cpu->tm) {
    uint32_t rvc = replay_rvc_mark(cpu, b, b->timing);
    past = rvc > past ? rvc : past;
  }
  uint32_t watched = b->end_pc - pc + past;
  core_watch_set(cpu, pc, watched, WATCH_CODE);
  return b;
}

static core_block *build(core_cpu *cpu, uint32_t pc, uint32_t max, void *buf, size_t bufsize) {
  return build_sized(cpu, pc, max, buf, bufsize, NULL);
}

core_block *core_block_find(const core_cpu *cpu, uint32_t pc) {
  for (core_block *b = cpu->hash[(pc >> 1) & cpu->hash_mask]; b; b = b->hash_next)
    if (b->pc == pc)
      return b;
  return NULL;
}

core_block *core_block_get(core_cpu *cpu, uint32_t pc) {
  core_block **slot = &cpu->hash[(pc >> 1) & cpu->hash_mask];
  for (core_block *b = *slot; b; b = b->hash_next)
    if (b->pc == pc)
      return b;
  core_block *b = build(cpu, pc, CORE_BLOCK_MAX_INSNS, NULL, 0);
  if (!b)
    return NULL;
  b->hash_next = *slot;
  *slot = b;
  b->cached = true;
  cpu->blocks_built++;
  if (cpu->ncached == cpu->cached_cap && !cpu->cached_lost) {
    uint32_t cap = cpu->cached_cap ? 2 * cpu->cached_cap : 1024;
    core_block **v = realloc(cpu->cached, cap * sizeof *v);
    if (v) {
      cpu->cached = v;
      cpu->cached_cap = cap;
    } else {
      cpu->cached_lost = true;
    }
  }
  if (!cpu->cached_lost) {
    if (b->timing && cpu->ncached < CTX_TAB_IDS) /* its slot in the contexts' tables (ctx_count.h) */
      b->timing->ctx_id = cpu->ncached + 1;
    cpu->cached[cpu->ncached++] = b;
  }
  return b;
}

/* The largest block of CORE_PREFIX_MAX instructions must fit in PREFIX_BYTES (the pool always has that room), or
 * build() would fail with an error: each instruction has at most two fetch
 * ops (it may cross a line), a block one FALLTHRU op, and a block's
 * (signal, count) pairs are at most SIG_COUNT. */
#define SLOT_NEED(ops)                                                                                          \
  (sizeof(core_block) + (ops) * sizeof(core_op) + 16 + ((ops) + 1) * (sizeof(uint32_t) + 1) + 16 +                \
   sizeof(block_timing) + (ops) * sizeof(op_timing) + 16 + SIG_COUNT * sizeof(sig_count_pair))
_Static_assert(PREFIX_BYTES >= SLOT_NEED(3u * CORE_PREFIX_MAX + 1u),
               "PREFIX_BYTES is less than a block of CORE_PREFIX_MAX instructions can take");

/* The slot of pc in a table of 2^bits slots: a multiplicative hash, as
 * code near a run's horizons lies anywhere in the program. */
static uint32_t slot_hash(uint32_t pc, uint32_t max, unsigned bits) {
  return ((pc >> 1) * 0x9E3779B1u + max * 0x85EBCA6Bu) >> (32 - bits);
}

core_block *core_block_get_prefix(core_cpu *cpu, uint32_t pc, uint32_t max, void *buf, size_t size) {
  if (max < 1 || max > CORE_PREFIX_MAX)
    max = 1;
  if (!cpu->singles)
    cpu->singles = calloc(1, sizeof *cpu->singles);
  struct core_singles *s = cpu->singles;
  if (!s)
    return max == 1 ? build(cpu, pc, 1, buf, size) : NULL;
  core_block **slot = max == 1 ? &s->one[slot_hash(pc, 1, ONE_BITS)] : &s->prefix[slot_hash(pc, max, PREFIX_BITS)];
  uint8_t *slot_max = max == 1 ? NULL : &s->max[slot - s->prefix];
  if (*slot && (*slot)->pc == pc && (!slot_max || *slot_max == max))
    return *slot;
  if (POOL_BYTES - s->used < PREFIX_BYTES) /* room for the largest, or start again */
    singles_empty(s);
  size_t used = 0;
  core_block *b = build_sized(cpu, pc, max, s->pool + s->used, POOL_BYTES - s->used, &used);
  *slot = b;
  if (b) {
    s->used += (used + 15) & ~(size_t)15;
    if (slot_max)
      *slot_max = (uint8_t)max;
  }
  return b;
}
