/*
 * The translator's parts as the core sees them: a translated block's code
 * lives in a code region owned by the hart's core_jit (jit_mem.c), made by
 * the lowering of its predecoded ops (jit.c), and run by core_exec_jit.
 *
 * The region holds, in order: a page of fixed stubs (the way in from C and
 * the ways out), the blocks' code, then data the code reads and writes but
 * never runs: the direct-mapped table of indirect-jump targets. A way out
 * of a block to a known address is a direct jump, first to a stub of the
 * block's own that returns to C, patched to the target's code once that
 * exists (core_jit_patch). Code pages are writable only while a
 * translation is copied in or a jump patched, executable otherwise (W^X).
 */
#ifndef TALLY_CORE_JIT_H
#define TALLY_CORE_JIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpu.h"

/* Why translated code returned to C. */
enum {
  JIT_OUT = 0,      /* an exit, a trap or a stop: state is final (core_exec returns false) */
  JIT_HORIZON = 1,  /* the next block would cross the horizon; cpu->pc is its address */
  JIT_DISPATCH = 2, /* go on at cpu->pc: find (or translate) its block */
  JIT_MISS = 3,     /* a direct jump not patched yet (core_jit.miss_jump); go on at cpu->pc */
};

/* an entry of the indirect-jump table: a guest pc and its block's code */
typedef struct jit_target {
  uint32_t pc;      /* odd: empty (no jump target is odd) */
  uint32_t pad;
  const void *code;
} jit_target;

enum { JIT_FILL_LOAD, JIT_FILL_STORE, JIT_FILL_FETCH };

#define JIT_TARGETS 4096u            /* entries of the indirect-jump table, a power of two */
#define JIT_DEFAULT_CODE (16u << 20) /* bytes of code before a flush */
#define JIT_CALL_SITES 4096u       /* a profile's inline calls before a flush; calls past them are made in C */
#define JIT_BLOCK_MAX_CODE (32u << 10) /* scratch for one block's code: above the largest seen (over 16 KiB, profiled; larger: translate) */
#define JIT_HEADER 8u                  /* bytes in front of a block's code: its other entries (jit.c) */

typedef struct core_jit {
  uint8_t *region;          /* mmap'd: stubs, code, then the table */
  uint8_t *rw;              /* the code part's writable view (jit_mem.c), or NULL */
  size_t region_size, code_size, page;
  uint8_t *code_next;       /* where the next block's code goes */
  jit_target *targets;      /* JIT_TARGETS entries */
  uint8_t *miss_jump;       /* written by the miss stub: the rel32 of the jump to patch */
  uint8_t miss_clean;       /* and 1 when it was the clean one's (core_block.jit_clean), 2 the
                             * running-on one's (jit_clean or jit_same: miss_line the line fetched last),
                             * 3 or 4 a jalr's prediction to learn (miss_jump: its site) */
  uint32_t miss_line;
  uint64_t miss_hz;         /* the clean and running-on ones': the hazards (timing_hazards) the
                             * block that left leaves, which tm->hz holds, or 1 << 32: not known
                             * (jit.c, patch_target) */
  /* the cache fill routines (jit.c, ensure_fills) for the timing model
   * fill_tm, in the code since the last flush; NULL where it has none;
   * fill_regions: they charge an address region's row too; fill_prof: a
   * profile's rows (the instruction's, timing.prof_row, and its context's) */
  uint8_t *fill[3];         /* JIT_FILL_* */
  const void *fill_tm;
  bool fill_regions, fill_prof;
  /* with them, the entries' shared checks (jit.c): the region switch
   * (NULL without address regions) and the PMU listing's */
  uint8_t *region_routine, *track_routine;
  /* fixed stubs */
  uint8_t *enter;           /* int enter(core_cpu *cpu, const void *code) */
  uint8_t *epilogue, *out, *horizon, *dispatch, *miss, *miss_clean_stub, *miss_fall_stub;
  /* a jalr's first target, to be predicted (miss_clean 3, or 4 with the
   * hazards in miss_hz: to the target's clean entry; jit.c, emit_jalr_predicted) */
  uint8_t *miss_jalr, *miss_jalr_clean;
  uint8_t *scratch;         /* one block's code, before it is copied in */
  /* a profile's call sites in the code (jit.c, timing_call_site): made
   * with the first, JIT_CALL_SITES of them, emptied with the code */
  struct timing_call_site *sites;
  uint32_t nsites;
  /* counts for reports */
  uint64_t translated, translate_ns, flushes_full, code_bytes_max;
  /* blocks whose code did not fit the scratch (translate): lowered again
   * without the loop copy, or, timed, as a call of interp_block */
  uint64_t lowered_no_loop, lowered_call;
  bool resumes;             /* core_exec_jit last left at a horizon: the run resumes past it */
  struct jit_vexmin_memo *vexmin_memo; /* vexriscv-min's replays (jit_vex.c), or NULL */
  /* $TALLY_PERF_MAP set: perf's symbol map of the code, /tmp/perf-PID.map
   * (jit_mem.c, core_jit_perf_name), else NULL */
  FILE *perf_map;
} core_jit;

