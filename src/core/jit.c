/*
 * The translator: lowers a predecoded block (the same core_block the
 * interpreter runs) into x86-64 code, and the loop that runs translated
 * blocks. Functional mode only; the interpreter (exec_loop.inc) stays the
 * reference, the fallback and the oracle the tests compare against.
 *
 * Translated code keeps the interpreter's invariants exactly:
 *   - a block's entry checks that it fits under the instruction horizon
 *     and charges its instructions (instret) in full; leaving early gives
 *     back what did not run, as EXIT and TRAP do;
 *   - memory accesses inside RAM run inline; outside RAM, straddling its
 *     end, or into watched RAM (predecoded code, HTIF) they call the same
 *     slow paths (core_load_slow, core_store_slow): a store into code
 *     leaves the block after it, and the outer loop flushes;
 *   - an instruction it does not lower (CSRs, system instructions,
 *     atomics) is run by the interpreter as a one-instruction block
 *     (core_block_get_prefix), after which the translated code is left.
 *
 * Host registers: rbx the core_cpu, r12 RAM, r13 the watch map, r10
 * cpu->instret and (timed) r11 tm->cycle from block to block (stored
 * around every call to C, emit_call); guest registers live in cpu->x
 * (every access is [rbx + disp8]), with copies in host registers inside
 * a block (copy_regs). Ways out of
 * a block to a known address are direct jumps, patched to the target's
 * code once it exists (jit.h); indirect jumps compare the target with
 * the first one they took, a direct jump to its code when it is that one
 * (emit_jalr_predicted), and else look it up in a small direct-mapped
 * table.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../timing/regions.h"
#include "../timing/timing.h"
#include "ctx_count.h"
#include "jit.h"

#if defined(__x86_64__) && defined(__linux__)
#include "jit_pico.h"
#include "jit_vex.h"
#include "jit_vexc.h"
#include "jit_x86.h"

typedef int (*jit_enter_fn)(core_cpu *cpu, const void *code);

#define CPU(field) x86_m(RBX, (int32_t)offsetof(core_cpu, field))
#define XREG(r) x86_m(RBX, (int32_t)(offsetof(core_cpu, x) + 4u * (r)))
#define TM(field) x86_m(R15, (int32_t)offsetof(timing, field)) /* timed code: r15 is cpu->tm */
#define BT(field) x86_m(RBP, (int32_t)offsetof(block_timing, field)) /* ... and rbp the block's timing */
/* Translated code keeps cpu->instret in r10 and, timed, tm->cycle in r11,
 * from block to block: the stubs load them on the way in and store them
 * on the way out, and every call to C stores them before and loads them
 * after (emit_call), so C always sees them exact and a chain of blocks
 * never waits on a store and a load of the counts. */
#define RI R10
#define RC R11

/* ---- helpers the translated code calls (slow paths) ---- */

/* TRAP of exec_loop.inc: the instruction at op i did not retire */
static void jit_trap(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t cause, uint32_t tval) {
  cpu->instret -= blk->n_insns - blk->insn_idx[i];
  core_raise(cpu, cause, tval, blk->pcs[i]);
  cpu->cur_blk = NULL;
  cpu->cur_op = NULL;
}

/* A load outside RAM or straddling its end: the value (extended as the
 * load's width says), or -1 after raising an access fault. */
static int64_t jit_load_slow(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t addr) {
  const core_op *op = &blk->ops[i];
  unsigned size = op->kind == K_LW ? 4 : (op->kind == K_LH || op->kind == K_LHU) ? 2 : 1;
  cpu->cur_blk = blk;
  cpu->cur_op = op;
  uint32_t v;
  if (!core_load_slow(cpu, addr, size, &v)) {
    jit_trap(cpu, blk, i, CAUSE_LOAD_ACCESS, addr);
    return -1;
  }
  cpu->cur_blk = NULL;
  cpu->cur_op = NULL;
  return (int64_t)jit_load_extend(op->kind, v);
}

/* A store outside RAM, straddling its end or into watched RAM: 0 to go on
 * with the block, 1 when it was left (a fault, or a store that ends it). */
static int jit_store_slow(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t addr) {
  const core_op *op = &blk->ops[i];
  unsigned size = op->kind == K_SW ? 4 : op->kind == K_SH ? 2 : 1;
  uint32_t v = cpu->x[op->rs2];
  cpu->cur_blk = blk;
  cpu->cur_op = op;
  core_store_result r = core_store_slow(cpu, addr, size, v);
  if (r == STORE_FAULT) {
    jit_trap(cpu, blk, i, CAUSE_STORE_ACCESS, addr);
    return 1;
  }
  cpu->cur_blk = NULL;
  cpu->cur_op = NULL;
  if (r == STORE_DONE_EXIT) { /* EXIT(NEXT_PC) */
    cpu->instret -= blk->n_insns - blk->insn_idx[i + 1];
    cpu->pc = blk->pcs[i + 1];
    return 1;
  }
  return 0;
}

/* An instruction the translator does not lower: the interpreter runs it
 * as a block of its own, exactly as run.c's step() does. */
static int jit_interp_at(core_cpu *cpu, core_block *blk, uint32_t i) {
  cpu->instret -= blk->n_insns - blk->insn_idx[i];
  cpu->pc = blk->pcs[i];
  _Alignas(16) unsigned char buf[1024];
  core_block *one = core_block_get_prefix(cpu, cpu->pc, 1, buf, sizeof buf);
  if (!one) {
    if (cpu->stop == CORE_RUNNING)
      core_raise(cpu, CAUSE_FETCH_ACCESS, cpu->pc, cpu->pc);
    return JIT_OUT;
  }
  uint64_t saved = cpu->horizon;
  cpu->horizon = cpu->instret + 1;
  bool more = core_exec_fast(cpu, one);
  if (cpu->horizon != 0) /* 0: a stop was requested meanwhile (core_set_stop) */
    cpu->horizon = saved;
  return more ? JIT_DISPATCH : JIT_OUT;
}

/* ---- the fixed stubs ---- */

bool core_jit_write_stubs(core_jit *j) {
  uint8_t *w = j->rw ? j->rw : j->region; /* the stubs are written before the region runs */
  x86_buf b = {.p = w, .start = w, .end = w + j->page, .at = (uintptr_t)j->region};
  static const int saved[] = {RBX, RBP, R12, R13, R14, R15};
  /* int enter(core_cpu *cpu, const void *code) */
  j->enter = (uint8_t *)x86_here(&b);
  for (int i = 0; i < 6; i++)
    x86_push(&b, saved[i]);
  x86_alu_ri(&b, true, ALU_SUB, RSP, 8); /* calls from the code find rsp 16-aligned */
  x86_mov_rr64(&b, RBX, RDI);
  x86_load64(&b, R15, CPU(tm));
  x86_load64(&b, R12, CPU(ram));
  x86_load64(&b, R13, CPU(watch));
  x86_mov_imm64(&b, R14, (uint64_t)(uintptr_t)j->targets);
  x86_load64(&b, RI, CPU(instret));
  x86_test_rr64(&b, R15, R15);
  uint8_t *untimed = x86_jcc_fwd(&b, CC_E);
  x86_load64(&b, RC, TM(cycle));
  x86_patch_here(&b, untimed);
  x86_op_reg(&b, false, 0xff, 4, RSI); /* jmp rsi */
  /* the way back: status in eax; the counts back in memory */
  uintptr_t epilogue = x86_here(&b);
  x86_store64(&b, CPU(instret), RI);
  x86_test_rr64(&b, R15, R15);
  untimed = x86_jcc_fwd(&b, CC_E);
  x86_store64(&b, TM(cycle), RC);
  x86_patch_here(&b, untimed);
  x86_alu_ri(&b, true, ALU_ADD, RSP, 8);
  for (int i = 5; i >= 0; i--)
    x86_pop(&b, saved[i]);
  x86_ret(&b);
  j->out = (uint8_t *)x86_here(&b);
  x86_mov_imm32(&b, RAX, JIT_OUT);
  x86_jmp(&b, epilogue);
  j->horizon = (uint8_t *)x86_here(&b);
  x86_mov_imm32(&b, RAX, JIT_HORIZON);
  x86_jmp(&b, epilogue);
  j->dispatch = (uint8_t *)x86_here(&b);
  x86_mov_imm32(&b, RAX, JIT_DISPATCH);
  x86_jmp(&b, epilogue);
  /* a direct jump not patched yet: rax is the address of its rel32; the
   * clean stub's is patched to the target's clean entry */
  uint8_t **stubs[5] = {&j->miss, &j->miss_clean_stub, &j->miss_fall_stub, &j->miss_jalr, &j->miss_jalr_clean};
  for (uint8_t clean = 0; clean < 5; clean++) {
    *stubs[clean] = (uint8_t *)x86_here(&b);
    x86_mov_imm64(&b, RDX, (uint64_t)(uintptr_t)&j->miss_jump);
    x86_store64(&b, x86_m(RDX, 0), RAX);
    x86_store_imm8(&b, x86_m(RDX, (int32_t)(offsetof(core_jit, miss_clean) - offsetof(core_jit, miss_jump))), clean);
    if (clean == 2) /* the line in ecx */
      x86_store32(&b, x86_m(RDX, (int32_t)(offsetof(core_jit, miss_line) - offsetof(core_jit, miss_jump))), RCX);
    if (clean == 1 || clean == 2 || clean == 4) /* the hazards the block leaves in r8 */
      x86_store64(&b, x86_m(RDX, (int32_t)(offsetof(core_jit, miss_hz) - offsetof(core_jit, miss_jump))), R8);
    x86_mov_imm32(&b, RAX, JIT_MISS);
    x86_jmp(&b, epilogue);
  }
  j->epilogue = (uint8_t *)epilogue;
  return !b.overflow;
}

/* ---- lowering ---- */

#define NCOPY_MAX 7
typedef struct slow_path {
  uint8_t *from[2];  /* rel32s of the jumps that go to it */
  uint8_t *resume;   /* where the fast path goes on */
  uint32_t op;
  bool forget_dline; /* timed: the loop copy's access, which sets tm->loop_dline to no line (loop_dline_ok) */
  int8_t dirty[NCOPY_MAX]; /* functional: the guest register each copy register holds unstored, or -1 */
} slow_path;

/* a cache miss, called out of the fast path's line with what it needs
 * known at translation (the cycle of the access as tm->cycle less a
 * constant), so that the call reads nothing of the block's own */
enum {
  COLD_LOAD, COLD_STORE, COLD_IFETCH, COLD_ENTRY,
  COLD_IFETCH_C, /* the run's own helper (l->fn->ifetch) */
  COLD_LOAD_C,   /* ... (l->fn->load), the address in eax */
  COLD_LOAD_PEND, /* COLD_LOAD_C after a hit with a store pending (emit_vexc_load) */
  COLD_STORE_C,   /* the run's own helper (l->fn->store), the address in eax */
  COLD_STORE_T    /* timing_store_through (emit_vexc_store's call), the address in eax */
};
typedef struct cold_call {
  uint8_t *from;     /* rel32 of the jump that goes to it */
  uint8_t *resume;   /* where the fast path goes on */
  uint8_t *back;     /* a fetch's MRU check (emit_probe_mru): where a hit goes on */
  uint32_t op;
  int kind;
  uint8_t save;             /* a fetch op's: the copy registers (bit k: copy_regs[k]) pushed around it */
  int8_t dirty[NCOPY_MAX];  /* ... and the guest register of each copy not stored yet, or -1 */
  uint8_t *fallback;        /* rel32 of a fill routine's way to the call in C, laid out after all the cold calls */
} cold_call;

typedef struct lower {
  x86_buf b;
  core_cpu *cpu;
  core_jit *j;
  core_block *blk;
  struct {
    uint8_t *rel;    /* the rel32 of a direct way out */
    uint32_t target; /* its guest address */
    uint8_t clean;   /* to the target's clean entry (1: clean_ok), or its clean or
                      * same entry by the line fetched last (2: `line`) */
    uint32_t line;
  } chain[4];        /* two ways out, in each of the block's two copies (loop_ok) */
  uint32_t nchain;
  /* the jalrs' predictions (emit_jalr_predicted): the site, and the rel32
   * of its jump to the stub that learns the target (emit_chain_stubs) */
  struct {
    uint8_t *site, *learn;
  } jalr[2];
  uint32_t njalr;
  slow_path slow[2 * CORE_BLOCK_MAX_OPS];
  uint32_t nslow;
  /* two a fetch op at most, one a memory access, one the entry; in each copy */
  cold_call cold[2 * (2 * CORE_BLOCK_MAX_OPS + 1)];
  uint32_t ncold;
  /* A plain timed block that branches back to its own start (loop_ok) is
   * lowered twice: the block as entered from elsewhere, then its loop
   * copy, which its taken branch back goes to, from either copy (to
   * loop_entry, or through the jumps in loop_from while it is not written
   * yet). The loop copy looks up none of the block's I-cache lines: the
   * run that got there fetched each of them in this block's last run, in
   * sets no other line of the block maps to, and nothing else has touched
   * the I-cache since, so each lookup would hit its line in the way it
   * hit last time and write the LRU bit it holds already. */
  bool loop_ok, looping; /* looping: lowering the loop copy */
  uint32_t fall_line; /* the loop copy's last fetch line, stored on its way on (fall_line_ok) */
  bool fall_store;
  uintptr_t loop_entry, loop_body; /* the loop copy's entry, and its first op past it */
  uint8_t *loop_from[2];
  uint32_t nloop_from;
  /* the jumps to the block's nofit exit (the loop entry's and the loop
   * copy's own way round, emit_loop_round) and to its slow entry */
  uint8_t *loop_nofit[4], *loop_slow;
  /* A plain timed block (clean_ok) has a second entry, `clean`, that a
   * block leaving no late result jumps to after a taken branch or jump
   * (clean_exits): tm->hz then holds no late result and tm->fetch_line
   * no line, so the clean entry tests neither; the block's own entry
   * tests both first and goes on to it, or out of line with rbp and FITS
   * made there (pre_slow: late results, to C; pre_same: the line fetched
   * already, charged without a lookup; their nofit jumps in pre_nofit) */
  bool clean_exits;
  uintptr_t clean, same; /* same: pre_same's code, the entry of a block running on from that line */
  /* In a plain timed run (no profile, regions or PMU listing), each of
   * the two has a twin that does not store the block's hazards in tm->hz
   * (hz_same): a direct jump from a block that leaves the same ones, which
   * tm->hz holds already, is patched to it (patch_target) */
  uintptr_t clean_hz_same, same_hz_same;
  uint8_t *clean_after; /* the clean entry past its charges */
  uint8_t *pre_slow, *pre_same, *pre_nofit[8];
  int eax_reg;       /* the guest register eax holds a copy of, or -1 */
  int8_t held[NCOPY_MAX]; /* the guest register each of copy_regs holds a copy of, or -1 */
  bool dirty[NCOPY_MAX];  /* ... whose value is not stored in x[] yet (functional: store_later) */
  int ncopy;              /* the copy registers used: timed runs keep r11 and rbp */
  uint32_t cur;      /* the op being lowered */
  bool timed;        /* a timed run: the timing model's charges too (jit_timed.c) */
  /* timed: the helpers for the rows the run charges (jit.h), and which:
   * a profile (jit_profiled.c), address regions (both: jit_rows.inc) */
  const jit_timed_fns *fn;
  bool prof, regions, track; /* track: cpu->track's listing, not with a profile */
  bool vexc; /* the cached VexRiscv models: every dynamic charge a call (jit_vexc.c) */
  /* the entry's checks' jumps to C, and where they come back: one set
   * for each way in that makes them (emit_entry_checks: the block's
   * entry, or a clean_ok block's clean, same and late-results paths) */
  uint8_t *region_slow[3], *ctx_slow[3], *track_slow[3];
  uintptr_t region_back[3], ctx_back[3], track_back[3];
  uint32_t nchecks;
  /* with a profile: rcx holds the block's record in the context on top
   * (bt->cc), as the entry's checks just left it, so ENTER's count of the
   * execution adds to it without loading it again */
  bool cc_rcx;
  /* ... but for an I-cache (fetch) or D-cache (load) hit of a direct-mapped
   * cache, looked up inline (emit_vexc_ifetch, emit_vexc_load) */
  bool vexc_fetch, vexc_load;
  /* the inline entry's ways to the whole entry in C (emit_vexc_entry) */
  uint8_t *vexc_slow[5];
  /* timed: the cache lookups done inline (two-way LRU caches), else calls */
  bool inline_fetch, inline_load, inline_store;
} lower;

#ifdef TALLY_CHECK_LAWS
#define JT_LAW core_jt_law
#else
#define JT_LAW NULL /* never called (emit_law) */
#endif
/* the plain timed run's helpers (jit_timed.c), blocks not lowered run by
 * `interp` */
#define PLAIN_FNS(interp)                                                      \
  {                                                                            \
    .enter = core_jt_enter, .enter_slow = core_jt_enter_slow,                  \
    .entry_miss = core_jt_entry_miss, .law = JT_LAW, .ifetch = core_jt_ifetch,  \
    .load = core_jt_load, .store = core_jt_store, .muldiv = core_jt_muldiv,    \
    .branch = core_jt_branch, .load_slow = core_jt_load_slow,                  \
    .store_slow = core_jt_store_slow, .jump_trap = core_jt_jump_trap,          \
    .interp_block = (interp),                                                  \
  }
static const jit_timed_fns plain_fns = PLAIN_FNS(core_jt_interp_block);

/* ... once the program has touched the PMU or the statistics module is
 * attached (cpu->track, core_track_blocks): the blocks
 * it does not lower run in core_exec's loop for that, which lists the
 * blocks it enters (core_exec_timed_pmu, as core_jr_interp_block does) */
static const jit_timed_fns track_fns = PLAIN_FNS(core_jr_interp_block);

/* The helpers for cpu's timed run: a profile's, address regions', the
 * PMU's or the plain ones. Installing or removing a profile or regions
 * flushes the block cache and the translations with it
 * (tally_profile_enable, the statistics module's regions), and so does
 * the first PMU access (run.c), so a translation always has its run's. */
static const jit_timed_fns *timed_fns(const core_cpu *cpu) {
  if (jit_vexc_translated(cpu))
    return &core_jvexc_fns;
  if (cpu->tm->prof)
    return &core_jp_fns;
  if (cpu->tm->regions)
    return &core_jr_fns;
  return cpu->track ? &track_fns : &plain_fns;
}

/* ENTER of the PMU loop (PMU_TRACK): a block not listed is listed */
static void jit_track(core_cpu *cpu, core_block *b) {
  if (b->cached)
    core_track(cpu, b);
}

/* Copies of guest registers in host registers, between the memory
 * accesses and calls of a block (in a functional run, between its calls:
 * a load's or store's slow path saves them), so that a chain of operations
 * does not wait on a store and a load of each value. The copy registers
 * are ones no straight-line ALU op uses: the caller-saved r8, r9, rsi and
 * rdi, r14 (free in translated code: a jalr's lookup loads the table's
 * address, emit_indirect), and in a functional run r11 and rbp too (a
 * timed run's cycle count and block timing); anything that may clobber
 * them (a call, a timed
 * memory access and its slow paths, a cache lookup) forgets every copy
 * (forget_copies).
 *
 * A result that the block writes again before its next way out or call
 * (store_later) lives in a copy register alone, marked dirty, and is
 * stored only where something may read x[] in memory: a way out of the
 * block, a call (flush_dirty), a slow path of a load or store
 * (emit_slow_fn), the cold path of a fetch op's lookup (emit_slow_paths),
 * a copy register taken for another value, or an operation that reads
 * x[] itself (mulh, a shift's timing). Written again first, it is never
 * stored: the temporaries of a long run of ALU operations (fft's
 * butterflies) cost no store each. A timed run keeps them across its
 * fetch ops' inline lookups (their cold paths store the dirty ones and
 * save the copy registers around the call, emit_slow_paths), not across
 * a timed load or store (its lookup clobbers them). */
static const int copy_regs[NCOPY_MAX] = {R8, R9, RSI, RDI, R14, R11, RBP};
#define NCOPY (l->ncopy)
/* whether a slow path pushes copy register k around its call: all but
 * r14, which C and the fill routines keep */
static bool copy_pushed(int k) { return copy_regs[k] != R14; }

/* stores every copy not stored yet in x[] */
static void flush_dirty(lower *l) {
  for (int k = 0; k < NCOPY; k++)
    if (l->dirty[k]) {
      x86_store32(&l->b, XREG((unsigned)l->held[k]), copy_regs[k]);
      l->dirty[k] = false;
    }
}

static void forget_copies(lower *l) {
  flush_dirty(l);
  for (int k = 0; k < NCOPY; k++)
    l->held[k] = -1;
}

/* the host register holding a copy of x[r], or -1 */
static int copy_of(const lower *l, unsigned r) {
  for (int k = 0; k < NCOPY; k++)
    if (l->held[k] == (int)r)
      return copy_regs[k];
  return -1;
}

/* x[rd] was written (in memory, or in a dirty copy): its copies are stale,
 * and one not stored yet never will be */
static void wrote(lower *l, unsigned rd) {
  for (int k = 0; k < NCOPY; k++)
    if (l->held[k] == (int)rd) {
      l->held[k] = -1;
      l->dirty[k] = false;
    }
  if (l->eax_reg == (int)rd)
    l->eax_reg = -1;
}

/* host register r = x[g]; x0 as an immediate (a move, so that the flags
 * of a compare before it live on) */
static void load_reg(lower *l, int r, unsigned g) {
  int c = copy_of(l, g);
  if (g == 0)
    x86_mov_imm32(&l->b, r, 0);
  else if (c >= 0)
    x86_mov_rr(&l->b, r, c);
  else
    x86_load32(&l->b, r, XREG(g));
}

static bool keeps_copies(const lower *l, const core_op *op);

/* whether an op after l->cur reads x[g] (rs1 or rs2, whatever the kind:
 * a wrong guess costs a load) before g is written or the copies are
 * forgotten */
static bool read_again(const lower *l, unsigned g) {
  const core_block *blk = l->blk;
  for (uint32_t j = l->cur + 1; j < blk->n_ops; j++) {
    const core_op *op = &blk->ops[j];
    if (!keeps_copies(l, op))
      return false;
    if (op->rs1 == g || op->rs2 == g)
      return true;
    if (op->rd == g)
      return false;
  }
  return false;
}

/* a copy register that costs nothing to take: a free one, or one whose
 * value is stored and not read again; -1 if
 * none (a source is not worth a store of another's value) */
static int spare_copy(const lower *l) {
  for (int k = 0; k < NCOPY; k++)
    if (l->held[k] < 0)
      return k;
  for (int k = 0; k < NCOPY; k++)
    if (!l->dirty[k] && !read_again(l, (unsigned)l->held[k]))
      return k;
  return -1;
}

/* The copy register of a source x[g] of op l->cur, made by loading it
 * when the block reads g again (read_again) and a copy register is
 * spare, so that the block loads it once; -1 where it stays in memory (or
 * op l->cur forgets the copies: a timed load or store).
 * Only at an op's start (before any of its branches to a slow path: the
 * slow path resumes with the registers as they were). */
static int source_copy(lower *l, unsigned g) {
  int c = copy_of(l, g);
  if (c >= 0 || g == 0 || !keeps_copies(l, &l->blk->ops[l->cur]) || !read_again(l, g))
    return c;
  int k = spare_copy(l);
  if (k < 0)
    return -1;
  x86_load32(&l->b, copy_regs[k], XREG(g));
  l->held[k] = (int8_t)g;
  l->dirty[k] = false;
  return copy_regs[k];
}

/* eax = x[r], unless it holds it already */
static void load_eax(lower *l, unsigned r) {
  if (l->eax_reg == (int)r)
    return;
  int c = source_copy(l, r);
  if (c >= 0)
    x86_mov_rr(&l->b, RAX, c);
  else
    load_reg(l, RAX, r);
}

/* eax (op)= x[r]; x0 folded: nothing to add, subtract, or or xor, a test
 * for a compare (the same flags as cmp eax, 0) */
static void alu_eax(lower *l, int alu, unsigned r) {
  if (r == 0) {
    if (alu == ALU_CMP)
      x86_test_rr(&l->b, RAX, RAX);
    else if (alu == ALU_AND)
      x86_mov_imm32(&l->b, RAX, 0);
    return;
  }
  int c = source_copy(l, r);
  if (c >= 0)
    x86_alu_rr(&l->b, false, alu, RAX, c);
  else
    x86_alu_rm(&l->b, alu, RAX, XREG(r));
}

/* Whether T_MULDIV of op calls C: a profile's helper always (it sets the
 * row even where it charges nothing), else where the time depends on the
 * operands, but for a shift in a run charging no rows (jit_pico.c's
 * inline steps) */
static bool muldiv_calls(const lower *l, const core_op *op) {
  uint8_t c = isa_infos[op->kind].cls;
  bool shift = isa_is_shift_reg(op->kind);
  if (!l->timed || !l->cpu->tm->dynamic_muldiv || !(c == CLASS_MUL || c == CLASS_DIV || shift))
    return false;
  if (l->prof || l->vexc)
    return true;
  return jit_muldiv_dynamic(l->cpu->tm, op->kind) && !(shift && !l->regions);
}

/* Whether op k of the block can keep the copies: an ALU op with no call
 * (in a timed run, a multiply, divide or shift may call, T_MULDIV), in a
 * functional run a load or store too (its fast path leaves the copy
 * registers alone and its slow path saves them, emit_slow_paths), and in
 * a timed run a fetch op looked up inline (its cold paths save them) */
static bool keeps_copies(const lower *l, const core_op *op) {
  switch (op->kind) {
  case K_LB: case K_LH: case K_LW: case K_LBU: case K_LHU: case K_SB: case K_SH: case K_SW:
    return !l->timed;
  case K_LUI: case K_AUIPC: case K_NOP: case K_FENCE:
  case K_ADDI: case K_XORI: case K_ORI: case K_ANDI: case K_SLTI: case K_SLTIU:
  case K_SLLI: case K_SRLI: case K_SRAI:
  case K_ADD: case K_SUB: case K_XOR: case K_OR: case K_AND: case K_SLT: case K_SLTU:
    return true;
  case K_SLL: case K_SRL: case K_SRA:
  case K_MUL: case K_MULH: case K_MULHSU: case K_MULHU:
  case K_DIV: case K_DIVU: case K_REM: case K_REMU:
    return !muldiv_calls(l, op);
  case K_IFETCH: /* an inline lookup: its cold paths save them (emit_ifetch) */
    return l->timed && l->inline_fetch && !l->vexc_fetch && !l->cpu->tm->vexmin;
  default:
    return false;
  }
}

/* Whether a copy of x[rd], written by op l->cur, would be read: by an op
 * after the next one (the next finds it in eax, or reads it as rs2),
 * before rd is written again or the copies are forgotten. Reads are
 * guessed from rs1 and rs2 whatever the kind: a wrong guess costs a move,
 * never a wrong value. */
static bool copy_wanted(const lower *l, unsigned rd) {
  const core_block *blk = l->blk;
  for (uint32_t j = l->cur + 1; j < blk->n_ops; j++) {
    const core_op *op = &blk->ops[j];
    if (op->rs2 == rd || (op->rs1 == rd && j > l->cur + 1))
      return true;
    if (op->rd == rd || !keeps_copies(l, op))
      return false;
  }
  return false;
}

/* Whether x[rd], written by op l->cur, is written
 * again before the block's next way out or call, so that its store can
 * wait in a copy register (and is then never made). A mulh reads x[] in
 * memory: it stores every copy first, and ends the look. A wrong guess
 * costs a move, never a wrong value: every dirty copy is stored before
 * anything reads x[]. */
static bool store_later(const lower *l, unsigned rd) {
  if (rd == CORE_REG_SINK)
    return false;
  const core_block *blk = l->blk;
  for (uint32_t j = l->cur + 1; j < blk->n_ops; j++) {
    const core_op *op = &blk->ops[j];
    if (!keeps_copies(l, op) || op->kind == K_MULH || op->kind == K_MULHSU || op->kind == K_MULHU)
      return false;
    if (op->rd == rd && isa_infos[op->kind].cls != CLASS_STORE)
      return true;
  }
  return false;
}

/* The op at which x[g] is read next (rs1 or rs2 whatever the kind, op
 * l->cur's own included), or UINT32_MAX when it is written or the copies
 * forgotten first: how soon a copy of it taken away would be loaded again */
static uint32_t next_read(const lower *l, unsigned g) {
  const core_block *blk = l->blk;
  for (uint32_t j = l->cur; j < blk->n_ops; j++) {
    const core_op *op = &blk->ops[j];
    if (op->rs1 == g || op->rs2 == g)
      return j;
    if (!keeps_copies(l, op) || (op->rd == g && isa_infos[op->kind].cls != CLASS_STORE))
      return UINT32_MAX;
  }
  return UINT32_MAX;
}

/* a copy register for a new copy, never host register avoid (-1: any): a
 * free one first, or one whose value is stored and not read again
 * (spare_copy), else the one read again last (a stored one first among
 * those read no more), its value stored first if it is not yet; the value
 * stays in it until written. With more values in a run of ALU operations
 * than copy registers (nettle-aes's rounds: eight chains), this keeps
 * some of them in registers where taking them in turn reloads each. */
static int take_copy_but(lower *l, int avoid) {
  int k = -1;
  for (int j = 0; j < NCOPY && k < 0; j++)
    if (l->held[j] < 0 && copy_regs[j] != avoid)
      k = j;
  for (int j = 0; j < NCOPY && k < 0; j++)
    if (copy_regs[j] != avoid && !l->dirty[j] && !read_again(l, (unsigned)l->held[j]))
      k = j;
  if (k >= 0)
    return k;
  uint32_t far = 0;
  for (int j = 0; j < NCOPY; j++) {
    if (copy_regs[j] == avoid)
      continue;
    uint32_t r = next_read(l, (unsigned)l->held[j]);
    if (k < 0 || r > far || (r == far && r == UINT32_MAX && l->dirty[k] && !l->dirty[j])) {
      k = j;
      far = r;
    }
  }
  if (l->dirty[k])
    x86_store32(&l->b, XREG((unsigned)l->held[k]), copy_regs[k]);
  l->dirty[k] = false;
  return k;
}

static int take_copy(lower *l) { return take_copy_but(l, -1); }

/* x[rd] = eax: stored, or kept in a copy register to be stored later
 * (store_later); after it eax holds rd's value, and so does a copy
 * register when one is wanted */
