/*
 * The cached VexRiscv models (timing.vex_rules: vexriscv, vexriscv-imac)
 * under the translator (jit_vexc.h). Each helper here is one of the timed
 * loop's charges (exec_loop.inc's ENTER, T_IFETCH, T_LOAD, T_STORE,
 * T_BRANCH, T_JAL, T_JALR, the slow halves of LOAD and STORE, TRAP and
 * EXIT), its macro expanded in a function whose locals carry the names the
 * loop's have (EXEC_LOOP_MACROS): the translated code takes the very
 * rules the interpreter takes (fetch_ahead, wrong_path_fill, csr_drain,
 * redirect_*, device_bus, store_load_replay ...), with no copy of any.
 * What the block builder made static (each op's base cost, the hits'
 * counts) is charged at the block's entry, as the interpreter does.
 */
#define TIMED 1
#define VEX_RULES 1
#define VEXMIN 0 /* vexriscv-min is jit_vex.c's */
#define PROFILED 0
#define REGIONS 0
#define TIMING_NO_ROWS    /* never with a profile (jit_vexc_translated) */
#define TIMING_NO_REGIONS /* ... nor with address regions */
#define EXEC_LOOP_HELPERS_ONLY
#define EXEC_LOOP_MACROS /* the loop's T_* macros, expanded below */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "exec_loop.inc"
#pragma GCC diagnostic pop

#include <string.h>

#include "jit.h"
#include "jit_vexc.h"

bool jit_vexc_translated(const core_cpu *cpu) {
  const timing *tm = cpu->tm;
  return tm && tm->vex_rules && !tm->vexmin && !tm->prof && !tm->regions;
}

/* ENTER of the PMU loop (PMU_TRACK) when the program touched the PMU or
 * the statistics module is attached: a block not listed is listed
 * (core_track) */
static inline void track(core_cpu *cpu, core_block *b) {
  if (cpu->track && !b->timing->listed && b->cached)
    core_track(cpu, b);
}

/* The locals the loop's macros name (LOOP_NAME's): the hart, its timing,
 * the block and the op the charge is made for, and the RAM's bounds */
#define LOOP_LOCALS(blk_, i_)                                                                  \
  timing *const tm = cpu->tm;                                                                  \
  core_block *blk = (blk_);                                                                    \
  const core_op *op = &blk->ops[(i_)];                                                         \
  const uint32_t ram_base = cpu->ram_base, ram_size = cpu->ram_size;                           \
  (void)tm, (void)op, (void)ram_base, (void)ram_size

/* FITS and ENTER (with an I-cache, the block's first fetch too) */
int core_jvexc_enter(core_cpu *cpu, core_block *b) {
  timing *tm = cpu->tm;
  if (!FITS(b))
    return 0;
  track(cpu, b);
  enter_block_timed(tm, b, cpu->instret);
  cpu->instret += b->n_insns;
  return 1;
}

/* ENTER after FITS was checked */
void core_jvexc_enter_slow(core_cpu *cpu, core_block *b) {
  track(cpu, b);
  enter_block_timed(cpu->tm, b, cpu->instret);
  cpu->instret += b->n_insns;
}

/* ENTER's first fetch after the inline entry (jit.c's emit_vexc_entry)
 * found its line missing: that entry is taken only with no late results,
 * so with no wait, the block's start its static cycles back */
void core_jvexc_entry_miss(core_cpu *cpu, core_block *b) {
  timing *tm = cpu->tm;
  enter_fetch_miss(tm, b, 0, tm->cycle - b->timing->static_cycles);
}

/* The same after the entry for a late result known when the code was made
 * (jit.c's emit_vexc_hz_entry): `wait` cycles at the entry, before the
 * block's start */
void core_jvexc_entry_miss_wait(core_cpu *cpu, core_block *b, uint32_t wait) {
  timing *tm = cpu->tm;
  enter_fetch_miss(tm, b, wait, tm->cycle - b->timing->static_cycles);
}

