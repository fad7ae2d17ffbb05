/*
 * The hart: architectural state, the predecoded block cache, and the entry
 * points the rest of the library uses to run it. Everything hangs off one
 * core_cpu, so two simulations can live in one process.
 *
 * Execution model. Code is decoded once into blocks: straight-line runs of
 * compact ops ending at a control transfer, a CSR or system instruction, or
 * a length limit. The fast loop (exec_fast.c) runs blocks back to back and
 * chains them directly. Anything that must happen at an exact instruction
 * (an interrupt becoming due, an instruction budget running out) is an event
 * *horizon*: the fast loop never enters a block that would cross it; the
 * outer loop (run.c) then single-steps up to it, handles the event, and goes
 * back to full speed.
 *
 * Runs may be translated instead (jit.c, `--engine jit`; timed runs on
 * the cache core models too, jit_timed.c): the same blocks, turned into
 * host code that keeps the same rules (a block is entered only if it fits
 * under the horizons, instret and static cycles charged on entry and given
 * back on an early exit), with the interpreter running what the
 * translator does not take.
 */
#ifndef TALLY_CORE_CPU_H
#define TALLY_CORE_CPU_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "isa.h"

/* One predecoded instruction: 8 bytes, so a block's ops share cache lines.
 * Register numbers are architectural except that rd == 0 becomes
 * CORE_REG_SINK, so writes to x0 need no branch. Immediates of branches,
 * jal and auipc are made absolute at build time. */
typedef struct core_op {
  int32_t imm;
  uint8_t kind, rd, rs1, rs2;
} core_op;

#define CORE_REG_SINK 32
#define CORE_BLOCK_MAX_INSNS 64
#define CORE_BLOCK_MAX_OPS (3 * CORE_BLOCK_MAX_INSNS + 2) /* with fetch ops */

struct block_timing;

typedef struct core_block {
  uint32_t pc;                 /* address of the first instruction */
  uint32_t end_pc;             /* address after the last instruction */
  uint32_t n_insns;            /* instructions (FALLTHRU and IFETCH ops are not) */
  uint32_t n_ops;
  struct core_block *hash_next;
  struct core_block *succ[2];  /* chaining cache: [0] taken/jump target, [1] fall-through */
  struct block_timing *timing; /* static costs; NULL when no timing model is active */
  uint32_t *pcs;               /* pcs[i] = address of ops[i]; pcs[n_ops] = end_pc */
  uint8_t *insn_idx;           /* instructions before ops[i]; insn_idx[n_ops] = n_insns */
  bool cached;                 /* in the block cache (not a prefix block of stepping) */
  bool bad_target;             /* its ending jal or branch has a 2 mod 4 target on a core
                                  without C: it traps (taken) as misaligned (core_cpu.jump_align) */
  uint8_t resumed;             /* times the translator resumed here and interpreted it (core_exec_jit) */
  const void *jit;             /* its translated code (jit.c), or NULL */
  core_op ops[];
} core_block;

/* Why the core stopped. Values are part of the public API (tally.h). */
typedef enum core_stop {
  CORE_RUNNING = 0,
  CORE_STOP_EXIT,      /* the program asked to exit (semihosting, finisher, HTIF) */
  CORE_STOP_TRAP,      /* an exception with no handler to go to */
  CORE_STOP_LIMIT,     /* the instruction budget of this run call is used up */
  CORE_STOP_HALT,      /* wfi with no interrupt that could ever wake it */
  CORE_STOP_ERROR,     /* a host-side failure (out of memory, I/O) */
  /* 6 is the API's TALLY_STOP_CANCELLED (the statistics module's) */
  CORE_STOP_CYCLES = 7, /* the cycle budget (max_cycles) is used up */
} core_stop;

/* mcause values */
enum {
  CAUSE_FETCH_MISALIGNED = 0, CAUSE_FETCH_ACCESS = 1, CAUSE_ILLEGAL = 2, CAUSE_BREAKPOINT = 3,
  CAUSE_LOAD_MISALIGNED = 4, CAUSE_LOAD_ACCESS = 5, CAUSE_STORE_MISALIGNED = 6,
  CAUSE_STORE_ACCESS = 7, CAUSE_ECALL_M = 11,
  CAUSE_INTERRUPT = (int)0x80000000u,
  IRQ_MSI = 3, IRQ_MTI = 7, IRQ_MEI = 11,
};