static void eax_is(lower *l, unsigned rd) {
  bool later = store_later(l, rd);
  if (!later)
    x86_store32(&l->b, XREG(rd), RAX);
  wrote(l, rd);
  if (rd == CORE_REG_SINK)
    return;
  l->eax_reg = (int)rd;
  if (!later && !copy_wanted(l, rd))
    return;
  int k = take_copy(l);
  x86_mov_rr(&l->b, copy_regs[k], RAX);
  l->held[k] = (int8_t)rd;
  l->dirty[k] = later;
}

/* An op a block computes in its result's copy register
 * (emit_in_place): an ALU operation, a shift or a multiply, its second
 * operand x[rs2] or the immediate */
enum { IP_ALU, IP_SHIFT, IP_MUL };
typedef struct in_place {
  int how;  /* IP_ALU, IP_SHIFT, IP_MUL */
  int code; /* the ALU_ or SH_ operation */
  bool imm;
} in_place;

/* host register r = x[g], from a copy, eax or memory (x0: 0) */
static void load_into(lower *l, int r, unsigned g) {
  int c = copy_of(l, g);
  if (g == 0)
    x86_mov_imm32(&l->b, r, 0);
  else if (c == r)
    return;
  else if (c >= 0)
    x86_mov_rr(&l->b, r, c);
  else if (l->eax_reg == (int)g)
    x86_mov_rr(&l->b, r, RAX);
  else
    x86_load32(&l->b, r, XREG(g));
}

/* x[rd] is now host register copy_regs[k]: its other copies are stale, and
 * it is stored at once unless a later write makes the store needless */
static void copy_is(lower *l, int k, unsigned rd, bool later) {
  wrote(l, rd);
  l->held[k] = (int8_t)rd;
  l->dirty[k] = later;
  if (!later)
    x86_store32(&l->b, XREG(rd), copy_regs[k]);
}

/* Where a block gives rd a copy register anyway (store_later,
 * copy_wanted), the op is computed in it, not in eax and moved there
 * after: one move fewer, and none at all where rd is rs1 and in a copy
 * already (addi a0, a0, 1 is one instruction). The second operand is
 * found first, and the result's register is never its register; the first
 * operand is looked up after the result's register is taken (a copy
 * register taken meanwhile was clean, or stored: x[] holds its value, or
 * it is the result's register itself, the value still in it). eax is left
 * as it was. False where the op goes through eax (emit_alu and the like). */
static bool emit_in_place(lower *l, const core_op *op, in_place ip) {
  unsigned rd = op->rd, rs1 = op->rs1, rs2 = op->rs2;
  bool later = store_later(l, rd);
  if (rd == CORE_REG_SINK || rd == 0 || (!ip.imm && rs2 == 0) ||
      (!later && !copy_wanted(l, rd)))
    return false;
  x86_buf *b = &l->b;
  bool mv = ip.how == IP_ALU && rs1 == 0 && (ip.code == ALU_ADD || ip.code == ALU_OR || ip.code == ALU_XOR);
  if (mv && ip.imm) { /* li */
    int k = take_copy(l);
    x86_mov_imm32(b, copy_regs[k], (uint32_t)op->imm);
    copy_is(l, k, rd, later);
    return true;
  }
  if (mv) { /* x0 op r: r (mv) */
    source_copy(l, rs2);
    int k = take_copy(l);
    load_into(l, copy_regs[k], rs2);
    copy_is(l, k, rd, later);
    return true;
  }
  int c1 = copy_of(l, rs1);
  if (rs1 != rd && c1 < 0 && rs1 != 0 && l->eax_reg != (int)rs1)
    source_copy(l, rs1);
  int c2 = -1; /* the second operand's register, or -1: in memory */
  if (!ip.imm) {
    c2 = source_copy(l, rs2);
    if (c2 < 0 && l->eax_reg == (int)rs2)
      c2 = RAX;
    if (ip.how == IP_SHIFT) {
      if (c2 >= 0)
        x86_mov_rr(b, RCX, c2);
      else
        x86_load32(b, RCX, XREG(rs2));
      c2 = RCX;
    }
  }
  int k = -1;
  c1 = copy_of(l, rs1);
  if (rs1 == rd && rs1 != 0 && c1 >= 0)
    for (int j = 0; j < NCOPY; j++)
      if (copy_regs[j] == c1)
        k = j;
  if (k < 0)
    k = take_copy_but(l, c2);
  int d = copy_regs[k];
  load_into(l, d, rs1);
  if (ip.how == IP_ALU && ip.imm)
    x86_alu_ri(b, false, ip.code, d, op->imm);
  else if (ip.how == IP_ALU && c2 >= 0)
    x86_alu_rr(b, false, ip.code, d, c2);
  else if (ip.how == IP_ALU)
    x86_alu_rm(b, ip.code, d, XREG(rs2));
  else if (ip.how == IP_SHIFT && ip.imm)
    x86_shift_ri(b, false, ip.code, d, (uint8_t)(op->imm & 31));
  else if (ip.how == IP_SHIFT)
    x86_shift_rcl(b, ip.code, d);
  else if (c2 >= 0)
    x86_op_reg(b, false, 0x0faf, d, c2); /* imul d, r32 */
  else
    x86_imul_rm(b, d, XREG(rs2));
  copy_is(l, k, rd, later);
  return true;
}

static uintptr_t run_addr(const lower *l, const uint8_t *p) { return l->b.at + (uintptr_t)(p - l->b.start); }

/* calls fn with the counts in memory for it, and loads them again after
 * (C may change them) */
static void emit_call(lower *l, const void *fn) {
  x86_store64(&l->b, CPU(instret), RI);
  if (l->timed)
    x86_store64(&l->b, TM(cycle), RC);
  x86_call_abs(&l->b, fn);
  x86_load64(&l->b, RI, CPU(instret));
  if (l->timed)
    x86_load64(&l->b, RC, TM(cycle));
}

/* leaves for a known address: a direct jump, to the block's stub for it
 * until patched (emit_chain_stubs) */
static void emit_chain_cc(lower *l, int cc, uint32_t target) {
  if (l->nchain == 4) { /* never: a block has two ways out at most */
    uint8_t *skip = cc >= 0 ? x86_jcc_fwd(&l->b, cc ^ 1) : NULL;
    x86_store_imm32(&l->b, CPU(pc), target);
    x86_jmp(&l->b, (uintptr_t)l->j->dispatch);
    x86_patch_here(&l->b, skip);
    return;
  }
  l->chain[l->nchain].rel = cc >= 0 ? x86_jcc_fwd(&l->b, cc) : x86_jmp_fwd(&l->b);
  l->chain[l->nchain].clean = 0;
  l->chain[l->nchain++].target = target;
}

/* a direct jump (cc < 0) or, for a taken branch, its conditional jump
 * itself, patched straight to the target */
static void emit_chain(lower *l, uint32_t target) { emit_chain_cc(l, -1, target); }

/* the same after a taken branch or a jump (tm->fetch_line is
 * TIMING_NO_LINE): to the target's clean entry when this block leaves no
 * late result (clean_ok) */
static void emit_chain_taken(lower *l, uint32_t target) {
  uint32_t n = l->nchain;
  emit_chain(l, target);
  if (l->clean_exits && l->nchain > n)
    l->chain[n].clean = 1;
}

static uint32_t line_before(const core_block *blk, uint32_t i);
static bool now_near(const lower *l, uint32_t i);

/* the same running on into the next block (not a taken branch): with
 * tm->fetch_line the line of the block's last fetch, to the target's
 * same entry when its first line is that one, else to its clean entry */
static void emit_chain_fall(lower *l, uint32_t target) {
  uint32_t n = l->nchain;
  emit_chain(l, target);
  if (l->clean_exits && l->nchain > n) {
    l->chain[n].clean = 2;
    l->chain[n].line = line_before(l->blk, l->blk->n_ops);
  }
}

/* the stubs of the direct ways out not patched yet: cpu->pc, and the
 * address of the jump to patch for the miss stub (core_exec_jit) */
static void emit_chain_stubs(lower *l) {
  for (uint32_t k = 0; k < l->nchain; k++) {
    x86_patch_here(&l->b, l->chain[k].rel);
    x86_store_imm32(&l->b, CPU(pc), l->chain[k].target);
    x86_lea_rip(&l->b, RAX, run_addr(l, l->chain[k].rel));
    if (l->chain[k].clean == 2)
      x86_mov_imm32(&l->b, RCX, l->chain[k].line);
    if (l->chain[k].clean) {
      /* what tm->hz holds: nothing in a block that leaves no late result
       * changes it (a refill, a divide, only lower late results), unless
       * the block is short and was entered with late results (ENTER in
       * C, timing_hazard_entry, leaves what passes through it): not known */
      uint32_t tail;
      memcpy(&tail, &l->blk->timing->tail_hz, sizeof tail);
      x86_mov_imm64(&l->b, R8, l->blk->timing->short_block ? UINT64_C(1) << 32 : tail);
    }
    uint8_t *stubs[3] = {l->j->miss, l->j->miss_clean_stub, l->j->miss_fall_stub};
    x86_jmp(&l->b, (uintptr_t)stubs[l->chain[k].clean]);
  }
  for (uint32_t k = 0; k < l->njalr; k++) { /* the target in eax */
    x86_patch_here(&l->b, l->jalr[k].learn);
    x86_store32(&l->b, CPU(pc), RAX);
    x86_lea_rip(&l->b, RAX, run_addr(l, l->jalr[k].site));
    if (l->clean_exits) { /* as a taken jump's (above) */
      uint32_t tail;
      memcpy(&tail, &l->blk->timing->tail_hz, sizeof tail);
      x86_mov_imm64(&l->b, R8, l->blk->timing->short_block ? UINT64_C(1) << 32 : tail);
    }
    x86_jmp(&l->b, (uintptr_t)(l->clean_exits ? l->j->miss_jalr_clean : l->j->miss_jalr));
  }
}

/* calls fn(cpu, blk, i, ecx = eax) */
static void emit_helper_call(lower *l, const void *fn, uint32_t i, bool addr_arg) {
  forget_copies(l);
  if (addr_arg)
    x86_mov_rr(&l->b, RCX, RAX);
  x86_mov_rr64(&l->b, RDI, RBX);
  x86_mov_imm64(&l->b, RSI, (uint64_t)(uintptr_t)l->blk);
  x86_mov_imm32(&l->b, RDX, i);
  emit_call(l, fn);
}

/* calls fn(cpu, blk, i): a timing charge (jit_timed.c) */
static void emit_timed_call(lower *l, const void *fn, uint32_t i) {
  emit_helper_call(l, fn, i, false);
  l->eax_reg = -1;
}

/* The operand for the cache's mru_tag[set]: from r15 (timed code: tm)
 * when the array is within a displacement's reach of it (both on the
 * heap), else through rax */
static x86_mem mru_operand(lower *l, const cache *c, uint32_t set) {
  intptr_t d = (intptr_t)&c->mru_tag[set] - (intptr_t)l->cpu->tm;
  if (d >= INT32_MIN && d <= INT32_MAX)
    return x86_m(R15, (int32_t)d);
  x86_mov_imm64(&l->b, RAX, (uint64_t)(uintptr_t)&c->mru_tag[set]);
  return x86_m(RAX, 0);
}

/* cache_probe of a two-way LRU cache for a tag known now: falls through
 * on a hit (the way used is marked), returns the jump taken on a miss.
 * Which way holds the line decides no branch (as in cache_probe): a
 * branch on the way is one the host predicts badly. Clobbers rax, rcx,
 * rdx. */
static uint8_t *emit_probe_const(lower *l, cache *c, uint32_t tag) {
  x86_buf *b = &l->b;
  uint32_t set = tag & c->set_mask;
  const void *rax = &c->tags[2 * set];
  x86_mov_imm64(b, RAX, (uint64_t)(uintptr_t)rax);
  x86_alu_rr(b, false, ALU_XOR, RCX, RCX);
  x86_alu_rr(b, false, ALU_XOR, RDX, RDX);
  x86_alu_mi32(b, ALU_CMP, x86_m(RAX, 4), (int32_t)tag);
  x86_setcc(b, CC_E, RCX); /* w */
  x86_alu_mi32(b, ALU_CMP, x86_m(RAX, 0), (int32_t)tag);
  x86_setcc(b, CC_E, RDX);
  x86_alu_rr(b, false, ALU_OR, RDX, RCX);
  uint8_t *miss = x86_jcc_fwd(b, CC_E);
  x86_alu_ri(b, false, ALU_XOR, RCX, 1);
  /* lru_way[set] from rax when near (the arrays are allocated together) */
  intptr_t d = (intptr_t)&c->lru_way[set] - (intptr_t)rax;
  if (d < INT32_MIN || d > INT32_MAX) {
    x86_mov_imm64(b, RAX, (uint64_t)(uintptr_t)&c->lru_way[set]);
    d = 0;
  }
  x86_store32(b, x86_m(RAX, (int32_t)d), RCX);
  if (c->mru_tag)
    x86_store_imm32(b, mru_operand(l, c, set), tag);
  return miss;
}

/* The I-cache lookup of a fetch, for a tag known now: a hit in the way
 * used last changes nothing (lru_way already names the other way), so it
 * is checked alone inline: the set's mru_tag (the tag of way
 * lru_way[set] ^ 1, which the cache keeps: cache_track_mru) compared, one
 * load from tm's register and no chain (before, a load of lru_way chose
 * the tag's slot: 0.95-0.98 of the time now, bench/jit-long.md), and a branch
 * taken (returned) when it differs, to the rest of the lookup out of line
 * (cold_call.back). In a loop whose lines fall in sets of their own every
 * lookup is such a hit; out of line, the other way's tag is compared
 * (emit_probe_lru), so a miss costs about what the whole lookup did.
 * Without mru_tag (NULL returned) the whole lookup is inline and *miss
 * its jump. Clobbers rax (and rcx, rdx with the whole lookup). */
static uint8_t *emit_probe_mru(lower *l, cache *c, uint32_t tag, uint8_t **miss) {
  x86_buf *b = &l->b;
  uint32_t set = tag & c->set_mask;
  if (!c->mru_tag) {
    *miss = emit_probe_const(l, c, tag);
    return NULL;
  }
  *miss = NULL;
  x86_alu_mi32(b, ALU_CMP, mru_operand(l, c, set), (int32_t)tag);
  return x86_jcc_fwd(b, CC_NE);
}

/* emit_probe_mru's way on from its jump: the other way's (lru_way[set])
 * tag compared, and on a hit that way marked used (as cache_probe marks
 * it, mru_tag too); returns the jump taken on a miss, which changed
 * nothing. Clobbers rax, rcx. */
static uint8_t *emit_probe_lru(lower *l, cache *c, uint32_t tag) {
  x86_buf *b = &l->b;
  uint32_t set = tag & c->set_mask;
  x86_mov_imm64(b, RAX, (uint64_t)(uintptr_t)&c->lru_way[set]);
  x86_load32(b, RCX, x86_m(RAX, 0));
  x86_mov_imm64(b, RAX, (uint64_t)(uintptr_t)&c->tags[2 * set]);
  x86_alu_mi32(b, ALU_CMP, x86_mis(RAX, RCX, 2, 0), (int32_t)tag);
  uint8_t *miss = x86_jcc_fwd(b, CC_NE);
  x86_alu_ri(b, false, ALU_XOR, RCX, 1);
  x86_mov_imm64(b, RAX, (uint64_t)(uintptr_t)&c->lru_way[set]);
  x86_store32(b, x86_m(RAX, 0), RCX);
  x86_store_imm32(b, mru_operand(l, c, set), tag);
  return miss;
}

/* The operand for p[index << scale] with rsi holding *rsi: [rsi + index
 * << scale + (p - *rsi)] when that fits a displacement (the cache's
 * arrays are close together), else rsi = p first */
static x86_mem near_rsi(x86_buf *b, const void **rsi, const void *p, int index, int scale) {
  intptr_t d = (intptr_t)p - (intptr_t)*rsi;
  if (d >= INT32_MIN && d <= INT32_MAX)
    return x86_mis(RSI, index, scale, (int32_t)d);
  x86_mov_imm64(b, RSI, (uint64_t)(uintptr_t)p);
  *rsi = p;
  return x86_mis(RSI, index, scale, 0);
}

/* The same for the address in eax (kept): a store's hit marks the line
 * dirty (timing_store_hit). A load compares both ways' tags at once, as
 * cache_probe does: r8 = way 0 holds the tag (lru_way's new value on a
 * hit, as a tag is in one way at most: cache_fill fills only on a miss),
 * r9b = way 1 does, their or (a byte's: no zeroing of r9) the hit. The
 * two loads do not wait on each other, so a miss (its jump mispredicted where the data's lines thrash)
 * is known a load earlier. A store (misses rarer, and this form three
 * instructions longer with the slot for its dirty bit) takes r8 = lru_way's
 * new value (way 1 not holding the tag: way 0 is used, or no way), r9 = the
 * slot of the way used, then one compare of its tag: a hit, or a miss.
 * Clobbers rcx, rdx, rsi, r8, r9. */
static uint8_t *emit_probe_addr(lower *l, cache *c, bool store) {
  x86_buf *b = &l->b;
  x86_mov_rr(b, RCX, RAX);
  x86_shift_ri(b, false, SH_SHR, RCX, (uint8_t)c->line_shift); /* tag */
  x86_mov_rr(b, RDX, RCX);
  x86_alu_ri(b, false, ALU_AND, RDX, (int32_t)c->set_mask);   /* set */
  x86_mov_imm64(b, RSI, (uint64_t)(uintptr_t)c->tags);
  x86_alu_rr(b, false, ALU_XOR, R8, R8);
  uint8_t *miss;
  if (!store) {
    x86_alu_rm(b, ALU_CMP, RCX, x86_mis(RSI, RDX, 3, 0));
    x86_setcc(b, CC_E, R8);                                    /* way 0: w ^ 1 on a hit */
    x86_alu_rm(b, ALU_CMP, RCX, x86_mis(RSI, RDX, 3, 4));
    x86_setcc(b, CC_E, R9);                                    /* way 1, in r9b */
    x86_op_reg(b, false, 0x08, R8, R9);                        /* or r9b, r8b */
    miss = x86_jcc_fwd(b, CC_E);
  } else {
    x86_alu_rm(b, ALU_CMP, RCX, x86_mis(RSI, RDX, 3, 4));
    x86_setcc(b, CC_NE, R8);                                   /* w ^ 1 */
    x86_lea64(b, R9, x86_mis(RDX, RDX, 0, 1));                 /* 2 * set + 1 */
    x86_alu_rr(b, false, ALU_SUB, R9, R8);                     /* 2 * set + w */
    x86_alu_rm(b, ALU_CMP, RCX, x86_mis(RSI, R9, 2, 0));
    miss = x86_jcc_fwd(b, CC_NE);
  }
  const void *rsi = c->tags;
  x86_store32(b, near_rsi(b, &rsi, c->lru_way, RDX, 2), R8);
  if (store) /* dirty[2 * set + w] */
    x86_store_imm8(b, near_rsi(b, &rsi, c->dirty, R9, 0), 1);
  if (c->mru_tag) /* the tag now the set's used last (cache_track_mru) */
    x86_store32(b, near_rsi(b, &rsi, c->mru_tag, RDX, 2), RCX);
  return miss;
}

/* The D-cache's lookup of the address in eax with mru_tag kept
 * (cache_track_mru), its hit in the way the set used last checked alone
 * inline, as a fetch's is (emit_probe_mru): such a hit changes nothing of
 * the replacement state (lru_way names the other way already), so a load
 * is one compare and a branch past the set's index; a store marks that
 * way's line dirty (the way lru_way[set] ^ 1, read). Returns the jump
 * taken when the tag is not the set's used last, to the whole lookup out
 * of line (emit_probe_addr, cold_call.back: a hit in the other way marks
 * it used and comes back; a miss goes on to the miss's call). Clobbers
 * rcx, rdx, rsi, r9 (the whole lookup: r8 too). */
static uint8_t *emit_probe_addr_mru(lower *l, cache *c, bool store) {
  x86_buf *b = &l->b;
  x86_mov_rr(b, RCX, RAX);
  x86_shift_ri(b, false, SH_SHR, RCX, (uint8_t)c->line_shift); /* tag */
  x86_mov_rr(b, RDX, RCX);
  x86_alu_ri(b, false, ALU_AND, RDX, (int32_t)c->set_mask);   /* set */
  x86_mov_imm64(b, RSI, (uint64_t)(uintptr_t)c->tags);
  const void *rsi = c->tags;
  x86_alu_rm(b, ALU_CMP, RCX, near_rsi(b, &rsi, c->mru_tag, RDX, 2));
  uint8_t *other = x86_jcc_fwd(b, CC_NE);
  if (store) { /* dirty[2 * set + (lru_way[set] ^ 1)] */
    x86_load32(b, R9, near_rsi(b, &rsi, c->lru_way, RDX, 2));
    x86_alu_ri(b, false, ALU_XOR, R9, 1);
    x86_lea64(b, R9, x86_mis(R9, RDX, 1, 0));
    x86_store_imm8(b, near_rsi(b, &rsi, c->dirty, R9, 0), 1);
  }
  return other;
}

/* A miss's call, made out of the fast path's line; it goes on here */
static void add_cold(lower *l, uint8_t *from, int kind, uint32_t i) {
  cold_call *c = &l->cold[l->ncold++];
  *c = (cold_call){.from = from, .resume = l->b.p, .op = i, .kind = kind};
  memset(c->dirty, -1, sizeof c->dirty);
}

/* A fetch's lookup (emit_probe_mru) and its miss's call: the MRU check's
 * jump `mru` (coming back to `back` on a hit), or the inline lookup's
 * `miss`, whichever was made */
static void add_cold_fetch(lower *l, uint8_t *mru, uint8_t *back, uint8_t *miss, int kind, uint32_t i) {
  add_cold(l, mru ? mru : miss, kind, i);
  l->cold[l->ncold - 1].back = mru ? back : NULL;
}

/* The miss helpers of a run: the plain one's (jit_timed.c; their last
 * argument, a row, goes unread) and those that charge rows too
 * (jit_rows.inc) */
typedef struct miss_fns {
  const void *ifetch, *entry, *load, *store;
} miss_fns;
static const miss_fns plain_miss = {(const void *)core_jt_ifetch_miss, (const void *)core_jt_entry_fill,
                                    (const void *)core_jt_load_miss, (const void *)core_jt_store_miss};
static const miss_fns prof_miss = {(const void *)core_jp_ifetch_miss, (const void *)core_jp_entry_fill,
                                   (const void *)core_jp_load_miss, (const void *)core_jp_store_miss};
static const miss_fns regions_miss = {(const void *)core_jr_ifetch_miss, (const void *)core_jr_entry_fill,
                                      (const void *)core_jr_load_miss, (const void *)core_jr_store_miss};

/* Cache fills without a call to C. A timed run (with a profile or
 * regions too: emit_fill_rows) of a model whose misses take the lean routines
 * (timing_dcache_miss_lean, timing_fetch_miss_lean) gets three fill
 * routines in its code region, emitted after each flush in front of the
 * first block that needs them (ensure_fills): a load's, a store's and a
 * fetch's. A miss's cold path calls one (a near call, no C frame) and
 * goes on; the routine reports when it cannot fill (a run-time condition
 * of the lean routine, a dirty victim's write-back, SRAM), having changed
 * nothing, and the cold path then calls C as before. */

/* [m] += r, 64-bit */
static void x86_add_mr64(x86_buf *b, x86_mem m, int r) { x86_op_mem(b, true, 0x01, r, m); }
/* dst = src when below (unsigned), 32- or 64-bit */
static void x86_cmovb(x86_buf *b, bool w, int dst, int src) { x86_op_reg(b, w, 0x0f42, dst, src); }
static void x86_cmove(x86_buf *b, bool w, int dst, int src) { x86_op_reg(b, w, 0x0f44, dst, src); }
/* a near call (the fill routines are in the same code region) */
static void x86_call_near(x86_buf *b, uintptr_t target) {
  x86_byte(b, 0xe8);
  x86_rel32_to(b, target);
}

#define SIG(s) TM(sig_dyn[s])

/* cache_fill of a two-way LRU cache for the tag in ecx, no write-back:
 * the way (next_victim[set] while the set fills, then lru_way[set]), its
 * tag, valid and dirty bits, the LRU bit. A dirty victim jumps to the
 * fallback (to[]) before anything changed. The check's load of the
 * victim's bit comes at the end of a chain of three loads from the
 * routine's start, so it is made only when one of the set's two bits is
 * set (a load of both, in parallel with the way's); the I-cache's lines
 * are never dirty (nothing writes it): its fill (icache) has no check.
 * Clobbers rdx, rsi, rdi, r8, r9. */
static void emit_fill_way(x86_buf *b, cache *c, bool store, bool icache, uint8_t **to, int *n) {
  x86_mov_rr(b, RDX, RCX);
  x86_alu_ri(b, false, ALU_AND, RDX, (int32_t)c->set_mask);   /* set */
  x86_mov_imm64(b, RSI, (uint64_t)(uintptr_t)c->next_victim);
  const void *rsi = c->next_victim;
  x86_load32(b, R8, x86_mis(RSI, RDX, 2, 0));                  /* nv */
  x86_load32(b, R9, near_rsi(b, &rsi, c->lru_way, RDX, 2));
  if (!icache) /* both ways' dirty bits: the check needs the way only when one is set */
    x86_movzx16(b, RDI, near_rsi(b, &rsi, c->dirty, RDX, 1));
  x86_alu_ri(b, false, ALU_CMP, R8, 2);
  x86_cmovb(b, false, R9, R8);                                 /* w */
  x86_alu_ri(b, false, ALU_ADC, R8, 0);                        /* nv + (nv < 2): the compare's carry */
  if (!icache)
    x86_test_rr(b, RDI, RDI);
  x86_lea64(b, RDI, x86_mis(R9, RDX, 1, 0));                   /* slot 2 * set + w */
  if (!icache) {
    uint8_t *clean = x86_jcc_fwd(b, CC_E);
    x86_cmp_mem8_imm(b, near_rsi(b, &rsi, c->dirty, RDI, 0), 0); /* rsi as before: dirty is in its reach */
    to[(*n)++] = x86_jcc_fwd(b, CC_NE);
    x86_patch_here(b, clean);
  }
  x86_store32(b, near_rsi(b, &rsi, c->next_victim, RDX, 2), R8);
  x86_store32(b, near_rsi(b, &rsi, c->tags, RDI, 2), RCX);
  x86_store_imm8(b, near_rsi(b, &rsi, c->valid, RDI, 0), 1);
  if (store)
    x86_store_imm8(b, near_rsi(b, &rsi, c->dirty, RDI, 0), 1);
  x86_alu_ri(b, false, ALU_XOR, R9, 1);
  x86_store32(b, near_rsi(b, &rsi, c->lru_way, RDX, 2), R9);
  if (c->mru_tag) /* the I-cache's (cache_track_mru) */
    x86_store32(b, near_rsi(b, &rsi, c->mru_tag, RDX, 2), RCX);
}

/* The read of a line (tag in ecx; with eax_addr its address in eax too) on the memory port: row_penalty, its
 * beats (counted), memory_transaction at now (rbp, copied to rax), and
 * `refill` (a uint32_t of tm at that offset): the stall in rcx, added to
 * the cycle (r11). Clobbers rdx, r8, r9. */
static void emit_line_read(x86_buf *b, timing *tm, const cache *c, uint32_t line_bytes, size_t refill,
                           bool eax_addr) {
  if (!tm->sdram_rows)
    x86_alu_rr(b, false, ALU_XOR, R9, R9); /* busy */
  if (tm->sdram_rows) {
    if (!eax_addr) {
      x86_mov_rr(b, RAX, RCX);
      x86_shift_ri(b, false, SH_SHL, RAX, (uint8_t)c->line_shift);
    }
    x86_shift_ri(b, false, SH_SHR, RAX, (uint8_t)tm->row_shift); /* row index */
    x86_mov_rr(b, RDX, RAX);
    x86_alu_ri(b, false, ALU_AND, RDX, (int32_t)((1u << tm->bank_shift) - 1)); /* bank */
    if (tm->bank_shift)
      x86_shift_ri(b, false, SH_SHR, RAX, (uint8_t)tm->bank_shift); /* row */
    x86_mem open = x86_mis(R15, RDX, 2, (int32_t)offsetof(timing, open_row));
    x86_load32(b, R8, open);
    x86_store32(b, open, RAX);
    /* row_penalty without a branch: whether a miss finds its bank's row
     * open follows the data (a table lookup, the stack, the next line of
     * code), so a branch on it is one the host predicts badly */
    x86_load32(b, R9, TM(mem_row_miss));
    x86_alu_rr(b, false, ALU_XOR, RDX, RDX);
    x86_alu_rr(b, false, ALU_CMP, R8, RAX);
    x86_cmove(b, false, R9, RDX); /* the row open */
    x86_alu_ri(b, false, ALU_CMP, R8, -1);
    x86_cmove(b, false, R9, RDX); /* none open */
  }
  uint32_t beats = line_bytes >> tm->bus_shift;
  x86_alu_rm(b, ALU_ADD, R9, TM(mem_read_first));
  if (beats > 1) {
    x86_mov_imm32(b, RCX, beats - 1);
    x86_imul_rm(b, RCX, TM(mem_read_beat));
    x86_alu_rr(b, false, ALU_ADD, R9, RCX);
  }
  x86_alu_mi64(b, ALU_ADD, TM(mem_read_beats), (int32_t)beats);
  x86_alu_mi64(b, ALU_ADD, TM(mem_read_txns), 1); /* count_read_beats */
  x86_mov_rr64(b, RAX, RBP);
  x86_load64(b, RCX, TM(mem_busy_until));
  x86_alu_rr(b, true, ALU_CMP, RCX, RAX);
  x86_cmovb(b, true, RCX, RAX);
  x86_alu_rr(b, true, ALU_ADD, RCX, R9);
  x86_store64(b, TM(mem_busy_until), RCX);
  x86_alu_rr(b, true, ALU_SUB, RCX, RAX);
  x86_alu_rm(b, ALU_ADD, RCX, x86_m(R15, (int32_t)refill)); /* 32-bit: zero-extends */
  x86_alu_rr(b, true, ALU_ADD, RC, RCX);
}