/* T_IFETCH of fetch op i (i > 0) */
void core_jvexc_ifetch(core_cpu *cpu, core_block *b, uint32_t i) {
  LOOP_LOCALS(b, i);
  T_IFETCH();
}

/* A record for later_adj of another entry of a block (it reads none) is
 * dropped, so that the translated code's accesses, which take the C path
 * while one is kept (jit.c's emit_dnow_test), take it only once after */
static inline void later_drop(timing *tm, const core_cpu *cpu, const core_block *b) {
  if (tm->later_n && (tm->later_blk != b || tm->later_instret != cpu->instret))
    tm->later_n = 0;
}

/* T_LOAD and T_STORE: an access inside RAM */
void core_jvexc_load(core_cpu *cpu, core_block *b, uint32_t i, uint32_t a) {
  LOOP_LOCALS(b, i);
  later_drop(tm, cpu, b);
  T_LOAD(a, jit_access_size(op->kind));
}

void core_jvexc_store(core_cpu *cpu, core_block *b, uint32_t i, uint32_t a) {
  LOOP_LOCALS(b, i);
  later_drop(tm, cpu, b);
  T_STORE(a, jit_access_size(op->kind));
}

/* T_MULDIV, before the op writes its result */
void core_jvexc_muldiv(core_cpu *cpu, core_block *b, uint32_t i) {
  LOOP_LOCALS(b, i);
  T_MULDIV(op->kind, cpu->x[op->rs1], cpu->x[op->rs2]);
}

/* T_BRANCH of the branch at op i, taken or not */
void core_jvexc_taken(core_cpu *cpu, core_block *b, uint32_t i) {
  LOOP_LOCALS(b, i);
  T_BRANCH(1);
}

void core_jvexc_fall(core_cpu *cpu, core_block *b, uint32_t i) {
  LOOP_LOCALS(b, i);
  T_BRANCH(0);
}

/* T_JAL, and T_JALR to `target` */
void core_jvexc_jal(core_cpu *cpu, core_block *b, uint32_t i) {
  LOOP_LOCALS(b, i);
  T_JAL();
}

void core_jvexc_jalr(core_cpu *cpu, core_block *b, uint32_t i, uint32_t target) {
  LOOP_LOCALS(b, i);
  T_JALR(target);
}

/* The 16 bytes from the word holding pc, kept in c: false when not in RAM */
static bool take_window(const core_cpu *cpu, uint32_t pc, core_jvexc_code *c) {
  uint32_t o = (pc & ~3u) - cpu->ram_base;
  if (cpu->ram_size < 16 || o > cpu->ram_size - 16)
    return false;
  c->window = true;
  c->o = o;
  memcpy(c->w, cpu->ram + o, 16);
  return true;
}

/* split_target_at(target) is 0, and stays so while the halfword there
 * (kept in c) does: a target at 0 mod 4, or a 16-bit instruction */
static bool no_split(const core_cpu *cpu, const timing *tm, uint32_t target, core_jvexc_code *c) {
  uint32_t o = target - cpu->ram_base;
  uint16_t h;
  if (!tm->model.redirect_split_target || !(target & 2))
    return true;
  if (cpu->ram_size < 2 || o > cpu->ram_size - 2)
    return false;
  memcpy(&h, cpu->ram + o, 2);
  if ((h & 3) == 3)
    return false;
  c->half = true;
  c->ho = o;
  c->hv = h;
  return true;
}

/* A redirect from decode (a jal, a branch predicted taken) at pc to
 * target with notes alone: timing_taken_path finds the word it looks up
 * on pc's line (the next instruction's last halfword, at most pc + 6),
 * decode_rvc_pair holds no word (then decode_waited does not matter), and
 * no split target */
static bool decode_redirect_inline(const core_cpu *cpu, const timing *tm, uint32_t pc, uint32_t target,
                                   core_jvexc_code *c) {
  uint32_t mask = ~(tm->model.icache.line - 1u);
  if (tm->model.taken_path_fill && ((pc + 6) & mask) != (pc & mask))
    return false;
  if (tm->model.redirect_rvc_pair && (!take_window(cpu, pc, c) || decode_rvc_pair(cpu, pc)))
    return false;
  return no_split(cpu, tm, target, c);
}