#define MSTATUS_MIE (1u << 3)
#define MSTATUS_MPIE (1u << 7)
#define MSTATUS_MPP (3u << 11)
#define MIP_MSIP (1u << IRQ_MSI)
#define MIP_MTIP (1u << IRQ_MTI)
#define MIP_MEIP (1u << IRQ_MEI)
#define INHIBIT_CY 1u       /* mcountinhibit: mcycle */
#define INHIBIT_IR 4u       /* mcountinhibit: minstret */

/* RAM is watched in chunks: a store into a chunk with a bit set takes the
 * slow path (code that was predecoded, the HTIF tohost word, the word a
 * task-aware profile follows: WATCH_TASK, seen by the outer loop through
 * cpu->task_store). */
#define WATCH_SHIFT 8
#define WATCH_CODE 1u
#define WATCH_HTIF 2u
#define WATCH_TASK 4u

typedef struct core_trap_info {
  uint32_t cause, tval, pc;
  uint32_t insn;      /* bits at pc, 0 if they could not be fetched */
  uint64_t instret;   /* instructions retired before the trapping one */
} core_trap_info;

/* The devices outside RAM as the core sees them: one interface the board
 * implements (src/board/bus.c: board_bus), so that the core calls no
 * device and includes nothing of the board's. The devices' own state is
 * cpu->board. Without a board (core_new's default), every access outside
 * RAM faults and a semihosting call stops the run. */
struct core_cpu;
typedef struct core_bus {
  bool (*load)(struct core_cpu *cpu, uint32_t addr, unsigned size, uint32_t *val);   /* false: access fault */
  bool (*store)(struct core_cpu *cpu, uint32_t addr, unsigned size, uint32_t val);   /* false: access fault */
  void (*watched_store)(struct core_cpu *cpu, uint32_t addr, unsigned size);          /* a store hit a WATCH_HTIF word */
  void (*semihost)(struct core_cpu *cpu);                                             /* the call in a0/a1 */
  /* Optional (NULL: none). The board's events due by cycle `now`
   * (cpu->ext_due <= now), called between instructions: interrupt lines
   * that rise, bytes that arrive; it sets cpu->ext_due to the next one. */
  void (*events)(struct core_cpu *cpu, uint64_t now);
  /* An interrupt was taken: its mcause and the cycle the handler's first
   * instruction begins at (after the core model's trap_penalty). */
  void (*interrupt_entry)(struct core_cpu *cpu, uint32_t cause, uint64_t handler_cycle);
} core_bus;

/* Debug triggers (Sdtrig, type 2 mcontrol) and physical memory protection
 * (guard.c). Both cost the hot loop nothing: while no trigger is armed and
 * no PMP entry is locked (only locked entries bind a machine-mode-only
 * hart), cpu->guard is false and the loops run as without them; while it
 * is true, run.c runs one instruction at a time and checks each one first
 * (core_guard_check). */
#define CORE_TRIGGERS_MAX 16
#define CORE_PMP_MAX 16
typedef struct core_trigger {
  uint32_t tdata1, tdata2;
} core_trigger;

/* A trigger with action "enter debug mode" that fired: the run stopped
 * (CORE_STOP_LIMIT) before the instruction at pc, for the debugger. */
typedef struct core_debug_hit {
  bool hit;
  unsigned trigger;     /* the last of its chain */
  char kind;            /* 'x' execute, 'r' load, 'w' store, 'a' both (an AMO) */
  uint32_t pc, addr;    /* the instruction; the address that matched */
  uint64_t instret;
} core_debug_hit;

typedef struct block_arena block_arena;
typedef struct timing timing;