/* A routine's start: rbp saved (it holds the block's timing) and now =
 * cycle - delta (edx) in it; then the checks of a lean fill's run-time
 * gate, to the fallback: the hook (a pointer) and the 32-bit fields of
 * more[] (n_more of them), or'ed into rsi and tested once (a branch for
 * each cost a compare and a jump apiece on every miss). The rows are not
 * checked: with address regions or a profile the routines charge them
 * (emit_fill_rows; with a profile the caller has set the instruction's),
 * and without, none is set: region_row only while regions are installed
 * (timing_regions_install; fetch_regions.c gives back the value it took),
 * prof_row only from a profile's rows (timing_row is NULL before
 * prof_attach), and a change of either flushes the blocks and makes
 * these routines anew (ensure_fills). Clobbers rsi. */
static int emit_fill_start(x86_buf *b, uint8_t **to, size_t hook, const size_t *more, int n_more) {
  int n = 0;
  x86_push(b, RBP);
  x86_mov_rr64(b, RBP, RC);
  x86_alu_rr(b, true, ALU_SUB, RBP, RDX);
  x86_load32(b, RSI, TM(max_wait_states)); /* 32-bit: zero-extends */
  for (int k = 0; k < n_more; k++)
    x86_alu_rm(b, ALU_OR, RSI, x86_m(R15, (int32_t)more[k]));
  x86_op_mem(b, true, (unsigned)(ALU_OR * 8 + 3), RSI, x86_m(R15, (int32_t)hook));
  to[n++] = x86_jcc_fwd(b, CC_NE);
  return n;
}

/* the row in rsi gets each of the n signals in sig[] plus or minus one
 * (by[]), and the stall (rcx) to the cycles and to signal `stall` */
static void emit_row_counts(x86_buf *b, const tally_signal_id *sig, const int8_t *by, int n, tally_signal_id stall) {
  for (int k = 0; k < n; k++)
    x86_alu_mi64(b, by[k] > 0 ? ALU_ADD : ALU_SUB, x86_m(RSI, (int32_t)(8 * sig[k])), 1);
  x86_add_mr64(b, x86_m(RSI, 8 * SIG_CYCLE), RCX);
  x86_add_mr64(b, x86_m(RSI, (int32_t)(8 * stall)), RCX);
}

/* The rows a fill charges besides the run's totals, as timing_count
 * would give them what the fill added (fetch_regions.c's counts): with a
 * profile the instruction's (prof_row, which the caller set) and its
 * context's (ctx_row, set whenever prof_row is); with address regions
 * (the statistics module's range counters) the current region's, which
 * is always set while they are installed. Clobbers rsi. */
static void emit_fill_rows(x86_buf *b, const timing *tm, const tally_signal_id *sig, const int8_t *by, int n,
                           tally_signal_id stall, int side_count, int side_stall) {
  if (tm->prof) { /* the instruction's row through its side record (prof_side: timing_rows) */
    x86_load64(b, RSI, TM(prof_side));
    x86_alu_mi64(b, ALU_ADD, x86_m(RSI, 8 * side_count), 1);
    x86_add_mr64(b, x86_m(RSI, 8 * side_stall), RCX);
    x86_load64(b, RSI, TM(ctx_row));
    emit_row_counts(b, sig, by, n, stall);
  }
  if (!tm->regions)
    return;
  /* no test of region_row: while regions are installed it is never NULL
   * where translated code runs (timing_regions_install and
   * timing_region_switch set a row; fetch_regions.c's NULL lasts only
   * across its call of the lean routine in C) */
  x86_load64(b, RSI, TM(region_row));
  emit_row_counts(b, sig, by, n, stall);
}

/* A routine's end: ecx 0 when it filled, else (the n jumps to[]) 1 */
static void emit_fill_end(x86_buf *b, uint8_t **to, int n) {
  x86_alu_rr(b, false, ALU_XOR, RCX, RCX);
  x86_pop(b, RBP);
  x86_ret(b);
  for (int k = 0; k < n; k++)
    x86_patch_here(b, to[k]);
  x86_pop(b, RBP);
  x86_mov_imm32(b, RCX, 1);
  x86_ret(b);
}

/* What dmiss_wait records of a fill (now in rax, the stall in rcx) for
 * the rules after it, which only some models have (tm->dfill_notes):
 * note_dstall(now + stall, stall, true) and, for a load, refill_refetch's
 * record. Clobbers rdx, rsi. */
static void emit_dfill_notes(x86_buf *b, bool store) {
  x86_load64(b, RDX, TM(dstall_end));
  x86_store64(b, TM(dstall2_end), RDX);
  x86_load32(b, RDX, TM(dstall));
  x86_store32(b, TM(dstall2), RDX);
  x86_movzx8(b, RDX, TM(dstall_redo));
  x86_store8(b, TM(dstall2_redo), RDX);
  x86_lea64(b, RDX, x86_mi(RAX, RCX, 0));
  x86_store64(b, TM(dstall_end), RDX);
  x86_store32(b, TM(dstall), RCX);
  x86_store_imm8(b, TM(dstall_redo), 1);
  if (!store) { /* [dcache] refill_refetch's record */
    x86_store64(b, TM(dmiss_end), RDX);
    x86_load64(b, RSI, TM(mem_busy_until));
    x86_store64(b, TM(dmiss_bus_end), RSI);
    x86_store64(b, TM(dmiss_ask), RAX);
    x86_load32(b, RSI, TM(fetch_line)); /* dmiss_line: the load's I-cache line */
    x86_store32(b, TM(dmiss_line), RSI);
  }
}

/* The fill routine of T_LOAD's or T_STORE's miss: in eax the address, in
 * edx the delta (now = cycle - delta); what core_jt_load_miss /
 * core_jt_store_miss do (timing_dcache_miss_lean and dmiss_wait, step by
 * step) with tm->cycle in r11. On the fallback eax is the address still.
 * Clobbers rax, rcx, rdx, rsi, rdi, r8, r9. */
static void emit_dfill_routine(x86_buf *b, timing *tm, bool store) {
  cache *c = &tm->dcache;
  uint8_t *to[10];
  int n = emit_fill_start(b, to, offsetof(timing, dcache_miss_fn), NULL, 0);
  if (tm->model.sram_size) { /* timing_in_sram */
    x86_mov_rr(b, RCX, RAX);
    x86_alu_ri(b, false, ALU_SUB, RCX, (int32_t)tm->model.sram_base);
    x86_alu_ri(b, false, ALU_CMP, RCX, (int32_t)tm->model.sram_size);
    to[n++] = x86_jcc_fwd(b, CC_B);
  }
  x86_mov_rr(b, RCX, RAX);
  x86_shift_ri(b, false, SH_SHR, RCX, (uint8_t)c->line_shift); /* tag */
  emit_fill_way(b, c, store, false, to, &n);
  emit_line_read(b, tm, c, tm->model.dcache.line, offsetof(timing, model.dcache.refill_cycles), false);
  if (tm->dfill_notes)
    emit_dfill_notes(b, store);
  /* the counts: the hit the block counted taken back, the miss's */
  x86_alu_mi64(b, ALU_SUB, SIG(store ? SIG_DCACHE_WRITE_HIT : SIG_DCACHE_READ_HIT), 1);
  x86_alu_mi64(b, ALU_ADD, SIG(store ? SIG_DCACHE_WRITE_MISS : SIG_DCACHE_READ_MISS), 1);
  x86_alu_mi64(b, ALU_ADD, SIG(SIG_MEM_READ), 1);
  x86_add_mr64(b, SIG(SIG_CYCLE), RCX);
  x86_add_mr64(b, SIG(SIG_STALL_DCACHE), RCX);
  const tally_signal_id sig[3] = {store ? SIG_DCACHE_WRITE_HIT : SIG_DCACHE_READ_HIT,
                                  store ? SIG_DCACHE_WRITE_MISS : SIG_DCACHE_READ_MISS, SIG_MEM_READ};
  const int8_t by[3] = {-1, 1, 1};
  emit_fill_rows(b, tm, sig, by, 3, SIG_STALL_DCACHE, store ? TIMING_SIDE_STORES : TIMING_SIDE_LOADS,
                 TIMING_SIDE_DSTALL);
  emit_fill_end(b, to, n);
}

/* The fill routine of an I-cache miss: in ecx the tag, in edx the delta;
 * timing_fetch_miss_lean step by step, with tm->cycle in r11; now in rax
 * after a fill (the caller sets insn_start and takes back what the block
 * counted). Clobbers rax, rcx, rdx, rsi, rdi, r8, r9. */
static void emit_ifill_routine(x86_buf *b, timing *tm) {
  cache *c = &tm->icache;
  uint8_t *to[10];
  const size_t more[2] = {offsetof(timing, reset_flush), offsetof(timing, hold_floor)};
  int n = emit_fill_start(b, to, offsetof(timing, icache_miss_fn), more, 2);
  emit_fill_way(b, c, false, true, to, &n);
  x86_mov_rr(b, RAX, RCX);
  x86_shift_ri(b, false, SH_SHL, RAX, (uint8_t)c->line_shift);
  x86_store32(b, TM(fetch_line), RAX);
  emit_line_read(b, tm, c, tm->model.icache.line, offsetof(timing, model.icache.refill_cycles), true);
  x86_store32(b, TM(fill_room), RCX);
  x86_alu_mi64(b, ALU_ADD, SIG(SIG_ICACHE_MISS), 1);
  x86_alu_mi64(b, ALU_ADD, SIG(SIG_MEM_READ), 1);
  x86_add_mr64(b, SIG(SIG_CYCLE), RCX);
  x86_add_mr64(b, SIG(SIG_STALL_ICACHE), RCX);
  const tally_signal_id sig[2] = {SIG_ICACHE_MISS, SIG_MEM_READ};
  const int8_t by[2] = {1, 1};
  emit_fill_rows(b, tm, sig, by, 2, SIG_STALL_ICACHE, TIMING_SIDE_FILLS, TIMING_SIDE_STALL);
  emit_fill_end(b, to, n);
}

/* The tail of a shared entry-check routine: fn(cpu, rsi's block) in C,
 * rsi and rdx kept across it (two pushes keep the stack's alignment),
 * then FITS's rax again (instret + the block's n_insns, emit_entry_regs)
 * and back to rdx */
static void emit_check_call(x86_buf *b, const void *fn) {
  x86_push(b, RSI);
  x86_push(b, RDX);
  x86_mov_rr64(b, RDI, RBX);
  x86_store64(b, CPU(instret), RI);
  x86_store64(b, TM(cycle), RC);
  x86_call_abs(b, fn);
  x86_load64(b, RI, CPU(instret));
  x86_load64(b, RC, TM(cycle));
  x86_pop(b, RDX);
  x86_pop(b, RSI);
  x86_load32(b, RAX, x86_m(RSI, (int32_t)offsetof(core_block, n_insns)));
  x86_alu_rr(b, true, ALU_ADD, RAX, RI);
  x86_op_reg(b, false, 0xff, 4, RDX); /* jmp rdx */
}

/* ENTER's region switch (timing_region_switch) for a block of another
 * address region than the current: rsi the block, rdx where its check
 * goes on, rax as FITS left it; clobbers rcx and rsi. One routine in the
 * code region, not a copy after each block's body for each of its ways
 * in (three with a clean entry): the copies made the blocks' code about
 * half as large again. */
static void emit_region_routine(x86_buf *b, const timing *tm) {
  x86_alu_mi32(b, ALU_CMP, TM(markers), 0); /* no open marker to close: inline */
  uint8_t *markers = x86_jcc_fwd(b, CC_NE);
  x86_load64(b, RCX, x86_m(RSI, (int32_t)offsetof(core_block, timing)));
  x86_movzx16(b, RCX, x86_m(RCX, (int32_t)offsetof(block_timing, region)));
  x86_store16(b, TM(region), RCX);
  /* the regions stay installed for as long as this code lives (a change flushes it) */
  x86_mov_imm64(b, RSI, (uint64_t)(uintptr_t)tm->regions);
  x86_store64(b, x86_m(RSI, (int32_t)offsetof(timing_regions, entered)), RC);
  x86_op_reg(b, true, 0x69, RCX, RCX); /* imul rcx, rcx, the bytes of a row */
  x86_u32(b, (uint32_t)(SIG_COUNT * sizeof *tm->regions->rows));
  x86_op_mem(b, true, 0x03, RCX, x86_m(RSI, (int32_t)offsetof(timing_regions, rows))); /* add rcx, [rows] */
  x86_store64(b, TM(region_row), RCX);
  x86_op_reg(b, false, 0xff, 4, RDX); /* jmp rdx */
  x86_patch_here(b, markers);
  emit_check_call(b, (const void *)(tm->prof ? core_jp_region : core_jr_region));
}

/* The PMU listing's entry (core_track) for a block not listed: its common
 * case inline, the list has room (the block's address stored at
 * cpu->dirty[ndirty++], its block_timing.listed set); registers as
 * emit_region_routine's */
static void emit_track_routine(x86_buf *b) {
  x86_load32(b, RCX, CPU(ndirty));
  x86_op_mem(b, false, 0x3b, RCX, CPU(dirty_cap)); /* cmp ecx, [dirty_cap] */
  uint8_t *full = x86_jcc_fwd(b, CC_E);
  x86_shift_ri(b, true, SH_SHL, RCX, 3);
  x86_op_mem(b, true, 0x03, RCX, CPU(dirty)); /* add rcx, [dirty] */
  x86_store64(b, x86_m(RCX, 0), RSI);
  x86_alu_mi32(b, ALU_ADD, CPU(ndirty), 1);
  x86_load64(b, RCX, x86_m(RSI, (int32_t)offsetof(core_block, timing)));
  x86_store_imm8(b, x86_m(RCX, (int32_t)offsetof(block_timing, listed)), 1);
  x86_op_reg(b, false, 0xff, 4, RDX); /* jmp rdx */
  x86_patch_here(b, full); /* a list to grow: in C */
  emit_check_call(b, (const void *)jit_track);
}

/* The fill routines for the run's timing model, and the entries' shared
 * checks (emit_region_routine, emit_track_routine), in front of the next
 * block when the code region has none for it since its last flush; false
 * when the region is full */
static bool ensure_fills(core_cpu *cpu) {
  core_jit *j = cpu->jit;
  timing *tm = cpu->tm;
  if (j->fill_tm == tm && j->fill_regions == (tm->regions != NULL) && j->fill_prof == (tm->prof != NULL))
    return true;
  x86_buf b = {.p = j->scratch, .start = j->scratch, .end = j->scratch + JIT_BLOCK_MAX_CODE,
               .at = (uintptr_t)j->code_next};
  bool rows_ok = !tm->sdram_rows || tm->row_shift;
  size_t at[3] = {SIZE_MAX, SIZE_MAX, SIZE_MAX};
  if (rows_ok && tm->lean_dfill)
    for (int k = 0; k < 2; k++) {
      at[k] = (size_t)(b.p - b.start);
      emit_dfill_routine(&b, tm, k == 1);
    }
  if (rows_ok && tm->lean_ifill && tm->icache.touch == CACHE_TOUCH_LRU2) {
    at[2] = (size_t)(b.p - b.start);
    emit_ifill_routine(&b, tm);
  }
  size_t region_at = SIZE_MAX, track_at = (size_t)(b.p - b.start);
  emit_track_routine(&b);
  if (tm->regions) {
    region_at = (size_t)(b.p - b.start);
    emit_region_routine(&b, tm);
  }
  uint8_t *base = j->code_next;
  if (b.overflow || !core_jit_commit(j, j->scratch, (size_t)(b.p - b.start)))
    return false;
  core_jit_perf_name(j, (uintptr_t)base, (size_t)(b.p - b.start), "jit_fill_routines");
  for (int k = 0; k < 3; k++)
    j->fill[k] = at[k] == SIZE_MAX ? NULL : base + at[k];
  j->track_routine = base + track_at;
  j->region_routine = region_at == SIZE_MAX ? NULL : base + region_at;
  j->fill_tm = tm;
  j->fill_regions = tm->regions != NULL;
  j->fill_prof = tm->prof != NULL;
  return true;
}

/* The fill routine (JIT_FILL_*) for a cold call, or 0 when it calls C.
 * With a profile, the instruction's row (row) is set first, as the C
 * helpers set it (MISS_ROW), and its side record (timing_side), which the
 * routine charges. */
static uintptr_t fill_routine(lower *l, int k, uint32_t delta, int64_t *row, uint32_t pc) {
  if (delta > INT32_MAX || !l->j->fill[k])
    return 0;
  if (l->prof) {
    const int64_t *side = timing_side(l->cpu->tm, pc, k != JIT_FILL_FETCH);
    if (!side)
      return 0;
    x86_mov_imm64(&l->b, RSI, (uint64_t)(uintptr_t)row);
    x86_store64(&l->b, TM(prof_row), RSI);
    x86_mov_imm64(&l->b, RSI, (uint64_t)(uintptr_t)side);
    x86_store64(&l->b, TM(prof_side), RSI);
  }
  return (uintptr_t)l->j->fill[k];
}

/* A D-cache fill's call (address in eax): on to the cold_call's resume
 * when it filled, else a jump (c->fallback) to its call in C, which
 * emit_cold_c lays out after all the cold calls */
static void emit_dfill_call(lower *l, cold_call *c, uintptr_t fn, uint32_t delta) {
  x86_buf *b = &l->b;
  x86_mov_imm32(b, RDX, delta);
  x86_call_near(b, fn);
  x86_test_rr(b, RCX, RCX);
  x86_jcc(b, CC_E, run_addr(l, c->resume));
  c->fallback = x86_jmp_fwd(b);
}

/* An I-cache fill's call for fetch op i (entry: the block's first
 * fetch): after a fill, what core_jt_ifetch_miss or core_jt_entry_fill
 * adds to timing_fetch_miss_lean (insn_start, the counts the block made),
 * then on to the resume; else a jump (c->fallback) to its call in C
 * (emit_cold_c) */
static void emit_ifill_call(lower *l, cold_call *c, uintptr_t fn, uint32_t delta, bool entry) {
  x86_buf *b = &l->b;
  const core_op *op = &l->blk->ops[c->op];
  x86_mov_imm32(b, RCX, (uint32_t)op->imm >> l->cpu->tm->icache.line_shift);
  x86_mov_imm32(b, RDX, delta);
  x86_call_near(b, fn);
  x86_test_rr(b, RCX, RCX);
  c->fallback = x86_jcc_fwd(b, CC_NE);
  /* insn_start: a fetch op right after another keeps the one it set */
  uint8_t *keep = NULL;
  if (!entry && op[-1].kind == K_IFETCH) {
    x86_mov_imm64(b, RDX, (uint64_t)(uintptr_t)(op - 1));
    x86_op_mem(b, true, 0x3b, RDX, TM(insn_start_op)); /* cmp rdx, [insn_start_op] */
    keep = x86_jcc_fwd(b, CC_E);
  }
  x86_store64(b, TM(insn_start), RAX);
  if (keep)
    x86_patch_here(b, keep);
  x86_mov_imm64(b, RDX, (uint64_t)(uintptr_t)op);
  x86_store64(b, TM(insn_start_op), RDX);
  if (entry) /* the lean fill's access (a fetch op's own was counted) */
    x86_alu_mi64(b, ALU_ADD, SIG(SIG_ICACHE_ACCESS), 1);
  else       /* the block's hit taken back */
    x86_alu_mi64(b, ALU_SUB, SIG(SIG_ICACHE_HIT), 1);
  /* the same on the rows (emit_fill_rows'); the instruction's through its
   * side record, where a fill takes the hit back unless it was an entry's */
  x86_mem sig = x86_m(RSI, 8 * (entry ? SIG_ICACHE_ACCESS : SIG_ICACHE_HIT));
  if (l->prof) {
    if (entry) {
      x86_load64(b, RSI, TM(prof_side));
      x86_alu_mi64(b, ALU_ADD, x86_m(RSI, 8 * TIMING_SIDE_ENTRY), 1);
    }
    x86_load64(b, RSI, TM(ctx_row));
    x86_alu_mi64(b, entry ? ALU_ADD : ALU_SUB, sig, 1);
  }
  if (l->regions) { /* region_row set (emit_fill_rows) */
    x86_load64(b, RSI, TM(region_row));
    x86_alu_mi64(b, entry ? ALU_ADD : ALU_SUB, sig, 1);
  }
  x86_jmp(b, run_addr(l, c->resume));
}

/* Jumps (returned) when a load or store of the cached VexRiscv models
 * may have its access moved by the block's entry wait (DNOW's
 * entry_later, not 0 while tm->entry_extra_on) or by waits charged or
 * taken back for the instructions after it (NOW's later_adj, not 0 while
 * tm->later_n: jit_vexc.c's helpers drop a record of another entry),
 * else NULL: the translated code then takes the access's cycle as NOW.
 * Clobbers rcx, rdx. */
static uint8_t *emit_dnow_test(lower *l) {
  const timing *tm = l->cpu->tm;
  if (!tm->model.fetch_ahead || !tm->fetch_ops)
    return NULL;
  x86_movzx8(&l->b, RCX, TM(entry_extra_on));
  x86_movzx8(&l->b, RDX, TM(later_n));
  x86_alu_rr(&l->b, false, ALU_OR, RCX, RDX);
  return x86_jcc_fwd(&l->b, CC_NE);
}

/* emit_dnow_test for a store, which takes the C path too while a store
 * right after fence.i is noted for its block (fence_store_on: its write
 * is timed from the flush, exec_loop.inc's fence_store_now): the three
 * flags are the bytes after entry_extra_any, read in one load; always a
 * jump (returned). Clobbers rcx. */
static uint8_t *emit_store_c_test(lower *l) {
  const timing *tm = l->cpu->tm;
  _Static_assert(offsetof(timing, entry_extra_on) == offsetof(timing, entry_extra_any) + 1 &&
                     offsetof(timing, later_n) == offsetof(timing, entry_extra_any) + 2 &&
                     offsetof(timing, fence_store_on) == offsetof(timing, entry_extra_any) + 3,
                 "the store's three flags in one word");
  if (tm->model.fetch_ahead && tm->fetch_ops) {
    x86_load32(&l->b, RCX, TM(entry_extra_any));
    x86_shift_ri(&l->b, false, SH_SHR, RCX, 8); /* ZF: all three clear */
  } else {
    x86_cmp_mem8_imm(&l->b, TM(fence_store_on), 0);
  }
  return x86_jcc_fwd(&l->b, CC_NE);
}

/* A hit with a store pending: timing_load_replay's way out when the
 * last store (and so the one before it) is more than 2 cycles before the
 * load (no longer pending) made here, back to c->resume; falls through to
 * the call otherwise (the replay's word compares; a last store not before
 * the load leaves the one before it to compare). `delta`: NOW =
 * tm->cycle - delta. Clobbers rcx, rdx. */
static void emit_pending_far(lower *l, const cold_call *c, uint32_t delta) {
  x86_buf *b = &l->b;
  uint8_t *later = emit_dnow_test(l);
  x86_mov_rr64(b, RCX, RC);
  x86_alu_ri(b, true, ALU_SUB, RCX, (int32_t)delta);     /* now */
  x86_load64(b, RDX, TM(store_now));
  x86_alu_rr(b, true, ALU_CMP, RCX, RDX);
  uint8_t *ahead = x86_jcc_fwd(b, CC_BE);
  x86_alu_rr(b, true, ALU_SUB, RCX, RDX);
  x86_alu_ri(b, true, ALU_CMP, RCX, 2);
  uint8_t *near = x86_jcc_fwd(b, CC_BE);
  x86_store_imm8(b, TM(store_pending), 0);
  x86_store_imm8(b, TM(prev_store_pending), 0);
  x86_jmp(b, run_addr(l, c->resume));
  x86_patch_here(b, near);
  x86_patch_here(b, ahead);
  if (later)
    x86_patch_here(b, later);
}

static void emit_store_through_call(lower *l, uint32_t i);

/* The call in C of a cache miss's cold_call (COLD_LOAD, COLD_STORE,
 * COLD_IFETCH, COLD_ENTRY: the plain run's helpers, or the same charging
 * the rows: with a profile the instruction's (its row's address, the last
 * argument), with regions alone the region's), rdi = tm set, then on to
 * the resume. The address of a data access in eax. */
static void emit_cold_c(lower *l, const cold_call *c) {
  x86_buf *b = &l->b;
  const block_timing *bt = l->blk->timing;
  const core_op *op = &l->blk->ops[c->op];
  uint32_t delta = bt->static_cycles - bt->ops[c->op].end; /* now = tm->cycle - delta */
  const miss_fns *m = l->prof ? &prof_miss : l->regions ? &regions_miss : &plain_miss;
  int64_t *row = l->prof ? timing_row(l->cpu->tm, l->blk->pcs[c->op]) : NULL;
  x86_mov_rr64(b, RDI, R15);
  switch (c->kind) {
  case COLD_LOAD: case COLD_STORE:
    x86_mov_rr(b, RSI, RAX);
    x86_mov_imm32(b, RDX, delta);
    x86_mov_imm64(b, RCX, (uint64_t)(uintptr_t)row);
    emit_call(l, c->kind == COLD_LOAD ? m->load : m->store);
    break;
  case COLD_IFETCH:
    x86_mov_imm64(b, RSI, (uint64_t)(uintptr_t)op);
    x86_mov_imm32(b, RDX, delta);
    x86_mov_imm32(b, RCX, (uint32_t)op->imm);
    x86_mov_imm32(b, R8, op[-1].kind == K_IFETCH);
    x86_mov_imm64(b, R9, (uint64_t)(uintptr_t)row);
    emit_call(l, m->ifetch);
    break;
  default: /* COLD_ENTRY */
    x86_mov_imm64(b, RSI, (uint64_t)(uintptr_t)op);
    x86_mov_imm32(b, RDX, bt->static_cycles);
    x86_mov_imm32(b, RCX, (uint32_t)op->imm);
    x86_mov_imm64(b, R8, (uint64_t)(uintptr_t)row);
    emit_call(l, m->entry);
    break;
  }
  x86_jmp(b, run_addr(l, c->resume));
}

/* the call of a cold_call; the address of a data access in eax. A miss
 * that a fill routine takes calls it here and jumps, when the routine
 * cannot fill, to its call in C (c->fallback, emit_cold_c), which the
 * caller lays out after all the block's cold calls: the ways a miss runs
 * (the routine's call and the way back) then lie close together in the
 * host's I-cache, the calls in C (65 to 85 bytes each, seldom run) apart. */
static void emit_cold(lower *l, cold_call *c) {
  x86_buf *b = &l->b;
  const block_timing *bt = l->blk->timing;
  const core_op *op = &l->blk->ops[c->op];
  uint32_t delta = bt->static_cycles - bt->ops[c->op].end; /* now = tm->cycle - delta */
  c->fallback = NULL;
  if (c->kind == COLD_LOAD_PEND)
    emit_pending_far(l, c, delta);
  if (c->kind == COLD_STORE_C) {
    emit_helper_call(l, (const void *)l->fn->store, c->op, true);
    x86_jmp(b, run_addr(l, c->resume));
    return;
  }
  if (c->kind == COLD_STORE_T) {
    emit_store_through_call(l, c->op);
    x86_jmp(b, run_addr(l, c->resume));
    return;
  }
  if (c->kind == COLD_IFETCH_C || c->kind == COLD_LOAD_C || c->kind == COLD_LOAD_PEND) {
    bool load = c->kind != COLD_IFETCH_C;
    emit_helper_call(l, load ? (const void *)l->fn->load : (const void *)l->fn->ifetch, c->op, load);
    x86_jmp(b, run_addr(l, c->resume));
    return;
  }
  /* with a profile the instruction's row (fill_routine) */
  int64_t *row = l->prof ? timing_row(l->cpu->tm, l->blk->pcs[c->op]) : NULL;
  /* the I-cache fill routine, for a line outside SRAM (timing_in_sram) */
  const timing *tm = l->cpu->tm;
  bool ilean = (uint32_t)op->imm - tm->model.sram_base >= tm->model.sram_size;
  uintptr_t fn;
  switch (c->kind) {
  case COLD_LOAD: case COLD_STORE:
    if ((fn = fill_routine(l, c->kind == COLD_STORE ? JIT_FILL_STORE : JIT_FILL_LOAD, delta, row,
                           l->blk->pcs[c->op])))
      emit_dfill_call(l, c, fn, delta);
    break;
  case COLD_IFETCH:
    if (ilean && (fn = fill_routine(l, JIT_FILL_FETCH, delta, row, l->blk->pcs[c->op])))
      emit_ifill_call(l, c, fn, delta, false);
    break;
  default: /* COLD_ENTRY */
    if (ilean && (fn = fill_routine(l, JIT_FILL_FETCH, bt->static_cycles, row, l->blk->pcs[c->op])))
      emit_ifill_call(l, c, fn, bt->static_cycles, true);
    break;
  }
  if (!c->fallback)
    emit_cold_c(l, c);
}

/* The cached VexRiscv models' T_LOAD of op i (the address in eax) with a
 * direct-mapped D-cache: a hit with no store pending ([dcache]
 * store_load_replay) charges nothing and changes nothing (cache_probe of
 * one way: no replacement state), so it is looked up inline; a miss or a
 * store pending calls jit_vexc.c's T_LOAD,
 * which looks the line up again, as the loop does, and takes its rules.
 * Clobbers rcx, rdx, rsi. */
static void emit_vexc_load(lower *l, uint32_t i) {
  x86_buf *b = &l->b;
  cache *c = &l->cpu->tm->dcache;
  x86_mov_rr(b, RCX, RAX);
  x86_shift_ri(b, false, SH_SHR, RCX, (uint8_t)c->line_shift); /* tag */
  x86_mov_rr(b, RDX, RCX);
  x86_alu_ri(b, false, ALU_AND, RDX, (int32_t)c->set_mask);   /* set: its one way's slot */
  x86_mov_imm64(b, RSI, (uint64_t)(uintptr_t)c->tags);
  x86_alu_rm(b, ALU_CMP, RCX, x86_mis(RSI, RDX, 2, 0));
  uint8_t *miss = x86_jcc_fwd(b, CC_NE);
  x86_cmp_mem8_imm(b, TM(store_pending), 0);
  uint8_t *pending = x86_jcc_fwd(b, CC_NE);
  add_cold(l, miss, COLD_LOAD_C, i);
  add_cold(l, pending, now_near(l, i) ? COLD_LOAD_PEND : COLD_LOAD_C, i);
}

/* Whether T_STORE of the cached VexRiscv models is timing_store_slow then
 * timing_note_store (a write-through D-cache with store_load_replay),
 * which emit_vexc_store calls as one (timing_store_through) */
