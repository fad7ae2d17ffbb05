/*
 * What translated code calls in timed runs (jit.c, core_jit_timed_why):
 * the timed loop's charges (exec_loop.inc's ENTER, T_IFETCH, T_LOAD,
 * T_STORE, T_MULDIV, T_BRANCH, T_TRAP, EXIT) as functions, one per
 * dynamic event, in the order the interpreter makes them. The block's
 * static cycles and counts are the block builder's (timing_static.c,
 * block_timing), charged on entry exactly as the interpreter does; these
 * helpers are built on the interpreter's own (exec_loop.inc, compiled here
 * without its loop), so the two engines share every rule.
 *
 * These mirror the timed loop of core_exec_timed (and its PMU variant,
 * whose block listing jit.c emits): a profile and address regions have
 * helpers of their own (jit_rows.inc, compiled as jit_profiled.c and
 * jit_regions.c). None of the pipeline rules of the VexRiscv models
 * (fetch_ahead, wrong_path_fill, taken_path_fill, device_bus) is
 * mirrored: runs that need one interpret. micro_arch picorv32's dynamic
 * parts are jit_pico.c's, micro_arch vexriscv-min's step jit_vex.c's (its
 * device accesses and finisher store are counted here, as
 * T_LOAD_UNCACHED, T_STORE_UNCACHED and T_EXIT_STORE do).
 */
#define TIMED 1
#define VEXMIN 0 /* vexriscv-min's step is jit_vex.c's */
#define PROFILED 0
#define REGIONS 0
#define TIMING_NO_ROWS    /* never with a profile (jit.c's timed_fns) */
#define TIMING_NO_REGIONS /* ... nor with address regions */
#define EXEC_LOOP_HELPERS_ONLY
#include "exec_loop.inc"

#include "jit.h"
#include "jit_vex.h"
#include "jit_vexc.h"

const char *core_jit_timed_why(const core_cpu *cpu) {
  const timing *tm = cpu->tm;
  if (!tm)
    return NULL;
  if (tm->vex_rules && !tm->vexmin && !jit_vexc_translated(cpu))
    return "the cached VexRiscv models' profiles and address regions are not translated";
  if (tm->vexmin && !jit_vexmin_translated(cpu))
    return "the vexriscv-min model's profiles, address regions and PMU listing are not translated";
  if (jit_vexc_translated(cpu)) /* every rule the interpreter's (jit_vexc.c) */
    return NULL;
  if ((tm->model.micro_arch != MICRO_GENERIC && !tm->pico && !tm->vexmin) || tm->vex_rules || tm->model.fetch_ahead ||
      tm->model.wrong_path_fill || tm->model.taken_path_fill || tm->model.predicted_target_fill ||
      tm->model.redirect_rvc_pair || tm->model.csr_drain ||
      tm->model.device_bus ||
      tm->model.dcache.store_load_replay)
    return "the core model's pipeline rules are not translated";
  return NULL;
}

static inline uint64_t now_at(const timing *tm, const core_block *b, uint32_t i) {
  return tm->cycle - b->timing->static_cycles + b->timing->ops[i].end;
}

/* FITS of exec_loop.inc (both horizons) */
static inline bool fits(const core_cpu *cpu, const core_block *b) {
  return cpu->instret + b->n_insns <= cpu->horizon && cpu->tm->cycle + b->timing->max_cycles <= cpu->cycle_horizon;
}

int core_jt_enter(core_cpu *cpu, core_block *b) {
  if (!fits(cpu, b))
    return 0;
  enter_block_timed(cpu->tm, b, cpu->instret);
  cpu->instret += b->n_insns;
  return 1;
}

/* ENTER when late results are on their way (the inline entry's slow
 * path: FITS was checked) */
void core_jt_enter_slow(core_cpu *cpu, core_block *b) {
  enter_block_timed(cpu->tm, b, cpu->instret);
  cpu->instret += b->n_insns;
}

/* ENTER's first fetch on a new line, after the inline entry found it
 * missing or did not look: as enter_block_timed (no late results: the
 * inline entry's case). A lookup that missed changed nothing, so it is
 * made again. */
void core_jt_entry_miss(core_cpu *cpu, core_block *b) {
  timing *tm = cpu->tm;
  if (timing_fetch_hit(tm, (uint32_t)b->ops[0].imm)) {
    b->timing->entry_hits++;
    return;
  }
  uint64_t start = tm->cycle - b->timing->static_cycles;
  tm->insn_start = start;
  tm->insn_start_op = b->ops;
  timing_fetch_slow(tm, (uint32_t)b->ops[0].imm, start, 0);
}

#ifdef TALLY_CHECK_LAWS
void core_jt_law(core_cpu *cpu, core_block *blk) {
  timing *tm = cpu->tm;
  LAW_BLOCK_BOUND();
}
#endif