typedef struct core_cpu {
  uint32_t x[33];       /* x[32] is the sink for writes to x0 */
  uint32_t pc;
  uint64_t instret;     /* instructions retired; counts a block on entry */
  uint64_t traps;       /* exceptions and interrupts taken (entered a handler) */
  uint64_t horizon;     /* the fast loop must not take instret past this */
  uint64_t cycle_horizon; /* ... nor the timed loop the cycle count past this */
  uint64_t ext_due;     /* the cycle of the board's next event (core_bus.events), UINT64_MAX none:
                           a horizon like the timer's, so that it happens at the exact boundary */
  uint64_t max_cycles;  /* the cycle budget, 0 = none: a run stops at the first
                           instruction boundary at or past it, a wfi sleeps no further */
  atomic_int stop_request; /* set by tally_request_stop (any thread, a signal handler) */
  timing *tm;           /* the timing model; NULL runs the functional loop */
  uint32_t jump_align;  /* 2 on a timed core without C (IALIGN = 32): a jump whose target
                           has this bit set raises instruction-address-misaligned; else 0 */

  uint8_t *ram;
  uint32_t ram_base, ram_size;
  bool no_semihost;     /* the board has no semihosting: the ebreak sequence is a breakpoint */
  uint8_t *watch;       /* ram_size >> WATCH_SHIFT entries */
  /* the chunks [code_watch_lo, code_watch_hi) hold every WATCH_CODE mark:
   * a flush clears those, not the whole table (256 MiB of RAM is a million
   * chunks, and a store near code flushes) */
  uint32_t code_watch_lo, code_watch_hi;
  /* per chunk, the bytes blocks were built from: the first (low byte) and
   * the last (high byte) offset in the chunk, 0 for none (a block is at
   * least 2 bytes, so first = last = 0 never occurs). A store into a
   * WATCH_CODE chunk that misses them changes no code and flushes nothing
   * (data placed right after the code, in its last chunk) */
  uint16_t *code_span;
  bool task_store;      /* a store hit a WATCH_TASK chunk: run.c tells the profile (timing_flow_ops.watched) */

  /* machine-mode CSRs */
  uint32_t mstatus, mie, mtvec, mscratch, mepc, mcause, mtval;
  uint32_t mip_soft;    /* MSIP and MEIP as raised by devices; MTIP is computed */
  int64_t mcycle_adj, minstret_adj; /* CSR value = count + adj */
  uint32_t mcountinhibit; /* its CY and IR bits (the hpm bits: timing/pmu.h) */
  uint64_t mcycle_frozen, minstret_frozen; /* the values while inhibited */
  uint64_t idle_cycles; /* cycles spent waiting in wfi */
  /* the first counter the program read that counts no cycles without a core
   * model (mcycle, cycle and their high halves, the hpm counters), and the
   * reading instruction's pc; 0: none read (tally_untimed_counter_read) */
  uint32_t untimed_csr, untimed_pc;

  /* CLINT timer: mtime = cycles * tick_num / tick_den + mtime_adj
   * (a 10 MHz timebase at the core clock) */
  uint64_t mtimecmp;
  int64_t mtime_adj;
  uint64_t tick_num, tick_den;

  /* lr/sc reservation */
  bool lr_valid;
  uint32_t lr_addr, lr_value;

  /* predecoded code */
  core_block **hash;
  uint32_t hash_mask;
  block_arena *arena;
  bool flush_pending;
  uint64_t blocks_built, flushes;
  struct core_singles *singles; /* one-instruction blocks for stepping (block.c), or NULL */
  core_block **cached;  /* the blocks in the cache, so that folding them need not walk the hash */
  uint32_t ncached, cached_cap;
  bool cached_lost;     /* the list could not grow: folding walks the hash */
  /* Once a program has touched the PMU, or the statistics module is
   * attached, the timed loop also lists the cached blocks it enters that
   * are not listed yet (block_timing.listed; core_exec_timed_pmu, the
   * regions loops), so that a PMU access or a dispatch folds only those
   * (core_fold_dirty) instead of walking the whole cache. They stay
   * listed until a fold of the whole cache (core_fold_blocks). */
  bool track;           /* the program has touched the PMU, or a module counts (core_track_blocks) */
  bool track_complete;  /* every block with executions to fold is in dirty[] */
  core_block **dirty;
  uint32_t ndirty, dirty_cap;
  /* The block run.c's step() is running (a prefix or single-instruction
   * block in no list), or NULL: core_fold_context folds it. */
  core_block *stepping;
  /* With a profile, the cached blocks' executions per calling context
   * (ctx_count.h). */
  struct core_ctx_counts *ctx_counts;

  /* the translator (jit.h): NULL runs the interpreter */
  struct core_jit *jit;

  /* where the fast loop is, for slow paths that need the exact state */
  const core_block *cur_blk;
  const core_op *cur_op;

  core_stop stop;
  int exit_code;
  core_trap_info trap;
  char stop_detail[160];

  const core_bus *bus;  /* the devices outside RAM */
  void *board;          /* their state, for the bus's own use */
  /* A stall no block bound covers (wfi's sleep, a DVFS relock) ends the
   * instruction that makes it, which then leaves its block: its pc, signal
   * and cycles, so that a dispatch inside it can be split (run.c) */
  uint32_t tail_pc;
  uint8_t tail_sig;
  uint64_t tail_cycles;

  /* debug triggers and PMP (guard.c); the counts are the core model's.
   * Last, away from the fields the loops use. */
  bool guard;           /* a trigger armed or a PMP entry locked: step and check */
  uint8_t n_triggers;   /* 0: tselect and the tdata CSRs are illegal */
  uint8_t pmp_entries;  /* 0 or 16 */
  uint8_t pmp_g;        /* granularity 2^(G+2) bytes */
  bool pmp_absent_zero; /* pmp_entries 0: the CSRs read zero (else illegal) */
  uint32_t tselect;
  core_trigger trig[CORE_TRIGGERS_MAX];
  uint8_t pmpcfg[CORE_PMP_MAX];
  uint32_t pmpaddr[CORE_PMP_MAX];
  core_debug_hit debug_hit;
  bool debug_skip;      /* resuming at debug_hit's point: its debug triggers do not fire again there */
} core_cpu;