static bool vexc_store_through(const lower *l, uint32_t i) {
  const timing *tm = l->cpu->tm;
  if (tm->model.wbuf_div_overlap) { /* a divide next, or the block's end: T_STORE's wbuf_div_overlap */
    uint32_t n = i + 1;
    while (n < l->blk->n_ops && l->blk->ops[n].kind == K_IFETCH)
      n++;
    if (n >= l->blk->n_ops || l->blk->ops[n].kind == K_FALLTHRU || isa_infos[l->blk->ops[n].kind].cls == CLASS_DIV)
      return false;
  }
  return l->vexc && tm->dcache_on && !tm->dcache_wb && tm->model.dcache.write_policy == WRITE_THROUGH &&
         tm->model.dcache.store_load_replay && !tm->vexmin && now_near(l, i);
}

/* timing_store_through(tm, eax, the store's size, NOW) for op i: one
 * call of four arguments, no lookup nor the block's ops read in C */
static void emit_store_through_call(lower *l, uint32_t i) {
  x86_buf *b = &l->b;
  const block_timing *bt = l->blk->timing;
  x86_mov_rr64(b, RDI, R15);
  x86_mov_rr(b, RSI, RAX);
  x86_mov_imm32(b, RDX, jit_access_size(l->blk->ops[i].kind));
  x86_mov_rr64(b, RCX, RC);
  x86_alu_ri(b, true, ALU_SUB, RCX, (int32_t)(bt->static_cycles - bt->ops[i].end)); /* NOW */
  emit_call(l, (const void *)timing_store_through);
}

/* Whether timing_store_through's common case can be stored inline: a
 * direct-mapped D-cache (one tag to compare), no SDRAM rows (the write's
 * time a constant), a write buffer of two or more entries, the word of
 * an address in its way by a mask (way_word) */
static bool vexc_store_inline(const lower *l) {
  const timing *tm = l->cpu->tm;
  return l->vexc_load && !tm->sdram_rows && tm->model.dcache.write_buffer >= 2 && tm->way_mask &&
         (!tm->max_wait_states || tm->n_mem_regions > 0);
}

/* Jumps (returned) unless the address in eax is in [base, base + size) */
static uint8_t *emit_outside(x86_buf *b, uint32_t base, uint64_t size) {
  x86_mov_rr(b, RCX, RAX);
  x86_alu_ri(b, false, ALU_SUB, RCX, (int32_t)base);
  x86_alu_ri(b, false, ALU_CMP, RCX, (int32_t)(uint32_t)size);
  return x86_jcc_fwd(b, CC_AE);
}

/* timing_store_through's gates for its common case, none of which the
 * inline store takes: no D-cache callback, the address outside the SRAM
 * and in the first address region (its wait states, a constant), and
 * room in the write buffer without a stall (every write drained at now,
 * or one pending with room for another: the completion cycles are in
 * order, each the port's busy end when written, which never goes back).
 * rdx is NOW; ecx the write's slot in the buffer. `to[]` gets the jumps
 * to the call, `*n` their count. */
static void emit_store_gates(lower *l, uint32_t delta, uint8_t **to, int *n) {
  x86_buf *b = &l->b;
  const timing *tm = l->cpu->tm;
  x86_alu_mi64(b, ALU_CMP, TM(dcache_miss_fn), 0);
  to[(*n)++] = x86_jcc_fwd(b, CC_NE);
  if (tm->model.sram_size) {
    uint8_t *out = emit_outside(b, tm->model.sram_base, tm->model.sram_size);
    to[(*n)++] = x86_jmp_fwd(b); /* inside the SRAM */
    x86_patch_here(b, out);
  }
  if (tm->max_wait_states && tm->mem_regions[0].size <= UINT32_MAX)
    to[(*n)++] = emit_outside(b, tm->mem_regions[0].base, tm->mem_regions[0].size);
  x86_mov_rr64(b, RDX, RC);
  x86_alu_ri(b, true, ALU_SUB, RDX, (int32_t)delta); /* now */
  x86_load32(b, RCX, TM(wbuf_count));
  x86_test_rr(b, RCX, RCX);
  uint8_t *empty = x86_jcc_fwd(b, CC_E);
  x86_load64(b, RSI, x86_mis(R15, RCX, 3, (int32_t)offsetof(timing, wbuf) - 8)); /* the newest */
  if (tm->model.dcache.write_buffer_late_ready)
    x86_alu_ri(b, true, ALU_ADD, RSI, 1);
  x86_alu_rr(b, true, ALU_CMP, RSI, RDX);
  uint8_t *drained = x86_jcc_fwd(b, CC_BE);
  x86_alu_ri(b, false, ALU_CMP, RCX, 1);
  to[(*n)++] = x86_jcc_fwd(b, CC_NE); /* two or more, not all drained */
  uint8_t *one = x86_jmp_fwd(b);
  x86_patch_here(b, drained);
  x86_patch_here(b, empty);
  x86_alu_rr(b, false, ALU_XOR, RCX, RCX);
  x86_patch_here(b, one);
}

/* buffered_write's common case past the gates (rdx now, ecx the slot):
 * the write queued behind the memory port, counted */
static void emit_buffered_write(lower *l) {
  x86_buf *b = &l->b;
  const timing *tm = l->cpu->tm;
  uint32_t busy = tm->mem_write_beat + (tm->max_wait_states ? tm->mem_regions[0].wait_states : 0);
  x86_load64(b, RSI, TM(mem_busy_until));
  x86_alu_rr(b, true, ALU_CMP, RSI, RDX);
  uint8_t *later = x86_jcc_fwd(b, CC_AE);
  x86_mov_rr64(b, RSI, RDX);
  x86_patch_here(b, later);
  x86_alu_ri(b, true, ALU_ADD, RSI, (int32_t)busy);
  x86_store64(b, TM(mem_busy_until), RSI);
  x86_store64(b, x86_mis(R15, RCX, 3, (int32_t)offsetof(timing, wbuf)), RSI);
  x86_alu_ri(b, false, ALU_ADD, RCX, 1);
  x86_store32(b, TM(wbuf_count), RCX);
  x86_alu_mi64(b, ALU_ADD, TM(sig_dyn[SIG_MEM_WRITE]), 1);
  x86_alu_mi64(b, ALU_ADD, TM(mem_write_beats), 1);
}

/* write_through's count and note_store_at past the write (rdx now): the
 * line looked up, a hit's store noted pending for store_load_replay */
static void emit_store_note(lower *l, uint32_t i) {
  x86_buf *b = &l->b;
  const timing *tm = l->cpu->tm;
  const cache *c = &tm->dcache;
  uint32_t bytes = jit_access_size(l->blk->ops[i].kind);
  /* note_store_at's redo_store_end: now the cycle after a fill's end */
  x86_load64(b, RSI, TM(dstall_end));
  x86_alu_ri(b, true, ALU_ADD, RSI, 1);
  x86_alu_rr(b, true, ALU_CMP, RSI, RDX);
  uint8_t *later = x86_jcc_fwd(b, CC_NE);
  x86_cmp_mem8_imm(b, TM(dstall_redo), 0);
  uint8_t *no_redo = x86_jcc_fwd(b, CC_E);
  x86_alu_ri(b, true, ALU_SUB, RSI, 1);
  x86_store64(b, TM(redo_store_end), RSI);
  x86_patch_here(b, later);
  x86_patch_here(b, no_redo);
  x86_mov_rr(b, RCX, RAX);
  x86_shift_ri(b, false, SH_SHR, RCX, (uint8_t)c->line_shift); /* tag */
  x86_mov_rr(b, RSI, RCX);
  x86_alu_ri(b, false, ALU_AND, RSI, (int32_t)c->set_mask);
  x86_mov_imm64(b, RDI, (uint64_t)(uintptr_t)c->tags);
  x86_alu_rm(b, ALU_CMP, RCX, x86_mis(RDI, RSI, 2, 0));
  uint8_t *miss = x86_jcc_fwd(b, CC_NE);
  x86_alu_mi64(b, ALU_ADD, TM(sig_dyn[SIG_DCACHE_WRITE_HIT]), 1);
  /* the store before it kept as prev_store_* (note_store_at) */
  x86_movzx8(b, RCX, TM(store_pending));
  x86_store8(b, TM(prev_store_pending), RCX);
  x86_movzx8(b, RCX, TM(store_mask));
  x86_store8(b, TM(prev_store_mask), RCX);
  x86_load32(b, RCX, TM(store_word));
  x86_store32(b, TM(prev_store_word), RCX);
  x86_load64(b, RCX, TM(store_now));
  x86_store64(b, TM(prev_store_now), RCX);
  x86_store_imm8(b, TM(store_pending), 1);
  x86_store64(b, TM(store_now), RDX);
  x86_mov_rr(b, RSI, RAX);
  x86_alu_ri(b, false, ALU_AND, RSI, (int32_t)tm->way_mask);
  x86_shift_ri(b, false, SH_SHR, RSI, 2);
  x86_store32(b, TM(store_word), RSI);
  x86_mov_rr(b, RCX, RAX);
  x86_alu_ri(b, false, ALU_AND, RCX, 3);
  x86_mov_imm32(b, RDX, (1u << bytes) - 1u); /* now is stored: rdx free */
  x86_shift_rcl(b, SH_SHL, RDX);
  x86_alu_ri(b, false, ALU_AND, RDX, 0xf); /* byte_mask */
  x86_store8(b, TM(store_mask), RDX);
  uint8_t *done = x86_jmp_fwd(b);
  x86_patch_here(b, miss);
  x86_alu_mi64(b, ALU_ADD, TM(sig_dyn[SIG_DCACHE_WRITE_MISS]), 1); /* no data RAM write: nothing noted */
  x86_patch_here(b, done);
}

/* T_STORE of op i, the address in eax, by timing_store_through with the
 * access's cycle as a constant less the cycle count, when the entry wait
 * moves no access and no store after fence.i is noted (emit_store_c_test),
 * else jit_vexc.c's T_STORE. Where it
 * can be (vexc_store_inline), timing_store_through's common case is
 * inline: no stall, nothing but counts, the write buffer's queue and the
 * pending store's note; the gates' failures call it. */
static void emit_vexc_store(lower *l, uint32_t i) {
  const block_timing *bt = l->blk->timing;
  forget_copies(l);
  uint8_t *later = emit_store_c_test(l);
  if (!vexc_store_inline(l)) {
    emit_store_through_call(l, i);
  } else {
    uint8_t *to[4];
    int n = 0;
    emit_store_gates(l, bt->static_cycles - bt->ops[i].end, to, &n);
    emit_buffered_write(l);
    emit_store_note(l, i);
    for (int k = 0; k < n; k++)
      add_cold(l, to[k], COLD_STORE_T, i);
  }
  l->eax_reg = -1;
  add_cold(l, later, COLD_STORE_C, i);
}

/* Whether data access i of a timed run (its lookup inline) may
 * skip its D-cache lookup when it falls on the line of an earlier data
 * access k of the block: k left the line in the cache (a load's and a
 * write-back store's miss fill it) and marked it used, so the lookup
 * would hit, change nothing (the same LRU bit; a store's dirty bit set
 * already when k was a store too) and charge nothing (the block counted
 * the hit), provided nothing between touched the line's set. Every data
 * access from k on uses i's base register, not written between, so each
 * is at a fixed distance from i's address; one closer than a way's bytes
 * is on i's line (touching it: no harm) or in another set. k is the
 * latest such access less than a line away; *d is its address minus
 * i's. A line outside RAM (k took its slow path) cannot be i's, as RAM
 * starts and ends on a line; SRAM is not cached, hence the model
 * without it. With a profile or address regions too: their inline hit is
 * the plain run's and charges no row, k's miss fills the line as the
 * plain run's does, and no call inside a block (a multiply's helper, a
 * watched store) touches the D-cache. */
static bool line_repeat(const lower *l, uint32_t i, bool store, int32_t *d) {
  const core_cpu *cpu = l->cpu;
  const timing *tm = cpu->tm;
  const core_op *ops = l->blk->ops;
  int32_t line = (int32_t)(1u << tm->dcache.line_shift);
  int32_t way = (int32_t)((tm->dcache.set_mask + 1) << tm->dcache.line_shift);
  if (tm->model.sram_size || !tm->dcache_wb ||
      ((cpu->ram_base | cpu->ram_size) & (uint32_t)(line - 1)))
    return false;
  unsigned base = ops[i].rs1;
  for (uint32_t j = i; j-- > 0;) {
    uint8_t cls = isa_infos[ops[j].kind].cls;
    if (cls == CLASS_LOAD || cls == CLASS_STORE) {
      int32_t dj = ops[j].imm - ops[i].imm;
      if (ops[j].rs1 != base || dj <= -way || dj >= way || (cls == CLASS_LOAD && ops[j].rd == base))
        return false;
      if (dj > -line && dj < line && (!store || cls == CLASS_STORE)) {
        *d = dj;
        return true;
      }
      continue;
    }
    if (ops[j].kind != K_IFETCH && ops[j].kind != K_NOP && cls != CLASS_ALU && cls != CLASS_MUL && cls != CLASS_DIV)
      return false; /* a fence, or anything else: no look further */
    if (ops[j].rd == base)
      return false;
  }
  return false;
}

/* A value of tm->loop_dline on no line of RAM */
static uint32_t no_dline(const core_cpu *cpu) {
  uint32_t line = 1u << cpu->tm->dcache.line_shift;
  return cpu->ram_base >= line ? cpu->ram_base - line : cpu->ram_base + cpu->ram_size;
}

/* loop_dline_ok but for the loop copy being lowered */
static bool dline_block_ok(const lower *l) {
  const core_cpu *cpu = l->cpu;
  const timing *tm = cpu->tm;
  uint32_t line = 1u << tm->dcache.line_shift;
  if (tm->model.sram_size || !tm->dcache_wb || ((cpu->ram_base | cpu->ram_size) & (line - 1)) ||
      (cpu->ram_base < line && cpu->ram_size > UINT32_MAX - cpu->ram_base - line))
    return false;
  int kind = -1;
  for (uint32_t j = 0; j < l->blk->n_ops; j++) {
    uint8_t k = l->blk->ops[j].kind, cls = isa_infos[k].cls;
    if (cls == CLASS_LOAD || cls == CLASS_STORE) {
      if (kind >= 0) /* two: in turn on two streams' lines (edn's), the skip never comes and costs 5 a lookup */
        return false;
      kind = cls;
    } else if (k != K_IFETCH && k != K_NOP && cls != CLASS_ALU && cls != CLASS_MUL && cls != CLASS_DIV &&
               !(cls == CLASS_BRANCH && j == l->blk->n_ops - 1)) {
      return false;
    }
  }
  return kind >= 0 && (kind == CLASS_LOAD ? l->inline_load && !l->vexc_load : l->inline_store) && !l->vexc &&
         !jit_pico_inline_access(tm) && !jit_vexmin_inline_access(tm);
}

/* Whether the loop copy's data accesses (their lookups inline) skip the
 * lookup of a line the loop copy's latest lookup was on, across its
 * rounds: each lookup (a hit or a miss, which fills the line: line_repeat's
 * models) leaves the address in tm->loop_dline first; the loop's entry
 * and each access's RAM slow path (a watched store calls C, which may
 * touch the set) leave it on no line (no_dline). Between the latest
 * lookup and the access nothing touched the D-cache: the block's other
 * ops are fetch ops, ALU ops, multiplies, divides and its ending branch
 * (no call of theirs touches it, as line_repeat's), the round's way back
 * none, and its way out leaves the loop (its next entry forgets). So the
 * line is there and the latest used in its set: the lookup would hit and
 * change nothing, the latest being the same access (a store's dirty
 * bit set already): the block has one data access. */
static bool loop_dline_ok(const lower *l) {
  return l->looping && dline_block_ok(l);
}


/* T_LOAD or T_STORE of op i, the address in eax: the lookup inline when
 * it can be, the call on a miss out of line */
static void emit_data_access(lower *l, uint32_t i, bool store) {
  if (l->vexc_load && !store) {
    emit_vexc_load(l, i);
    return;
  }
  if (store && vexc_store_through(l, i)) {
    emit_vexc_store(l, i);
    return;
  }
  if (jit_pico_inline_access(l->cpu->tm)) {
    jit_pico_emit_access(&l->b, l->blk, i, store);
    return;
  }
  if (jit_vexmin_inline_access(l->cpu->tm)) {
    jit_vexmin_emit_access(&l->b, store);
    return;
  }
  if (!(store ? l->inline_store : l->inline_load)) {
    emit_helper_call(l, store ? (const void *)l->fn->store : (const void *)l->fn->load, i, true);
    return;
  }
  int32_t d;
  bool repeat = line_repeat(l, i, store, &d);
  if (repeat && d == 0) /* the same address: the line is there, marked used */
    return;
  int32_t line = (int32_t)(1u << l->cpu->tm->dcache.line_shift);
  uint8_t *same = NULL;
  if (repeat) {
    /* the previous access's address (eax + d) on the same line: skip */
    x86_lea64(&l->b, RCX, x86_m(RAX, d));
    x86_alu_rr(&l->b, false, ALU_XOR, RCX, RAX);
    x86_alu_ri(&l->b, false, ALU_AND, RCX, -line);
    same = x86_jcc_fwd(&l->b, CC_E);
  }
  uint8_t *again = NULL;
  if (loop_dline_ok(l)) { /* the latest lookup of the loop copy on the same line: skip; else this one the latest */
    x86_mov_rr(&l->b, RCX, RAX);
    x86_alu_rm(&l->b, ALU_XOR, RCX, TM(loop_dline));
    x86_alu_ri(&l->b, false, ALU_AND, RCX, -line);
    again = x86_jcc_fwd(&l->b, CC_E);
    x86_store32(&l->b, TM(loop_dline), RAX);
  }
  cache *dc = &l->cpu->tm->dcache;
  if (dc->mru_tag) {
    uint8_t *other = emit_probe_addr_mru(l, dc, store);
    add_cold(l, other, store ? COLD_STORE : COLD_LOAD, i);
    l->cold[l->ncold - 1].back = l->b.p;
  } else {
    uint8_t *miss = emit_probe_addr(l, dc, store);
    add_cold(l, miss, store ? COLD_STORE : COLD_LOAD, i);
  }
  if (same)
    x86_patch_here(&l->b, same);
  if (again)
    x86_patch_here(&l->b, again);
}

/* The line tm->fetch_line holds when fetch op i (i > 0) of a plain timed
 * run's block runs: the entry leaves the first op's there, each fetch op
 * its own, and nothing else inside a block changes it (a trap or a taken
 * branch leaves the block) */
static uint32_t line_before(const core_block *blk, uint32_t i) {
  while (--i > 0 && blk->ops[i].kind != K_IFETCH)
    ;
  return (uint32_t)blk->ops[i].imm;
}

/* The direct-mapped I-cache's lookup of line `line` by the cached
 * VexRiscv models: the line fetched last jumps to *same; a hit on another
 * makes it the line fetched last and falls through; a miss takes the
 * jump returned. Both jumps are left for the caller to place. */
static uint8_t *emit_vexc_line_lookup(lower *l, const cache *c, uint32_t line, uint8_t **same) {
  x86_buf *b = &l->b;
  uint32_t tag = line >> c->line_shift;
  x86_alu_mi32(b, ALU_CMP, TM(fetch_line), (int32_t)line);
  *same = x86_jcc_fwd(b, CC_E);
  x86_mov_imm64(b, RAX, (uint64_t)(uintptr_t)&c->tags[tag & c->set_mask]);
  x86_alu_mi32(b, ALU_CMP, x86_m(RAX, 0), (int32_t)tag);
  uint8_t *miss = x86_jcc_fwd(b, CC_NE);
  x86_store_imm32(b, TM(fetch_line), line);
  return miss;
}

/* The cached VexRiscv models' T_IFETCH of fetch op i with a
 * direct-mapped I-cache: a hit on a line not fetched last only makes it
 * the line fetched last (timing_fetch_hit; one way: no replacement
 * state), so it is looked up inline; the same line again (its pulses
 * taken back) or a miss (the rules: fetch_ahead, refill_passes_late)
 * calls jit_vexc.c's T_IFETCH, which compares and looks up again, as the
 * loop does. The line is compared always: a charge called in the block
 * (a load's redo, a jump's wrong path) may have moved it. */
static void emit_vexc_ifetch(lower *l, uint32_t i) {
  uint8_t *same;
  uint8_t *miss = emit_vexc_line_lookup(l, &l->cpu->tm->icache, (uint32_t)l->blk->ops[i].imm, &same);
  add_cold(l, same, COLD_IFETCH_C, i);
  add_cold(l, miss, COLD_IFETCH_C, i);
  l->eax_reg = -1;
  forget_copies(l); /* the calls clobber them */
}

static bool round_counted(const lower *l);

/* Whether op k of a timed block is lowered inline with neither a call,
 * a slow path nor a way out: an ALU op or a multiply that makes no
 * T_MULDIV charge, on a model with no vexmin steps */
static bool reads_no_line(const lower *l, uint32_t k) {
  const core_op *op = &l->blk->ops[k];
  uint8_t c = isa_infos[op->kind].cls;
  if (l->cpu->tm->vexmin || (c != CLASS_ALU && c != CLASS_MUL) || muldiv_calls(l, op))
    return false;
  return !(l->cpu->tm->dynamic_muldiv && jit_muldiv_dynamic(l->cpu->tm, op->kind));
}

/* Whether the counted loop copy (round_counted) may store fetch op i's
 * line on its way on past the ending branch only (emit_branch): only ops
 * that read no line (reads_no_line) come between, the taken branch stores
 * none, the round stores the first op's line and its way out forgets the
 * line, so the way on is the only one that reads it */
static bool fall_line_ok(const lower *l, uint32_t i) {
  if (!round_counted(l))
    return false;
  for (uint32_t k = i + 1; k + 1 < l->blk->n_ops; k++)
    if (!reads_no_line(l, k))
      return false;
  return isa_infos[l->blk->ops[l->blk->n_ops - 1].kind].cls == CLASS_BRANCH;
}

/* T_IFETCH of fetch op i (not the first) */
static void emit_ifetch(lower *l, uint32_t i) {
  if (l->vexc_fetch) {
    emit_vexc_ifetch(l, i);
    return;
  }
  if (!l->inline_fetch) {
    emit_timed_call(l, (const void *)l->fn->ifetch, i);
    return;
  }
  x86_buf *b = &l->b;
  cache *c = &l->cpu->tm->icache;
  uint32_t line = (uint32_t)l->blk->ops[i].imm;
  if (l->looping) { /* a hit on the line, its LRU bit as it is (loop_ok) */
    if ((l->fall_store = fall_line_ok(l, i)))
      l->fall_line = line;
    else
      x86_store_imm32(b, TM(fetch_line), line);
    l->eax_reg = -1;
    return;
  }
  /* the line compared with the one fetched last, unless known to differ
   * (the block builder makes a fetch op where the line changes): the
   * code of straight-line programs is mostly fetch ops otherwise. With a
   * profile or regions too: their helpers and fill routines set
   * tm->fetch_line only to a line they fetch, as the plain run's do, and
   * none fetches inside a block but its own fetch ops. */
  uint8_t *same = NULL;
  if (line_before(l->blk, i) == line) {
    x86_alu_mi32(b, ALU_CMP, TM(fetch_line), (int32_t)line);
    same = x86_jcc_fwd(b, CC_E);
  }
  uint8_t *miss;
  uint8_t *mru = emit_probe_mru(l, c, line >> c->line_shift, &miss);
  uint8_t *back = b->p;
  x86_store_imm32(b, TM(fetch_line), line);
  uint32_t from = l->ncold;
  add_cold_fetch(l, mru, back, miss, COLD_IFETCH, i);
  if (same)
    add_cold(l, same, COLD_IFETCH_C, i); /* the line fetched already: its pulses taken back */
  l->eax_reg = -1;
  /* the lookup clobbers rax and rcx alone; its calls save the copies held */
  uint8_t save = 0;
  for (int r = 0; r < NCOPY; r++)
    if (l->held[r] >= 0 && copy_pushed(r))
      save |= (uint8_t)(1u << r);
  for (uint32_t k = from; k < l->ncold; k++) {
    l->cold[k].save = save;
    for (int r = 0; r < NCOPY; r++)
      l->cold[k].dirty[r] = l->dirty[r] ? l->held[r] : -1;
  }
}

static void emit_vexc_taken(lower *l, uint32_t i);

/* T_BRANCH(0) with the VexRiscv rules of a branch not taken at op i. Not
 * predicted taken (the fall-through fetched already), it leaves no rule
 * but its penalty, its outcome and the redirect's note ([pipeline]
 * csr_drain: NOW, the penalty as its bubbles), inline; a jump's refill
 * wait moved to this block's end (taken_path_move) calls jit_vexc.c's
 * T_BRANCH(0) for the whole, as does a branch predicted taken
 * (predicted_target_fill, the decompressor's rules). */
static void emit_vexc_fall(lower *l, uint32_t i) {
  x86_buf *b = &l->b;
  const block_timing *bt = l->blk->timing;
  const timing *tm = l->cpu->tm;
  uint64_t pen = bt->branch_pen[0];
  if (bt->predict_taken || pen > INT32_MAX || !now_near(l, i)) {
    emit_timed_call(l, (const void *)core_jvexc_fall, i);
    return;
  }
  forget_copies(l); /* the same copies stored on both ways */
  uint8_t *done = NULL;
  if (tm->model.taken_path_fill) {
    x86_alu_mi32(b, ALU_CMP, TM(taken_path_move), 0);
    uint8_t *none = x86_jcc_fwd(b, CC_E);
    emit_timed_call(l, (const void *)core_jvexc_fall, i);
    done = x86_jmp_fwd(b);
    x86_patch_here(b, none);
  }
  if (pen)
    x86_alu_ri(b, true, ALU_ADD, RC, (int32_t)pen);
  x86_alu_mi64(b, ALU_ADD, BT(outcomes[0]), 1);
  if (tm->model.csr_drain) { /* timing_note_redirect(tm, NOW, pen) */
    x86_mov_rr64(b, RCX, RC);
    x86_alu_ri(b, true, ALU_SUB, RCX, (int32_t)(bt->static_cycles - bt->ops[i].end));
    x86_store64(b, TM(redirect_end), RCX);
    x86_store_imm32(b, TM(drain_bubbles), (uint32_t)pen);
  }
  if (done)
    x86_patch_here(b, done);
  l->eax_reg = -1;
}

/* T_BRANCH(taken) */
static void emit_branch_timing(lower *l, uint32_t taken) {
  x86_buf *b = &l->b;
  block_timing *bt = l->blk->timing;
  if (l->vexc && taken) { /* T_BRANCH with the VexRiscv rules (jit_vexc.c) */
    emit_vexc_taken(l, l->cur);
    return;
  }
  if (l->vexc) {
    emit_vexc_fall(l, l->cur);
    return;
  }
  if (bt->branch_pen[taken] > INT32_MAX) {
    emit_timed_call(l, (const void *)l->fn->branch, taken);
    return;
  }
  if (bt->branch_pen[taken])
    x86_alu_ri(b, true, ALU_ADD, RC, (int32_t)bt->branch_pen[taken]);
  if (l->prof) { /* T_OUTCOME: the block's record in its context (ctx_count.h) */
    x86_load64(b, RCX, BT(cc));
    x86_alu_mi64(b, ALU_ADD, x86_m(RCX, (int32_t)(offsetof(ctx_count, outcomes) + 8 * taken)), 1);
  } else {
    x86_alu_mi64(b, ALU_ADD, BT(outcomes[taken]), 1);
  }
  if (taken)
    x86_store_imm32(b, TM(fetch_line), TIMING_NO_LINE);
  if (taken && l->cpu->tm->vexmin) /* vexmin_taken (jit_vex.c) */
    jit_vexmin_emit_taken(b);
}

/* rax = instret + n_insns: what the entry's checks leave for the rest
 * of it (after a call from them) */
static void emit_entry_regs(lower *l) {
  x86_lea64(&l->b, RAX, x86_m(RI, (int32_t)l->blk->n_insns));
}

/* calls fn(cpu, a, b) (32-bit arguments) */
static void emit_call2(lower *l, const void *fn, uint32_t a, uint32_t b2) {
  x86_mov_rr64(&l->b, RDI, RBX);
  x86_mov_imm32(&l->b, RSI, a);
  x86_mov_imm32(&l->b, RDX, b2);
  emit_call(l, fn);
  l->eax_reg = -1;
  forget_copies(l); /* the call clobbers them */
}

/* With a profile: T_BRANCH_LEAVES(taken) and T_FALLTHRU, a way out of
 * the block that leaves the function (block_timing.leaves, a constant of
 * the block), from the instruction at last_pc */
static void emit_prof_leave(lower *l, unsigned bit, uint32_t last_pc, uint32_t target) {
  if (l->prof && (l->blk->timing->leaves >> bit & 1u))
    emit_call2(l, (const void *)core_jp_leave, last_pc, target);
}

/* A call site of the code for the profile's inline call, or NULL when
 * JIT_CALL_SITES are taken (the call is then made in C) */
static timing_call_site *new_call_site(lower *l, uint32_t i) {
  core_jit *j = l->j;
  if (!j->sites && !(j->sites = calloc(JIT_CALL_SITES, sizeof *j->sites)))
    return NULL;
  if (j->nsites == JIT_CALL_SITES)
    return NULL;
  timing_call_site *s = &j->sites[j->nsites++];
  *s = (timing_call_site){.site = l->blk->pcs[i], .ret_addr = l->blk->end_pc};
  return s;
}

/* PROF(field): the profile's field at its layout's offset (rdi: the
 * profile) */
#define PROF(lay, field) x86_m(RDI, (int32_t)(lay)->field)
/* FRAME(disp): disp bytes into the frame at depth (rdx: the frames, r8:
 * twice the depth, times 8: a frame is 16 bytes, timing_flow_layout) */
#define FRAME(disp) x86_mis(RDX, R8, 3, disp)

/* The profile's last_cycle up to now (prof_account): the cycles since
 * go to the context on top, the frame at FRAME(disp). Only the sanitizer
 * build counts them (to check the law; clobbers rsi) and reads
 * last_cycle between the calls and returns in C: elsewhere only a
 * timeline reads it, and while one is kept every call and return is made
 * in C (timing_flow_layout), so the inline ones leave it. */