/* T_IFETCH (fetch op i, i > 0) */
void core_jt_ifetch(core_cpu *cpu, core_block *blk, uint32_t i) {
  timing *tm = cpu->tm;
  const core_op *op = &blk->ops[i];
  uint32_t line = (uint32_t)op->imm;
  if (line != tm->fetch_line) {
    if (!timing_fetch_hit(tm, line)) {
      uint64_t now = now_at(tm, blk, i);
      if (op[-1].kind != K_IFETCH || tm->insn_start_op != op - 1)
        tm->insn_start = now;
      tm->insn_start_op = op;
      timing_count(tm, SIG_ICACHE_ACCESS, -1);
      timing_count(tm, SIG_ICACHE_HIT, -1);
      timing_fetch_slow(tm, line, now, 0);
    }
  } else {
    timing_count(tm, SIG_ICACHE_ACCESS, -1);
    timing_count(tm, SIG_ICACHE_HIT, -1);
  }
}

/* T_IFETCH when the line is new and the inline lookup missed */
void core_jt_ifetch_miss(timing *tm, const core_op *op, uint32_t delta, uint32_t line, uint32_t after_fetch) {
  uint64_t now = tm->cycle - delta;
  if (!after_fetch || tm->insn_start_op != op - 1)
    tm->insn_start = now;
  tm->insn_start_op = op;
  timing_count(tm, SIG_ICACHE_ACCESS, -1);
  timing_count(tm, SIG_ICACHE_HIT, -1);
  timing_fetch_miss_lean(tm, line, now);
}

/* ENTER's first fetch when the inline lookup missed (core_jt_entry_miss
 * without looking again) */
void core_jt_entry_fill(timing *tm, const core_op *op0, uint32_t delta, uint32_t line) {
  uint64_t start = tm->cycle - delta;
  tm->insn_start = start;
  tm->insn_start_op = op0;
  timing_fetch_miss_lean(tm, line, start);
}

/* T_LOAD: a load inside RAM */
void core_jt_load(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t a) {
  timing *tm = cpu->tm;
  uint64_t now = now_at(tm, blk, i);
  if (!tm->dcache_on) {
    timing_load_slow(tm, a, now);
    if (tm->vexmin)
      vexmin_settle(tm);
  } else if (!timing_load_hit(tm, a)) {
    timing_count(tm, SIG_DCACHE_READ_HIT, -1);
    timing_dcache_miss(tm, a, now, false);
  } else if (tm->store_pending) {
    timing_load_replay(tm, a, jit_access_size(blk->ops[i].kind), now);
  }
}

/* T_STORE: a store inside RAM */
void core_jt_store(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t a) {
  timing *tm = cpu->tm;
  uint64_t now = now_at(tm, blk, i);
  if (!tm->dcache_wb) {
    timing_store_slow(tm, a, now);
    if (tm->model.dcache.store_load_replay)
      timing_note_store(tm, a, jit_access_size(blk->ops[i].kind), now);
    if (tm->vexmin)
      vexmin_settle(tm);
  } else if (!timing_store_hit(tm, a)) {
    timing_count(tm, SIG_DCACHE_WRITE_HIT, -1);
    timing_dcache_miss(tm, a, now, true);
  }
}

/* T_LOAD and T_STORE after the inline lookup of a two-way LRU D-cache
 * missed (never with store_load_replay: no store is pending) */
void core_jt_load_miss(timing *tm, uint32_t a, uint32_t delta) {
  timing_count(tm, SIG_DCACHE_READ_HIT, -1);
  timing_dcache_miss_lean(tm, a, tm->cycle - delta, false);
}

void core_jt_store_miss(timing *tm, uint32_t a, uint32_t delta) {
  timing_count(tm, SIG_DCACHE_WRITE_HIT, -1);
  timing_dcache_miss_lean(tm, a, tm->cycle - delta, true);
}

/* T_MULDIV, before the op writes its result */
void core_jt_muldiv(core_cpu *cpu, core_block *blk, uint32_t i) {
  const core_op *op = &blk->ops[i];
  timing_muldiv(cpu->tm, op->kind, cpu->x[op->rs1], cpu->x[op->rs2], blk->timing->ops[i].overlap);
}

/* T_BRANCH */
void core_jt_branch(core_cpu *cpu, core_block *blk, uint32_t taken) {
  timing *tm = cpu->tm;
  block_timing *bt = blk->timing;
  tm->cycle += bt->branch_pen[taken];
  bt->outcomes[taken]++;
  if (taken)
    tm->fetch_line = TIMING_NO_LINE;
}