/* Lifecycle. ram_size must be a multiple of 4 KiB. Returns NULL on
 * allocation failure. */
core_cpu *core_new(uint32_t ram_base, uint32_t ram_size);
void core_free(core_cpu *cpu);
void core_reset(core_cpu *cpu, uint32_t entry);

/* Runs until the program stops or `budget` more instructions retire.
 * Returns cpu->stop (CORE_STOP_LIMIT when the budget ran out). */
core_stop core_run(core_cpu *cpu, uint64_t budget);
/* One step: runs until one instruction retires or one trap is taken,
 * whichever comes first. An exception ends the step at the handler's
 * first instruction (the trapping one did not retire); an interrupt due
 * before the next instruction is the whole step (none runs). Returns as
 * core_run with a budget of 1. */
core_stop core_step(core_cpu *cpu);

/* Exact counters at the current point, also from inside a slow path. */
uint64_t core_instret_now(const core_cpu *cpu);
uint64_t core_cycle_now(const core_cpu *cpu);
uint64_t core_mtime_now(const core_cpu *cpu);

/* Block cache (block.c). */
core_block *core_block_get(core_cpu *cpu, uint32_t pc);
/* The cached block at pc, or NULL: none is built. */
core_block *core_block_find(const core_cpu *cpu, uint32_t pc);
/* The block of at most `max` instructions (1 to CORE_PREFIX_MAX) at pc,
 * from a small cache of them apart from the block cache (stepping near
 * horizons: a block that runs only part of the way to one), or, for one
 * instruction, built into buf (size bytes) when that cache has no memory;
 * NULL then for more. Its timing execs are the caller's to fold and clear. */
#define CORE_PREFIX_MAX 8u
core_block *core_block_get_prefix(core_cpu *cpu, uint32_t pc, uint32_t max, void *buf, size_t size);
void core_block_flush(core_cpu *cpu);
struct block_timing;
struct op_timing;
/* a block's notes of its last instructions for the next block, of its ops
 * [0, n), real of them instructions (block.c) */
void core_block_tail(struct block_timing *bt, const core_block *b, const struct op_timing *ops, uint32_t n,
                     uint32_t real);
void core_watch_set(core_cpu *cpu, uint32_t addr, uint32_t len, uint8_t bits);
/* Whether RAM bytes [off, off + len) hold code a cached block was built from */
bool core_code_overlaps(const core_cpu *cpu, uint32_t off, uint32_t len);

/* The execution loops (exec_fast.c, exec_timed*.c, exec_profiled.c). Run
 * from `first` if given, else from cpu->pc, until an exit, a trap or the
 * horizon; true for the horizon. The timed loop also runs the timing model;
 * the profiled loop is the timed one that also feeds the profile
 * (cpu->tm->prof). core_exec runs whichever the cpu's mode calls for. */