static void emit_prof_account(lower *l, const timing_flow_layout *lay, int32_t top_disp) {
#ifdef TALLY_CHECK_LAWS
  x86_buf *b = &l->b;
  x86_op_mem(b, true, 0x3b, RC, PROF(lay, last_cycle)); /* cmp r11, [last_cycle] */
  uint8_t *past = x86_jcc_fwd(b, CC_BE);
  x86_load64(b, R9, FRAME(top_disp + (int32_t)lay->frame_node));
  x86_mov_rr64(b, RSI, RC);
  x86_op_mem(b, true, 0x2b, RSI, PROF(lay, last_cycle)); /* sub rsi, [last_cycle] */
  x86_op_mem(b, true, 0x01, RSI, x86_m(R9, (int32_t)lay->node_self)); /* add [top's self], rsi */
  x86_store64(b, PROF(lay, last_cycle), RC);
  x86_patch_here(b, past);
#else
  (void)l, (void)lay, (void)top_disp;
#endif
}

/* timing.ctx_row = the signals of the context in r9 */
static void emit_ctx_row(lower *l, const timing_flow_layout *lay) {
  x86_buf *b = &l->b;
  x86_lea64(b, R9, x86_m(R9, (int32_t)lay->node_sig));
  x86_store64(b, TM(ctx_row), R9);
  if (l->cpu->tm->ctx_tab_zero) { /* timing.ctx_tab = its table (prof_node.ctx_tab, the word before the
                                     row: the empty one when it has none, timing_flow_layout) */
    x86_load64(b, RSI, x86_m(R9, -(int32_t)sizeof(ctx_count **)));
    x86_store64(b, TM(ctx_tab), RSI);
  }
}

/* The jumps to C of an inline call, return or tail call: its own two
 * and emit_site_probe's five */
#define PROF_SLOW 7

/* An inline call's or tail call's way to the profile's cache of contexts
 * by call, out of line (emit_site_probe): the jumps there from
 * emit_site_match and where it goes back */
typedef struct site_probe {
  uint8_t *other[2];
  uintptr_t join;
} site_probe;

/* A call site's record checked against the frame stack, depth in ecx: the
 * context `under` bytes below the frame at depth (FRAME: rdx the stack,
 * r8 twice the depth) must be the record's parent and the target in eax its
 * target; then rcx is the record's child. A jal's target is its constant,
 * the one C writes into the record with the parent (flow_call_site), which
 * no frame holds NULL: its parent's match is enough. Else on to the
 * probe's jumps (emit_site_probe). */
static void emit_site_match(lower *l, const timing_flow_layout *lay, const timing_call_site *s, int32_t under,
                            bool jal, site_probe *pr) {
  x86_buf *b = &l->b;
  x86_load64(b, RDX, PROF(lay, stack));
  x86_lea64(b, R8, x86_mis(RCX, RCX, 0, 0)); /* r8 = 2 * depth: FRAME */
  x86_load64(b, R9, FRAME((int32_t)lay->frame_node - under));
  x86_mov_imm64(b, RSI, (uint64_t)(uintptr_t)s);
  x86_op_mem(b, true, 0x3b, R9, x86_m(RSI, (int32_t)offsetof(timing_call_site, parent)));
  pr->other[0] = x86_jcc_fwd(b, CC_NE);
  pr->other[1] = NULL;
  if (!jal) {
    x86_alu_rm(b, ALU_CMP, RAX, x86_m(RSI, (int32_t)offsetof(timing_call_site, target)));
    pr->other[1] = x86_jcc_fwd(b, CC_NE);
  }
  x86_load64(b, RCX, x86_m(RSI, (int32_t)offsetof(timing_call_site, child)));
  pr->join = run_addr(l, b->p);
}

/* Out of line, from emit_site_match's jumps when the record holds another
 * parent or target (a function called from several contexts, a
 * recursion): the child looked for in the profile's cache of contexts by
 * call, as its C lookup reads it first (timing_site_slot; rdi the
 * profile, r9 the parent, eax the target); found, it goes to the record
 * as the call in C would put it there (flow_call_site) and to rcx, and
 * back to the inline code. The jumps returned go to C. */
static void emit_site_probe(lower *l, const timing_flow_layout *lay, const timing_call_site *s,
                            const site_probe *pr, uint8_t *slow[5]) {
  x86_buf *b = &l->b;
  x86_patch_here(b, pr->other[0]);
  x86_patch_here(b, pr->other[1]);
  x86_mov_rr64(b, RSI, R9);
  x86_shift_ri(b, true, SH_SHR, RSI, 4);
  x86_imul_rri(b, RSI, RSI, TIMING_SITE_HASH);
  x86_alu_ri(b, false, ALU_ADD, RSI, (int32_t)(s->site >> 1));
  x86_alu_ri(b, false, ALU_AND, RSI, (int32_t)lay->site_mask);
  x86_load64(b, RSI, x86_mis(RDI, RSI, 3, (int32_t)lay->site_cache));
  x86_test_rr64(b, RSI, RSI);
  slow[0] = x86_jcc_fwd(b, CC_E);
  x86_op_mem(b, true, 0x3b, R9, x86_m(RSI, (int32_t)lay->node_parent));
  slow[1] = x86_jcc_fwd(b, CC_NE);
  x86_alu_rm(b, ALU_CMP, RAX, x86_m(RSI, (int32_t)lay->node_func));
  slow[2] = x86_jcc_fwd(b, CC_NE);
  x86_alu_mi32(b, ALU_CMP, x86_m(RSI, (int32_t)lay->node_site), (int32_t)s->site);
  slow[3] = x86_jcc_fwd(b, CC_NE);
  x86_cmp_mem8_imm(b, x86_m(RSI, (int32_t)lay->node_trap), 0);
  slow[4] = x86_jcc_fwd(b, CC_NE);
  x86_mov_imm64(b, RCX, (uint64_t)(uintptr_t)s);
  x86_store64(b, x86_m(RCX, (int32_t)offsetof(timing_call_site, parent)), R9);
  x86_store64(b, x86_m(RCX, (int32_t)offsetof(timing_call_site, child)), RSI);
  x86_store32(b, x86_m(RCX, (int32_t)offsetof(timing_call_site, target)), RAX);
  x86_mov_rr64(b, RCX, RSI);
  x86_jmp(b, pr->join);
}

/* The common call inline (timing_flow_layout), the target in eax (kept):
 * the jumps returned go to the call in C. */
static void emit_inline_call(lower *l, const timing_flow_layout *lay, const timing_call_site *s, bool jal,
                             uint8_t *slow[PROF_SLOW], site_probe *pr) {
  x86_buf *b = &l->b;
  x86_mov_imm64(b, RDI, (uint64_t)(uintptr_t)l->cpu->tm->prof);
  x86_load32(b, RCX, PROF(lay, depth));
  x86_alu_rm(b, ALU_CMP, RCX, PROF(lay, cap)); /* 0 while a timeline is kept */
  slow[0] = x86_jcc_fwd(b, CC_AE);
  slow[1] = NULL;
  emit_site_match(l, lay, s, 16, jal, pr); /* the caller's context, under the new frame */
  emit_prof_account(l, lay, -16);
  x86_mov_rr64(b, R9, RCX);
  x86_store64(b, FRAME((int32_t)lay->frame_node), R9);
  x86_store_imm32(b, FRAME((int32_t)lay->frame_ret), s->ret_addr);
  x86_load32(b, RCX, XREG(2));
  x86_store32(b, FRAME((int32_t)lay->frame_sp), RCX);
  x86_alu_mi32(b, ALU_ADD, PROF(lay, depth), 1);
  x86_alu_mi64(b, ALU_ADD, x86_m(R9, (int32_t)lay->node_calls), 1);
  emit_ctx_row(l, lay);
}

/* The return to the newest frame inline, the target in eax (kept) */
static void emit_inline_ret(lower *l, const timing_flow_layout *lay, uint8_t *slow[PROF_SLOW]) {
  x86_buf *b = &l->b;
  x86_mov_imm64(b, RDI, (uint64_t)(uintptr_t)l->cpu->tm->prof);
  x86_load32(b, RCX, PROF(lay, depth));
  /* the top frame must not be the root's (nor any while a timeline is kept) */
  x86_alu_rm(b, ALU_CMP, RCX, PROF(lay, floor));
  slow[0] = x86_jcc_fwd(b, CC_BE);
  slow[1] = NULL;
  x86_alu_ri(b, false, ALU_SUB, RCX, 1);
  x86_load64(b, RDX, PROF(lay, stack));
  x86_lea64(b, R8, x86_mis(RCX, RCX, 0, 0)); /* r8 = 2 * depth: FRAME */
  x86_alu_rm(b, ALU_CMP, RAX, FRAME((int32_t)lay->frame_ret));
  slow[2] = x86_jcc_fwd(b, CC_NE);
  slow[3] = NULL;
  emit_prof_account(l, lay, 0);
  x86_store32(b, PROF(lay, depth), RCX);
  x86_load64(b, R9, FRAME((int32_t)lay->frame_node - 16));
  emit_ctx_row(l, lay);
}

/* The common tail call inline, the target in eax (kept): the newest
 * frame's context becomes the call site's child (its return address and
 * stack pointer stay); the jumps returned go to the tail call in C. */
static void emit_inline_tail(lower *l, const timing_flow_layout *lay, const timing_call_site *s,
                             uint8_t *slow[PROF_SLOW], site_probe *pr) {
  x86_buf *b = &l->b;
  x86_mov_imm64(b, RDI, (uint64_t)(uintptr_t)l->cpu->tm->prof);
  x86_load32(b, RCX, PROF(lay, depth));
  /* above the root's and a task's frame (never while a timeline is kept) */
  x86_alu_rm(b, ALU_CMP, RCX, PROF(lay, tail));
  slow[0] = x86_jcc_fwd(b, CC_B);
  slow[1] = NULL;
  emit_site_match(l, lay, s, 32, true, pr); /* the caller's caller, under the top frame (a jal's) */
  emit_prof_account(l, lay, -16);
  x86_mov_rr64(b, R9, RCX);
  x86_store64(b, FRAME((int32_t)lay->frame_node - 16), R9);
  x86_alu_mi64(b, ALU_ADD, x86_m(R9, (int32_t)lay->node_calls), 1);
  emit_ctx_row(l, lay);
}

/* With a profile: T_JUMP of the jal or jalr at op i, when it can be a
 * call, a return or a tail call (profile_jump of exec_loop.inc; a jal's
 * case is known now), the target in eax (kept) */
static void emit_prof_jump(lower *l, uint32_t i) {
  if (!l->prof)
    return;
  const core_op *op = &l->blk->ops[i];
  uint32_t pulses = l->blk->timing->ops[i].pulses;
  bool may = (pulses & (1u << SIG_CALL | 1u << SIG_RET)) != 0 ||
             (op->rd == CORE_REG_SINK && (op->kind == K_JALR || (l->blk->timing->leaves & 4u) != 0));
  if (!may)
    return;
  if (pulses & (1u << SIG_CALL | 1u << SIG_RET)) {
    /* a call or a return: inline when the shadow stack allows it
     * (timing_flow_layout), else the profile's own function, called from
     * here with the arguments profile_jump gives it (no block is being
     * stepped while translated code runs: core_fold_context has nothing
     * to fold); the target kept in cpu->pc across the call */
    x86_buf *b = &l->b;
    const timing *tm = l->cpu->tm;
    const timing_flow_layout *lay = tm->flow->layout;
    bool call = (pulses & (1u << SIG_CALL)) != 0;
    timing_call_site *s = call && lay ? new_call_site(l, i) : NULL;
    uint8_t *slow[PROF_SLOW] = {NULL}, *done = NULL;
    forget_copies(l);
    if (lay && (s || !call)) {
      site_probe pr;
      if (call)
        emit_inline_call(l, lay, s, op->kind == K_JAL, slow, &pr);
      else
        emit_inline_ret(l, lay, slow);
      done = x86_jmp_fwd(b);
      if (call)
        emit_site_probe(l, lay, s, &pr, slow + 2);
      for (int k = 0; k < PROF_SLOW; k++)
        x86_patch_here(b, slow[k]);
    }
    x86_store32(b, CPU(pc), RAX);
    x86_mov_imm64(b, RDI, (uint64_t)(uintptr_t)tm->prof);
    if (s) { /* call_site(f, s, target, sp, now) */
      x86_mov_imm64(b, RSI, (uint64_t)(uintptr_t)s);
      x86_mov_rr(b, RDX, RAX);
      x86_load32(b, RCX, XREG(2));
      x86_mov_rr64(b, R8, RC);
      emit_call(l, (const void *)tm->flow->call_site);
    } else if (call) { /* call(f, site, target, ret_addr, sp, now) */
      x86_mov_rr(b, RDX, RAX);
      x86_mov_imm32(b, RSI, l->blk->pcs[i]);
      x86_mov_imm32(b, RCX, l->blk->end_pc);
      x86_load32(b, R8, XREG(2));
      x86_mov_rr64(b, R9, RC);
      emit_call(l, (const void *)tm->flow->call);
    } else { /* ret(f, target, sp, now) */
      x86_mov_rr(b, RSI, RAX);
      x86_load32(b, RDX, XREG(2));
      x86_mov_rr64(b, RCX, RC);
      emit_call(l, (const void *)tm->flow->ret);
    }
    x86_load32(b, RAX, CPU(pc));
    if (done)
      x86_patch_here(b, done);
    l->eax_reg = -1;
    return;
  }
  const timing *tm = l->cpu->tm;
  const timing_flow_layout *lay = tm->flow->layout;
  timing_call_site *s = op->kind == K_JAL && lay ? new_call_site(l, i) : NULL;
  if (s) { /* a jal that leaves the function: a tail call, inline in its common case */
    x86_buf *b = &l->b;
    uint8_t *slow[PROF_SLOW] = {NULL};
    forget_copies(l);
    site_probe pr;
    emit_inline_tail(l, lay, s, slow, &pr);
    uint8_t *done = x86_jmp_fwd(b);
    emit_site_probe(l, lay, s, &pr, slow + 2);
    for (int k = 0; k < PROF_SLOW; k++)
      x86_patch_here(b, slow[k]);
    x86_store32(b, CPU(pc), RAX); /* tail_call_site(f, s, target, now) */
    x86_mov_imm64(b, RDI, (uint64_t)(uintptr_t)tm->prof);
    x86_mov_imm64(b, RSI, (uint64_t)(uintptr_t)s);
    x86_mov_rr(b, RDX, RAX);
    x86_mov_rr64(b, RCX, RC);
    emit_call(l, (const void *)tm->flow->tail_call_site);
    x86_load32(b, RAX, CPU(pc));
    x86_patch_here(b, done);
    l->eax_reg = -1;
    return;
  }
  emit_helper_call(l, (const void *)core_jp_jump, i, true);
  l->eax_reg = -1;
}

/* FITS and ENTER of a timed block (enter_block_timed of exec_loop.inc,
 * without the rules of the models not translated): both horizons checked
 * (the jumps to *nofit2 and the one returned leave at the block's
 * address), late results of the block before go to C (*slow), so does a
 * first fetch that misses (*miss); the rest inline. */
/* FITS of a timed block: both horizons (the jumps to nofit[0] and
 * nofit[1] leave at the block's address); rax = instret + n_insns */
static void emit_timed_fits(lower *l, uint8_t *nofit[2]) {
  x86_buf *b = &l->b;
  x86_lea64(b, RAX, x86_m(RI, (int32_t)l->blk->n_insns));
  x86_op_mem(b, true, 0x3b, RAX, CPU(horizon)); /* cmp rax, [horizon] */
  nofit[0] = x86_jcc_fwd(b, CC_A);
  x86_lea64(b, RCX, x86_m(RC, (int32_t)l->blk->timing->max_cycles));
  x86_op_mem(b, true, 0x3b, RCX, CPU(cycle_horizon));
  nofit[1] = x86_jcc_fwd(b, CC_A);
}

/* ENTER's charges past FITS and the test of late results (rax as FITS
 * left it): the counts, the hazards the block leaves (unless `hz` is
 * false: they are the block's already), its static cycles and its
 * execution */
static void emit_timed_charges(lower *l, bool hz) {
  x86_buf *b = &l->b;
  block_timing *bt = l->blk->timing;
  x86_mov_rr64(b, RI, RAX);
#ifdef TALLY_CHECK_LAWS
  x86_store64(b, TM(law_entry), RC);
#endif
  if (hz) {
    uint32_t tail;
    memcpy(&tail, &bt->tail_hz, sizeof tail);
    x86_store_imm32(b, TM(hz), tail);
  }
  x86_alu_ri(b, true, ALU_ADD, RC, (int32_t)bt->static_cycles);
  if (l->prof) { /* the profiled loop counts per context only (ctx_count.h) */
    if (!l->cc_rcx)
      x86_load64(b, RCX, BT(cc));
    l->cc_rcx = false;
    x86_alu_mi64(b, ALU_ADD, x86_m(RCX, (int32_t)offsetof(ctx_count, execs)), 1);
  } else {
    x86_alu_mi64(b, ALU_ADD, BT(execs), 1);
  }
}

/* ENTER's test of late results of the block before: the jump taken when
 * there are */
static uint8_t *emit_late_test(lower *l) {
  x86_buf *b = &l->b;
  /* test dword [hz], left[0] | left[1] (the size ENTER's store writes) */
  uint32_t left_mask = 0;
  memset((uint8_t *)&left_mask + offsetof(timing_hazards, left), 0xff, sizeof l->blk->timing->tail_hz.left);
  x86_op_mem(b, false, 0xf7, 0, TM(hz));
  x86_u32(b, left_mask);
  return x86_jcc_fwd(b, CC_NE);
}

/* [dcache] refill_refetch_wait: a fill's taken-back waits carried to this
 * entry (tm->rrw_on) go to C (exec_loop.inc's rrw_enter): cmp byte
 * [rrw_on], 0 and the jump returned */
static uint8_t *emit_rrw_test(lower *l) {
  x86_buf *b = &l->b;
  x86_op_mem(b, false, 0x80, ALU_CMP, TM(rrw_on));
  x86_byte(b, 0);
  return x86_jcc_fwd(b, CC_NE);
}

/* ENTER's static part after FITS (rax as it left it): late results of
 * the block before go to C (the jump returned), else the counts, the
 * hazards the block leaves, its static cycles and its execution */
static uint8_t *emit_timed_enter(lower *l) {
  uint8_t *slow = emit_late_test(l);
  emit_timed_charges(l, true);
  return slow;
}

/* The loop entry's first fetch: a hit that changes nothing. The entry
 * clears tm->insn_start_op; its rounds (round) leave it cleared: only a
 * fetch op's miss writes it, and the loop copy looks up no line. */
static void emit_loop_fetch(lower *l, bool round) {
  x86_buf *b = &l->b;
  if (!round)
    x86_store_imm64s(b, TM(insn_start_op), 0);
  x86_store_imm32(b, TM(fetch_line), (uint32_t)l->blk->ops[0].imm);
  if (l->prof) { /* the block's record in its context (ctx_count.h), in rcx
                  * as ENTER's charges just left it (emit_timed_charges) */
    x86_alu_mi64(b, ALU_ADD, x86_m(RCX, (int32_t)offsetof(ctx_count, entry_hits)), 1);
  } else {
    x86_alu_mi64(b, ALU_ADD, BT(entry_hits), 1);
  }
  l->eax_reg = -1;
  forget_copies(l);
}

/* The loop copy's entry (loop_ok): FITS and ENTER as the block's own
 * entry makes them, after a taken branch back from the block's end (so
 * rbp is the block's timing still, and the first fetch is on a new line),
 * its first line's lookup a hit that changes nothing */
static void emit_loop_entry(lower *l) {
  x86_buf *b = &l->b;
  l->loop_entry = x86_here(b);
  for (uint32_t k = 0; k < l->nloop_from; k++)
    x86_patch_here(b, l->loop_from[k]);
  emit_timed_fits(l, l->loop_nofit);
  l->loop_slow = emit_timed_enter(l);
  emit_loop_fetch(l, false);
  if (dline_block_ok(l)) /* loop_dline_ok: no lookup yet */
    x86_store_imm32(b, TM(loop_dline), no_dline(l->cpu));
  l->loop_body = x86_here(b);
}

/* whether the block leaves a late result to the next (tail_hz) */
static bool leaves_late(const core_block *blk) {
  const timing_hazards *t = &blk->timing->tail_hz;
  bool late = false;
  for (size_t k = 0; k < sizeof t->left / sizeof t->left[0]; k++)
    late |= t->left[k] != 0;
  return late;
}

/* Whether a short block entered with late results may leave one of them
 * to the next: ENTER's timing_hazard_entry leaves tm->hz what passes
 * through its instructions (block_timing.short_block), which tail_hz, made
 * from an empty start, does not hold. Each of its instructions takes at
 * least its base cycles off every late result, and none is later than the
 * model's latest (hazard_bound / TIMING_HEADS), so when the block's base
 * cycles reach that none passes. They do on the shipped models that take
 * the clean entries (tally5, tally5-wt, dsp500: a result at most one
 * cycle late); with a longer load-use penalty a block of a jump alone
 * passes a load's result on (jit_shortblock.S) */
static bool passes_late(const lower *l) {
  const block_timing *bt = l->blk->timing;
  if (!bt->short_block)
    return false;
  uint32_t base = 0;
  for (uint32_t k = 0; k < bt->n_head; k++)
    base += bt->head[k].base;
  return base < l->cpu->tm->hazard_bound / TIMING_HEADS;
}

/* whether a load of the block missing the D-cache may change the late
 * results it leaves (exec_loop.inc's dmiss_clears_late, [dcache]
 * refill_refetch): a load after a late result in the block */
static bool dmiss_may_clear(const lower *l) {
  const core_block *blk = l->blk;
  if (!l->cpu->tm->model.dcache.refill_refetch && !l->cpu->tm->model.dcache.redo_refill_wait)
    return false;
  bool late = false;
  for (uint32_t i = 0; i < blk->n_ops; i++) {
    uint8_t k = blk->ops[i].kind;
    if (k == K_IFETCH || k == K_FALLTHRU)
      continue;
    if (late && isa_infos[k].cls == CLASS_LOAD)
      return true;
    late |= blk->timing->ops[i].late != 0;
  }
  return false;
}

/* Whether the loop copy's taken branch back to itself goes round without
 * its entry's test and store (emit_loop_round): the block leaves no late
 * result and no missing load may change what it leaves (dmiss_may_clear) */
static bool round_direct(const lower *l) {
  return !leaves_late(l->blk) && !dmiss_may_clear(l);
}

/* Whether the loop copy's direct way round counts its rounds in one count
 * (block_timing.rounds) for the three equal ones the block's records hold
 * (execs, outcomes[1], entry_hits), and leaves the taken branch's
 * fetch_line store to its way out: a plain timed run (with a profile the
 * counts are the context's record's), the branch's penalty inline
 * (emit_branch_timing) and no vexmin rule after it */
static bool round_counted(const lower *l) {
  return l->looping && round_direct(l) && !l->prof && !l->cpu->tm->vexmin &&
         l->blk->timing->branch_pen[1] <= INT32_MAX;
}

/* The loop copy's taken branch back to itself. The loop copy is run only
 * from its entry, which left tm->hz the block's tail_hz (with late
 * results the entry goes on in the block's own body, so a short block
 * that passes them on, passes_late, never runs its loop copy with them;
 * jit_shortblock.S), and nothing in a
 * plain timed block changes it but a way out or a missing load after a
 * late result (dmiss_may_clear): when neither, and the block leaves no
 * late result, the test of late results would pass and the store write
 * what is there, so the way round leaves both out; else it goes to the
 * entry. When round_counted, the branch before it counted nothing and
 * left tm->fetch_line as the round's last fetch set it: the round adds one
 * to block_timing.rounds (block.c adds it to execs, outcomes[1] and
 * entry_hits where the records are read) and sets the line of the loop's
 * first fetch, and its way out when FITS fails counts the branch taken and
 * forgets the line there, as the branch would have. A round leaves
 * tm->insn_start_op as the entry cleared it (emit_loop_fetch). */
static void emit_loop_round(lower *l) {
  x86_buf *b = &l->b;
  if (!round_direct(l)) {
    x86_jmp(b, l->loop_entry);
    return;
  }
  if (!round_counted(l)) {
    emit_timed_fits(l, l->loop_nofit + 2);
    emit_timed_charges(l, false);
    emit_loop_fetch(l, true);
    x86_jmp(b, l->loop_body);
    return;
  }
  uint8_t *nofit[2];
  emit_timed_fits(l, nofit);
  x86_mov_rr64(b, RI, RAX);
#ifdef TALLY_CHECK_LAWS
  x86_store64(b, TM(law_entry), RC);
#endif
  x86_alu_ri(b, true, ALU_ADD, RC, (int32_t)l->blk->timing->static_cycles);
  x86_alu_mi64(b, ALU_ADD, BT(rounds), 1);
  /* with no other fetch op the line is the one the loop entry set: nothing
   * inside a block but its fetch ops changes it (a redirect, a trap or a
   * fence.i leaves the block) */
  bool more = false;
  for (uint32_t k = 1; k < l->blk->n_ops; k++)
    more |= l->blk->ops[k].kind == K_IFETCH;
  if (more)
    x86_store_imm32(b, TM(fetch_line), (uint32_t)l->blk->ops[0].imm);
  l->eax_reg = -1;
  forget_copies(l);
  x86_jmp(b, l->loop_body);
  x86_patch_here(b, nofit[0]);
  x86_patch_here(b, nofit[1]);
  x86_alu_mi64(b, ALU_ADD, BT(outcomes[1]), 1);
  x86_store_imm32(b, TM(fetch_line), TIMING_NO_LINE);
  l->loop_nofit[2] = x86_jmp_fwd(b);
}

/* With a profile or address regions, whether the loop copy's entry may
 * leave out the block entry's checks (the record of the context on top,
 * the region, the listing of blocks entered): round the loop nothing
 * changes them. The ending branch taken stays in the function (a way out
 * that leaves it changes the context, block_timing.leaves), and no op
 * calls out to what could: a CSR (a PMU access may fold the whole cache,
 * after which the block must be listed again at its next entry; a marker
 * write switches regions), a system op, a fence or an atomic. */
static bool rows_loop_ok(const lower *l) {
  const core_block *blk = l->blk;
  if (l->prof && (blk->timing->leaves & 2u))
    return false;
  for (uint32_t i = 0; i < blk->n_ops; i++) {
    uint8_t cls = isa_infos[blk->ops[i].kind].cls;
    if (cls == CLASS_CSR || cls == CLASS_SYSTEM || cls == CLASS_FENCE || cls == CLASS_AMO)
      return false;
  }
  return true;
}

/* Whether blk is lowered with a loop copy (lower.loop_ok): a timed run
 * with the I-cache looked up inline (with a profile or address regions
 * when rows_loop_ok; the PMU loop's listing alone, not), a branch back to
 * the block's start, and the block's lines in sets of their own, none of
 * them in the on-chip SRAM (fetched there without the I-cache, so never
 * in it: each lookup misses, and the miss takes the fetch op's counts
 * back) */
static bool loop_copy_ok(const lower *l) {
  const core_block *blk = l->blk;
  const cache *c = &l->cpu->tm->icache;
  if (!l->inline_fetch || (l->track && !l->regions) || l->cpu->tm->pico)
    return false;
  if ((l->prof || l->regions) && !rows_loop_ok(l))
    return false;
  bool back = false;
  for (uint32_t i = 0; i < blk->n_ops; i++)
    back |= isa_infos[blk->ops[i].kind].cls == CLASS_BRANCH && (uint32_t)blk->ops[i].imm == blk->pc;
  if (!back)
    return false;
  for (uint32_t i = 0; i < blk->n_ops; i++) {
    if (blk->ops[i].kind != K_IFETCH)
      continue;
    if (timing_in_sram(l->cpu->tm, (uint32_t)blk->ops[i].imm))
      return false;
    uint32_t set = ((uint32_t)blk->ops[i].imm >> c->line_shift) & c->set_mask;
    for (uint32_t j = i + 1; j < blk->n_ops; j++)
      if (blk->ops[j].kind == K_IFETCH && (((uint32_t)blk->ops[j].imm >> c->line_shift) & c->set_mask) == set)
        return false;
  }
  return true;
}

/* Whether the block gets a clean entry and its exits after a taken
 * branch or jump go to their targets' (lower.clean): a timed run with the
 * I-cache looked up inline, as for the loop copy, where nothing inside a
 * block changes tm->hz but a way out (emit_loop_round). With a profile,
 * address regions or the PMU listing too: each of its ways in makes
 * ENTER's checks after FITS (emit_entry_checks), and their helpers and
 * the profile's calls and returns change neither tm->hz nor
 * tm->fetch_line. */
static bool clean_ok(const lower *l) {
  return l->inline_fetch && !l->cpu->tm->pico &&
         (uint32_t)l->blk->ops[0].imm != TIMING_NO_LINE;
}

/* Whether the block's entry finds its record in the context's table
 * (timing.ctx_tab, ctx_count.h): a cached block with a slot there */
static bool ctx_tab_ok(const lower *l) {
  return l->blk->cached && l->blk->timing->ctx_id && l->cpu->tm->ctx_tab_zero;
}

/* ENTER's checks after FITS (rax as it left it), with a profile, address
 * regions or the PMU listing: inline compares, their slow paths out of
 * line (emitted after the body, each back here with rax again) */
static void emit_entry_checks(lower *l) {
  x86_buf *b = &l->b;
  uint32_t k = l->nchecks++;
  if (l->regions) { /* a block of another region switches it */
    x86_cmp_mem16_imm(b, TM(region), l->blk->timing->region);
    l->region_slow[k] = x86_jcc_fwd(b, CC_NE);
    l->region_back[k] = run_addr(l, b->p);
  }
  if (l->track && l->blk->cached) { /* the PMU loop's: a block not listed is listed (a
                                     * prefix block of stepping never is) */
    x86_cmp_mem8_imm(b, BT(listed), 0);
    l->track_slow[k] = x86_jcc_fwd(b, CC_E);
    l->track_back[k] = run_addr(l, b->p);
  }
  if (l->prof && ctx_tab_ok(l)) { /* the block's record in the context on top: its table's slot (ctx_count.h) */
    x86_load64(b, RSI, TM(ctx_tab));
    x86_load64(b, RCX, x86_m(RSI, (int32_t)((l->blk->timing->ctx_id - 1) * sizeof(ctx_count *))));
    x86_test_rr64(b, RCX, RCX);
    l->ctx_slow[k] = x86_jcc_fwd(b, CC_E);
    x86_store64(b, BT(cc), RCX);
    l->ctx_back[k] = run_addr(l, b->p);
    l->cc_rcx = true; /* each slow path comes back with it (emit_check_paths) */
  } else if (l->prof) { /* the block's record in the context on top (ctx_count.h) */
    x86_load64(b, RCX, BT(cc));
    x86_load64(b, RSI, TM(ctx_row));
    x86_op_mem(b, true, 0x3b, RSI, x86_m(RCX, (int32_t)offsetof(ctx_count, row))); /* cmp rsi, [rcx + row] */
    l->ctx_slow[k] = x86_jcc_fwd(b, CC_NE);
    l->ctx_back[k] = run_addr(l, b->p);
    l->cc_rcx = true; /* each slow path comes back with it (emit_check_paths) */
  }
}