/* A redirect from memory (a jalr, a branch taken against its prediction)
 * at op i with notes alone: no fence.i on its wrong path, that path (at
 * most 3 words, wrong_path_words, a function of the window's bytes) on
 * the jump's own line, so that timing_wrong_path looks nothing up; no
 * word of two held (redirect_rvc_pair: with no line waited for,
 * wrong_path_refilled is false, as with `filled` false here); no CSR
 * instruction after it, so that timing_redirect_drain charges nothing */
static bool memory_redirect_inline(const core_cpu *cpu, core_block *b, uint32_t i, core_jvexc_code *c) {
  LOOP_LOCALS(b, i);
  uint32_t pc = THIS_PC, depth = tm->model.wrong_path_words;
  if (blk->timing->wrong_path_fence_i || !take_window(cpu, pc, c))
    return false;
  if (tm->model.wrong_path_fill) {
    if (depth > 3)
      return false; /* a scan past the bytes compared */
    uint32_t at, n = WRONG_PATH_WORDS_AT(&at), mask = ~(tm->model.icache.line - 1u);
    for (uint32_t k = 1; k <= n; k++)
      if (((pc + 4 * k) & mask) != (pc & mask))
        return false;
    if (at != pc)
      return false; /* its words counted from pc + 2, the last on the next line */
    if (wrong_path_use_hold(cpu, tm, blk->timing, pc, at, false))
      return false; /* its cycle charged by the call (in the window's 16 bytes) */
  }
  if (tm->model.redirect_rvc_pair && redirect_rvc_pair(cpu, tm, pc, false))
    return false;
  uint32_t bits = 0, next = 0;
  core_fetch_word(cpu, pc, &bits);
  core_fetch_word(cpu, pc + isa_insn_len(bits), &next);
  return !((next & 0x7f) == 0x73 && (next >> 12 & 7) != 0);
}

bool core_jvexc_jal_inline(const core_cpu *cpu, core_block *b, uint32_t i, core_jvexc_code *c) {
  LOOP_LOCALS(b, i);
  memset(c, 0, sizeof *c);
  return decode_redirect_inline(cpu, tm, THIS_PC, (uint32_t)op->imm, c);
}

bool core_jvexc_jalr_inline(const core_cpu *cpu, core_block *b, uint32_t i, core_jvexc_code *c) {
  LOOP_LOCALS(b, i);
  memset(c, 0, sizeof *c);
  uint32_t jt; /* wrong_path_jump: its jump, in the window's bytes, takes the call */
  return memory_redirect_inline(cpu, b, i, c) &&
         !(tm->model.wrong_path_fill && tm->model.wrong_path_jump && wrong_path_jump_at(cpu, tm, THIS_PC, &jt));
}

bool core_jvexc_taken_inline(const core_cpu *cpu, core_block *b, uint32_t i, core_jvexc_code *c) {
  LOOP_LOCALS(b, i);
  memset(c, 0, sizeof *c);
  if (blk->timing->branch_pen[1] > INT32_MAX)
    return false;
  if (blk->timing->predict_taken)
    return decode_redirect_inline(cpu, tm, THIS_PC, (uint32_t)op->imm, c);
  uint32_t jt; /* wrong_path_jump: its jump, in the window's bytes, takes the call */
  return memory_redirect_inline(cpu, b, i, c) && no_split(cpu, tm, (uint32_t)op->imm, c) &&
         !(tm->model.wrong_path_fill && tm->model.wrong_path_jump && wrong_path_jump_at(cpu, tm, THIS_PC, &jt));
}

/* TRAP at op i (the loop's, up to its way out) */
static void trap_at(core_cpu *cpu, core_block *b, uint32_t i, uint32_t cause, uint32_t tval) {
  LOOP_LOCALS(b, i);
  T_TRAP();
  cpu->instret -= blk->n_insns - blk->insn_idx[OP_INDEX];
  core_raise(cpu, cause, tval, THIS_PC);
  cpu->cur_blk = NULL;
  cpu->cur_op = NULL;
}