bool core_exec_fast(core_cpu *cpu, core_block *first);
bool core_exec_timed(core_cpu *cpu, core_block *first); /* a model without the VexRiscv rules */
bool core_exec_timed_vex(core_cpu *cpu, core_block *first); /* ... with them (timing.vex_rules) */
bool core_exec_timed_vexmin(core_cpu *cpu, core_block *first); /* micro_arch vexriscv-min (vexmin.h) */
bool core_exec_timed_regions(core_cpu *cpu, core_block *first); /* with address regions (regions.h) */
bool core_exec_timed_regions_plain(core_cpu *cpu, core_block *first); /* ... for a model without the rules above */
bool core_exec_profiled(core_cpu *cpu, core_block *first);
bool core_exec_profiled_plain(core_cpu *cpu, core_block *first); /* ... for a model without the rules above */
bool core_exec_timed_pmu(core_cpu *cpu, core_block *first); /* timed, listing entered blocks (core_track) */
bool core_exec_timed_pmu_plain(core_cpu *cpu, core_block *first); /* ... for a model without the rules above */
bool core_exec(core_cpu *cpu, core_block *first);

/* The engine: the interpreter, or the translator (jit.c) where
 * core_jit_supported(); timed runs it cannot take interpret
 * (core_jit_timed_why).
 * core_set_engine(cpu, true, ...) returns false (and keeps the
 * interpreter) where the translator is not supported or has no memory;
 * code_bytes bounds its code (0: the default, jit.h). */
bool core_set_engine(core_cpu *cpu, bool jit, size_t code_bytes);

/* Attaches a timing model (taking ownership) or detaches it (NULL). */
void core_set_timing(core_cpu *cpu, timing *tm);
/* Moves b's per-block event counts (block_timing.outcomes and the like)
 * into sig, into region_row when given, and into its profile rows. */
void core_fold_events(timing *tm, core_block *b, int64_t *sig, int64_t *region_row);
/* Totals of every signal so far (timed mode), folded from all blocks. */
void core_signal_totals(core_cpu *cpu, uint64_t *totals);
void core_fold_blocks(core_cpu *cpu);
/* The same, walking only the listed blocks when the list is complete. */
void core_fold_dirty(core_cpu *cpu);
/* Lists a cached block entered that is not listed (the PMU loop, the
 * regions loops). */
void core_track(core_cpu *cpu, core_block *b);
/* From now on the timed loops and the translations list the blocks they
 * enter (cpu->track); translations made before are dropped, as they list
 * none. */
void core_track_blocks(core_cpu *cpu);
/* Folds the static counts of b's executions (a block in no list: the one
 * being stepped) into the run's dynamic counts, the current address
 * region's row and its profile rows, and clears them. */
void core_fold_stepped(core_cpu *cpu, core_block *b);
/* Called before every call, return and trap the profile sees: the block
 * being stepped, whose executions no ctx_count keeps (ctx_count.h),
 * gives its counts to the context it ran in, the one on top
 * (timing.ctx_row). */
static inline void core_fold_context(core_cpu *cpu) {
  if (__builtin_expect(cpu->stepping != NULL, 0))
    core_fold_stepped(cpu, cpu->stepping);
}
/* Changes the core clock (DVFS): keeps mtime continuous. */
void core_set_clock(core_cpu *cpu, double freq_mhz, double voltage);

/* Traps and interrupts (trap.c). */
void core_raise(core_cpu *cpu, uint32_t cause, uint32_t tval, uint32_t pc);
bool core_take_interrupt(core_cpu *cpu);
/* Whether core_take_interrupt would take one now. */
bool core_interrupt_due(const core_cpu *cpu);
uint32_t core_mip(const core_cpu *cpu);
void core_mret(core_cpu *cpu);
uint64_t core_timer_due_cycle(const core_cpu *cpu);
void core_wfi(core_cpu *cpu);

/* CSRs (csr.c). Returns false for an illegal access. */
bool core_csr_access(core_cpu *cpu, const core_op *op, uint32_t *rd_val);
/* A CSR's value between instructions, for a debugger; false for one that
 * does not exist and for the hpm counters. */