/* Whether this build and host can run translated code (x86-64 Linux). */
bool core_jit_supported(void);
/* Creates the translator's state for cpu with code_bytes of code (0: the
 * default), or NULL (out of memory, or not supported). */
core_jit *core_jit_new(size_t code_bytes);
void core_jit_free(core_jit *j);
/* Drops every translation (with the block cache: core_block_flush). */
void core_jit_flush(core_jit *j);
/* Copies n bytes of code in at code_next (W^X: the pages writable only
 * meanwhile); false when the region is full. */
bool core_jit_commit(core_jit *j, const uint8_t *code, size_t n);
/* Points the direct jump whose rel32 is at `at` (in the code part) at
 * target; false when the host refused (the jump then keeps returning to
 * C, which stays correct). */
bool core_jit_patch(core_jit *j, uint8_t *at, const void *target);
/* Writes the 4 bytes at `at` (in the code part) as core_jit_patch does:
 * the immediate of a jalr's predicted target (jit.c, emit_jalr_predicted) */
bool core_jit_write32(core_jit *j, uint8_t *at, uint32_t v);
/* Names n bytes of code at `at` in perf's map (a line "START SIZE NAME"),
 * when $TALLY_PERF_MAP asked for one; nothing for n = 0. */
void core_jit_perf_name(core_jit *j, uintptr_t at, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Writes the fixed stubs (jit.c). */
bool core_jit_write_stubs(core_jit *j);

/* The functional loop, translated (jit.c): as core_exec_fast(cpu, NULL);
 * in a timed run (cpu->tm) as core_exec_timed(cpu, NULL). */
bool core_exec_jit(core_cpu *cpu);

/* Why a timed run cannot be translated (a core model's pipeline rules the
 * translator lacks), or NULL when it can (functional runs too; with a
 * profile, address regions or PMU tracking too). jit_timed.c. */
const char *core_jit_timed_why(const core_cpu *cpu);

/* What translated code calls in timed runs (jit_timed.c): the timed
 * loop's charges, one per dynamic event (exec_loop.inc has the rules). */
int core_jt_enter(core_cpu *cpu, core_block *b); /* 0: it does not fit under the horizons */
void core_jt_law(core_cpu *cpu, core_block *blk); /* TALLY_CHECK_LAWS builds only */
void core_jt_enter_slow(core_cpu *cpu, core_block *b);
void core_jt_entry_miss(core_cpu *cpu, core_block *b);
void core_jt_ifetch(core_cpu *cpu, core_block *blk, uint32_t i);
/* The misses of the inline lookups of two-way LRU caches (nothing changed
 * by the lookup), the access's cycle as tm->cycle - delta: a fetch op's
 * (op, its line, and whether the op before it is a fetch op too), a
 * block's first fetch (delta: the block's static cycles), a load's or a
 * store's (never with store_load_replay). */
void core_jt_ifetch_miss(timing *tm, const core_op *op, uint32_t delta, uint32_t line, uint32_t after_fetch);
void core_jt_entry_fill(timing *tm, const core_op *op0, uint32_t delta, uint32_t line);
void core_jt_load_miss(timing *tm, uint32_t addr, uint32_t delta);
void core_jt_store_miss(timing *tm, uint32_t addr, uint32_t delta);
/* ... and with a profile (jit_profiled.c) or address regions alone
 * (jit_regions.c): the same, charging the instruction's row (`row`,
 * profiled) or the current region's too */
void core_jp_ifetch_miss(timing *tm, const core_op *op, uint32_t delta, uint32_t line, uint32_t after_fetch,
                         int64_t *row);
void core_jp_entry_fill(timing *tm, const core_op *op0, uint32_t delta, uint32_t line, int64_t *row);
void core_jp_load_miss(timing *tm, uint32_t addr, uint32_t delta, int64_t *row);
void core_jp_store_miss(timing *tm, uint32_t addr, uint32_t delta, int64_t *row);
void core_jr_ifetch_miss(timing *tm, const core_op *op, uint32_t delta, uint32_t line, uint32_t after_fetch,
                         int64_t *row);
void core_jr_entry_fill(timing *tm, const core_op *op0, uint32_t delta, uint32_t line, int64_t *row);
void core_jr_load_miss(timing *tm, uint32_t addr, uint32_t delta, int64_t *row);
void core_jr_store_miss(timing *tm, uint32_t addr, uint32_t delta, int64_t *row);
void core_jt_load(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t addr);
void core_jt_store(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t addr);
void core_jt_muldiv(core_cpu *cpu, core_block *blk, uint32_t i);
void core_jt_branch(core_cpu *cpu, core_block *blk, uint32_t taken);
int64_t core_jt_load_slow(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t addr);
int core_jt_store_slow(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t addr);
void core_jt_jump_trap(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t target);
int core_jt_interp_block(core_cpu *cpu, core_block *blk); /* a JIT_* status */

/* The helpers a timed translation calls, by the rows its run charges:
 * plain (jit_timed.c, core_jt_*), with a profile (jit_profiled.c,
 * core_jp_*) or with address regions only (jit_regions.c, core_jr_*);
 * jit_rows.inc has the last two. */
typedef struct jit_timed_fns {
  int (*enter)(core_cpu *cpu, core_block *b);
  void (*enter_slow)(core_cpu *cpu, core_block *b);
  void (*entry_miss)(core_cpu *cpu, core_block *b);
  void (*law)(core_cpu *cpu, core_block *blk);
  void (*ifetch)(core_cpu *cpu, core_block *blk, uint32_t i);
  void (*load)(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t addr);
  void (*store)(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t addr);
  void (*muldiv)(core_cpu *cpu, core_block *blk, uint32_t i);
  void (*branch)(core_cpu *cpu, core_block *blk, uint32_t taken);
  int64_t (*load_slow)(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t addr);
  int (*store_slow)(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t addr);
  /* jalr's misaligned target on a core without C: its TRAP */
  void (*jump_trap)(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t target);
  int (*interp_block)(core_cpu *cpu, core_block *blk);
} jit_timed_fns;
extern const jit_timed_fns core_jp_fns, core_jr_fns;
/* the entry's checks (both: the region; core_jp_ctx: the block's record
 * in the context on top), and the profile's calls, returns and ways out
 * of a function (core_jp_jump returns the target) */
void core_jp_region(core_cpu *cpu, core_block *b);
void core_jr_region(core_cpu *cpu, core_block *b);
void core_jp_ctx(core_cpu *cpu, core_block *b);
/* a block not lowered, run by core_exec's loop for the run (either) */
int core_jr_interp_block(core_cpu *cpu, core_block *blk);
uint32_t core_jp_jump(core_cpu *cpu, core_block *blk, uint32_t i, uint32_t target);
void core_jp_leave(core_cpu *cpu, uint32_t last_pc, uint32_t target);

/* The bytes a load or store of kind moves */
static inline unsigned jit_access_size(uint8_t kind) {
  switch (kind) {
  case K_LW: case K_SW: return 4;
  case K_LH: case K_LHU: case K_SH: return 2;
  default: return 1;
  }
}

/* A load's value from the slow path (1, 2 or 4 bytes read), sign- or
 * zero-extended by its kind, as the translated fast path does. */
static inline uint32_t jit_load_extend(uint8_t kind, uint32_t v) {
  switch (kind) {
  case K_LB: return (uint32_t)(int32_t)(int8_t)v;
  case K_LH: return (uint32_t)(int32_t)(int16_t)v;
  case K_LBU: return v & 0xff;
  case K_LHU: return v & 0xffff;
  default: return v;
  }
}

#endif