/* Whether the clean and same entries get twins that leave tm->hz as it
 * is (lower.clean_hz_same): a plain timed run, where ENTER makes no
 * checks after FITS */
static bool hz_same_ok(const lower *l) { return !l->prof && !l->regions && !l->track; }

/* The entry of a clean_ok block: the block's own (the tests of late
 * results and of the line fetched last, out of line when either holds),
 * then the clean entry (FITS, ENTER's charges, the first line's lookup) */
static uint8_t *emit_clean_entry(lower *l, uint8_t **nofit2) {
  x86_buf *b = &l->b;
  core_block *blk = l->blk;
  cache *c = &l->cpu->tm->icache;
  uint32_t line = (uint32_t)blk->ops[0].imm;
  l->pre_slow = emit_late_test(l);
  x86_alu_mi32(b, ALU_CMP, TM(fetch_line), (int32_t)line);
  l->pre_same = x86_jcc_fwd(b, CC_E);
  l->clean = run_addr(l, b->p);
  x86_mov_imm64(b, RBP, (uint64_t)(uintptr_t)blk->timing);
  uint8_t *fit[2];
  emit_timed_fits(l, fit);
  *nofit2 = fit[1];
  emit_entry_checks(l);
  emit_timed_charges(l, true);
  l->clean_after = b->p; /* the clean entry's twin goes on here (emit_pre_paths) */
  x86_store_imm64s(b, TM(insn_start_op), 0);
  uint8_t *m;
  uint8_t *mru = emit_probe_mru(l, c, line >> c->line_shift, &m);
  uint8_t *back = b->p;
  x86_store_imm32(b, TM(fetch_line), line);
  if (l->prof) { /* the block's record in its context (ctx_count.h) */
    x86_load64(b, RSI, BT(cc));
    x86_alu_mi64(b, ALU_ADD, x86_m(RSI, (int32_t)offsetof(ctx_count, entry_hits)), 1);
  } else {
    x86_alu_mi64(b, ALU_ADD, BT(entry_hits), 1);
  }
  add_cold_fetch(l, mru, back, m, COLD_ENTRY, 0);
  l->eax_reg = -1;
  return fit[0];
}

/* The clean entry's ways round it from the block's own (emit_clean_entry),
 * out of line: with late results, FITS and on to the entry in C (`slow`,
 * which the loop copy's entry jumps to too); on the line fetched last,
 * FITS and ENTER's charges, and on to the body */
static void emit_pre_paths(lower *l, uintptr_t body) {
  x86_buf *b = &l->b;
  if (l->pre_same) {
    x86_patch_here(b, l->pre_same);
    l->same = run_addr(l, b->p);
    x86_mov_imm64(b, RBP, (uint64_t)(uintptr_t)l->blk->timing);
    emit_timed_fits(l, l->pre_nofit + 2);
    emit_entry_checks(l);
    emit_timed_charges(l, true);
    x86_store_imm64s(b, TM(insn_start_op), 0);
    x86_jmp(b, body);
    if (hz_same_ok(l)) { /* the clean entry's twin: on past its charges */
      l->clean_hz_same = run_addr(l, b->p);
      x86_mov_imm64(b, RBP, (uint64_t)(uintptr_t)l->blk->timing);
      emit_timed_fits(l, l->pre_nofit + 4);
      emit_timed_charges(l, false);
      x86_jmp(b, run_addr(l, l->clean_after));
    }
    if (hz_same_ok(l)) {
      l->same_hz_same = run_addr(l, b->p);
      x86_mov_imm64(b, RBP, (uint64_t)(uintptr_t)l->blk->timing);
      emit_timed_fits(l, l->pre_nofit + 6);
      emit_timed_charges(l, false);
      x86_store_imm64s(b, TM(insn_start_op), 0);
      x86_jmp(b, body);
    }
  }
  if (l->pre_slow) {
    x86_patch_here(b, l->pre_slow);
    x86_mov_imm64(b, RBP, (uint64_t)(uintptr_t)l->blk->timing);
    emit_timed_fits(l, l->pre_nofit);
    emit_entry_checks(l); /* then ENTER in C, which makes none (enter_slow) */
    l->cc_rcx = false;
  }
}

/* The record of the block in the context on top (rsi), when it is in the
 * first or second slot of its key in the table (ctx_count.h): it becomes
 * the block's cc and goes to its cache slot (rdx: its address, as
 * core_ctx_count_find puts it there), and on to `back`. The jumps in
 * `miss` go to the call in C. Clobbers rdi, r8, r9, as the call would. */
static void emit_ctx_probe(lower *l, uint8_t *miss[3]) {
  x86_buf *b = &l->b;
  const core_ctx_counts *t = l->cpu->ctx_counts; /* the core's for as long as it lives */
  x86_mov_rr64(b, R8, RSI);
  x86_shift_ri(b, true, SH_SHR, R8, 3);
  x86_mov_imm64(b, R9, CTX_HASH_ROW_MUL);
  x86_imul_rr64(b, R8, R9);
  x86_mov_imm64(b, R9, ctx_hash_bt(l->blk->timing));
  x86_alu_rr(b, true, ALU_XOR, R8, R9);
  x86_alu_ri(b, true, ALU_OR, R8, 1); /* r8 = the key's hash */
  x86_mov_imm64(b, RDI, (uint64_t)(uintptr_t)t);
  x86_mov_rr64(b, R9, R8);
  x86_shift_ri(b, true, SH_SHR, R9, 32);
  x86_alu_rm(b, ALU_AND, R9, x86_m(RDI, (int32_t)offsetof(core_ctx_counts, mask)));
  x86_shift_ri(b, true, SH_SHL, R9, 4);
  _Static_assert(sizeof(ctx_slot) == 16, "a slot is 16 bytes");
  x86_op_mem(b, true, 0x03, R9, x86_m(RDI, (int32_t)offsetof(core_ctx_counts, slots))); /* add r9, [slots] */
  x86_op_mem(b, true, 0x3b, R8, x86_m(R9, (int32_t)offsetof(ctx_slot, hash)));         /* cmp r8, [r9 + hash] */
  uint8_t *first = x86_jcc_fwd(b, CC_E);
  /* the slot after it, unwrapped: past the last, the table's empty one */
  x86_alu_ri(b, true, ALU_ADD, R9, (int32_t)sizeof(ctx_slot));
  x86_op_mem(b, true, 0x3b, R8, x86_m(R9, (int32_t)offsetof(ctx_slot, hash)));
  miss[0] = x86_jcc_fwd(b, CC_NE);
  x86_patch_here(b, first);
  x86_load64(b, R8, x86_m(R9, (int32_t)offsetof(ctx_slot, r)));
  x86_op_mem(b, true, 0x3b, RSI, x86_m(R8, (int32_t)offsetof(ctx_count, row))); /* cmp rsi, [r8 + row] */
  miss[1] = x86_jcc_fwd(b, CC_NE);
  x86_op_mem(b, true, 0x3b, RBP, x86_m(R8, (int32_t)offsetof(ctx_count, bt))); /* cmp rbp, [r8 + bt] */
  miss[2] = x86_jcc_fwd(b, CC_NE);
  x86_store64(b, x86_m(RDX, 0), R8);
  x86_store64(b, BT(cc), R8);
  x86_mov_rr64(b, RCX, R8); /* the record, where the entry's checks leave it */
}

/* to a shared entry-check routine (ensure_fills) with the block in rsi
 * and the way back in rdx */
static void emit_to_check_routine(lower *l, const uint8_t *routine, uintptr_t back) {
  x86_mov_imm64(&l->b, RSI, (uint64_t)(uintptr_t)l->blk);
  x86_lea_rip(&l->b, RDX, back);
  x86_jmp(&l->b, (uintptr_t)routine);
}

/* The slow paths of the k-th set of ENTER's checks (emit_entry_checks):
 * each back where its check was, with FITS's registers again */
static void emit_check_paths(lower *l, uint32_t k) {
  x86_buf *b = &l->b;
  if (l->region_slow[k]) { /* ENTER's region switch: the shared routine */
    x86_patch_here(b, l->region_slow[k]);
    emit_to_check_routine(l, l->j->region_routine, l->region_back[k]);
  }
  if (l->track_slow[k]) { /* the block is listed: the shared routine */
    x86_patch_here(b, l->track_slow[k]);
    emit_to_check_routine(l, l->j->track_routine, l->track_back[k]);
  }
  if (l->ctx_slow[k]) { /* ENTER's record of the block in another context */
    x86_patch_here(b, l->ctx_slow[k]);
    if (ctx_tab_ok(l)) /* its table's slot empty: as without the table, from the context's row */
      x86_load64(b, RSI, TM(ctx_row));
    /* the block's cache slot for the context on top (rsi; ctx_way), as
     * core_ctx_count_find tries it, with no call: rdx its address */
    x86_mov_rr64(b, RDX, RSI);
    x86_shift_ri(b, true, SH_SHR, RDX, 3);
    x86_mov_imm64(b, R8, CTX_HASH_ROW_MUL);
    x86_imul_rr64(b, RDX, R8);
    x86_shift_ri(b, true, SH_SHR, RDX, CTX_WAY_SHIFT);
    x86_lea64(b, RDX, x86_mis(RBP, RDX, 3, (int32_t)offsetof(block_timing, ccw)));
    x86_load64(b, R8, x86_m(RDX, 0));
    x86_op_mem(b, true, 0x3b, RSI, x86_m(R8, (int32_t)offsetof(ctx_count, row))); /* cmp rsi, [r8 + row] */
    uint8_t *other = x86_jcc_fwd(b, CC_NE);
    x86_store64(b, BT(cc), R8);
    x86_mov_rr64(b, RCX, R8); /* the record, where the entry's checks leave it */
    x86_jmp(b, l->ctx_back[k]);
    x86_patch_here(b, other);
    uint8_t *miss[3] = {NULL, NULL, NULL};
    if (l->blk->cached) { /* a block in no cache has the step record (core_ctx_count_find) */
      emit_ctx_probe(l, miss);
      x86_jmp(b, l->ctx_back[k]);
    }
    for (int i = 0; i < 3; i++)
      if (miss[i])
        x86_patch_here(b, miss[i]);
    emit_timed_call(l, (const void *)core_jp_ctx, 0);
    emit_entry_regs(l);
    x86_load64(b, RCX, BT(cc)); /* the record core_ctx_count_find found */
    x86_jmp(b, l->ctx_back[k]);
  }
}

static uint8_t *emit_timed_entry(lower *l, uint8_t **nofit2, uint8_t **slow, uint8_t **miss) {
  x86_buf *b = &l->b;
  core_block *blk = l->blk;
  block_timing *bt = blk->timing;
  timing *tm = l->cpu->tm;
  x86_mov_imm64(b, RBP, (uint64_t)(uintptr_t)bt);
  uint8_t *fit[2];
  emit_timed_fits(l, fit);
  uint8_t *nofit = fit[0];
  *nofit2 = fit[1];
  emit_entry_checks(l);
  *slow = emit_timed_enter(l);
  *miss = NULL;
  if (tm->fetch_ops) {
    x86_store_imm64s(b, TM(insn_start_op), 0);
    uint32_t line = (uint32_t)blk->ops[0].imm;
    x86_alu_mi32(b, ALU_CMP, TM(fetch_line), (int32_t)line);
    uint8_t *same = x86_jcc_fwd(b, CC_E);
    if (l->inline_fetch) {
      uint8_t *m;
      uint8_t *mru = emit_probe_mru(l, &tm->icache, line >> tm->icache.line_shift, &m);
      uint8_t *back = b->p;
      x86_store_imm32(b, TM(fetch_line), line);
      if (l->prof) {
        x86_load64(b, RSI, BT(cc));
        x86_alu_mi64(b, ALU_ADD, x86_m(RSI, (int32_t)offsetof(ctx_count, entry_hits)), 1);
      } else {
        x86_alu_mi64(b, ALU_ADD, BT(entry_hits), 1);
      }
      x86_patch_here(b, same);
      add_cold_fetch(l, mru, back, m, COLD_ENTRY, 0);
      l->eax_reg = -1;
      return nofit;
    } else {
      *miss = x86_jmp_fwd(b);
    }
    x86_patch_here(b, same);
  }
  l->eax_reg = -1;
  return nofit;
}

/* fetch_carry of exec_loop.inc for the inline entry's cases (a wait at
 * the entry and the last instruction's extra known when the code is made:
 * none, or a late result's the entry was made for; the block not the one
 * after a trap):
 * what the block entered last leaves to this one (carry*, read from its
 * ahead_* when this block follows it in sequence, else 0, or with a
 * decode redirect its carry_c1 and carry_x2), then this block's ahead_*,
 * which the block builder made constants of. A copy of fetch_carry's
 * fields, field by field: one added there must be added here (engines
 * tests and cores.vexriscv.* fail when it is not). Clobbers rax, rcx,
 * rdx. */
/* fetch_carry_d3 of exec_loop.inc (ahead_d3) from the carries just set,
 * `wait` the entry's. Clobbers rcx. */
static void emit_vexc_carry_d3(x86_buf *b, const block_timing *bt, uint32_t wait) {
  if (!bt->tail_single && !bt->tail_pair) {
    x86_store_imm32(b, TM(ahead_d3), bt->tail_d3);
    return;
  }
  x86_store_imm32(b, TM(ahead_d3), 0);
  if (bt->tail_pair && (!bt->tail_prev_cycles || wait))
    return;
  uint8_t *skip[8];
  int n = 0;
  if (bt->tail_single) {
    x86_cmp_mem8_imm(b, TM(carry_div2), 0);
    skip[n++] = x86_jcc_fwd(b, CC_E);
  } else {
    x86_cmp_mem8_imm(b, TM(carry_div), 0);
    skip[n++] = x86_jcc_fwd(b, CC_E);
  }
  x86_cmp_mem8_imm(b, TM(carry_flow), 0);
  skip[n++] = x86_jcc_fwd(b, CC_NE);
  x86_cmp_mem8_imm(b, TM(carry_fence), 0);
  skip[n++] = x86_jcc_fwd(b, CC_NE);
  if (bt->tail_single) {
    x86_cmp_mem8_imm(b, TM(carry_div), 0);
    skip[n++] = x86_jcc_fwd(b, CC_NE);
    x86_alu_mi32(b, ALU_CMP, TM(carry_w1), 0);
    skip[n++] = x86_jcc_fwd(b, CC_NE);
    x86_load32(b, RCX, TM(carry_x2));
    x86_alu_ri(b, false, ALU_CMP, RCX, 2);
    skip[n++] = x86_jcc_fwd(b, CC_B);
    x86_alu_rm(b, ALU_ADD, RCX, TM(carry_c1)); /* carry_x2 - 2 + carry_c1 */
    x86_alu_ri(b, false, ALU_SUB, RCX, 2);
  } else {
    x86_movzx8(b, RCX, TM(carry));
    x86_alu_ri(b, false, ALU_CMP, RCX, 2);
    skip[n++] = x86_jcc_fwd(b, CC_B);
    x86_alu_ri(b, false, ALU_ADD, RCX, (int32_t)bt->tail_prev_cycles - 2); /* carry - 2 + its cycles */
  }
  x86_store32(b, TM(ahead_d3), RCX);
  for (int i = 0; i < n; i++)
    x86_patch_here(b, skip[i]);
}
static void emit_vexc_carry(lower *l, uint32_t wait, int32_t extra) {
  x86_buf *b = &l->b;
  const core_block *blk = l->blk;
  const block_timing *bt = blk->timing;
  bool data = l->cpu->tm->model.fetch_ahead_data, single = bt->tail_single;
  x86_alu_mi32(b, ALU_CMP, TM(ahead_end), (int32_t)blk->pc);
  uint8_t *notseq = x86_jcc_fwd(b, CC_NE);
  /* in sequence: every carry from the ahead_* before they are written */
  if (data) {
    /* carry_drain (drained): drain_back when a CSR alone in the block
     * before took back its drain, less than ahead_c1 */
    x86_store_imm32(b, TM(carry_drain), 0);
    x86_cmp_mem8_imm(b, TM(ahead_csr), 0);
    uint8_t *nocsr = x86_jcc_fwd(b, CC_E);
    x86_load32(b, RCX, TM(drain_back));
    x86_load32(b, RDX, TM(ahead_c1));
    x86_alu_rr(b, false, ALU_CMP, RCX, RDX);
    uint8_t *nodrain = x86_jcc_fwd(b, CC_AE);
    x86_store32(b, TM(carry_drain), RCX);
    x86_patch_here(b, nocsr);
    x86_patch_here(b, nodrain);
  }
  x86_movzx8(b, RAX, TM(ahead_tail)); /* carry */
  x86_load32(b, RCX, TM(ahead_tail2)); /* carry2 */
  if (data && (l->cpu->tm->model.fetch_ahead_insns == 2 || l->cpu->tm->model.csr_drain_refill)) {
    /* whole (carry_drain, not 0, at least ahead_tail): carry = 0, carry2
     * less whole (not below 0); part (not 0, less than ahead_tail): carry
     * less it with fetch_ahead_insns 2, carry2 as it is */
    x86_load32(b, RDX, TM(carry_drain));
    x86_test_rr(b, RDX, RDX);
    uint8_t *none = x86_jcc_fwd(b, CC_E);
    x86_alu_rr(b, false, ALU_CMP, RDX, RAX);
    uint8_t *part = x86_jcc_fwd(b, CC_B);
    x86_alu_rr(b, false, ALU_XOR, RAX, RAX);
    x86_alu_rr(b, false, ALU_CMP, RDX, RCX);
    uint8_t *below = x86_jcc_fwd(b, CC_B);
    x86_mov_rr(b, RDX, RCX);
    x86_patch_here(b, below);
    x86_alu_rr(b, false, ALU_SUB, RCX, RDX);
    uint8_t *done = x86_jmp_fwd(b);
    x86_patch_here(b, part);
    if (l->cpu->tm->model.fetch_ahead_insns == 2) /* the part only there (fetch_carry) */
      x86_alu_rr(b, false, ALU_SUB, RAX, RDX);
    x86_patch_here(b, none);
    x86_patch_here(b, done);
  }
  x86_store8(b, TM(carry), RAX);
  x86_store32(b, TM(carry2), RCX);
  if (single) { /* ahead_tail2 = tail_stall2 + carry */
    x86_lea64(b, RCX, x86_m(RAX, (int32_t)(bt->tail_stall2 + wait)));
    x86_store32(b, TM(ahead_tail2), RCX);
  }
  if (data) {
    /* carry_c1 = ahead_c1 - drained: a CSR alone in the block before
     * takes back its drain when less than ahead_c1 */
    x86_load32(b, RDX, TM(ahead_c1));
    x86_alu_rm(b, ALU_SUB, RDX, TM(carry_drain));
    x86_store32(b, TM(carry_c1), RDX);
    x86_load32(b, RCX, TM(ahead_x2));
    x86_store32(b, TM(carry_x2), RCX);
    if (single) /* ahead_x2 = carry */
      x86_store32(b, TM(ahead_x2), RAX);
    x86_movzx8(b, RDX, TM(ahead_div2));
    x86_store8(b, TM(carry_div2), RDX);
    x86_movzx8(b, RCX, TM(ahead_div));
    x86_store8(b, TM(carry_div), RCX);
    if (single) /* ahead_div2 = carry_div */
      x86_store8(b, TM(ahead_div2), RCX);
    x86_movzx8(b, RCX, TM(ahead_flow));
    x86_store8(b, TM(carry_flow), RCX);
    x86_movzx8(b, RCX, TM(ahead_fence));
    x86_store8(b, TM(carry_fence), RCX);
    x86_movzx8(b, RCX, TM(ahead_csr_last));
    x86_store8(b, TM(carry_csr), RCX);
    x86_load32(b, RCX, TM(ahead_w1));
    x86_store32(b, TM(carry_w1), RCX);
    x86_load32(b, RCX, TM(ahead_d3));
    x86_store32(b, TM(carry_d3), RCX);
    x86_movzx8(b, RCX, TM(ahead_d3_csr));
    x86_store8(b, TM(carry_d3_csr), RCX);
    x86_store_imm8(b, TM(carry_jump_div), 0);
    x86_store_imm8(b, TM(taken_path_filled), 0);
  }
  /* [dcache] next_fill: the instruction before this block's first, when
   * in sequence (fetch_carry's carry_last from note_tail's ahead_last) */
  bool last = l->cpu->tm->model.dcache.next_fill;
  if (last) {
    x86_load32(b, RCX, TM(ahead_last));
    x86_store32(b, TM(carry_last), RCX);
  }
  uint8_t *done = x86_jmp_fwd(b);
  /* not in sequence: no carry, but a decode redirect's (dec) */
  x86_patch_here(b, notseq);
  if (last)
    x86_store_imm32(b, TM(carry_last), TIMING_NO_LINE);
  x86_store_imm8(b, TM(carry), 0);
  x86_store_imm32(b, TM(carry2), 0);
  if (single)
    x86_store_imm32(b, TM(ahead_tail2), bt->tail_stall2 + wait);
  if (data) {
    /* dec: 0 < redirect_bubbles < ahead_c1 + redirect_held */
    x86_load32(b, RCX, TM(redirect_bubbles));
    x86_load32(b, RDX, TM(ahead_c1));
    x86_alu_rm(b, ALU_ADD, RDX, TM(redirect_held));
    x86_test_rr(b, RCX, RCX);
    uint8_t *nodec = x86_jcc_fwd(b, CC_E);
    x86_alu_rr(b, false, ALU_CMP, RCX, RDX);
    uint8_t *nodec2 = x86_jcc_fwd(b, CC_AE);
    x86_alu_rr(b, false, ALU_SUB, RDX, RCX); /* carry_c1 = ahead_c1 + held - bub */
    x86_store32(b, TM(carry_c1), RDX);
    x86_load32(b, RCX, TM(ahead_x2));
    x86_store32(b, TM(carry_x2), RCX);
    x86_movzx8(b, RCX, TM(ahead_div2)); /* carry_jump_div = dec && ahead_div2 && !taken_path_filled */
    x86_movzx8(b, RDX, TM(taken_path_filled));
    x86_alu_ri(b, false, ALU_XOR, RDX, 1);
    x86_alu_rr(b, false, ALU_AND, RCX, RDX);
    x86_store8(b, TM(carry_jump_div), RCX);
    uint8_t *decdone = x86_jmp_fwd(b);
    x86_patch_here(b, nodec);
    x86_patch_here(b, nodec2);
    x86_store_imm32(b, TM(carry_c1), 0);
    x86_store_imm32(b, TM(carry_x2), 0);
    x86_store_imm8(b, TM(carry_jump_div), 0);
    x86_patch_here(b, decdone);
    x86_store_imm32(b, TM(carry_drain), 0);
    x86_store_imm8(b, TM(taken_path_filled), 0);
    if (single) {
      x86_store_imm32(b, TM(ahead_x2), 0);
      x86_store_imm8(b, TM(ahead_div2), 0);
    }
    x86_store_imm8(b, TM(carry_div), 0);
    x86_store_imm8(b, TM(carry_div2), 0);
    x86_store_imm8(b, TM(carry_flow), 0);
    x86_store_imm8(b, TM(carry_fence), 0);
    x86_store_imm8(b, TM(carry_csr), 0);
    x86_store_imm32(b, TM(carry_w1), 0);
    x86_store_imm32(b, TM(carry_d3), 0);
    x86_store_imm8(b, TM(carry_d3_csr), 0);
  }
  x86_patch_here(b, done);
  /* this block's own, known when it was built */
  x86_store_imm32(b, TM(entry_wait), wait);
  x86_store_imm32(b, TM(ahead_end), blk->end_pc);
  if (last)
    x86_store_imm32(b, TM(ahead_last), bt->tail_op ? blk->pcs[bt->tail_op - 1] : TIMING_NO_LINE);
  x86_store_imm8(b, TM(ahead_tail), bt->tail_stall);
  if (!single)
    x86_store_imm32(b, TM(ahead_tail2), (uint32_t)(bt->tail_stall2 + extra));
  if (data) {
    x86_store_imm32(b, TM(redirect_bubbles), 0);
    x86_store_imm32(b, TM(redirect_held), 0);
    x86_store_imm32(b, TM(ahead_c1), single ? bt->tail_cycles + wait : (uint32_t)(bt->tail_cycles + extra));
    x86_store_imm8(b, TM(ahead_csr), single && bt->tail_csr_first);
    if (!single) {
      x86_store_imm32(b, TM(ahead_x2), bt->tail_prev_ex);
      x86_store_imm8(b, TM(ahead_div2), bt->tail_prev_div);
    }
    x86_store_imm8(b, TM(ahead_div), bt->tail_div);
    x86_store_imm8(b, TM(ahead_flow), bt->tail_flow);
    x86_store_imm8(b, TM(ahead_fence), bt->tail_fence);
    x86_store_imm8(b, TM(ahead_csr_last), bt->tail_csr);
    x86_store_imm32(b, TM(ahead_w1), bt->tail_op ? (uint32_t)(bt->tail_w1 + extra) : 0);
    emit_vexc_carry_d3(b, bt, wait);
    if (single) { /* ahead_d3_csr = carry_csr */
      x86_movzx8(b, RCX, TM(carry_csr));
      x86_store8(b, TM(ahead_d3_csr), RCX);
    } else {
      x86_store_imm8(b, TM(ahead_d3_csr), 0);
    }
  }
}

/* Whether the cached VexRiscv models' block gets the inline entry
 * (emit_vexc_entry): its first fetch looked up inline (a direct-mapped
 * I-cache), its bounds in the FITS test's 32-bit displacements, and no
 * listing of blocks entered (its check and enter_slow would list the block
 * twice) */
static bool vexc_entry_ok(const lower *l) {
  const core_block *blk = l->blk;
  return l->vexc_fetch && !l->track && blk->timing->max_cycles <= INT32_MAX && blk->n_insns <= INT32_MAX &&
         (uint32_t)blk->ops[0].imm != TIMING_NO_LINE;
}

/* The entry's first fetch: a hit of the one way only makes it the line
 * fetched last (emit_vexc_ifetch). Returns the jump taken on a miss. */
static uint8_t *emit_vexc_first_fetch(lower *l, const cache *c) {
  x86_buf *b = &l->b;
  uint8_t *same;
  uint8_t *miss = emit_vexc_line_lookup(l, c, (uint32_t)l->blk->ops[0].imm, &same);
  x86_alu_mi64(b, ALU_ADD, BT(entry_hits), 1);
  x86_patch_here(b, same);
  return miss;
}

/* FITS and ENTER of the cached VexRiscv models (enter_block_timed with
 * their rules) in the common case, inline: no late results of the block
 * before, no fence.i flush to overlap, not the block right after a trap.
 * Otherwise the whole entry is made in C (the jumps in l->vexc_slow and
 * the one returned in *slow, to enter_slow: FITS was checked), as is a
 * first fetch that misses (*miss, to entry_miss). The rest is the C
 * entry's own order: the charges, fetch_carry, the first line's lookup.
 * Returns FITS's first jump out (the second in *nofit2). */
static uint8_t *emit_vexc_entry(lower *l, uint8_t **nofit2, uint8_t **slow, uint8_t **miss) {
  x86_buf *b = &l->b;
  core_block *blk = l->blk;
  timing *tm = l->cpu->tm;
  cache *c = &tm->icache;
  x86_mov_imm64(b, RBP, (uint64_t)(uintptr_t)blk->timing);
  uint8_t *fit[2];
  emit_timed_fits(l, fit);
  *nofit2 = fit[1];
  *slow = emit_late_test(l);
  x86_alu_mi32(b, ALU_CMP, TM(fence_overlap), 0);
  l->vexc_slow[0] = x86_jcc_fwd(b, CC_NE);
  l->vexc_slow[1] = l->vexc_slow[2] = l->vexc_slow[3] = l->vexc_slow[4] = NULL;
  if (tm->model.dcache.refill_refetch_wait) /* a fill's taken-back waits carried here: rrw_enter */
    l->vexc_slow[4] = emit_rrw_test(l);
  if (tm->model.device_div_overlap) { /* a device load ended the block before: device_div_enter */
    x86_alu_mi32(b, ALU_CMP, TM(dev_div_pc), (int32_t)TIMING_NO_LINE);
    l->vexc_slow[3] = x86_jcc_fwd(b, CC_NE);
  }
  if (tm->model.taken_path_fill || tm->model.predicted_target_fill) { /* a jump's refill wait this block takes first */
    x86_alu_mi32(b, ALU_CMP, TM(taken_path_wait), 0);
    l->vexc_slow[2] = x86_jcc_fwd(b, CC_NE);
  }
  if (tm->model.refill_drains_csr) { /* trap_end == start + 1: after a trap */
    x86_lea64(b, RCX, x86_m(RC, 1));
    x86_op_mem(b, true, 0x3b, RCX, TM(trap_end)); /* cmp rcx, [trap_end] */
    l->vexc_slow[1] = x86_jcc_fwd(b, CC_E);
  }
  emit_timed_charges(l, true);
  x86_store_imm8(b, TM(entry_extra_on), 0);
  if (tm->model.refill_drains_csr)
    x86_store_imm64s(b, TM(trap_head), 0);
  if (tm->model.fetch_ahead)
    emit_vexc_carry(l, 0, 0);
  x86_store_imm64s(b, TM(insn_start_op), 0);
  *miss = emit_vexc_first_fetch(l, c);
  l->eax_reg = -1;
  return fit[0];
}

/* What timing_hazard_entry makes of the late results `key` at the block's
 * entry: found by running it on them, tm's own fields put back after */
typedef struct vexc_hz {
  timing_hazards key, out; /* tm->hz before and after */
  uint32_t wait;
  int16_t extra[TIMING_HEADS];
  bool any;
} vexc_hz;

static void vexc_hz_of(timing *tm, const block_timing *bt, vexc_hz *h) {
  timing_hazards hz = tm->hz;
  int16_t extra[TIMING_HEADS];
  bool any = tm->entry_extra_any;
  memcpy(extra, tm->entry_extra, sizeof extra);
  tm->hz = h->key;
  h->wait = timing_hazard_entry(tm, bt);
  h->out = tm->hz;
  h->any = tm->entry_extra_any;
  memcpy(h->extra, tm->entry_extra, sizeof extra);
  tm->hz = hz;
  tm->entry_extra_any = any;
  memcpy(tm->entry_extra, extra, sizeof extra);
}