bool core_csr_peek(const core_cpu *cpu, unsigned csr, uint32_t *v);
/* For a debugger between two instructions, with every signal's total at
 * that boundary (derived and markers included, as tally_signal_totals):
 * any CSR's value, the hpm counters included; and a write through the
 * same path as a csrw, taking effect at once (the next instruction reads
 * it), WARL fields as for the program. False for a CSR that does not
 * exist, and for a write to a read-only one. */
bool core_csr_debug_read(core_cpu *cpu, unsigned csr, const uint64_t *totals, uint32_t *v);
bool core_csr_debug_write(core_cpu *cpu, unsigned csr, uint32_t v, const uint64_t *totals);

/* Triggers and PMP (guard.c). */
/* Sets the counts (a core model's [core] keys) and resets the state. */
void core_guard_config(core_cpu *cpu, unsigned triggers, unsigned pmp_entries, unsigned pmp_granularity,
                       bool pmp_absent_zero);
void core_guard_reset(core_cpu *cpu);
/* Whether csr is one of theirs, and its access (0 none, 1 read-only, 2 read-write). */
bool core_guard_csr_kind(const core_cpu *cpu, unsigned csr, int *access);
uint32_t core_guard_csr_read(const core_cpu *cpu, unsigned csr);
/* `debugger`: a write by the debugger (tally_csr_write, the GDB stub),
 * which alone may set a trigger's dmode and the debug action. */
void core_guard_csr_write(core_cpu *cpu, unsigned csr, uint32_t v, bool debugger);
/* Before the instruction at cpu->pc runs (cpu->guard): its execute,
 * load and store triggers and its PMP checks. True when it must not run:
 * an exception was raised (breakpoint, access fault) or a debug trigger
 * stopped the run (cpu->debug_hit). */
bool core_guard_check(core_cpu *cpu);
/* The PMP decision for an M-mode access of [addr, addr + len):
 * 'r', 'w' or 'x'. */
bool core_pmp_allows(const core_cpu *cpu, uint32_t addr, uint32_t len, char what);

/* Memory slow paths (mem.c): outside RAM, straddling its end, or watched. */
bool core_load_slow(core_cpu *cpu, uint32_t addr, unsigned size, uint32_t *val);
typedef enum { STORE_FAULT, STORE_DONE, STORE_DONE_EXIT } core_store_result;
core_store_result core_store_slow(core_cpu *cpu, uint32_t addr, unsigned size, uint32_t val);

/* Reads guest memory for host-side services (semihosting, reports);
 * false if any byte is outside RAM. */
bool core_read_mem(const core_cpu *cpu, uint32_t addr, void *dst, uint32_t len);
bool core_write_mem(core_cpu *cpu, uint32_t addr, const void *src, uint32_t len);
/* The instruction bits at pc (16 or 32 of them); false unless all in RAM. */
bool core_fetch_insn(const core_cpu *cpu, uint32_t pc, uint32_t *bits);
/* The same bits (the upper half dropped when the lower is a 16-bit
 * instruction), read inline when the whole word at pc is in RAM: the
 * VexRiscv rules read a jump's neighbours at every redirect, and the block
 * builder's scans the words past a block */
static inline bool core_fetch_word(const core_cpu *cpu, uint32_t pc, uint32_t *bits) {
  uint32_t o = pc - cpu->ram_base, w;
  if (__builtin_expect(cpu->ram_size < 4 || o > cpu->ram_size - 4, 0))
    return core_fetch_insn(cpu, pc, bits);
  memcpy(&w, cpu->ram + o, 4);
  *bits = isa_insn_len(w) == 2 ? w & 0xffffu : w;
  return true;
}

/* The current instruction ends with `cycles` of signal `sig` that its
 * block's bound does not cover (cpu->tail_*). */
void core_note_tail(core_cpu *cpu, uint8_t sig, uint64_t cycles);

/* From the slow paths a guest can spin or sleep in (devices, semihosting
 * waits, the statistics module's dispatches): when the host has asked the
 * run to stop (tally_request_stop), stops it as CORE_STOP_LIMIT ("call
 * again to go on") at the end of the current block and returns true. The
 * hot loop itself never looks: a run returns at its instruction budget. */
bool core_poll_stop_request(core_cpu *cpu);

/* Sets stop state with a printf-style detail line. */
void core_set_stop(core_cpu *cpu, core_stop why, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