/* jalr's TRAP: a 2 mod 4 target (rs1 + imm in target) without C */
static void core_jvexc_jump_trap(core_cpu *cpu, core_block *b, uint32_t i, uint32_t target) {
  trap_at(cpu, b, i, CAUSE_FETCH_MISALIGNED, target & ~1u);
}

/* LOAD's slow half: the value (extended as the load's width says), or -1
 * after a trap */
int64_t core_jvexc_load_slow(core_cpu *cpu, core_block *b, uint32_t i, uint32_t a) {
  LOOP_LOCALS(b, i);
  SYNC();
  uint32_t v;
  if (!core_load_slow(cpu, a, jit_access_size(op->kind), &v)) {
    trap_at(cpu, b, i, CAUSE_LOAD_ACCESS, a);
    return -1;
  }
  T_LOAD_UNCACHED(a);
  cpu->cur_blk = NULL;
  cpu->cur_op = NULL;
  return (int64_t)jit_load_extend(op->kind, v);
}

/* STORE's slow half: 0 to go on with the block, 1 when it was left (a
 * fault, or a store that ends it: EXIT) */
int core_jvexc_store_slow(core_cpu *cpu, core_block *b, uint32_t i, uint32_t a) {
  LOOP_LOCALS(b, i);
  unsigned n = jit_access_size(op->kind);
  SYNC();
  PROF_AT();
  core_store_result r = core_store_slow(cpu, a, n, cpu->x[op->rs2]);
  if (r == STORE_FAULT) {
    trap_at(cpu, b, i, CAUSE_STORE_ACCESS, a);
    return 1;
  }
  if (a - ram_base <= ram_size - n)
    T_STORE(a, n);
  else
    T_STORE_UNCACHED(a);
  if (r == STORE_DONE_EXIT) { /* EXIT(NEXT_PC) */
    if (cpu->stop == CORE_STOP_EXIT)
      T_EXIT_STORE();
    LEAVE_AFTER();
    cpu->instret -= blk->n_insns - blk->insn_idx[OP_INDEX + 1];
    cpu->pc = NEXT_PC;
  }
  cpu->cur_blk = NULL;
  cpu->cur_op = NULL;
  return r == STORE_DONE_EXIT;
}

/* A block the translator does not lower (a CSR access, a system
 * instruction, an atomic, fence.i): the interpreter's loop for the run
 * (the VexRiscv one, or the PMU one listing blocks) runs it, and only it
 * (the horizon is its end) */
int core_jvexc_interp_block(core_cpu *cpu, core_block *blk) {
  timing *tm = cpu->tm;
  if (!FITS(blk)) {
    cpu->pc = blk->pc;
    return JIT_HORIZON;
  }
  uint64_t saved = cpu->horizon;
  cpu->horizon = cpu->instret + blk->n_insns;
  bool more = core_exec(cpu, blk);
  if (cpu->horizon != 0) /* 0: a stop was requested meanwhile (core_set_stop) */
    cpu->horizon = saved;
  return more ? JIT_DISPATCH : JIT_OUT;
}

#ifdef TALLY_CHECK_LAWS
#define VEXC_LAW core_jt_law
#else
#define VEXC_LAW NULL /* never called (jit.c's emit_law) */
#endif

const jit_timed_fns core_jvexc_fns = {
  .enter = core_jvexc_enter, .enter_slow = core_jvexc_enter_slow, .entry_miss = core_jvexc_entry_miss, .law = VEXC_LAW,
  .ifetch = core_jvexc_ifetch, .load = core_jvexc_load, .store = core_jvexc_store, .muldiv = core_jvexc_muldiv,
  .branch = NULL, /* core_jvexc_taken, core_jvexc_fall: they need the op */
  .load_slow = core_jvexc_load_slow, .store_slow = core_jvexc_store_slow,
  .jump_trap = core_jvexc_jump_trap, .interp_block = core_jvexc_interp_block,
};