/* Whether the block gets an entry for late results of the block before
 * known when its code is made (emit_vexc_hz_entry): the ones in tm->hz as
 * it is translated, that is those the block before it in the run left (a
 * block's tail_hz, when that block ran whole; a loop's own or its
 * predecessor's, which stay). Not with a profile (its counts are per
 * context), and not when fetch_carry would read a head's extra this entry
 * does not write (the last instruction's rank past the heads) */
static bool vexc_hz_ok(const lower *l, vexc_hz *h) {
  timing *tm = l->cpu->tm;
  const block_timing *bt = l->blk->timing;
  h->key = tm->hz;
  if (l->prof || !(h->key.left[0] | h->key.left[1]))
    return false;
  vexc_hz_of(tm, bt, h);
  return !(h->any && bt->tail_rank < TIMING_HEADS && bt->tail_rank >= bt->n_head);
}

/* The cached VexRiscv models' entry with late results of the block before
 * (out of line, after emit_vexc_entry's late test jumped here, rax as FITS
 * left it): when they are h->key, enter_block_timed's charges with the
 * wait, the heads' extras and the hazards left made constants (h), else,
 * and in the inline entry's other cases, the jumps in slow[] to the whole
 * entry in C. Then as the inline entry: fetch_carry with that wait, the
 * first line's lookup (a miss to core_jvexc_entry_miss_wait), on to the body. */
static void emit_vexc_hz_entry(lower *l, const vexc_hz *h, uintptr_t body, uint8_t *slow[6]) {
  x86_buf *b = &l->b;
  core_block *blk = l->blk;
  const block_timing *bt = blk->timing;
  timing *tm = l->cpu->tm;
  cache *c = &tm->icache;
  uint32_t key, out;
  memcpy(&key, &h->key, sizeof key);
  memcpy(&out, &h->out, sizeof out);
  x86_alu_mi32(b, ALU_CMP, TM(hz), (int32_t)key);
  slow[0] = x86_jcc_fwd(b, CC_NE);
  x86_alu_mi32(b, ALU_CMP, TM(fence_overlap), 0);
  slow[1] = x86_jcc_fwd(b, CC_NE);
  slow[2] = slow[3] = slow[4] = slow[5] = NULL;
  if (tm->model.dcache.refill_refetch_wait) /* rrw_enter */
    slow[5] = emit_rrw_test(l);
  if (tm->model.device_div_overlap) { /* device_div_enter */
    x86_alu_mi32(b, ALU_CMP, TM(dev_div_pc), (int32_t)TIMING_NO_LINE);
    slow[4] = x86_jcc_fwd(b, CC_NE);
  }
  if (tm->model.taken_path_fill || tm->model.predicted_target_fill) {
    x86_alu_mi32(b, ALU_CMP, TM(taken_path_wait), 0);
    slow[2] = x86_jcc_fwd(b, CC_NE);
  }
  if (tm->model.refill_drains_csr) { /* trap_end == start + 1, start after the wait */
    x86_lea64(b, RCX, x86_m(RC, (int32_t)(1 + h->wait)));
    x86_op_mem(b, true, 0x3b, RCX, TM(trap_end));
    slow[3] = x86_jcc_fwd(b, CC_E);
  }
  /* enter_block_timed's late results: hazards_after's record of them,
   * timing_hazard_entry's writes, the wait */
  x86_store_imm32(b, TM(hz_entry), key);
  x86_mov_imm64(b, RCX, (uint64_t)(uintptr_t)blk);
  x86_store64(b, TM(hz_entry_block), RCX);
  x86_store64(b, TM(hz_entry_instret), RI);
  for (uint32_t k = 0; k < bt->n_head; k++) {
    uint16_t v = (uint16_t)h->extra[k];
    int32_t at = (int32_t)(offsetof(timing, entry_extra) + k * sizeof h->extra[0]);
    x86_store_imm8(b, x86_m(R15, at), (uint8_t)v);
    x86_store_imm8(b, x86_m(R15, at + 1), (uint8_t)(v >> 8));
  }
  x86_store_imm8(b, TM(entry_extra_any), h->any);
  emit_timed_charges(l, false); /* law_entry before the wait, as in C */
  if (h->wait) {
    x86_alu_ri(b, true, ALU_ADD, RC, (int32_t)h->wait);
    x86_alu_mi64(b, ALU_ADD, BT(entry_load_use), (int32_t)h->wait);
  }
  x86_store_imm32(b, TM(hz), out);
  x86_store_imm8(b, TM(entry_extra_on), h->any);
  if (tm->model.refill_drains_csr)
    x86_store_imm64s(b, TM(trap_head), 0);
  if (tm->model.fetch_ahead) {
    int32_t extra = h->any && bt->tail_rank < TIMING_HEADS ? h->extra[bt->tail_rank] : 0;
    emit_vexc_carry(l, h->wait, extra);
  }
  x86_store_imm64s(b, TM(insn_start_op), 0);
  uint8_t *miss = emit_vexc_first_fetch(l, c);
  x86_jmp(b, body);
  x86_patch_here(b, miss);
  emit_timed_call(l, (const void *)core_jvexc_entry_miss_wait, h->wait);
  x86_jmp(b, body);
}

/* LAW_BLOCK_BOUND of CHAIN (sanitizer builds) */
static void emit_law(lower *l) {
#ifdef TALLY_CHECK_LAWS
  if (l->timed)
    emit_timed_call(l, (const void *)l->fn->law, 0);
#else
  (void)l;
#endif
}

/* T_REDIRECT: tm->fetch_line = TIMING_NO_LINE */
static void emit_redirect(lower *l) {
  if (l->timed)
    x86_store_imm32(&l->b, TM(fetch_line), TIMING_NO_LINE);
}

/* eax = x[rs1] + imm */
static void emit_addr(lower *l, const core_op *op) {
  load_eax(l, op->rs1);
  if (op->imm)
    x86_alu_ri(&l->b, false, ALU_ADD, RAX, op->imm);
  l->eax_reg = -1; /* the address (and after a slow path, anything) */
}

/* ecx = eax - ram_base; jump to a slow path unless [ecx, ecx + n) is in RAM */
static slow_path *emit_ram_check(lower *l, uint32_t i, unsigned n) {
  slow_path *s = &l->slow[l->nslow++];
  *s = (slow_path){.op = i};
  for (int k = 0; k < NCOPY_MAX; k++) /* stored by the slow path (emit_slow_fn) */
    s->dirty[k] = k < NCOPY && l->dirty[k] ? l->held[k] : -1;
  /* a move and a sub, not one 32-bit lea: the lea was 8 % slower on
   * functional matmult-int (AMD EPYC), where the move costs nothing */
  x86_mov_rr(&l->b, RCX, RAX);
  x86_alu_ri(&l->b, false, ALU_SUB, RCX, (int32_t)l->cpu->ram_base);
  x86_alu_ri(&l->b, false, ALU_CMP, RCX, (int32_t)(l->cpu->ram_size - n));
  s->from[0] = x86_jcc_fwd(&l->b, CC_A);
  return s;
}

/* A load's RAM read into reg, by its width and sign: the address checked
 * (the slow path returned, its resume left to the caller) */
static slow_path *emit_ram_read(lower *l, uint32_t i, const core_op *op, unsigned n, int reg) {
  emit_addr(l, op);
  slow_path *s = emit_ram_check(l, i, n);
  x86_mem m = x86_mi(R12, RCX, 0);
  switch (op->kind) {
  case K_LB: x86_movsx8(&l->b, reg, m); break;
  case K_LH: x86_movsx16(&l->b, reg, m); break;
  case K_LBU: x86_movzx8(&l->b, reg, m); break;
  case K_LHU: x86_movzx16(&l->b, reg, m); break;
  default: x86_load32(&l->b, reg, m); break;
  }
  return s;
}

/* A functional load: the value in eax, where the slow path leaves it
 * too, so that both go on at the store to x[rd], and eax (or a copy
 * register, eax_is) holds x[rd] after it; the copies stay (keeps_copies) */
static void emit_load_fn(lower *l, uint32_t i, const core_op *op, unsigned n) {
  slow_path *s = emit_ram_read(l, i, op, n, RAX);
  s->resume = l->b.p;
  eax_is(l, op->rd);
}

static void emit_load(lower *l, uint32_t i, const core_op *op) {
  unsigned n = op->kind == K_LW ? 4 : (op->kind == K_LH || op->kind == K_LHU) ? 2 : 1;
  if (!l->timed) {
    emit_load_fn(l, i, op, n);
    return;
  }
  flush_dirty(l); /* its slow paths and lookup's calls may read x[] */
  slow_path *s = emit_ram_read(l, i, op, n, RDX);
  x86_store32(&l->b, XREG(op->rd), RDX);
  wrote(l, op->rd);
  emit_data_access(l, i, false); /* T_LOAD: eax is the address still */
  s->resume = l->b.p;
  s->forget_dline = loop_dline_ok(l);
  forget_copies(l); /* the slow paths and the lookup clobber them */
}

static void emit_store(lower *l, uint32_t i, const core_op *op) {
  unsigned n = op->kind == K_SW ? 4 : op->kind == K_SH ? 2 : 1;
  if (l->timed)
    flush_dirty(l); /* its slow paths (x[rs2]) and lookup's calls may read x[] */
  emit_addr(l, op);
  slow_path *s = emit_ram_check(l, i, n);
  x86_mov_rr(&l->b, RDX, RCX);
  x86_shift_ri(&l->b, false, SH_SHR, RDX, WATCH_SHIFT);
  x86_cmp_mem8_imm(&l->b, x86_mi(R13, RDX, 0), 0);
  s->from[1] = x86_jcc_fwd(&l->b, CC_NE);
  load_reg(l, RDX, op->rs2);
  x86_mem m = x86_mi(R12, RCX, 0);
  if (n == 4)
    x86_store32(&l->b, m, RDX);
  else if (n == 2)
    x86_store16(&l->b, m, RDX);
  else
    x86_store8(&l->b, m, RDX);
  if (l->timed) /* T_STORE: eax is the address still */
    emit_data_access(l, i, true);
  s->resume = l->b.p;
  s->forget_dline = l->timed && loop_dline_ok(l);
  if (l->timed)
    forget_copies(l);
}

/* A functional load's or store's slow path s: the copies not stored yet
 * stored, the C call with the copy registers saved around it (the fast
 * path kept them, emit_load_fn), a load's value left in eax for the store
 * at its resume point. The pushes are an even number (NCOPY but r14, six):
 * calls find rsp 16-aligned. */
static void emit_slow_fn(lower *l, const slow_path *s, bool load) {
  x86_buf *b = &l->b;
  uint32_t i = s->op;
  for (int k = 0; k < NCOPY; k++)
    if (s->dirty[k] >= 0) /* C may read x[], or leave the block here */
      x86_store32(b, XREG((unsigned)s->dirty[k]), copy_regs[k]);
  for (int k = 0; k < NCOPY; k++)
    if (copy_pushed(k))
      x86_push(b, copy_regs[k]);
  x86_mov_rr(b, RCX, RAX);
  x86_mov_rr64(b, RDI, RBX);
  x86_mov_imm64(b, RSI, (uint64_t)(uintptr_t)l->blk);
  x86_mov_imm32(b, RDX, i);
  emit_call(l, load ? (const void *)jit_load_slow : (const void *)jit_store_slow);
  for (int k = NCOPY - 1; k >= 0; k--)
    if (copy_pushed(k))
      x86_pop(b, copy_regs[k]);
  if (load) {
    x86_alu_rr(b, true, ALU_OR, RAX, RAX);
    x86_jcc(b, CC_S, (uintptr_t)l->j->out);
  } else {
    x86_test_rr(b, RAX, RAX);
    x86_jcc(b, CC_NE, (uintptr_t)l->j->out);
  }
}

static void emit_slow_paths(lower *l) {
  for (uint32_t k = 0; k < l->nslow; k++) {
    slow_path *s = &l->slow[k];
    const core_op *op = &l->blk->ops[s->op];
    for (int f = 0; f < 2; f++)
      x86_patch_here(&l->b, s->from[f]);
    bool load = isa_infos[op->kind].cls == CLASS_LOAD;
    if (!l->timed) {
      emit_slow_fn(l, s, load);
      x86_jmp(&l->b, run_addr(l, s->resume));
      continue;
    }
    const void *fn = load ? (const void *)l->fn->load_slow : (const void *)l->fn->store_slow;
    emit_helper_call(l, fn, s->op, true);
    if (s->forget_dline)
      x86_store_imm32(&l->b, TM(loop_dline), no_dline(l->cpu));
    if (load) {
      x86_alu_rr(&l->b, true, ALU_OR, RAX, RAX);
      x86_jcc(&l->b, CC_S, (uintptr_t)l->j->out);
      x86_store32(&l->b, XREG(op->rd), RAX);
    } else {
      x86_test_rr(&l->b, RAX, RAX);
      x86_jcc(&l->b, CC_NE, (uintptr_t)l->j->out);
    }
    x86_jmp(&l->b, run_addr(l, s->resume));
  }
  for (uint32_t k = 0; k < l->ncold; k++) {
    cold_call c = l->cold[k];
    /* an even number of pushes keeps rsp 16-aligned for the calls: with
     * an odd number of copies held, rax too, popped into rcx (both
     * clobbered by the lookup) */
    bool pad = __builtin_popcount(c.save) & 1;
    if (c.save) { /* the way back: the copy registers restored (pushed below) */
      uint8_t *restore = l->b.p;
      if (pad)
        x86_pop(&l->b, RCX);
      for (int r = NCOPY - 1; r >= 0; r--)
        if (c.save & (1u << r))
          x86_pop(&l->b, copy_regs[r]);
      x86_jmp(&l->b, run_addr(l, c.resume));
      c.resume = restore;
    }
    x86_patch_here(&l->b, c.from);
    if (c.back && (c.kind == COLD_LOAD || c.kind == COLD_STORE)) { /* emit_probe_addr_mru's: the whole lookup */
      uint8_t *miss = emit_probe_addr(l, &l->cpu->tm->dcache, c.kind == COLD_STORE);
      x86_jmp(&l->b, run_addr(l, c.back));
      x86_patch_here(&l->b, miss);
    } else if (c.back) { /* not a hit in the way used last: the other way */
      cache *ic = &l->cpu->tm->icache;
      uint8_t *miss = emit_probe_lru(l, ic, (uint32_t)l->blk->ops[c.op].imm >> ic->line_shift);
      x86_jmp(&l->b, run_addr(l, c.back));
      x86_patch_here(&l->b, miss);
    }
    /* C may read x[]: the copies not stored yet stored */
    for (int r = 0; r < NCOPY; r++)
      if (c.dirty[r] >= 0)
        x86_store32(&l->b, XREG((unsigned)c.dirty[r]), copy_regs[r]);
    for (int r = 0; r < NCOPY; r++)
      if (c.save & (1u << r))
        x86_push(&l->b, copy_regs[r]);
    if (pad)
      x86_push(&l->b, RAX);
    emit_cold(l, &c);
    l->cold[k] = c;
  }
  for (uint32_t k = 0; k < l->ncold; k++) /* the fill routines' ways to C, apart */
    if (l->cold[k].fallback) {
      x86_patch_here(&l->b, l->cold[k].fallback);
      emit_cold_c(l, &l->cold[k]);
    }
}

/* rd = x[rs1] (op) x[rs2] or imm, for the group-1 operations */
static void emit_alu(lower *l, const core_op *op, int alu, bool imm) {
  if (emit_in_place(l, op, (in_place){IP_ALU, alu, imm}))
    return;
  if (!imm && op->rs1 == 0 && (alu == ALU_ADD || alu == ALU_OR || alu == ALU_XOR)) { /* x0 op r: r (mv) */
    load_eax(l, op->rs2);
    eax_is(l, op->rd);
    return;
  }
  load_eax(l, op->rs1);
  if (imm)
    x86_alu_ri(&l->b, false, alu, RAX, op->imm);
  else
    alu_eax(l, alu, op->rs2);
  eax_is(l, op->rd);
}

static void emit_set(lower *l, const core_op *op, int cc, bool imm) {
  x86_alu_rr(&l->b, false, ALU_XOR, RCX, RCX);
  load_eax(l, op->rs1);
  if (imm)
    x86_alu_ri(&l->b, false, ALU_CMP, RAX, op->imm);
  else
    alu_eax(l, ALU_CMP, op->rs2);
  x86_setcc(&l->b, cc, RCX);
  x86_store32(&l->b, XREG(op->rd), RCX);
  wrote(l, op->rd);
  l->eax_reg = op->rd == op->rs1 ? -1 : op->rs1;
}

static void emit_shift(lower *l, const core_op *op, int sh, bool imm) {
  if (emit_in_place(l, op, (in_place){IP_SHIFT, sh, imm}))
    return;
  load_eax(l, op->rs1);
  if (imm) {
    x86_shift_ri(&l->b, false, sh, RAX, (uint8_t)(op->imm & 31));
  } else {
    load_reg(l, RCX, op->rs2);
    x86_shift_rcl(&l->b, sh, RAX);
  }
  eax_is(l, op->rd);
}

/* mulh, mulhsu, mulhu: the 64-bit product's high half */
static void emit_mulh(lower *l, const core_op *op, bool sign1, bool sign2) {
  flush_dirty(l); /* it reads x[] in memory */
  if (sign1)
    x86_movsxd_mem(&l->b, RAX, XREG(op->rs1));
  else
    x86_load32(&l->b, RAX, XREG(op->rs1));
  if (sign2)
    x86_movsxd_mem(&l->b, RCX, XREG(op->rs2));
  else
    x86_load32(&l->b, RCX, XREG(op->rs2));
  x86_imul_rr64(&l->b, RAX, RCX);
  x86_shift_ri(&l->b, true, SH_SHR, RAX, 32);
  eax_is(l, op->rd);
}

/* div, divu, rem, remu with RISC-V's results for /0 and INT_MIN / -1 */
static void emit_div(lower *l, const core_op *op) {
  bool sign = op->kind == K_DIV || op->kind == K_REM, rem = op->kind == K_REM || op->kind == K_REMU;
  x86_buf *b = &l->b;
  load_reg(l, RAX, op->rs1);
  load_reg(l, RCX, op->rs2);
  x86_test_rr(b, RCX, RCX);
  uint8_t *zero = x86_jcc_fwd(b, CC_E), *ovf = NULL, *norm = NULL;
  if (sign) {
    x86_alu_ri(b, false, ALU_CMP, RCX, -1);
    norm = x86_jcc_fwd(b, CC_NE);
    x86_alu_ri(b, false, ALU_CMP, RAX, INT32_MIN);
    ovf = x86_jcc_fwd(b, CC_E);
    x86_patch_here(b, norm);
    x86_cdq(b);
    x86_idiv_r(b, RCX);
  } else {
    x86_alu_rr(b, false, ALU_XOR, RDX, RDX);
    x86_div_r(b, RCX);
  }
  x86_store32(b, XREG(op->rd), rem ? RDX : RAX);
  uint8_t *done1 = x86_jmp_fwd(b), *done2 = NULL;
  if (sign) { /* INT_MIN / -1: quotient INT_MIN (still in eax), remainder 0 */
    x86_patch_here(b, ovf);
    if (rem)
      x86_store_imm32(b, XREG(op->rd), 0);
    else
      x86_store32(b, XREG(op->rd), RAX);
    done2 = x86_jmp_fwd(b);
  }
  x86_patch_here(b, zero); /* by zero: quotient all ones, remainder the dividend */
  if (rem)
    x86_store32(b, XREG(op->rd), RAX);
  else
    x86_store_imm32(b, XREG(op->rd), UINT32_MAX);
  x86_patch_here(b, done1);
  x86_patch_here(b, done2);
  wrote(l, op->rd);
  l->eax_reg = -1;
}

static void emit_branch(lower *l, const core_op *op, int cc) {
  flush_dirty(l); /* both ways leave the block */
  load_eax(l, op->rs1);
  alu_eax(l, ALU_CMP, op->rs2);
  if (!l->timed && !(l->loop_ok && (uint32_t)op->imm == l->blk->pc)) {
    /* functional: the taken way is the jcc, not a jcc to a jmp */
    emit_chain_cc(l, cc, (uint32_t)op->imm);
    emit_chain_fall(l, l->blk->end_pc);
    return;
  }
  uint8_t *taken = x86_jcc_fwd(&l->b, cc);
  if (l->looping && l->fall_store) /* fall_line_ok */
    x86_store_imm32(&l->b, TM(fetch_line), l->fall_line);
  if (l->timed) { /* T_BRANCH(0) */
    emit_branch_timing(l, 0);
    emit_prof_leave(l, 0, l->blk->pcs[op - l->blk->ops], l->blk->end_pc);
    emit_law(l);
  }
  emit_chain_fall(l, l->blk->end_pc);
  x86_patch_here(&l->b, taken);
  bool round = l->loop_ok && (uint32_t)op->imm == l->blk->pc && round_counted(l);
  if (l->timed && round) { /* T_BRANCH(1): its count and line in the round (emit_loop_round) */
    if (l->blk->timing->branch_pen[1])
      x86_alu_ri(&l->b, true, ALU_ADD, RC, (int32_t)l->blk->timing->branch_pen[1]);
    emit_law(l);
  } else if (l->timed) { /* T_BRANCH(1) */
    emit_branch_timing(l, 1);
    emit_prof_leave(l, 1, l->blk->pcs[op - l->blk->ops], (uint32_t)op->imm);
    emit_law(l);
  }
  if (l->loop_ok && (uint32_t)op->imm == l->blk->pc) { /* to the loop copy's entry */
    if (l->looping)
      emit_loop_round(l);
    else
      l->loop_from[l->nloop_from++] = x86_jmp_fwd(&l->b);
    return;
  }
  emit_chain_taken(l, (uint32_t)op->imm);
}

/* jalr: the target in eax, looked up in the indirect-jump table */
static void emit_indirect(lower *l) {
  x86_buf *b = &l->b;
  x86_store32(b, CPU(pc), RAX);
  x86_mov_rr(b, RCX, RAX);
  x86_shift_ri(b, false, SH_SHL, RCX, 3); /* (pc >> 1) * sizeof(jit_target) */
  x86_alu_ri(b, false, ALU_AND, RCX, (int32_t)((JIT_TARGETS - 1) * sizeof(jit_target)));
  x86_mov_imm64(b, RDX, (uint64_t)(uintptr_t)l->j->targets); /* r14 is a copy register */
  x86_alu_rm(b, ALU_CMP, RAX, x86_mi(RDX, RCX, 0));
  x86_jcc(b, CC_NE, (uintptr_t)l->j->dispatch);
  x86_jmp_mem(b, x86_mi(RDX, RCX, (int32_t)offsetof(jit_target, code)));
}

/* A jalr's target predicted: the first target it took (a return's, the
 * block after the call that called it), compared with the target in eax,
 * then a direct jump to that block's code, to its clean entry when this
 * block leaves no late result (as a jal's, emit_chain_taken); any other
 * target looks the table up (emit_indirect). The site is laid out as
 *   +0  cmp eax, imm32    the prediction: 1 (never a target) until learned
 *   +5  jne rel32         to the stub that learns it (emit_chain_stubs),
 *                         then to +16
 *   +11 jmp rel32         to +16, then to the target's code
 *   +16 the table's lookup
 * and learned once, in C (jalr_learn). Every translation goes at a flush,
 * so the jump never outlives its target's code. */
enum { JALR_IMM = 1, JALR_JNE = 7, JALR_JMP = 12, JALR_TABLE = 16 };
static void emit_jalr_predicted(lower *l) {
  x86_buf *b = &l->b;
  if (l->njalr == 2) { /* never: one jalr a copy of the block */
    emit_indirect(l);
    return;
  }
  uint8_t *site = b->p;
  x86_byte(b, 0x3d); /* cmp eax, imm32 */
  x86_u32(b, 1);
  uint8_t *learn = x86_jcc_fwd(b, CC_NE);
  uint8_t *jmp = x86_jmp_fwd(b);
  x86_patch_here(b, jmp);
  if (!b->overflow && (learn != site + JALR_JNE || jmp != site + JALR_JMP || b->p != site + JALR_TABLE))
    abort(); /* the encodings above are fixed */
  emit_indirect(l);
  l->jalr[l->njalr].site = site;
  l->jalr[l->njalr++].learn = learn;
}

/* csr_drain's timing_note_redirect(tm, NOW, bubbles) at op i: the
 * redirect's end and bubbles. NOW is of the cycle count in RC (r11): the
 * one in tm->cycle is stored at calls only (emit_call), so it lags behind
 * an entry charged inline. Clobbers rcx. */
static void emit_note_redirect(lower *l, uint32_t i, uint32_t bubbles) {
  x86_buf *b = &l->b;
  const block_timing *bt = l->blk->timing;
  x86_mov_rr64(b, RCX, RC);
  x86_alu_ri(b, true, ALU_SUB, RCX, (int32_t)(bt->static_cycles - bt->ops[i].end)); /* NOW */
  x86_store64(b, TM(redirect_end), RCX);
  x86_store_imm32(b, TM(drain_bubbles), bubbles);
}

/* Whether op i's NOW is within a 32-bit displacement of tm->cycle */
static bool now_near(const lower *l, uint32_t i) {
  const block_timing *bt = l->blk->timing;
  return bt->static_cycles - bt->ops[i].end <= INT32_MAX;
}

/* Whether the code `c` names is within 32-bit displacements of the RAM's base */
static bool code_near(const core_jvexc_code *c) {
  return (!c->window || c->o <= INT32_MAX - 16) && (!c->half || c->ho <= INT32_MAX - 2);
}

/* Compares the code an inline rule was decided on (core_jvexc_code) with
 * the RAM's: the jumps taken when it changed, into changed[] (up to 3),
 * their number returned. Clobbers rcx. */
static int emit_code_changed(lower *l, const core_jvexc_code *c, uint8_t *changed[3]) {
  x86_buf *b = &l->b;
  int n = 0;
  for (int k = 0; c->window && k < 2; k++) {
    uint64_t v;
    memcpy(&v, c->w + 8 * k, sizeof v);
    x86_mov_imm64(b, RCX, v);
    x86_op_mem(b, true, 0x3b, RCX, x86_m(R12, (int32_t)(c->o + 8u * (uint32_t)k))); /* cmp rcx, [ram + o] */
    changed[n++] = x86_jcc_fwd(b, CC_NE);
  }
  if (c->half) {
    x86_movzx16(b, RCX, x86_m(R12, (int32_t)c->ho));
    x86_alu_ri(b, false, ALU_CMP, RCX, c->hv);
    changed[n++] = x86_jcc_fwd(b, CC_NE);
  }
  return n;
}

/* The call for op i when the code changed (emit_code_changed's jumps),
 * after the inline rule, which jumps over it */
static void emit_code_fallback(lower *l, uint8_t **changed, int n, const void *fn, uint32_t i, bool addr_arg) {
  if (!n)
    return;
  uint8_t *done = x86_jmp_fwd(&l->b);
  for (int k = 0; k < n; k++)
    x86_patch_here(&l->b, changed[k]);
  emit_helper_call(l, fn, i, addr_arg);
  x86_patch_here(&l->b, done);
}

/* T_JAL of the cached VexRiscv models at op i, inline when it comes to
 * its notes alone (core_jvexc_jal_inline): fetch_ahead_data's redirect
 * bubbles and csr_drain's timing_note_redirect, while the code it was
 * decided on is unchanged, else the call. Clobbers rcx. */
static void emit_vexc_jal(lower *l, uint32_t i) {
  const timing *tm = l->cpu->tm;
  core_jvexc_code c;
  forget_copies(l);
  l->eax_reg = -1;
  if (!now_near(l, i) || !core_jvexc_jal_inline(l->cpu, l->blk, i, &c) || !code_near(&c)) {
    emit_timed_call(l, (const void *)core_jvexc_jal, i);
    return;
  }
  uint8_t *changed[3];
  int n = emit_code_changed(l, &c, changed);
  if (tm->model.fetch_ahead_data)
    x86_store_imm32(&l->b, TM(redirect_bubbles), tm->model.jal_penalty);
  if (tm->model.csr_drain)
    emit_note_redirect(l, i, tm->model.jal_penalty);
  if (tm->model.fence_i_jal_wait) /* T_JAL's fj_: nothing inline to drop, only the note to end */
    x86_store_imm32(&l->b, TM(fence_jal_pc), TIMING_NO_LINE);
  emit_code_fallback(l, changed, n, (const void *)core_jvexc_jal, i, false);
  l->eax_reg = -1;
}

/* timing_wrong_path's stores when it looks nothing up: no wait noted, no
 * line refilled */
static void emit_no_wrong_path(lower *l) {
  x86_buf *b = &l->b;
  x86_store_imm8(b, TM(wrong_path_waited), 0);
  x86_store_imm32(b, TM(wrong_path_line), TIMING_NO_LINE);
  x86_store_imm32(b, TM(wrong_path_wait_line), TIMING_NO_LINE);
}

/* T_JALR of the cached VexRiscv models at op i, the jalr's target in
 * eax: inline in its common case (core_jvexc_jalr_inline) while the code
 * it was decided on is unchanged and, with redirect_split_target, the
 * target is at 0 mod 4, else the call. The common case is
 * timing_wrong_path's and timing_redirect_drain's stores when neither
 * looks anything up nor charges: no wait noted, no line refilled, and the
 * redirect's end and bubbles. Clobbers rcx. */
static void emit_vexc_jalr(lower *l, uint32_t i) {
  x86_buf *b = &l->b;
  const timing *tm = l->cpu->tm;
  core_jvexc_code c;
  forget_copies(l);
  if (!now_near(l, i) || !core_jvexc_jalr_inline(l->cpu, l->blk, i, &c) || !code_near(&c)) {
    emit_helper_call(l, (const void *)core_jvexc_jalr, i, true);
    return;
  }
  uint8_t *changed[4];
  int n = emit_code_changed(l, &c, changed);
  if (tm->model.redirect_split_target) { /* split_target_at: a target at 2 mod 4 takes the call */
    x86_op_reg(b, false, 0xf7, 0, RAX); /* test eax, 2 */
    x86_u32(b, 2);
    changed[n++] = x86_jcc_fwd(b, CC_NE);
  }
  if (tm->model.wrong_path_fill)
    emit_no_wrong_path(l);
  if (tm->model.csr_drain) {
    if (!tm->model.wrong_path_fill)
      x86_store_imm8(b, TM(wrong_path_waited), 0);
    emit_note_redirect(l, i, tm->model.jalr_penalty);
  }
  emit_code_fallback(l, changed, n, (const void *)core_jvexc_jalr, i, true);
}