/* TRAP at op i (T_TRAP first) */
static void trap_at(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t cause, uint32_t tval) {
  timing *tm = cpu->tm;
  cancel_rest(tm, blk, i + 1);
  tm->hz = (timing_hazards){{0, 0}, {0, 0}};
  timing_count(tm, SIG_INSTRET, -1);
  uint32_t hits = blk->timing->ops[i].pulses & TIMING_HIT_PULSES;
  if (hits)
    timing_count(tm, (tally_signal_id)__builtin_ctz(hits), -1);
  cpu->instret -= blk->n_insns - blk->insn_idx[i];
  core_raise(cpu, cause, tval, blk->pcs[i]);
  cpu->cur_blk = NULL;
  cpu->cur_op = NULL;
}

/* jalr's TRAP: a 2 mod 4 target (rs1 + imm in target) without C */
void core_jt_jump_trap(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t target) {
  trap_at(cpu, blk, i, CAUSE_FETCH_MISALIGNED, target & ~1u);
}

/* LOAD's slow half: the value (extended as the load's width says), or -1
 * after a trap */
int64_t core_jt_load_slow(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t a) {
  const core_op *op = &blk->ops[i];
  timing *tm = cpu->tm;
  cpu->cur_blk = blk;
  cpu->cur_op = op;
  uint32_t v;
  if (!core_load_slow(cpu, a, jit_access_size(op->kind), &v)) {
    trap_at(cpu, blk, i, CAUSE_LOAD_ACCESS, a);
    return -1;
  }
  /* T_LOAD_UNCACHED (device_bus never translated) */
  if (tm->dcache_on)
    timing_count(tm, SIG_DCACHE_READ_HIT, -1);
  if (tm->vexmin)
    timing_vexmin_device(tm, false);
  if (tm->max_wait_states)
    timing_device_access(tm, a);
  if (tm->vexmin)
    vexmin_settle(tm);
  cpu->cur_blk = NULL;
  cpu->cur_op = NULL;
  return (int64_t)jit_load_extend(op->kind, v);
}

/* STORE's slow half: 0 to go on with the block, 1 when it was left (a
 * fault, or a store that ends it: EXIT) */
int core_jt_store_slow(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t a) {
  const core_op *op = &blk->ops[i];
  timing *tm = cpu->tm;
  unsigned n = jit_access_size(op->kind);
  cpu->cur_blk = blk;
  cpu->cur_op = op;
  core_store_result r = core_store_slow(cpu, a, n, cpu->x[op->rs2]);
  if (r == STORE_FAULT) {
    trap_at(cpu, blk, i, CAUSE_STORE_ACCESS, a);
    return 1;
  }
  if (a - cpu->ram_base <= cpu->ram_size - n) {
    core_jt_store(cpu, blk, i, a);
  } else { /* T_STORE_UNCACHED */
    if (tm->dcache_wb)
      timing_count(tm, SIG_DCACHE_WRITE_HIT, -1);
    if (tm->vexmin)
      timing_vexmin_device(tm, true);
    if (tm->max_wait_states)
      timing_device_access(tm, a);
    if (tm->vexmin)
      vexmin_settle(tm);
  }
  if (r == STORE_DONE_EXIT) { /* T_EXIT_STORE, EXIT(NEXT_PC) */
    if (tm->vexmin && cpu->stop == CORE_STOP_EXIT)
      timing_vexmin_exit_store(tm);
    tm->hz = hazards_after(tm, cpu, blk, i);
    cancel_rest(tm, blk, i + 1);
    leave_entry_wait(tm, blk, i, &blk->timing->entry_load_use);
    leave_carry(tm, blk, i, blk->pcs[i + 1]);
    cpu->instret -= blk->n_insns - blk->insn_idx[i + 1];
    cpu->pc = blk->pcs[i + 1];
    cpu->cur_blk = NULL;
    cpu->cur_op = NULL;
    return 1;
  }
  cpu->cur_blk = NULL;
  cpu->cur_op = NULL;
  return 0;
}

/* A block the translator does not lower (a CSR access, a system
 * instruction, an atomic, fence.i): the timed loop runs it, and only it
 * (the horizon is its end), as it would in its own loop. */
int core_jt_interp_block(core_cpu *cpu, core_block *blk) {
  if (!fits(cpu, blk)) {
    cpu->pc = blk->pc;
    return JIT_HORIZON;
  }
  uint64_t saved = cpu->horizon;
  cpu->horizon = cpu->instret + blk->n_insns;
  bool more = cpu->tm->vexmin ? core_exec_timed_vexmin(cpu, blk) : core_exec_timed(cpu, blk);
  if (cpu->horizon != 0) /* 0: a stop was requested meanwhile (core_set_stop) */
    cpu->horizon = saved;
  return more ? JIT_DISPATCH : JIT_OUT;
}