/* T_BRANCH(1) of the cached VexRiscv models at op i: inline in its common
 * case (core_jvexc_taken_inline) while the code it was decided on is
 * unchanged, else the call. The penalty and the outcome's count, then a
 * jal's notes when predicted taken (fetch_ahead_data's bubbles, also
 * ahead of the next instruction), a jalr's when not (timing_wrong_path's
 * and timing_redirect_drain's), the line fetched forgotten. */
static void emit_vexc_taken(lower *l, uint32_t i) {
  x86_buf *b = &l->b;
  const timing *tm = l->cpu->tm;
  block_timing *bt = l->blk->timing;
  core_jvexc_code c;
  forget_copies(l);
  l->eax_reg = -1;
  if (!now_near(l, i) || !core_jvexc_taken_inline(l->cpu, l->blk, i, &c) || !code_near(&c)) {
    emit_timed_call(l, (const void *)core_jvexc_taken, i);
    return;
  }
  uint8_t *changed[4];
  int n = emit_code_changed(l, &c, changed);
  uint32_t pen = bt->branch_pen[1];
  if (((tm->model.redirect_passes_late && !bt->predict_taken) ||
       (tm->model.predicted_passes_late && bt->predict_taken)) && pen) {
    /* T_BRANCH's redirect_passes_late: with late results on their way,
     * the call */
    x86_movzx16(b, RCX, TM(hz.left));
    x86_alu_ri(b, false, ALU_CMP, RCX, 0);
    changed[n++] = x86_jcc_fwd(b, CC_NE);
  }
  if (pen)
    x86_alu_ri(b, true, ALU_ADD, RC, (int32_t)pen);
  x86_alu_mi64(b, ALU_ADD, BT(outcomes[1]), 1);
  if (tm->model.fence_i_branch_halt) /* T_BRANCH's fb_: nothing looked up inline either, only the note to end */
    x86_store_imm32(b, TM(fence_branch_pc), TIMING_NO_LINE);
  if (bt->predict_taken) {
    if (tm->model.fetch_ahead_data) {
      x86_store_imm32(b, TM(redirect_bubbles), pen);
      x86_alu_mi32(b, ALU_ADD, TM(ahead_c1), (int32_t)pen);
    }
  } else if (tm->model.wrong_path_fill) {
    emit_no_wrong_path(l);
  } else if (tm->model.csr_drain) {
    x86_store_imm8(b, TM(wrong_path_waited), 0); /* timing_redirect_drain's */
  }
  x86_store_imm32(b, TM(fetch_line), TIMING_NO_LINE);
  if (tm->model.csr_drain)
    emit_note_redirect(l, i, pen);
  emit_code_fallback(l, changed, n, (const void *)core_jvexc_taken, i, false);
  l->eax_reg = -1;
}

/* Lowers op i; false when it left the block for good (the ops after it
 * cannot be reached). */
static bool lower_op(lower *l, uint32_t i) {
  const core_op *op = &l->blk->ops[i];
  l->cur = i;
  core_block *blk = l->blk;
  x86_buf *b = &l->b;
  if (l->timed && l->cpu->tm->vexmin) { /* VEXMIN_AT (jit_vex.c) */
    uint32_t arg;
    const void *step = jit_vexmin_step_at(l->j, l->cpu, blk, i, &arg);
    jit_vexmin_fwd miss;
    if (step)
      forget_copies(l); /* the hit path clobbers rsi and rdi */
    if (step && jit_vexmin_emit_hit(b, l->j, l->cpu, step, arg, &miss)) {
      uint8_t *done = x86_jmp_fwd(b);
      for (uint32_t k = 0; k < miss.n; k++)
        x86_patch_here(b, miss.at[k]);
      emit_timed_call(l, step, arg);
      x86_patch_here(b, done);
    } else if (step) {
      emit_timed_call(l, step, arg);
    }
  }
  if (muldiv_calls(l, op)) /* T_MULDIV, before the result is written */
    emit_timed_call(l, (const void *)l->fn->muldiv, i);
  else if (l->timed && l->cpu->tm->dynamic_muldiv && jit_muldiv_dynamic(l->cpu->tm, op->kind)) {
    flush_dirty(l); /* it reads x[rs2] in memory */
    jit_emit_shift_timing(b, l->cpu->tm, blk, i); /* a shift (muldiv_calls) */
  }
  switch (op->kind) {
  case K_IFETCH: emit_ifetch(l, i); return true;
  case K_LUI: case K_AUIPC: {
    core_op c = *op; /* li rd, imm */
    c.rs1 = 0;
    if (emit_in_place(l, &c, (in_place){IP_ALU, ALU_ADD, true}))
      return true;
    x86_store_imm32(b, XREG(op->rd), (uint32_t)op->imm);
    wrote(l, op->rd);
    return true;
  }
  case K_NOP: case K_FENCE: return true;
  case K_ADDI:
    if (op->rs1 == 0) {
      if (emit_in_place(l, op, (in_place){IP_ALU, ALU_ADD, true}))
        return true;
      x86_store_imm32(b, XREG(op->rd), (uint32_t)op->imm);
      wrote(l, op->rd);
      return true;
    }
    emit_alu(l, op, ALU_ADD, true);
    return true;
  case K_XORI: emit_alu(l, op, ALU_XOR, true); return true;
  case K_ORI: emit_alu(l, op, ALU_OR, true); return true;
  case K_ANDI: emit_alu(l, op, ALU_AND, true); return true;
  case K_SLTI: emit_set(l, op, CC_L, true); return true;
  case K_SLTIU: emit_set(l, op, CC_B, true); return true;
  case K_SLLI: emit_shift(l, op, SH_SHL, true); return true;
  case K_SRLI: emit_shift(l, op, SH_SHR, true); return true;
  case K_SRAI: emit_shift(l, op, SH_SAR, true); return true;
  case K_ADD: emit_alu(l, op, ALU_ADD, false); return true;
  case K_SUB: emit_alu(l, op, ALU_SUB, false); return true;
  case K_XOR: emit_alu(l, op, ALU_XOR, false); return true;
  case K_OR: emit_alu(l, op, ALU_OR, false); return true;
  case K_AND: emit_alu(l, op, ALU_AND, false); return true;
  case K_SLT: emit_set(l, op, CC_L, false); return true;
  case K_SLTU: emit_set(l, op, CC_B, false); return true;
  case K_SLL: emit_shift(l, op, SH_SHL, false); return true;
  case K_SRL: emit_shift(l, op, SH_SHR, false); return true;
  case K_SRA: emit_shift(l, op, SH_SAR, false); return true;
  case K_MUL:
    if (emit_in_place(l, op, (in_place){IP_MUL, 0, false}))
      return true;
    load_eax(l, op->rs1);
    if (copy_of(l, op->rs2) >= 0)
      x86_op_reg(b, false, 0x0faf, RAX, copy_of(l, op->rs2)); /* imul eax, r32 */
    else
      x86_imul_rm(b, RAX, XREG(op->rs2));
    eax_is(l, op->rd);
    return true;
  case K_MULH: emit_mulh(l, op, true, true); return true;
  case K_MULHSU: emit_mulh(l, op, true, false); return true;
  case K_MULHU: emit_mulh(l, op, false, false); return true;
  case K_DIV: case K_DIVU: case K_REM: case K_REMU: emit_div(l, op); return true;
  case K_LB: case K_LH: case K_LW: case K_LBU: case K_LHU: emit_load(l, i, op); return true;
  case K_SB: case K_SH: case K_SW: emit_store(l, i, op); return true;
  case K_BEQ: emit_branch(l, op, CC_E); return false;
  case K_BNE: emit_branch(l, op, CC_NE); return false;
  case K_BLT: emit_branch(l, op, CC_L); return false;
  case K_BGE: emit_branch(l, op, CC_GE); return false;
  case K_BLTU: emit_branch(l, op, CC_B); return false;
  case K_BGEU: emit_branch(l, op, CC_AE); return false;
  case K_JAL:
    flush_dirty(l); /* before x[rd] is stored: rd may be dirty */
    if (l->vexc) /* T_JAL (jit_vexc.c), before the block's bound is checked */
      emit_vexc_jal(l, i);
    emit_law(l);
    x86_store_imm32(b, XREG(op->rd), blk->end_pc);
    emit_redirect(l);
    if (l->prof) { /* T_JUMP */
      x86_mov_imm32(b, RAX, (uint32_t)op->imm);
      emit_prof_jump(l, i);
    }
    emit_chain_taken(l, (uint32_t)op->imm);
    return false;
  case K_JALR:
    flush_dirty(l);
    if (l->timed && l->cpu->jump_align) { /* a 2 mod 4 target without C: TRAP */
      emit_addr(l, op);
      x86_alu_ri(b, false, ALU_AND, RAX, (int32_t)l->cpu->jump_align);
      uint8_t *aligned = x86_jcc_fwd(b, CC_E);
      emit_addr(l, op);
      emit_helper_call(l, (const void *)l->fn->jump_trap, i, true);
      x86_jmp(b, (uintptr_t)l->j->out);
      x86_patch_here(b, aligned);
      l->eax_reg = -1;
    }
    emit_law(l);
    emit_redirect(l);
    emit_addr(l, op); /* rs1 is read before rd is written: they may be one */
    x86_alu_ri(b, false, ALU_AND, RAX, -2);
    x86_store_imm32(b, XREG(op->rd), blk->end_pc);
    if (l->vexc) { /* T_JALR (jit_vexc.c) */
      x86_store32(b, CPU(pc), RAX);
      emit_vexc_jalr(l, i);
      emit_law(l); /* the block's bound again, with the jalr's charges in it */
      x86_load32(b, RAX, CPU(pc));
    } else if (l->timed && l->cpu->tm->pico) { /* T_JALR (jit_pico.c) */
      x86_store32(b, CPU(pc), RAX);
      if (!l->prof && !l->regions)
        jit_pico_emit_jalr(b, l->cpu);
      else
        emit_helper_call(l, (const void *)core_jpico_jalr, i, true);
      emit_law(l); /* the block's bound again, with the target's fetch in it */
      x86_load32(b, RAX, CPU(pc));
    }
    emit_prof_jump(l, i); /* T_JUMP: the target back in eax */
    if (!l->vexc && !(l->timed && l->cpu->tm->pico))
      emit_jalr_predicted(l);
    else
      emit_indirect(l);
    return false;
  case K_FALLTHRU:
    flush_dirty(l);
    if (i > 0)
      emit_prof_leave(l, 0, blk->pcs[i - 1], blk->end_pc); /* T_FALLTHRU */
    emit_law(l);
    emit_chain_fall(l, blk->end_pc);
    return false;
  case K_FENCE_I: /* flush after the loop returns; EXIT(NEXT_PC) */
    flush_dirty(l);
    x86_store_imm8(b, CPU(flush_pending), 1);
    if (blk->n_insns != blk->insn_idx[i + 1])
      x86_alu_ri(b, true, ALU_SUB, RI, (int32_t)(blk->n_insns - blk->insn_idx[i + 1]));
    x86_store_imm32(b, CPU(pc), blk->pcs[i + 1]);
    x86_jmp(b, (uintptr_t)l->j->out);
    return false;
  default: /* the interpreter runs it; its status is the way out */
    emit_helper_call(l, (const void *)jit_interp_at, i, false);
    x86_jmp(b, (uintptr_t)l->j->epilogue);
    return false;
  }
}

/* Whether every op of blk is lowered with its timing charges; the others
 * (CSR accesses, system instructions, atomics, fence.i) make the timed
 * loop run the whole block. With an I-cache the block starts with the
 * fetch op its entry does. */
static bool timed_lowers(const core_cpu *cpu, const core_block *blk) {
  if (cpu->tm->fetch_ops && (blk->n_ops == 0 || blk->ops[0].kind != K_IFETCH))
    return false;
  for (uint32_t i = 0; i < blk->n_ops; i++) {
    switch (blk->ops[i].kind) {
    case K_LUI: case K_AUIPC: case K_NOP: case K_FENCE:
    case K_ADDI: case K_XORI: case K_ORI: case K_ANDI: case K_SLTI: case K_SLTIU:
    case K_SLLI: case K_SRLI: case K_SRAI:
    case K_ADD: case K_SUB: case K_XOR: case K_OR: case K_AND: case K_SLT: case K_SLTU:
    case K_SLL: case K_SRL: case K_SRA:
    case K_MUL: case K_MULH: case K_MULHSU: case K_MULHU:
    case K_DIV: case K_DIVU: case K_REM: case K_REMU:
    case K_LB: case K_LH: case K_LW: case K_LBU: case K_LHU: case K_SB: case K_SH: case K_SW:
    case K_BEQ: case K_BNE: case K_BLT: case K_BGE: case K_BLTU: case K_BGEU:
    case K_JAL: case K_JALR: case K_FALLTHRU: case K_IFETCH:
      break;
    default:
      return false;
    }
  }
  return !blk->bad_target; /* its jal's or taken branch's trap: the loop's */
}

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* A translation's parts in order, by their start (parts[k], run
 * addresses; the last ends the code), for perf's map (core_jit_perf_name):
 * the entry (the block's own, up to the body), the body, the loop copy,
 * the slow paths and chain stubs, the clean entry's ways round (its late
 * and same-line paths), then the entry's own slow paths and the way out
 * at a horizon. */
enum { JIT_PARTS = 7 };

static void perf_names(lower *l, const uintptr_t parts[JIT_PARTS]) {
  static const char *const part[JIT_PARTS - 1] = {"entry", "body", "loop", "slow", "pre", "out"};
  const char *kind = !l->timed ? "fast" : l->prof ? "prof" : l->regions ? "regions" : l->track ? "track" : "timed";
  for (int k = 0; k < JIT_PARTS - 1; k++)
    core_jit_perf_name(l->j, parts[k], parts[k + 1] - parts[k], "jit_%s_%08x_%s", kind, (unsigned)l->blk->pc,
                       part[k]);
}

/* How translate_as lowers a timed block: as it is, without its loop copy,
 * or as a call of the timed loop's interp_block (what a block the
 * translator does not lower gets) */
enum { LOWER_FULL, LOWER_NO_LOOP, LOWER_CALL };

/* The D-cache keeps mru_tag too (cache_track_mru), from the first
 * translation on, when its lookups are inline (a two-way LRU cache): a
 * data access's hit in the way its set used last is checked alone
 * (emit_probe_addr_mru) */
static int dcache_mru(core_cpu *cpu) {
  timing *tm = cpu->tm;
  if (!tm->dcache_on || tm->dcache.touch != CACHE_TOUCH_LRU2 || !tm->dcache.tags)
    return 0;
  return cache_track_mru(&tm->dcache);
}

/* Translates blk as `how` says; its code, or NULL when the code region is
 * full or (*too_big) the code is larger than the scratch for one block. */
static const void *translate_as(core_cpu *cpu, core_block *blk, int how, bool *too_big) {
  core_jit *j = cpu->jit;
  uint64_t t0 = now_ns();
  lower *l = malloc(sizeof *l);
  if (!l)
    return NULL;
  /* The I-cache keeps the tag of each set's way used last from the first
   * translation on (made from its state then), before any code, the fill
   * routines included, is made: the fetch checks read it (emit_probe_mru),
   * and an interpreted run does without its store */
  if (cpu->tm && (cache_track_mru(&cpu->tm->icache) != 0 || dcache_mru(cpu) != 0 || !ensure_fills(cpu))) {
    free(l);
    return NULL;
  }
  l->b = (x86_buf){.p = j->scratch, .start = j->scratch, .end = j->scratch + JIT_BLOCK_MAX_CODE,
                   .at = (uintptr_t)j->code_next};
  x86_u64(&l->b, 0); /* the header (jit_entry), written last */
  l->cpu = cpu;
  l->j = j;
  l->blk = blk;
  l->nslow = 0;
  l->ncold = 0;
  l->ncopy = cpu->tm ? 5 : NCOPY_MAX;
  memset(l->dirty, 0, sizeof l->dirty);
  forget_copies(l);
  l->eax_reg = -1;
  l->nchain = 0;
  l->njalr = 0;
  l->loop_ok = l->looping = false;
  l->fall_store = false;
  l->nloop_from = 0;
  memset(l->loop_nofit, 0, sizeof l->loop_nofit);
  l->loop_slow = NULL;
  l->vexc_slow[0] = l->vexc_slow[1] = l->vexc_slow[2] = l->vexc_slow[3] = l->vexc_slow[4] = NULL;
  l->clean_exits = false;
  l->clean = l->same = l->clean_hz_same = l->same_hz_same = 0;
  l->pre_slow = l->pre_same = NULL;
  memset(l->pre_nofit, 0, sizeof l->pre_nofit);
  l->timed = cpu->tm != NULL;
  l->prof = l->regions = l->track = l->vexc = l->vexc_fetch = l->vexc_load = false;
  memset(l->region_slow, 0, sizeof l->region_slow);
  memset(l->ctx_slow, 0, sizeof l->ctx_slow);
  memset(l->track_slow, 0, sizeof l->track_slow);
  l->nchecks = 0;
  if (l->timed) {
    timing *tm = cpu->tm;
    l->fn = timed_fns(cpu);
    l->prof = tm->prof != NULL;
    l->regions = tm->regions != NULL;
    l->track = cpu->track && !l->prof; /* the regions loops list blocks too */
    bool dc = tm->dcache_on && tm->dcache.touch == CACHE_TOUCH_LRU2 && !tm->model.dcache.store_load_replay;
    l->inline_fetch = tm->fetch_ops && tm->icache.touch == CACHE_TOUCH_LRU2;
    l->inline_load = dc;
    l->inline_store = dc && tm->dcache_wb;
    l->vexc = jit_vexc_translated(cpu);
    if (l->vexc) /* every lookup a call: the VexRiscv rules act on misses (jit_vexc.c) */
      l->inline_fetch = l->inline_load = l->inline_store = false;
    /* ... but a hit of a cache with one way (the shipped models'), inline */
    l->vexc_fetch = l->vexc && tm->fetch_ops && tm->icache.ways == 1 && tm->icache.tags;
    l->vexc_load = l->vexc && tm->dcache_on && tm->dcache.ways == 1 && tm->dcache.tags;
  }
  x86_buf *b = &l->b;
  uint8_t *nofit, *nofit2 = NULL, *entry_slow = NULL, *entry_miss = NULL;
  uintptr_t body = 0;
  uint32_t first = 0;
  if (l->timed && (how == LOWER_CALL || !timed_lowers(cpu, blk))) {
    /* the timed loop runs the block (core_jt_interp_block) */
    emit_timed_call(l, (const void *)l->fn->interp_block, 0);
    x86_jmp(b, (uintptr_t)j->epilogue);
    nofit = NULL;
  } else if (l->timed && l->vexc && vexc_entry_ok(l)) {
    nofit = emit_vexc_entry(l, &nofit2, &entry_slow, &entry_miss);
    body = run_addr(l, b->p);
    first = 1;
  } else if (l->timed && (blk->timing->max_cycles > INT32_MAX || blk->n_insns > INT32_MAX || l->vexc)) {
    /* FITS and ENTER (and with an I-cache, the block's first fetch) */
    x86_mov_imm64(b, RBP, (uint64_t)(uintptr_t)blk->timing);
    emit_timed_call(l, (const void *)l->fn->enter, 0);
    x86_test_rr(b, RAX, RAX);
    nofit = x86_jcc_fwd(b, CC_E);
    first = cpu->tm->fetch_ops ? 1 : 0;
  } else if (l->timed && clean_ok(l)) {
    nofit = emit_clean_entry(l, &nofit2);
    body = run_addr(l, b->p);
    first = 1;
    l->loop_ok = how == LOWER_FULL && loop_copy_ok(l);
    /* its exits go to the clean entries only when tm->hz holds no late
     * result there: none of its own (tail_hz) and none passed on from
     * before it (passes_late) */
    l->clean_exits = !leaves_late(blk) && !passes_late(l) && !dmiss_may_clear(l);
  } else if (l->timed) {
    nofit = emit_timed_entry(l, &nofit2, &entry_slow, &entry_miss);
    body = run_addr(l, b->p);
    first = cpu->tm->fetch_ops ? 1 : 0;
    l->loop_ok = how == LOWER_FULL && loop_copy_ok(l);
  } else {
    /* FITS: instret + n_insns <= horizon, else leave with pc at this block */
    x86_lea64(b, RAX, x86_m(RI, (int32_t)blk->n_insns));
    x86_op_mem(b, true, 0x3b, RAX, CPU(horizon)); /* cmp rax, [horizon] */
    nofit = x86_jcc_fwd(b, CC_A);
    x86_mov_rr64(b, RI, RAX);
  }
  uintptr_t parts[JIT_PARTS] = {l->b.at + JIT_HEADER, run_addr(l, b->p)};
  if (nofit) {
    for (uint32_t i = first; i < blk->n_ops; i++)
      if (!lower_op(l, i))
        break;
    parts[2] = parts[3] = run_addr(l, b->p);
    if (l->nloop_from) {
      emit_loop_entry(l);
      l->looping = true;
      for (uint32_t i = first; i < blk->n_ops; i++)
        if (!lower_op(l, i))
          break;
      parts[3] = run_addr(l, b->p);
    }
    emit_slow_paths(l);
    emit_chain_stubs(l);
  } else {
    parts[2] = parts[3] = parts[1];
  }
  parts[4] = run_addr(l, b->p);
  emit_pre_paths(l, body); /* its pre_slow falls into the call below */
  parts[5] = run_addr(l, b->p);
  uint8_t *hz_slow[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
  vexc_hz hz;
  if (l->timed && l->vexc && entry_slow && vexc_hz_ok(l, &hz)) { /* late results known */
    x86_patch_here(b, entry_slow);
    entry_slow = NULL;
    emit_vexc_hz_entry(l, &hz, body, hz_slow);
  }
  if (entry_slow || hz_slow[0] || l->pre_slow) { /* late results on their way: the whole entry in C */
    x86_patch_here(b, entry_slow);
    for (int k = 0; k < 6; k++)
      x86_patch_here(b, hz_slow[k]);
    x86_patch_here(b, l->loop_slow);
    x86_patch_here(b, l->vexc_slow[0]);
    x86_patch_here(b, l->vexc_slow[1]);
    x86_patch_here(b, l->vexc_slow[2]);
    x86_patch_here(b, l->vexc_slow[3]);
    x86_patch_here(b, l->vexc_slow[4]);
    emit_timed_call(l, (const void *)l->fn->enter_slow, 0);
    x86_jmp(b, body);
  }
  for (uint32_t k = 0; k < l->nchecks; k++)
    emit_check_paths(l, k);
  if (entry_miss) { /* the first fetch missed */
    x86_patch_here(b, entry_miss);
    emit_timed_call(l, (const void *)l->fn->entry_miss, 0);
    x86_jmp(b, body);
  }
  x86_patch_here(b, nofit);
  x86_patch_here(b, nofit2);
  for (size_t k = 0; k < sizeof l->loop_nofit / sizeof l->loop_nofit[0]; k++)
    x86_patch_here(b, l->loop_nofit[k]);
  for (size_t k = 0; k < sizeof l->pre_nofit / sizeof l->pre_nofit[0]; k++)
    x86_patch_here(b, l->pre_nofit[k]);
  x86_store_imm32(b, CPU(pc), blk->pc);
  x86_jmp(b, (uintptr_t)j->horizon);
  parts[6] = run_addr(l, b->p);
  /* the header: the clean and same entries and their twins (jit_entry),
   * their offsets from the header (the code is under 64 KiB) */
  _Static_assert(JIT_BLOCK_MAX_CODE <= 65536 && JIT_HEADER == 4 * sizeof(uint16_t), "the header's offsets");
  uintptr_t at[4] = {l->clean, l->same, l->clean_hz_same, l->same_hz_same};
  uint16_t entries[4];
  for (int k = 0; k < 4; k++)
    entries[k] = at[k] ? (uint16_t)(at[k] - l->b.at) : 0;
  memcpy(b->start, entries, sizeof entries);
  const void *code = j->code_next + JIT_HEADER;
  *too_big = b->overflow;
  bool ok = !b->overflow && core_jit_commit(j, j->scratch, (size_t)(b->p - b->start));
  if (ok)
    perf_names(l, parts);
  free(l);
  if (!ok)
    return NULL;
  blk->jit = code;
  j->translated++;
  j->translate_ns += now_ns() - t0;
  return code;
}

/* Translates blk; its code, or NULL when the code region is full. Code
 * larger than the scratch is not a full region: flushed and made again
 * it would be as large, and every entry of the block would flush every
 * translation (a profiled block of 64 loads and stores, over 16 KiB, ran
 * so for minutes: tests/profile/straight.c). Such a block is lowered
 * again without its loop copy, then, timed, as a call of interp_block. */
static const void *translate(core_cpu *cpu, core_block *blk) {
  bool too_big = false;
  const void *code = translate_as(cpu, blk, LOWER_FULL, &too_big);
  if (!code && too_big && (code = translate_as(cpu, blk, LOWER_NO_LOOP, &too_big)))
    cpu->jit->lowered_no_loop++;
  if (!code && too_big && cpu->tm && (code = translate_as(cpu, blk, LOWER_CALL, &too_big)))
    cpu->jit->lowered_call++;
  return code;
}

#define JIT_RESUMES 200
#define JIT_COLD 64

/* the block's clean (k = 0) or same (1) entry, or their twins that leave
 * tm->hz as it is (2, 3), or NULL: the offsets from the code's start in
 * the header in front of its entry */
static const void *jit_entry(const core_block *b, int k) {
  uint16_t off[4];
  const uint8_t *start = (const uint8_t *)b->jit - JIT_HEADER;
  memcpy(off, start, sizeof off);
  return off[k] ? start + off[k] : NULL;
}

/* where a direct jump to b goes, by the stub it left through (miss_clean):
 * past the store of b's hazards when tm->hz holds them already (the
 * block that left leaves the same) */
static const void *patch_target(const core_jit *j, const core_block *b, uint8_t clean, const void *code) {
  if (!clean)
    return code;
  int k = clean == 2 && j->miss_line == (uint32_t)b->ops[0].imm;
  uint32_t tail;
  memcpy(&tail, &b->timing->tail_hz, sizeof tail);
  const void *to = tail == j->miss_hz ? jit_entry(b, k + 2) : NULL;
  if (!to)
    to = jit_entry(b, k);
  return to ? to : code;
}

/* A jalr's prediction learned (emit_jalr_predicted): the target, at
 * cpu->pc, is b with its code; the jump first, so that the site stays
 * right whichever write the host refuses */
static void jalr_learn(core_cpu *cpu, uint8_t *site, bool clean, const core_block *b, const void *code) {
  core_jit *j = cpu->jit;
  if (core_jit_patch(j, site + JALR_JMP, patch_target(j, b, clean, code)) &&
      core_jit_write32(j, site + JALR_IMM, cpu->pc))
    core_jit_patch(j, site + JALR_JNE, site + JALR_TABLE);
}

bool core_exec_jit(core_cpu *cpu) {
  core_jit *j = cpu->jit;
  jit_enter_fn enter = (jit_enter_fn)(void *)j->enter;
  uint8_t *fill = NULL;     /* a direct jump not patched yet */
  uint8_t fill_clean = 0;   /* ... to the target's clean or same entry (patch_target) */
  bool lookup = false;      /* an indirect jump that missed */
  /* Where a timed run resumes after a horizon (the statistics module's
   * intervals, a sample, a timer) is often inside a block, and the blocks built
   * from there on (a straight line of code cut into blocks at other
   * places than before) are entered again only where the run resumes:
   * they run interpreted, up to JIT_COLD of them until a translated one,
   * and each is translated once the run has come to it so JIT_RESUMES
   * times (nettle-sha256's and nsichneu's long blocks cost more to
   * translate than to run a few times; with an interval of a million
   * cycles they were translated two to four times over). */
  uint32_t cold = cpu->tm && j->resumes ? JIT_COLD : 0;
  j->resumes = false;
  for (;;) {
    core_block *b = core_block_get(cpu, cpu->pc);
    if (!b) {
      if (cpu->stop == CORE_RUNNING)
        core_raise(cpu, CAUSE_FETCH_ACCESS, cpu->pc, cpu->pc);
      return false;
    }
    if (cold) {
      if (!b->jit && b->cached && b->resumed < JIT_RESUMES) {
        b->resumed++;
        cold--;
        int st = timed_fns(cpu)->interp_block(cpu, b);
        if (st != JIT_DISPATCH)
          return j->resumes = st == JIT_HORIZON;
        continue;
      }
      cold = 0;
    }
    const void *code = b->jit ? b->jit : translate(cpu, b);
    if (!code) {
      /* the code region is full: the outer loop flushes it with the block
       * cache and comes back (nothing ran since the last block boundary).
       * A block that does not fit even an empty region is interpreted. */
      if (j->code_next != j->region + j->page) {
        j->flushes_full++;
        cpu->flush_pending = true;
        return false;
      }
      if (cpu->tm) {
        int st = timed_fns(cpu)->interp_block(cpu, b);
        if (st != JIT_DISPATCH)
          return st == JIT_HORIZON;
        fill = NULL;
        lookup = false;
        continue;
      }
      if (cpu->instret + b->n_insns > cpu->horizon)
        return true;
      return core_exec_fast(cpu, b);
    }
    if (fill && fill_clean >= 3)
      jalr_learn(cpu, fill, fill_clean == 4, b, code);
    else if (fill)
      core_jit_patch(j, fill, patch_target(j, b, fill_clean, code));
    if (lookup)
      j->targets[(cpu->pc >> 1) & (JIT_TARGETS - 1)] = (jit_target){.pc = cpu->pc, .code = code};
    fill = NULL;
    lookup = false;
    switch (enter(cpu, code)) {
    case JIT_OUT: return false;
    case JIT_HORIZON: return j->resumes = true;
    case JIT_DISPATCH: lookup = true; break;
    default:
      fill = j->miss_jump;
      fill_clean = j->miss_clean;
      break;
    }
  }
}

#else
bool core_jit_write_stubs(core_jit *j) {
  (void)j;
  return false;
}
#define JIT_RESUMES 200
#define JIT_COLD 64

bool core_exec_jit(core_cpu *cpu) { return cpu->tm ? core_exec_timed(cpu, NULL) : core_exec_fast(cpu, NULL); }
#endif
