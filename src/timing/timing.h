/*
 * The timing model's state and the entry points the timed execution loop
 * calls. Static costs are summed per block when the block is built
 * (block_timing); only the dynamic parts are paid at run time: a cache
 * lookup per load, store and new fetch line, branch outcomes, iterative
 * multiply/divide, load-use across block edges, traps.
 *
 * Cycle attribution (docs/timing.md): every cycle belongs to exactly one
 * instruction, the one that waits or causes it. Per instruction the cycles
 * are laid out as: fetch stalls | load-use stall | issue (cpi) |
 * execute extra | memory stall | redirect penalty.
 */
#ifndef TALLY_TIMING_TIMING_H
#define TALLY_TIMING_TIMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cache.h"
#include "core_model.h"
#include "pmu.h"
#include "signals.h"
#include "vexmin.h"


#define TIMING_NO_LINE 1u /* no fetch line is current (line addresses are even) */
#define TIMING_WBUF_MAX 64
/* [pipeline] fetch_ahead_data: the write buffer's waits in a row it keeps
 * (wbuf_run_*: fetch_ahead_insns 2 places up to 4) */
#define TIMING_WBUF_RUN 4
#define TIMING_KINDS 128 /* room for every instruction kind (isa.h K_COUNT) */

/* Results still on their way within a block (block builder): up to two
 * registers written by a load (or a multiply or shift, with the model's
 * mul_use_penalty or shift_use_penalty) and the cycles an instruction
 * reading one would still wait. Zero it at the start of a block. */
typedef struct timing_hazards {
  uint8_t rd[2];
  uint8_t left[2];
} timing_hazards;

/* What an op costs every time it runs, known when its block is built. */
typedef struct op_timing {
  uint32_t cycles;          /* cpi + static stalls */
  uint32_t end;             /* static cycles of the block up to and including this op */
  uint32_t stall_cycles;    /* cycles of the static stall named by stall_sig */
  uint32_t pulses;          /* one-cycle signals raised on issue (ids < 32) */
  uint8_t load_use;         /* static stall for a late result (load, or multiply/shift) of an
                               earlier op in the block (timing_hazards) */
  uint8_t fetch_reads;      /* uncached fetch: memory reads of this instruction (1 or 2) */
  uint16_t fetch_stall;     /* uncached fetch: their latency */
  uint8_t stall_sig;        /* signal of the other static stall (0 = none) */
  uint8_t predict_taken;    /* branches: the static prediction */
  uint8_t is_load;
  uint8_t overlap;          /* micro_arch picorv32: fetch wait a shift by a register amount can hide */
  uint8_t late;             /* its result comes this many cycles late (load/mul/shift use penalty) */
  uint8_t replay_rvc;       /* a load: [pipeline] redirect_rvc_pair applies to its replay after a store
                               (block.c's replay_rvc_pair, from the code after it) */
  uint8_t replay_wait;      /* a load: [dcache] replay_decode_wait applies to its replay after a store
                               (block.c's replay_decode_wait_at, from the code after it) */
  uint8_t hz_known;         /* hz_after is set (exec_loop.inc's dmiss_clears_late, at the op's first miss) */
  timing_hazards hz_after;  /* the late results on their way after this op, laid out from the block's
                               start with none and its static waits */
} op_timing;

/* One of a block's first instructions, for the late results of the
 * block before it (timing_hazard_entry). */
typedef struct timing_head {
  uint32_t reads;           /* registers it reads (timing_reads) */
  uint8_t rd, late;         /* what it writes, and how late (op_timing.late) */
  uint8_t stall;            /* its static late-result stall (op_timing.load_use) */
  uint32_t base;            /* its static cycles without that stall */
} timing_head;
#define TIMING_HEADS 3
/* timing.later_op's entries: the ops whose waits a D-cache miss laid out
 * again, at most the few a late result reaches (hazard_bound) */
#define TIMING_LATER_MAX 8

/* With a profile: one cached block's executions and per-block events
 * (as in block_timing) in one calling context, not yet added to that
 * context's counts (src/core/ctx_count.h). 56 bytes, the key and the
 * translated code's counts first: block_timing.home, after cc, is then
 * one host line with it. */
typedef struct block_timing block_timing;
typedef struct ctx_count {
  int64_t *row;             /* the context's counts (timing.ctx_row); NULL: nobody's */
  uint64_t execs, entry_hits, outcomes[2], entry_load_use;
  block_timing *bt;
} ctx_count;

/* block_timing.ccw's slots: a power of two (ctx_count.h's ctx_way) */
#define TIMING_CTX_WAYS 32

typedef struct block_timing {
  uint64_t execs;           /* times the block was entered (not yet folded) */
  uint32_t static_cycles;   /* sum of ops[].cycles */
  uint32_t dyn_bound;       /* the most dynamic cycles one execution can add */
  uint32_t max_cycles;      /* static_cycles + dyn_bound: the most one execution can take */
  uint32_t head_reads;      /* registers read by the block's first instruction */
  timing_head head[TIMING_HEADS]; /* its first instructions (n_head of them) */
  bool listed;              /* in cpu->dirty[], the blocks a fold of the listed ones walks (core_track) */
  uint8_t n_head;
  bool short_block;         /* no more instructions than head[] holds */
  uint8_t tail_stall;       /* [pipeline] fetch_ahead: the execute cycles beyond its first of its last
                               instruction (a divide, multiply or CSR access; exec_loop.inc) */
  uint8_t tail_stall2;      /* fetch_ahead_insns 2: its last instruction's whole stall (tail_stall and its
                               static wait for a late result) and the execute stall of the one before
                               it, if the block holds it */
  bool tail_single;         /* it holds one instruction (tail_stall2 needs the one before, exec_loop.inc) */
  uint8_t tail_cycles;      /* [pipeline] fetch_ahead_data: its last instruction's static cycles ... */
  uint8_t tail_prev_ex;     /* ... and the execute stall of the one before it, if the block holds it */
  /* [pipeline] fetch_ahead, read at every exit (fetch_carry): where its
   * last instruction is, so that no exit scans the ops */
  uint16_t tail_op;         /* the op index after its last instruction (0: no instruction) */
  uint8_t tail_rank;        /* that instruction's rank among the block's instructions, for its wait at
                               the block's entry (timing.entry_extra[rank]; TIMING_HEADS or more: none) */
  bool tail_csr_first;      /* it is a CSR instruction, the block's first (csr_first) */
  bool tail_div, tail_prev_div; /* it, and the instruction before it in the block, divide */
  bool tail_flow;           /* it is a jump or a branch predicted taken (fetch_carry's ahead_flow) */
  bool tail_fence;          /* it is fence.i (fetch_carry's ahead_fence) */
  bool tail_csr;            /* it is a CSR instruction (fetch_carry's ahead_csr_last) */
  uint8_t tail_w1;          /* its static wait for a late result (its op_timing.load_use; 0: no
                               instruction), kept here so that an entry reads no op (fetch_carry) */
  bool tail_pair;           /* it holds two instructions (fetch_carry's ahead_d3) */
  uint8_t tail_prev_cycles; /* the one before its last: its static cycles, 0 when it divides or waits
                               for a late result (exec_loop.inc's div3_ahead) */
  uint16_t tail_d3;         /* ... and with a divide before that one in the block, the divide's hold
                               less 2 and those cycles (fetch_carry's ahead_d3) */
  timing_hazards tail_hz;   /* late results still on their way at its end (from an empty start) */
  uint8_t predict_taken;    /* the static prediction of the branch that ends the block */
  uint8_t wrong_path_fence_i; /* [pipeline] fence_i_late_flush: the offset from that branch (or, with
                               fence_i_jalr_flush, jalr) of a fence.i on its wrong path that reaches
                               decode (fence_i_wrong_path_reach), else 0 (timing_wrong_path_fence_i;
                               block.c) ... */
  uint8_t wrong_path_fence_i_how; /* ... and where it is: TIMING_WP_FENCE_I_* bits */
  /* [pipeline] wrong_path_fill: the jump's word and the three after it
   * (the word holding wrong_pc's first half, then + 4, + 8, + 12) when the jump
   * ending the block last had its wrong path counted, and
   * how many the fetch looked up then (exec_loop.inc's wrong_path_words;
   * 0: none yet). They are the next code's, not the block's, so they are
   * compared at every use, never trusted (exec_loop.inc's jump_window) */
  uint32_t wrong_pc, wrong_bits[4];
  uint8_t wrong_depth, wrong_n;
  uint8_t wrong_split;      /* ... and wrong_path_split's: timing_wrong_path's pc is wrong_pc + 2 */
  int8_t wrong_lag;         /* ... and exec_loop.inc's wrong_path_lag from them, */
  uint8_t wrong_lag_depth;  /* for this depth (0: not decoded yet) */
  uint8_t rvc_pair, rvc_end; /* [pipeline] redirect_rvc_pair from the same bytes (exec_loop.inc's
                               jump_rvc_pair): 0 not decoded yet, 1 no word of two, 2 one at
                               wrong_pc + rvc_end (unless that line was refilled) */
  uint8_t wrong_use;        /* [pipeline] wrong_path_use_hold and wrong_path_read_late from the same
                               bytes (exec_loop.inc's wrong_path_uses): 0 not decoded yet, 1 decoded, 2
                               decoded and pc + 4 a load or multiply whose result pc + 8 reads ... */
  uint32_t wrong_reads;     /* ... and the registers pc + 4 reads (0: pc at 2 mod 4, or pc + 4 not a
                               32-bit instruction) */
  uint16_t region;          /* its address region (regions.h); 0 when regions are off */
  bool pmu;                 /* a single instruction touching the PMU: always stepped (pmu.h) */
  /* Built with a profile: the ways out of the block that leave the
   * function its last instruction is in (timing_flow_ops.crosses), which
   * the profile takes as tail calls. Bit 0: running on to the next
   * instruction (a block cut at a function entry, or a branch not taken);
   * bit 1: the ending branch taken; bit 2: the ending jal, a plain jump
   * (rd x0), is a tail call (to a function's entry or into another
   * function's code). */
  uint8_t leaves;
  /* With a profile: the counts of the block's executions in the last
   * calling context it ran in (src/core/ctx_count.h; read at every entry,
   * so kept up here), and a direct-mapped cache of its records in the
   * contexts it ran in before, by the context's hash (ctx_way): a
   * recursive function's blocks run in a context per depth. The record
   * of the context it was last new in is home, on cc's line (a profiled
   * cached block's timing is line-aligned, block.c), so that a block
   * seldom run elsewhere makes one host line's access at its entry, not
   * two (cc, then the record it names); the cache slots find it as any
   * other (ctx_count.c's new_record). */
  ctx_count *cc;
  ctx_count home;
  ctx_count *ccw[TIMING_CTX_WAYS];
  /* The branch that ends the block: its penalty cycles by outcome
   * ([0] not taken, [1] taken). */
  uint32_t branch_pen[2];
  /* Events of an execution that are not static but need no more than a
   * count per block: they are folded with the block's static counts
   * (timing_add_block_events) rather than charged one by one. Not yet
   * folded: how often the ending branch went each way, how often entry
   * found the first fetch line in the I-cache (a lookup that hit), and
   * the cycles its first instructions waited for late results (loads,
   * multiplies, shifts) of the block before (timing_hazard_entry). */
  uint64_t outcomes[2];
  uint64_t entry_hits;
  uint64_t entry_load_use;
  /* Not yet folded: the rounds its translated loop copy went straight
   * round (jit.c's emit_loop_round), each one more of execs, outcomes[1]
   * and entry_hits, added to them where they are read (block.c) */
  uint64_t rounds;
  /* The static counts of one execution of the whole block, as (signal,
   * count) pairs of the signals it raises: folding a block is then a few
   * multiply-adds, not a walk over its ops (timing_add_block). */
  const struct sig_count_pair *sum;
  uint32_t nsum;
  /* A cached block's index in its context's table of records (ctx_count.h's
   * ctx_tab), plus 1; 0: none (a block in no cache, or past the table) */
  uint32_t ctx_id;
  op_timing ops[];          /* parallel to the block's ops */
} block_timing;
_Static_assert(offsetof(block_timing, cc) % 64 == 0 && offsetof(block_timing, home) == offsetof(block_timing, cc) + 8 &&
                   sizeof(ctx_count) == 56,
               "cc and home's record are one line of a line-aligned block_timing");

typedef struct sig_count_pair {
  uint32_t sig;
  uint32_t n;
} sig_count_pair;

/* A unit of work that ended at the current cycle count, as the loop hands
 * it to a horizon watcher: the instruction it is charged to, its first
 * cycle, the memory reads its fetch made, its count of every signal
 * (SIG_COUNT). */
typedef struct timing_unit {
  uint32_t pc;
  uint64_t start;
  uint32_t fetch_reads;
  const int64_t *counts;
} timing_unit;

/* A consumer that must see the run at cycle horizons: the statistics
 * module's dispatches (src/statmod/statmod_run.h has the contract), and the
 * next one (a PMU's overflow, a trace) the same way. The core reaches it
 * only through the timing model (src/core/probe.c) and includes nothing of
 * it. */
typedef struct timing_watch_ops {
  uint64_t (*horizon)(const void *w);     /* the next cycle it must see; UINT64_MAX: none */
  void (*reached)(void *w, const timing_unit *units, uint32_t n);
  void (*detach)(void *w);                /* the simulation goes away */
} timing_watch_ops;

/* Per-instruction rows of signal totals over a code range: one row per 2
 * bytes of [lo, hi) and a last row for everything outside it. The exact
 * profile keeps its counts there; the loops charge them through
 * timing_row and include nothing of the profile's. */
typedef struct timing_rows {
  int64_t *base;            /* ((hi - lo) / 2 + 1) * SIG_COUNT */
  /* The translated fill routines' side records (timing_side), one for
   * each fill site the translator emits, in the order it emits them, 32
   * bytes on one host cache line: a fill charges one there, not the three
   * lines of a row its signals lie on (the profile's rows of a large
   * program are far larger than the host's caches). The profile owns the
   * list and adds the records to the rows before it reads them
   * (prof_settle_side). */
  struct timing_side_chunk **sides;
  uint32_t lo, hi;
} timing_rows;
#define TIMING_SIDE 4
#define TIMING_SIDE_CHUNK 2046 /* a chunk of 64 KiB */
typedef struct timing_side_chunk {
  struct timing_side_chunk *next;
  uint32_t used;
  uint8_t pad[52];          /* the records on lines of their own */
  int64_t rec[TIMING_SIDE_CHUNK][TIMING_SIDE]; /* the counts below; [TIMING_SIDE_PC] */
} timing_side_chunk;
enum {
  TIMING_SIDE_PC = 3,       /* the instruction's pc, plus 1 for a D-cache fill's record */
  TIMING_SIDE_FILLS = 0,    /* fills: icache.miss and mem.read +1, icache.hit -1 (but see _ENTRY) */
  TIMING_SIDE_STALL = 1,    /* their stall: cycle and stall.icache */
  TIMING_SIDE_ENTRY = 2,    /* of the fills, those at a block's entry: icache.access +1, not icache.hit -1 */
  TIMING_SIDE_LOADS = 0,    /* load fills: dcache.read_hit -1, dcache.read_miss and mem.read +1 */
  TIMING_SIDE_STORES = 1,   /* store fills: dcache.write_hit -1, dcache.write_miss and mem.read +1 */
  TIMING_SIDE_DSTALL = 2,   /* their stall: cycle and stall.dcache */
};

/* Control flow for a consumer that follows calls (the exact profile's
 * shadow call stack, src/profile/profile.h has the contract), and its PC
 * sampler. The profiled loop and the trap code call these through the
 * timing model; `now` is the cycle the event happens at. */
/* A call site of translated code and the callee's context it entered
 * last (timing_flow_ops.call_site): the caller's context then, the
 * callee's, and the call's constants. */
typedef struct timing_call_site {
  void *parent, *child;     /* NULL: none yet */
  uint32_t site, ret_addr;  /* the call's pc, the address its return goes to */
  uint32_t target;          /* where the call went (a jalr's may change) */
  uint32_t pad;
} timing_call_site;

/* Where the shadow stack keeps what the common call and return change,
 * so that translated code can make them inline (src/core/jit.c): offsets
 * into the consumer's state (timing.prof) of its frames' array (a
 * pointer), its depth and three bounds on it (uint32_t: a call inline
 * while depth < cap, a return while depth > floor, a tail call while
 * depth >= tail; bounds no depth meets send every call and return to the
 * functions, a timeline being kept), the last cycle charged (uint64_t,
 * which the inline code keeps in the sanitizer build only: see
 * prof_state.last_cycle);
 * into a frame (16
 * bytes) of its context, return address and stack pointer (uint32_t);
 * into a context of its count of entries (uint64_t), of its signals (the
 * row timing.ctx_row points at while it is on top) and, for the sanitizer
 * build's law, of its self cycles (uint64_t). A call the inline code makes:
 * the frame's context is the call site's child when the context on top is
 * its parent and the target its target, the depth below cap; a return:
 * to the newest frame's address, above floor (the root's frame); a tail
 * call: the newest frame's context becomes the call site's child when the
 * frame under it holds its parent and the target is its target, with at
 * least tail frames (never the root's or a task's own frame). The
 * contexts' tables of records (timing.ctx_tab) are never NULL while the
 * core has its empty one (prof_node.ctx_tab). When the call site's
 * record holds another parent or target, the inline call and tail call
 * look in the consumer's cache of contexts by call (site_cache: an array
 * of site_mask + 1 context pointers, NULL for none, at the slot
 * timing_site_slot gives the parent and the call's pc; a context there
 * is the child when its parent, function (uint32_t), call site (uint32_t)
 * and trap flag (bool, false for a call) are the call's) before they go
 * to C. */
typedef struct timing_flow_layout {
  uint32_t stack, depth, cap, floor, tail, last_cycle;
  uint32_t frame_node, frame_ret, frame_sp;
  uint32_t node_calls, node_sig, node_self;
  uint32_t site_cache, site_mask;
  uint32_t node_parent, node_func, node_site, node_trap;
} timing_flow_layout;

/* The multiplier of timing_site_slot's hash; the translator computes the
 * same slot inline (a 64-bit imul whose immediate sign-extends: only bits
 * at and above 32 differ, and site_mask is below them). */
#define TIMING_SITE_HASH 0x9E3779B1u

/* The slot of (parent, call site) in timing_flow_layout.site_cache */
static inline size_t timing_site_slot(const void *parent, uint32_t site, uint32_t mask) {
  return (size_t)((((uintptr_t)parent >> 4) * TIMING_SITE_HASH + (site >> 1)) & mask);
}

typedef struct timing_flow_ops {
  void (*call)(void *f, uint32_t site, uint32_t target, uint32_t ret_addr, uint32_t sp, uint64_t now);
  /* call at s->site returning to s->ret_addr; s remembers the contexts
   * when it entered the callee's as the inline call does */
  void (*call_site)(void *f, timing_call_site *s, uint32_t target, uint32_t sp, uint64_t now);
  const timing_flow_layout *layout; /* NULL: calls and returns are never inline */
  void (*ret)(void *f, uint32_t target, uint32_t sp, uint64_t now);
  void (*tail_call)(void *f, uint32_t site, uint32_t target, uint64_t now);
  /* tail_call at s->site; s remembers the contexts when the callee's
   * replaced the caller's as the inline tail call does */
  void (*tail_call_site)(void *f, timing_call_site *s, uint32_t target, uint64_t now);
  bool (*is_entry)(void *f, uint32_t pc);     /* pc starts a known function */
  /* target lies in another function than site (or one of them in none) */
  bool (*crosses)(void *f, uint32_t site, uint32_t target);
  void (*trap)(void *f, uint32_t pc, uint32_t handler, uint32_t sp, uint32_t cause, uint64_t now);
  void (*trap_return)(void *f, uint32_t target, uint64_t now); /* mret to target */
  /* A store hit a watched word of the consumer's (WATCH_TASK: the current
   * task pointer of a task-aware profile), after the storing instruction;
   * NULL: nothing watched. */
  void (*watched)(void *f, uint64_t now);
  uint64_t (*next_sample)(const void *f);     /* the sampler's next cycle; UINT64_MAX: no sampler */
  void (*sample_until)(void *f, uint32_t pc, uint64_t now); /* samples before `now` fall on pc */
} timing_flow_ops;

/* One address region of the board as the timing model sees it (the
 * board's [ram] and [region.NAME] sections, docs/boards.md): the wait
 * states of each bus beat to it, and whether it may be cached. */
#define TIMING_MAX_MEM_REGIONS 8
typedef struct timing_mem_region {
  uint32_t base;
  uint64_t size;
  uint32_t wait_states;
  bool cacheable;
} timing_mem_region;

#define TIMING_AHEAD_MEMO 256 /* timing.ahead_memo's slots: a power of two */

typedef struct timing {
  core_model model;
  cache icache, dcache;

  uint64_t cycle;           /* cycles so far (a block's static cycles are added on entry) */
  int64_t sig_dyn[SIG_COUNT];    /* dynamic counts and partial-block corrections */
  uint64_t sig_folded[SIG_COUNT];/* static counts of blocks already flushed */
  /* With a profile: the counts of the calling context on top of the
   * profile's shadow stack (SIG_COUNT), which every dynamic charge goes to
   * as to prof_row, and the cached blocks' static and per-block event
   * counts at each call, return and trap (core_fold_context); the profile
   * points it at the new top after each. NULL without a profile. */
  int64_t *ctx_row;
  /* With a profile: the records of the blocks in that context by the
   * block's ctx_id (ctx_count.h: the translated entry finds its record
   * there, with no compare; the word before ctx_row, prof_node.ctx_tab),
   * or ctx_tab_zero, all NULL, when the context has none */
  ctx_count **ctx_tab;
  ctx_count **ctx_tab_zero;

  uint32_t fetch_line;      /* line being fetched from, TIMING_NO_LINE after a redirect */
  uint32_t loop_dline;      /* the translator's loop copy: the address of its latest D-cache lookup, or one
                               on no line of RAM (jit.c's loop_dline_ok); nothing else reads it */
  /* An instruction's fetch stall is its own first part, so it starts
   * before its first fetch op. A fetch op that hits adds no cycles: the
   * start is then found from the block's static layout when asked
   * (core_cycle_now). Only a miss writes it down, here: insn_start_op
   * is the fetch op of the current block execution whose miss set
   * insn_start, or NULL (cleared on block entry). */
  uint64_t insn_start;
  const void *insn_start_op;
  /* [pipeline] fetch_ahead (exec_loop.inc, fetch_ahead): the end of the
   * block entered last and its tail_stall; the tail_stall of the block
   * before the current one when that one follows it in sequence */
  uint32_t ahead_end;
  uint8_t ahead_tail, carry;
  /* ... the address of the last instruction of the block entered last, and
   * of the block before the current one when that one follows it in
   * sequence (TIMING_NO_LINE otherwise): [dcache] next_fill's instruction
   * before a load first in its block (exec_loop.inc's dmiss_prev_rvc) */
  uint32_t ahead_last, carry_last;
  /* ... and for fetch_ahead_insns 2: the stall of the last two instructions
   * of the block entered last (tail_stall2 with what the block itself does
   * not know), that of the block before the current one, and the current
   * block's entry wait for late results */
  uint32_t ahead_tail2, carry2, entry_wait;
  /* the last data-side stall (a D-cache fill, a full write buffer, a device
   * load): the cycle it ended at and its length */
  uint64_t dstall_end;
  uint32_t dstall;
  bool dstall_redo;         /* it was a D-cache fill (the load is fetched again after it) */
  bool dstall_split;        /* ... of a 32-bit load at 2 mod 4 (set by exec_loop.inc's T_LOAD after the
                               fill, cleared by the next stall: its refetch is of two words) */
  uint8_t dstall_rd;        /* ... of a load: its destination register (set and cleared as dstall_split) */
  bool dstall_dev;          /* ... a device load's (timing_device_load; cleared by the next stall) */
  bool dstall_amo;          /* ... an AMO's hit, its cycle among its static ones ([pipeline] amo_hit_passes) */
  bool dstall2_amo;         /* ... the older one's */
  bool amo_hit;             /* the AMO running hit the D-cache (exec_loop.inc's T_AMO_LOAD, for T_AMO_STORE) */
  uint32_t amo_fill_late;   /* during an AMO's load ([pipeline] amo_fill_first): its amo_penalty, the cycles
                               its issue (now) is after a load's would be; else 0 */
  /* the data-side stall before that one: the same three */
  uint64_t dstall2_end;
  uint32_t dstall2;
  bool dstall2_redo;
  /* [pipeline] fetch_ahead_data: of the block entered last, its last
   * instruction's cycles (with its entry wait when it is the only one) and
   * the execute stall of the one before; the same of the block before the
   * current one when that one follows it in sequence (0 otherwise) */
  uint32_t ahead_c1, ahead_x2, carry_c1, carry_x2;
  uint32_t carry_drain; /* fetch_carry's `drained`: what csr_drain took back of the stall of the block
                           before's CSR instruction, alone in it (0 otherwise) */
  bool ahead_div, ahead_div2, carry_div, carry_div2; /* the last instruction, the one before it: divides
                                                      (exec_loop.inc's fetch_ahead, its div2) */
  bool ahead_flow, carry_flow; /* the last instruction is a jump or a branch predicted taken (fetch_ahead's divide before the
                                  instruction ahead across a block edge) */
  bool ahead_fence, carry_fence; /* ... is fence.i (the same) */
  bool ahead_csr_last, carry_csr; /* ... is a CSR instruction (fetch_ahead's divide before it) */
  bool carry_jump_div; /* the block before the current one ended in a decode redirect (a jump, a branch
                          predicted taken: fetch_carry's dec) right after a divide, the word after the
                          jump not refilled (fetch_ahead's jump_div) */
  bool taken_path_filled; /* timing_taken_path refilled the word after the jump (until the next block's
                             fetch_carry) */
  /* the last instruction's wait for a late result (its load_use and entry
   * wait): of the block entered last, of the one before it when the current
   * one follows it in sequence (fetch_ahead's w1 across a block edge) */
  uint32_t ahead_w1, carry_w1;
  /* a divide two before the last instruction, the one between (X) holding
   * no wait: its hold less 2 and X's cycles (exec_loop.inc's div3_ahead),
   * 0 otherwise: of the block entered last, of the one before it when the
   * current one follows it in sequence */
  uint32_t ahead_d3, carry_d3;
  bool ahead_d3_csr, carry_d3_csr; /* ... with X a CSR instruction, the block before's last */
  bool ahead_csr;           /* the block entered last is a CSR instruction alone (exec_loop.inc's csr_drained) */
  /* ... and the bubbles of the decode redirect (a jal, a branch predicted
   * taken) that ended the block run last, if it did: its target's block
   * has it as the instruction ahead all the same */
  uint32_t redirect_bubbles;
  /* ... and the cycles its 32-bit target at 2 mod 4 took to decode
   * ([pipeline] redirect_split_target): the jump's, after its target's
   * lookup */
  uint32_t redirect_held;
  /* [dcache] refill_refetch: the last load's D-cache fill: the cycle its
   * stall ended, the cycle it was asked for and the cycle its bus
   * transfer ended */
  uint64_t dmiss_end, dmiss_ask, dmiss_bus_end;
  uint32_t dmiss_held_two;  /* ... or of a device load two before it, one instruction between that held nothing
                               (dmiss_held_lead's k = 1 with word only) */
  uint32_t dmiss_held;      /* ... and the hold of the instruction right before it, a data-side stall
                               not a fill ending as it issued (refill_refetch's dmiss_held_lead; set
                               by dmiss_wait only: jit.c's inline fill, lean_dfill, never runs with
                               refill_refetch) */
  uint32_t dmiss_div_hold;  /* ... and the hold of a divide right before it, the load waiting for nothing
                               else (refill_refetch's dmiss_held_lead, k = 1: dmiss_div_load; set by
                               exec_loop.inc's T_LOAD after dmiss_wait clears it) */
  uint32_t dmiss_port_wait; /* ... and the cycles its fill waited for the memory port (a store's write
                               before it) before its transfer ([pipeline] fence_i_redo: under the flush) */
  bool dmiss_refetched;     /* an instruction after that load missed the I-cache and the load was
                               refetched after its refill ([pipeline] fence_i_redo: no redo then) */
  bool dmiss_reach_fill;    /* ... that instruction's fill was refill_refetch's (fetch_fill), one of the
                               load's reach ([dcache] refill_refetch_jump) */
  uint32_t dmiss_taken_fill; /* a jump 1 to 3 after that load refilled the line of the word after it
                               ([pipeline] taken_path_fill, fetch_ahead_insns 2): 1 + the jump's wait
                               for that refill, else 0; the next refetch's fill takes it */
  uint32_t dmiss_after;     /* that load's place after the load that missed before it (1: the next
                               instruction), 0 beyond refill_refetch's reach ... */
  uint32_t dmiss_dev_hold;   /* ... the stalls of device loads 1 or 2 after it (refill_refetch's reach
                               counts instructions, not those cycles: timing_device_load), and of
                               loads replayed there (timing_load_replay) */
  bool replay_held;         /* the last replay's stall is in dmiss_dev_hold (its decode wait joins it) */
  uint64_t dmiss_ask_before, dmiss_bus_end_before; /* ... and that earlier load's dmiss_ask, dmiss_bus_end */
  uint32_t dmiss_redo_before; /* bit d: a load that missed d instructions before that load (d = 1..3,
                                 dmiss_after's chain), not refetched: a fence.i in its reach redoes
                                 it too ([pipeline] fence_i_redo); cleared by fence.i */
  uint32_t dmiss_early_wait; /* the wait of dmiss_early_line's instruction for its refill */
  uint32_t dmiss_early_paid; /* ... of which its fetch was charged (less on VexRiscv_IMAC.v) */
  uint32_t dmiss_early_line; /* an instruction after that load missed the I-cache within that reach of
                                the load before: its line, which came in during the earlier fill
                                ([pipeline] fence_i_redo refills it again), else TIMING_NO_LINE */
  uint32_t dmiss_line;      /* the I-cache line that load was fetched from (fetch_line at its miss),
                               TIMING_NO_LINE before any: a fence.i on another line it redoes is
                               refetched after the load's line ([pipeline] fence_i_redo) */
  uint32_t dmiss_first_line; /* ... and, when that load is a 32-bit instruction whose first half ends
                               the line before dmiss_line, that line (set by exec_loop.inc's T_LOAD
                               and T_AMO_LOAD after the fill), else TIMING_NO_LINE ([pipeline] fence_i_redo) */
  uint32_t dmiss_first_before[4]; /* [d]: dmiss_first_line of the load d instructions before that load
                                     (dmiss_redo_before's bit d), else TIMING_NO_LINE: its redo
                                     refetches it from both lines too ([pipeline] fence_i_redo) */
  uint32_t dmiss_split_next; /* ... and, when that load (or AMO) is a 32-bit instruction at 2 mod 4
                               whose next one, 32-bit too, is split over the line's end, the line that
                               one ends on (set by exec_loop.inc's T_LOAD and T_AMO_LOAD after the
                               fill), else TIMING_NO_LINE ([dcache] redo_refill_wait's split_next) */
  uint32_t dmiss_split_k;    /* ... which instruction after the load that split one is: 1, or 2 when the
                               one between, 32-bit, is not split ([dcache] redo_refill_wait's split_two),
                               or 3 when the two between are so (split_three), or 4 when three are
                               (split_four) */
  bool dmiss_split_jal;      /* ... split_three's second between a jal to that line (split_three_jal) */
  bool split_two_fill;      /* the last fetch_fill's wait was split_two's or refill_refetch's (the refill
                               over before the load's redo): a CSR instruction's wait does not pass
                               during it (exec_loop.inc's refill_drains_csr) */
  bool wrong_path_waited;   /* the last timing_wrong_path waited for a refill its last word asked for
                               (timing_redirect_drain) */
  uint32_t wrong_path_line; /* the line the last timing_wrong_path refilled, else TIMING_NO_LINE
                               (timing_wrong_path_fence_i) ... */
  bool wrong_path_beats;    /* ... and its beats were still arriving at the redirect (read only with
                               wrong_path_line, set with it) */
  uint32_t wrong_path_stall; /* ... and the stall it charged (read only with wrong_path_line, set with
                               it) */
  uint32_t wrong_path_give; /* [pipeline] wrong_path_tail: cycles the wrong-path fill being made leaves
                               to the target's fetch ... */
  uint32_t wrong_path_carry; /* ... and those the next I-cache fill (the target's) waits for first */
  uint32_t taken_path_move; /* [pipeline] taken_path_fill: the refill's stall, charged with the jump,
                               that is its target's wait (timing_taken_path) ... */
  uint32_t taken_path_wait; /* ... taken back from the jump as it ends, and charged as the next block,
                               the target's, enters (timing_taken_path_defer, timing_taken_path_wait) */
  uint32_t replay_paid;     /* [dcache] store_load_replay with fetch_ahead_data: the refill's wait a load
                               replayed from the fetch took as its own (timing_replay_refill) ... */
  uint32_t replay_line;     /* ... which that line's fill, when it comes, does not charge again */
  bool replay_seq;          /* ... that wait redo_refill_wait's seq_refill's: the refill over before the
                               load's redo, the line's fill charges nothing more (fetch_fill) */
  bool replay_next;         /* ... next_fill's past a branch: so too for that line's lookup down the
                               branch's wrong path (exec_loop.inc's dmiss_next_fill) */
  uint32_t refetch_paid;    /* [dcache] refill_refetch: the refetch's wait the missing load took as its
                               own (timing_refetch_ahead) ... */
  uint32_t refetch_line;    /* ... the line of the instruction whose fill does not charge it again ... */
  uint64_t refetch_due;     /* ... and the cycle that instruction's fetch is due at */
  uint32_t refetch_held_line; /* [dcache] refill_refetch: the line of that instruction with a CSR instruction
                               * between (refetch_held_k its k) */
  uint32_t refetch_held_k;
  uint32_t refetch_word_line; /* [dcache] refill_refetch: the line of that instruction when it is the first after
                               * the load (k = 1), no jump but a jal within its line (timing_refetch_ahead's
                               * word: dmiss_held_lead) */
  uint64_t refetch_end;     /* [dcache] redo_refill_wait: the cycle that refill's last beat came in
                               (timing_redo_refill), 0 with refill_refetch */
  uint32_t wrong_path_wait_line; /* the line the last timing_wrong_path refilled and waited for (or
                               refilled during a divide's hold), else TIMING_NO_LINE ([pipeline]
                               redirect_rvc_pair, exec_loop.inc) */
  uint32_t head_wait;       /* during a block's first fetch: the block's entry wait (exec_loop.inc) */
  uint32_t hold_floor;      /* [pipeline] held_refetch: the least stall of the fetch miss being made
                               (exec_loop.inc's fetch_ahead) */
  uint32_t hold_floor_late; /* ... and the least when its refill outlasts hold_floor_within cycles (0:
                               no such rule; exec_loop.inc's fetch_ahead, div_pair_floor) */
  uint32_t hold_floor_within;
  uint32_t fill_held;       /* [dcache] refill_refetch: the hold of a divide between the last load that
                               missed the D-cache and the missing instruction (exec_loop.inc's
                               fetch_ahead); taken by the fetch that follows (take_floor) */
  uint32_t fill_own;        /* [pipeline] fetch_ahead: the missing instruction's own wait for a late
                               result, counted in the fill's overlap (exec_loop.inc's fetch_ahead); taken
                               by the fetch that follows (fetch_fill) */
  uint32_t fill_after;      /* ... the part of it charged after the fetch's `now` (its static wait and
                               what a D-cache miss in its block changed of it: exec_loop.inc's later_own),
                               the rest, its wait at the block's entry, charged before (redo_refill_wait) */
  uint32_t next_use;        /* the wait of the instruction after a missing one, in its block, that its
                               refill may hide (exec_loop.inc's fetch_ahead, refill_passes_late) */
  /* refill_passes_late's record of the missing instruction's refills
   * (exec_loop.inc's leave_passed): the block, the instruction's op, the
   * fetch op that missed last, the rooms summed and the waits taken back */
  const void *pass_blk;
  const void *pass_start;
  uint32_t pass_op, pass_room, pass_refund;
  uint32_t fill_room;       /* the last I-cache fill's stall beyond what overlapping more of the
                               instructions around it could not take away (its floor; 0 when the fill
                               took no overlap: refill_refetch) (exec_loop.inc's refill_passes_late) */
  /* [pipeline] csr_drain: the last branch's or jump's redirect: the cycle
   * the next instruction starts at, and the bubbles before it */
  uint64_t redirect_end;
  uint64_t trap_end;        /* the cycle the last trap's redirect ended at, plus 1 (0: none yet):
                               [pipeline] refill_drains_csr leaves the handler's first instruction alone */
  const void *trap_head;    /* the block entered right after that trap (exec_loop.inc's trap_stall) */
  uint32_t drain_bubbles;
  uint32_t csr_refilled;    /* [pipeline] refill_drains_csr: what it took back of the stall of the CSR
                               instruction at csr_refilled_pc, the cycle being csr_refilled_at */
  uint32_t csr_refilled_pc;
  uint64_t csr_refilled_at;
  uint32_t drain_back;      /* what the last CSR instruction first in its block took back of its stall
                               (timing_csr_drain): its cycles, less it, are what fetch_ahead_data
                               counts for it as the instruction ahead */
  uint32_t fence_overlap;   /* [pipeline] fence_i_overlap: the cycles of fence.i's flush the instruction
                               after it, at fence_overlap_pc, may still pass its execute stall in */
  uint32_t fence_overlap_pc;
  bool fence_next_taken;    /* [pipeline] fence_i_csr_refetch_any: the instruction after the last fence.i
                               is a branch that will be taken (T_FENCE_I) */
  bool fence_use_miss;      /* [pipeline] fence_i_use_overlap: the instruction after the last fence.i is
                               a load from RAM that misses the D-cache (T_FENCE_I): redone after the
                               flush, its reader waits for it as after any load */
  uint32_t fence_div_pc;    /* [pipeline] fence_i_overlap: the divide after fence.i whose hold passed
                               during the flush (fence_overlap_enter), until the next refill's
                               fetch_ahead or fence.i, else TIMING_NO_LINE */
  uint32_t fence_div_use;   /* ... and what the instruction after it, in its block, took back of its
                               wait for its result (fence_overlap_enter), else 0 */
  uint32_t fence_jal_pc;    /* [pipeline] fence_i_jal_wait: the jal after fence.i whose target waits
                               for the flush (timing_fence_jal), until its T_JAL, else TIMING_NO_LINE */
  uint32_t fence_branch_pc; /* [pipeline] fence_i_branch_halt: the branch right after fence.i, fetched
                               before the flush and taken, until its T_BRANCH (T_FENCE_I), else
                               TIMING_NO_LINE */
  uint32_t fence_next_line; /* [pipeline] fence_i_overlap: the line after fence_overlap_pc's that
                               timing_fence_i refilled for the word after it, else TIMING_NO_LINE */
  uint8_t fence_split;      /* ... and the word after fence.i has its second half on that line: 1, 2
                               when that line missed before the flush (fence_overlap_redo), else 0 */
  uint32_t fence_held_pc;   /* refill-first: the instruction whose first half the decompressor kept
                               through the last fence.i's flush, its line not refilled
                               (timing_fence_held_redo), else TIMING_NO_LINE */
  uint32_t fence_merge_pc;  /* [pipeline] fence_i_merge: the word after the last fence.i when it was
                               fetched before that fence.i's flush, else TIMING_NO_LINE */
  bool fence_merge_held;    /* ... and that fence.i redid a load one instruction before it, so that
                               the word, a fence.i, was in decode at the load's write-back */
  uint32_t fence_merge_hold; /* ... and the cycles of a divide's hold that fence.i's flush ran in
                               ([pipeline] fence_i_hold_overlap), else 0 */
  uint32_t dev_load_pc;     /* [pipeline] fence_i_hold_overlap: the last load from a device, else
                               TIMING_NO_LINE ... */
  uint32_t dev_load_stall;  /* ... the cycles it waited for the device ... */
  uint64_t dev_load_at;     /* ... and the cycle its wait ended (fence_i_device_overlap) */
  uint32_t dev_load_held;   /* ... and the wait of a full write buffer that held the load's issue right
                               before it (timing_device_load; fence_i_device_overlap) */
  uint64_t wbuf_stall_end;  /* [pipeline] fence_i_wbuf_overlap: the cycle the last wait for the write
                               buffer ended ... */
  uint32_t wbuf_stall;      /* ... its cycles ... */
  uint32_t wbuf_stall2;     /* ... and the one before it's cycles ... */
  uint64_t wbuf_stall2_end; /* ... and end (buffered_write) */
  uint64_t wbuf_run_end[TIMING_WBUF_RUN]; /* [pipeline] fetch_ahead_data: the last waits for the write
                               buffer, newest first, each noted (note_dstall) right after the one before
                               it: the cycle each ended ... */
  uint32_t wbuf_run_stall[TIMING_WBUF_RUN]; /* ... its cycles ... */
  uint32_t wbuf_run_n;      /* ... and how many (buffered_write) */
  uint32_t dev_div_pc;      /* [pipeline] device_div_overlap: a load from a device that was its block's
                               last op (the divide it overlaps is the next block's first), else
                               TIMING_NO_LINE ... */
  uint32_t dev_div_stall;   /* ... the cycles it waited for the device ... */
  uint8_t dev_div_rd;       /* ... and its destination register */
  uint8_t dev_div_store;    /* ... a store's wait for the write buffer (wbuf_div_overlap): no fetch op between */
  const void *dev_div_blk;  /* ... the divide whose hold such a load took back: op dev_div_op of this entry
                               of block dev_div_blk (at instret dev_div_instret); the fetch ops before
                               it see their cycle without the take-back (later_adj) */
  uint64_t dev_div_instret;
  uint32_t dev_div_op;
  uint32_t dev_div_hold;
  bool fence_redone;        /* the last fence.i redid a load before it ([pipeline] fence_i_redo) */
  uint32_t fence_wp_target; /* timing_wrong_path_fence_i: the fence.i, a taken branch's target, whose
                               wrong-path flush was charged WRONG_PATH_FENCE_I_AT_TARGET, else
                               TIMING_NO_LINE (timing_fence_i reads it: fence_after_wp) */
  bool fence_after_wp;      /* the last fence.i was fence_wp_target (fence_load_redo_cycle) */
  uint32_t ifill_line;      /* the line of the last I-cache fill, else TIMING_NO_LINE ([pipeline]
                               fence_i_hold_overlap: whether fence.i's own fetch missed) */
  uint64_t law_entry;       /* TALLY_CHECK_LAWS builds: the cycle count before the block being run */
  void *prof;               /* the consumer of rows and flow (the exact profile), or NULL;
                               flow and rows, at the end, go with it */
  int64_t *prof_row;        /* profile row of the instruction being charged, or NULL */
  bool dynamic_muldiv;      /* shifts, multiplies or divides take data-dependent time */
  bool lean_ifill;          /* an I-cache fill needs none of fetch_fill's rules (timing_fetch_miss_lean) */
  bool lean_dfill;          /* ... a D-cache fill none of timing_dcache_miss's general cases */
  bool dfill_notes;         /* a rule reads what a D-cache fill records for the ones after it (note_dstall's
                               dstall*, dmiss_wait's dmiss_*): vex_rules, [pipeline] fetch_ahead_data,
                               fetch_ahead_insns 2, fence_i_redo; without, the translator's fill routine
                               leaves them out (jit.c's emit_dfill_routine) */
  bool pico;                /* micro_arch picorv32 (picorv32.h) */
  bool vexmin;              /* micro_arch vexriscv-min (vexmin.h): every instruction's time is dynamic */
  timing_vexmin vm;         /* its state */
  bool vex_rules;           /* any of [pipeline] fetch_ahead, wrong_path_fill, taken_path_fill, [dcache] store_load_replay,
                               refill_refetch, [pipeline] predicted_target_fill,
                               [memory] device_bus: the execution loops that check them (exec_loop.inc's
                               VEX_RULES; the plain timed loop does not) */
  uint32_t branch_cost[2][2]; /* [taken][predicted taken] penalty cycles */
  uint32_t fetch_shift;     /* log2 of the fetch granule: I-cache line or bus width */
  bool fetch_ops;           /* there is an I-cache: blocks get fetch ops */
  bool icache_on, dcache_on;/* the caches exist */
  bool dcache_wb;           /* a write-back D-cache */
  timing_hazards hz;        /* late results of the previous block still on their way */
  uint32_t hazard_bound;    /* the most timing_hazard_entry can add */
  uint32_t reset_flush;     /* I-cache flush cycles still to come before the first fetch */
  uint16_t region;          /* address region of the block being run (regions.h) */
  struct timing_regions *regions; /* range counting (statistics module), or NULL */
  int64_t *region_row;      /* with regions: the row of `region`, which gets every dynamic count too */

  /* memory, in core cycles at the current frequency */
  uint32_t mem_read_first, mem_read_beat, mem_write_beat, mem_row_miss;
  uint64_t mem_busy_until;
  uint64_t fetch_busy_until;     /* [memory] fetch_port: the instruction port's own */
  uint32_t open_row[16];
  uint32_t bus_shift;       /* log2(bus_bytes) if a power of two above 1, else 0 */
  bool sdram_rows;          /* the memory is SDRAM with rows (row misses cost) */
  uint32_t row_shift, bank_shift; /* log2(row bytes), log2(banks) if both powers of two, else 0 */
  uint64_t wbuf[TIMING_WBUF_MAX]; /* completion cycles of buffered writes, oldest first */
  /* [dcache] store_load_replay: the last store that hit (the cycle its
   * static cycles ended, its word in the way, its byte mask), while a
   * load may still meet it; and the one that hit before it (prev_*): the
   * data RAM's collision check meets every write of the load's two cycles
   * in execute and memory (store_two_load.S) */
  bool store_pending;
  bool prev_store_pending;
  uint8_t prev_store_mask;
  uint32_t prev_store_word;
  uint64_t prev_store_now;
  uint64_t store_now;
  /* [pipeline] fetch_ahead_data's redo_store_hold (exec_loop.inc): the end
   * of the D-cache fill (dstall_end) that a store issued right after, the
   * cycle after it (every store, hit or not) */
  uint64_t redo_store_end;
  uint32_t store_word;
  uint8_t store_mask;
  uint32_t way_mask;        /* [dcache] size / ways - 1 when that is a power of two, else 0: the
                               byte in the way by a mask, not a divide (timing.c, way_word) */
  uint32_t wbuf_count;
  /* bus beats moved, for the memory energy (timing_energy_now). mem_read_txns
   * counts the mem.read counts whose beats mem_read_beats holds (line fills,
   * uncached loads, device reads); every other mem.read count is a read of
   * one beat (an uncached fetch, vexriscv-min's wrong-path, device and exit
   * beats), wherever it was counted: in a block's static sum or as it ran. */
  uint64_t mem_read_beats, mem_write_beats, mem_read_txns;

  /* clock and energy */
  double freq_mhz, voltage;
  double time_ns;           /* wall time of the simulated board up to cycle_at_change */
  uint64_t cycle_at_change; /* cycle of the last frequency/voltage change */
  double energy_core_pj;    /* dynamic core energy up to cycle_at_change */
  double energy_static_pj;  /* leakage up to cycle_at_change */

  uint32_t dyn_bounds[TIMING_KINDS]; /* timing_dynamic_bound, by instruction kind */

  /* user markers: level signals, counted per cycle while high */
  uint32_t markers;
  uint64_t marker_since[4];

  /* The run's consumers, looked at off the hot path (kept last so that
   * the fields above keep their places in the cache lines): */
  const timing_flow_ops *flow; /* prof's control-flow calls */
  timing_rows rows;         /* prof's per-instruction rows */
  const timing_watch_ops *watch_ops; /* the horizon watcher, or NULL (watch too) */
  void *watch;

  /* The late results a block was entered with, when there were any, and
   * which entry that was (the block and the instruction count before it):
   * a block left early after its first instructions carries them on
   * (exec_loop.inc, hazards_after). Written only on that rare entry. */
  timing_hazards hz_entry;
  const void *hz_entry_block;
  uint64_t hz_entry_instret;
  /* [pipeline] fence_i_csr_overlap: the block whose first instruction, a
   * CSR one right after fence.i, held execute during the flush, and the
   * instruction count before it: its result is ready when the flush ends,
   * the next block's wait for it passes too (hazards_after) */
  const void *fence_csr_block;
  uint64_t fence_csr_instret;
  /* [pipeline] fence_i_use_overlap: the block whose first instruction, the
   * one after fence.i, ran during the flush (exec_loop.inc's
   * fence_use_pass), and the instruction count before it: its late result
   * is no wait when the block is left at it either (hazards_after) */
  const void *fence_use_block;
  uint64_t fence_use_instret;
  /* [pipeline] fence_i_csr_refetch: the line of the instruction after
   * fence.i when it ended its block alone (fence_overlap_enter), for the
   * next block's first instruction, else TIMING_NO_LINE */
  uint32_t fence_csr2_line;
  /* ... and the CSR instruction whose csr_penalty it took back, and how
   * much (fence_csr_refetch), until the next block's fetch_carry: the
   * instruction ahead held the fetch for none of it, else TIMING_NO_LINE */
  uint32_t fence_csr2_pc;
  uint32_t fence_csr2_back;
  /* [pipeline] fence_i_overlap: the block whose first instruction, a store
   * right after fence.i, went down the pipeline during the flush, its op,
   * the instruction count before it, and the cycle its write went out
   * (fence_store_now) */
  const void *fence_store_block;
  uint32_t fence_store_op;
  uint64_t fence_store_instret;
  uint64_t fence_store_at;
  /* What that entry's late results made each of the block's first
   * instructions (head[]) wait beyond its own static stall (timing_hazard_entry),
   * and whether the current block was entered with any: [pipeline]
   * fetch_ahead lets an instruction's own wait pass during its refill,
   * whether the late result came from its block or the one before, so a
   * block split at a horizon takes the cycles the whole one does. */
  int16_t entry_extra[TIMING_HEADS]; /* signed: a wait of its own that an earlier one passed is taken back */
  bool entry_extra_any;     /* the last timing_hazard_entry left one of them nonzero */
  bool entry_extra_on;
  /* The waits that a load missing the D-cache laid out again for the
   * instructions after it in its block (exec_loop.inc's dmiss_clears_late),
   * charged or taken back at once: op later_op[k] of that entry of the
   * block (later_blk, at instret later_instret, as hz_entry's) got
   * later_d[k] cycles. An op before them still has its cycle without them
   * (later_adj): they are cycles of the instructions after it, which a
   * block split there charges only when they come. Written only on such a
   * miss; later_n 0 otherwise. */
  uint8_t later_n;
  /* fence_store_block is set: the byte after later_n, so that the
   * translator's store reads entry_extra_on, later_n and this in one load
   * (jit.c's emit_store_c_test) */
  uint8_t fence_store_on;
  uint32_t later_op[TIMING_LATER_MAX];
  int32_t later_d[TIMING_LATER_MAX];
  const void *later_blk;
  uint64_t later_instret;
  /* [dcache] refill_refetch_wait across block edges: a D-cache fill at the
   * end of its block (dmiss_clears_late) leaves the late results as they
   * were before it and as it left them (rrw_was, rrw_now, stepped to the
   * block's end), the instructions after the load in that block (rrw_cnt)
   * and the waits taken back of them (rrw_late), for the entry at instret
   * rrw_ir (rrw_on). That entry (exec_loop.inc's rrw_enter) steps both
   * through its first instructions and keeps what each one's wait was
   * taken back (rrw_op, rrw_d: rrw_k of them; rrw_blk, rrw_blk_ir as
   * later_blk's) with the count and sum before it (rrw_prev_n,
   * rrw_prev_late), and carries on to the next entry while it holds at
   * most two instructions after the load and no load. */
  bool rrw_on;
  uint8_t rrw_cnt, rrw_rd, rrw_k, rrw_prev_n;
  uint64_t rrw_ir;
  timing_hazards rrw_was, rrw_now;
  uint32_t rrw_late, rrw_prev_late;
  uint32_t rrw_op[2], rrw_d[2];
  const void *rrw_blk;
  uint64_t rrw_blk_ir;

  pmu_state pmu;            /* the hardware performance counters (pmu.h) */
  /* Told of every I-cache lookup that misses, in order (tally_on_icache_miss:
   * other caches simulated on the same stream); only the miss path pays.
   * Last, out of the hot fields' way. */
  void (*icache_miss_fn)(void *ctx, uint32_t line_addr);
  void *icache_miss_ctx;
  /* The same for the D-cache (tally_on_dcache_miss): every fill, and every
   * store to a write-through D-cache (which always takes the slow path);
   * flags are TIMING_DC_*. */
  void (*dcache_miss_fn)(void *ctx, uint32_t line_addr, uint32_t flags);
  void *dcache_miss_ctx;
  /* The board's address regions (timing_set_memory_map), for
   * timing_wait_states; max_wait_states 0 (every board without wait
   * states, virt among them) keeps them off every path. */
  timing_mem_region mem_regions[TIMING_MAX_MEM_REGIONS];
  uint32_t n_mem_regions;
  uint32_t max_wait_states;
  /* What exec_loop.inc's dmiss_refetch_ahead ([0]) and dmiss_jal_refill
   * ([1]) found past a load that missed the D-cache, by the load's pc and
   * the 12 bytes of code from it (all either reads): a line and its k
   * (0: nothing to do). Found again only while those bytes are the same. */
  struct timing_ahead_memo {
    uint32_t pc, w[3], line;
    uint8_t k, valid;
  } ahead_memo[2][TIMING_AHEAD_MEMO];
  int64_t *prof_side;       /* the side record (timing_side) a translated fill routine charges,
                               set by its caller with a profile */
} timing;

/* What dcache_miss_fn is told of an access (the values of include/tally's
 * TALLY_DCACHE_*): a store; a write-through store that hit; the fill wrote
 * a dirty line back. */
#define TIMING_DC_WRITE 1u
#define TIMING_DC_HIT 2u
#define TIMING_DC_WRITEBACK 4u

/* fence.i ran: with [icache] fence_i_flush, every I-cache line is
 * invalidated (the next fetch looks the cache up again); with [pipeline]
 * fence_i_late_flush the instruction at next_pc is fetched first, from
 * the lines as they were, and is not looked up again when it hit (when it
 * missed, its refill runs during the flush, or before it: refill-first).
 * next_len: that instruction's length, 0 for a jump or branch (the one
 * after it, on its line when it hit, is fetched after the flush).
 * now: the cycle fence.i ends (its static cycles in); [pipeline]
 * fence_i_redo is charged when a load's D-cache fill ended fewer than
 * fence_i_redo_reach cycles before it began, not counting div_hold, the
 * execute hold of the divides between them, and csr_hold the hold of a
 * CSR instruction right before fence.i (0: none). pc: the fence.i's own
 * ([pipeline] fence_i_merge). */
void timing_fence_i(timing *t, uint32_t pc, uint32_t next_pc, uint64_t now, uint32_t next_len,
                    uint32_t div_hold, uint32_t csr_hold);
/* [pipeline] fence_i_overlap: the instruction at pc stalled `stall` cycles
 * (signal sig) in execute; takes back what of it passed during the flush
 * of the fence.i before it, if it is the one after that fence.i, and ends
 * the overlap */
void timing_fence_overlap(timing *t, uint32_t pc, uint32_t stall, tally_signal_id sig);
void timing_fence_overlap_device(timing *t, uint32_t pc, uint32_t stall);
void timing_fence_store(timing *t, uint32_t stall);
/* [pipeline] fence_i_jal_wait: the instruction after fence.i, fetched
 * before the flush, is a jal at pc (exec_loop.inc's fence_overlap_enter):
 * its target waits for the flush's end as a jalr's does (charges
 * jalr_penalty - jal_penalty more; notes pc in fence_jal_pc for its T_JAL,
 * which then charges no taken-path refill and a split target's cycle
 * once); ends the overlap. */
void timing_fence_jal(timing *t, uint32_t pc);
void timing_fence_overlap_fill(timing *t, uint32_t pc, uint32_t stall, bool next_load);
/* refill-first: the load at pc, whose first half the decompressor kept
 * through fence.i's flush (fence_held_pc), missed the D-cache: its redo
 * from the fetch refills its line (timing.c) */
void timing_fence_held_redo(timing *t, uint32_t pc);

/* A branch (or, with [pipeline] fence_i_jalr_flush, a jalr: `jalr`) at pc
 * redirected with fence.i on its wrong path at next_pc (VexRiscv's decode
 * asks for the I-cache flush): with [icache] fence_i_flush and [pipeline]
 * fence_i_late_flush, the flush runs before the target is fetched, when
 * that fence.i's word was fetched. `passed`: the cycles the jump waited
 * already for a wrong-path refill (timing_wrong_path), which ran during
 * the flush. `how`: TIMING_WP_FENCE_I_* bits. `now`: a branch's end
 * before its penalty, for [pipeline] fence_i_redo (0: none, as for a
 * jalr), and `div_hold` the hold of the divides before that fence.i as
 * timing_fence_i takes it. */
void timing_wrong_path_fence_i(timing *t, uint32_t pc, uint32_t next_pc, bool jalr, uint32_t how,
                               uint32_t passed, uint64_t now, uint32_t div_hold);
/* [pipeline] fence_i_redo: true when timing_wrong_path_fence_i, called
 * with the same arguments (a branch's, not a jalr's), will redo a load
 * that missed the D-cache for the fence.i at next_pc on the branch's
 * wrong path, that fence.i on the branch's own line. No state changed:
 * the branch then asks timing_wrong_path for no refill. The redo, from
 * write-back while the load waits for its fill, flushes the wrong path's
 * words from the fetch before the refill of the line after the branch's
 * (VexRiscv_IMAC.v's third word, wrong_path_words 3) goes out: no read of
 * it on the RTL's I-bus, no cycle after the branch (dmiss_wp_fence.S's
 * cases A to C: lw that misses, an ALU op or none, bne to pc + 4,
 * fence.i, add, the ret first on the next line; the RTL's 181 bus reads,
 * 193 while the refill was counted and its cycles taken back) */
bool timing_wrong_path_fence_i_redoes(const timing *t, uint32_t pc, uint32_t next_pc, uint32_t how, uint64_t now,
                                      uint32_t div_hold);
/* a fence.i on a jump's wrong path is the second instruction after the
 * jump, not the first (fence_i_wrong_path_reach) */
#define TIMING_WP_FENCE_I_SECOND 1u
/* it is the taken branch's target too */
#define TIMING_WP_FENCE_I_AT_TARGET 2u

/* Creates the timing state for a validated model; NULL on failure. */
timing *timing_new(const core_model *m);
void timing_free(timing *t);

/* The board's address regions (at most TIMING_MAX_MEM_REGIONS; more are
 * ignored), set before the first instruction runs. Without a call there
 * are none: no address has wait states. */
void timing_set_memory_map(timing *t, const timing_mem_region *r, uint32_t n);

/* The wait states of one bus beat to addr: the extra cycles the board's
 * region holding addr adds to each beat ([ram] or [region.NAME]
 * wait_states, docs/boards.md); 0 outside every region. This is how a core
 * model learns of the board's memory timing. The generic model adds them
 * to every beat of a fill, write-back, uncached read or write and
 * uncached fetch, and once to each device access (timing_device_access);
 * a core model of its own charges them where its bus waits. */
static inline uint32_t timing_wait_states(const timing *t, uint32_t addr) {
  for (uint32_t i = 0; i < t->n_mem_regions; i++)
    if ((uint64_t)(addr - t->mem_regions[i].base) < t->mem_regions[i].size)
      return t->mem_regions[i].wait_states;
  return 0;
}

/* A load or store that went to a device at addr (never cached): charges
 * its region's wait states as a data stall. Called only when
 * max_wait_states is not 0. Returns the cycles charged. */
uint32_t timing_device_access(timing *t, uint32_t addr);

/* [memory] device_bus: a device load or store at addr (never cached) is one
 * bus beat on the data port with its region's wait states: a store goes
 * through the write buffer as a write-through store does, a load waits for
 * the port (the buffered writes drain first), its beat and the model's
 * device_read_cycles. Counted as mem.read / mem.write. Returns the cycles
 * charged. */
uint32_t timing_device_load(timing *t, uint32_t addr, uint64_t now);

/* [dcache] store_load_replay: a store of `bytes` at addr whose static
 * cycles ended at `now` (noted when it hit the D-cache), and a load that
 * hit: when the load's cycles end 1 or 2 cycles after the store's and it
 * reads a byte the store wrote in the same word of the way (VexRiscv's
 * DataCache: the store writes the data RAM from write-back while the load
 * reads it in execute or memory; the load is replayed), the load is
 * charged the replay. Returns the cycles charged. */
void timing_note_store(timing *t, uint32_t addr, uint32_t bytes, uint64_t now);
uint32_t timing_load_replay(timing *t, uint32_t addr, uint32_t bytes, uint64_t now);
/* [pipeline] redirect_rvc_pair on a load's replay (exec_loop.inc,
 * replay_rvc_pair): charges its cycles (stall.dcache), the redo that
 * long; returns them */
uint32_t timing_replay_rvc_pair(timing *t);
/* [dcache] replay_decode_wait on a load's replay (exec_loop.inc, block.c's
 * replay_decode_wait_at): charges its cycles (stall.dcache), the redo that
 * long; returns them */
uint32_t timing_replay_decode_wait(timing *t);
/* ... and an AMO read-modify-write (its word's read) in place of the load:
 * replayed as a load is, and its own [pipeline] amo_penalty again. Returns
 * the cycles charged. */
uint32_t timing_amo_replay(timing *t, uint32_t addr, uint64_t now);
void timing_amo_hit(timing *t, uint64_t now);
uint32_t timing_device_store(timing *t, uint32_t addr, uint64_t now);
/* device_bus: the run ends with a device store (the test finisher) when its
 * beat is acknowledged: charges the cycles until the data port is free,
 * less the one beat's own cycles the store's issue already holds, and
 * [memory] exit_ack_cycles (stall.dcache). */
uint32_t timing_device_drain(timing *t, uint64_t now);


/* Whether the modelled core decodes an instruction (isa_kind, its length,
 * and for CSR instructions the CSR and rs1): the extensions of [core] isa,
 * and with micro_arch picorv32 PicoRV32's own ISA. When it does not, why,
 * in words, in why (if not NULL). A timed run makes such an instruction
 * illegal, as the real core does. */
bool timing_decodes(const timing *t, uint8_t kind, uint8_t len, uint32_t csr, uint8_t rs1, char *why,
                    size_t whylen);

/* Static costs of one decoded instruction (block builder). `hz` holds the
 * late results of the instructions before it in the block; it is updated
 * with this one's. */
op_timing timing_static(const timing *t, uint8_t kind, uint8_t rd, uint8_t rs1, uint8_t rs2,
                        int32_t imm, uint32_t pc, uint32_t len, timing_hazards *hz);

/* Cache hits counted as static pulses (part of timing_static's pulses):
 * a plain load or lr.w with a D-cache, a plain store with a write-back
 * D-cache. The timed loop takes the pulse back when the access misses,
 * does not go to the cache (outside RAM) or the instruction traps, so the
 * hot path of a hit counts nothing. Fetch ops after a block's first carry
 * icache.access and icache.hit the same way (block.c). */
#define TIMING_HIT_PULSES ((1u << SIG_DCACHE_READ_HIT) | (1u << SIG_DCACHE_WRITE_HIT))
uint32_t timing_static_hits(const timing *t, uint8_t kind);

/* Registers an instruction reads (bit mask), for load-use checks. */
uint32_t timing_reads(uint8_t kind, uint8_t rs1, uint8_t rs2);

/* Dynamic events, each returns the stall cycles it charged. */
/* Counts a dynamic event (or cycles) of `sig`: into the run's totals and,
 * when profiling, into the current instruction's row, and with address
 * regions into the current region's row. */
static inline void timing_count(timing *t, tally_signal_id sig, int64_t n) {
  t->sig_dyn[sig] += n;
#ifndef TIMING_NO_ROWS /* defined by a caller that never runs with a profile */
  if (__builtin_expect(t->prof_row != NULL, 0)) {
    t->prof_row[sig] += n;
    t->ctx_row[sig] += n; /* set whenever prof_row is */
  }
#endif
#ifndef TIMING_NO_REGIONS /* defined by a caller that never runs with regions */
  if (__builtin_expect(t->region_row != NULL, 0))
    t->region_row[sig] += n;
#endif
}

/* timing_fetch_slow's `ahead` ([pipeline] fetch_ahead): the cycles the
 * refill started before `now`, while the instructions ahead of the missing
 * one were still busy; the stall charged is what is left of the refill.
 * `now` is the cycle at which the access happens (for the memory port
 * and the write buffer). The inline versions below take cache hits
 * (cache_probe); misses, uncached accesses and write-through stores go to
 * the out-of-line versions. timing_load and timing_store count every
 * access as it happens (the atomics' accesses, which carry no static hit
 * pulse). Looking up the set every time measured faster than
 * first comparing with the line used last: that guess is a branch that
 * fails too often. */
uint32_t timing_fetch_slow(timing *t, uint32_t line_addr, uint64_t now, uint32_t ahead);
/* timing_fetch_slow with no `ahead`, for an I-cache (enabled) whose
 * cache_probe of the line just missed: the same state and counts,
 * without looking the line up again. */
uint32_t timing_fetch_miss(timing *t, uint32_t line_addr, uint64_t now);
/* timing_fetch_miss in one pass when no rule of fetch_fill's applies
 * (lean_ifill, and nothing pending: a hook, the reset flush, a hold, wait
 * states, rows); else timing_fetch_miss itself. Same state and counts. */
uint32_t timing_fetch_miss_lean(timing *t, uint32_t line_addr, uint64_t now);
/* timing_dcache_miss in one pass for a two-way LRU write-back D-cache
 * (lean_dfill) with no hook, wait states or rows; else timing_dcache_miss
 * itself. Same state and counts. */
uint32_t timing_dcache_miss_lean(timing *t, uint32_t addr, uint64_t now, bool is_write);
/* [pipeline] wrong_path_fill: a jalr or a branch going against its
 * prediction at pc redirects from memory, when the fetch stage has already
 * looked up the `words` words after it (wrong_path_words, fewer when one
 * is illegal). The first of them on a line other than pc's, if that line
 * misses, has its refill started, and the target's fetch, hit or miss,
 * waits for it (the line is filled, the refill counted as a miss).
 * `over`: what of the refill passed before, during the data-side stalls
 * of instructions ahead of the jump ([pipeline] fetch_ahead_data).
 * `hold`: a divide's hold right before the jump, during which the first
 * word after it on another line was looked up (its refill passes during it
 * too; the caller gives 0 when the fetch did not reach that word).
 * `lag`: how many cycles later than one word a cycle from pc that first
 * word off pc's line was looked up (negative: sooner), the decompressor's
 * doing ([pipeline] redirect_rvc_pair: exec_loop.inc's wrong_path_lag);
 * 0 without compressed code.
 * When `target`'s line misses as well, [pipeline] wrong_path_tail of those
 * cycles are left to the target's fill instead (TIMING_NO_LINE: never; a
 * fence.i on the wrong path, whose flush the target's fill waits for).
 * `start`: the cycle the jump issued, before its own penalty ([dcache]
 * refill_refetch_wrong_path reads its place after a load that missed).
 * `after`: with no overlap and no hold, the cycles after the redirect the
 * refill went out ([pipeline] wrong_path_read_late).
 * Returns the cycles charged. */
uint32_t timing_wrong_path(timing *t, uint32_t pc, uint32_t target, uint32_t words, uint64_t now, uint32_t over,
                           uint32_t hold, int32_t lag, uint64_t start, uint32_t after);
/* [pipeline] wrong_path_jump: a branch taken against its prediction, whose
 * wrong path (timing_wrong_path) refilled nothing, had a jal or a branch
 * predicted taken decoded right after it, which sent the fetch to
 * `target`: when that line misses, its refill is made, and the branch's
 * target waits for it (the line is filled, the refill counted as a miss).
 * `early`: the cycles sooner than the branch's redirect the refill's first
 * beat came (exec_loop.inc's wrong_path_jump_early).
 * Returns the cycles charged. */
uint32_t timing_wrong_path_jump(timing *t, uint32_t target, uint64_t now, uint32_t early);
/* [pipeline] taken_path_fill: a jal or a branch predicted taken at pc
 * redirects from decode, when the fetch stage has already looked up the
 * word holding `half`, the last halfword of the instruction after the jump
 * in sequence (the fetch goes on by aligned words until the decompressor
 * holds that instruction whole). When that is on another line, which
 * misses, the
 * line's refill has started and the target waits for it, the taken
 * bubble passing during it (the line is filled, the refill counted as a
 * miss). `over`: what of the refill passed before, during the data-side
 * stalls of instructions ahead of the jump ([pipeline] fetch_ahead_data).
 * `hold`: a divide's hold right before the jump, or two before it
 * (`hold_two_back`), the one between holding nothing (passes during the
 * refill; a branch predicted taken's and a jal's alike).
 * Returns the cycles charged. */
uint32_t timing_taken_path(timing *t, uint32_t pc, uint32_t half, uint32_t target, uint64_t now, uint32_t over,
                           uint32_t hold, bool hold_two_back);
/* ... the wait is the target's, not the jump's: the jump retires on time and
 * its target waits (when the target's line hits once the refill is in;
 * else the jump keeps it). As the jump's charges end, its cycles are taken
 * back from it (timing_taken_path_defer); the next block to enter, the
 * target's, charges them first (timing_taken_path_wait): the same cycles,
 * in the target's instruction. */
/* [dcache] store_load_replay with [pipeline] fetch_ahead_data
 * (fetch_ahead_insns 2): the load just replayed, the instruction after it
 * an ALU op on its line, the one after that on `line`, which misses. The
 * refill of `line` went out before the load's redo, which waits for it: the
 * refill's wait is the load's (stall.dcache), and the fill, when the
 * missing instruction comes to it, charges that much less (the same
 * cycles). `stages`: how far on the load had gone past its issue when
 * `line` was looked up (2; 4 for a jal's target two instructions after a
 * D-cache miss, dmiss_jal_refill in exec_loop.inc). */
bool timing_replay_refill(timing *t, uint32_t line, uint32_t stages);
/* [dcache] replay_refill_line (VexRiscv.v): the load replayed at `now` has,
 * k instructions after it (1 to 3), the first word on `line`, not in the
 * I-cache: that refill goes out during the replay and the load's redo
 * waits for it (stall.dcache); the fill, when the missing instruction
 * comes to it, charges nothing. */
void timing_replay_line(timing *t, uint32_t line, uint32_t k, uint64_t now);
/* [dcache] refill_refetch: the load that just missed the D-cache (its
 * fill noted by dmiss_wait) has, k instructions after it (1 to 3), the
 * first word on `line`, which is not in the I-cache, and the instructions
 * between neither branch nor wait for a result: that word's refill goes
 * out during the load's fill and the load's redo waits for it
 * (fetch_fill). The wait is charged now, as the load's (stall.dcache);
 * the refill, when it comes, charges that much less. */
/* held: a CSR instruction right before that word (and maybe a divide
 * before it), their waits after the redo (refetch_held_line). taken: a
 * branch right before it, in its line's last word, taken to `line`: the
 * wait is the load's alone (the target's fill after the redirect is not
 * the refetch foreseen). word: k = 1 and that word no jump but a jal
 * within its line (dmiss_held_lead takes the hold before the load) */
void timing_refetch_ahead(timing *t, uint32_t line, uint32_t k, bool held, bool taken, bool word);
/* [dcache] redo_refill_wait: the load that just missed the D-cache; the
 * instruction whose line `line` is, 2 or 3 after it, was looked up `lead`
 * cycles after the load asked for its fill: the load's redo waits for
 * that refill, and the instruction's fill charges only what is left */
void timing_redo_refill(timing *t, uint32_t line, uint32_t lead);
/* [pipeline] fetch_ahead_data's dmiss_two_refill at 2 mod 4: the refill of
 * `line` went out on the instruction port beside the load's fill, its beats
 * interleaved with the fill's, and ended a beat's 2 cycles before the
 * fill's last: the instruction's fill, when it comes, waits only for what
 * is left of it (fetch_fill's redo_end) */
void timing_beside_refill(timing *t, uint32_t line);
void timing_taken_path_defer(timing *t);
void timing_taken_path_wait(timing *t);
/* [pipeline] predicted_target_fill: a branch at pc predicted taken (to
 * target) that falls through, at `now`, the end of its cycles. The fetch
 * stage looked its target up after the prediction; when the target's line
 * (another than pc's) misses, its refill goes out as the branch leaves
 * write-back and the fall-through's fetch waits for its last beat (the
 * line is filled, the refill counted as a miss). `hold`: a divide's hold
 * right before the branch. `half` and `over`: timing_taken_path's, for the
 * word after the branch looked up before the prediction. Returns the
 * cycles charged beyond the misprediction's own. */
uint32_t timing_predicted_path(timing *t, uint32_t pc, uint32_t half, uint32_t target, uint64_t now, uint32_t hold,
                               uint32_t over);
/* [pipeline] redirect_rvc_pair: charges it (stall.jump for a jalr,
 * stall.branch for a branch); exec_loop.inc decides when. */
uint32_t timing_redirect_rvc_pair(timing *t, bool jump);
/* [pipeline] wrong_path_use_hold: charges its cycle (stall.jump for a jalr,
 * stall.branch for a branch); exec_loop.inc's wrong_path_use_hold decides
 * when. */
void timing_redirect_use_hold(timing *t, bool jump);
/* [pipeline] redirect_split_target: the same for a redirect to a 32-bit
 * instruction at 2 mod 4, `times` times (2: its halves on two lines) */
uint32_t timing_redirect_split_target(timing *t, bool jump, uint32_t times);
/* Takes back `cycles` of signal `sig` (SIG_CYCLE: of none but the cycle
 * count) the current instruction's static cost charged ([pipeline]
 * csr_drain: a redirect's bubbles the next instruction's wait passes
 * during). */
void timing_refund(timing *t, tally_signal_id sig, uint32_t cycles);
/* [pipeline] csr_drain (VexRiscv's CsrPlugin: a CSR instruction waits in
 * execute while memory or write-back holds an instruction,
 * blockedBySideEffects; csr_penalty is that wait right behind one):
 * timing_note_redirect records a branch's or jump's redirect, the next
 * instruction starting at `end` after `bubbles`; timing_csr_drain, for a
 * CSR instruction first in its block starting at `start` with its static
 * `stall` (signal `sig`), takes back the part of the stall those bubbles
 * passed; timing_redirect_drain, for a redirect from memory (a jalr, a
 * taken branch predicted not taken: `jump` tells which) at pc with
 * `bubbles`, whose next instruction (`next` at `next_pc`, fetched on the
 * wrong path) is a CSR instruction: held in execute by the jump in memory,
 * it holds decode, and the fetch stage takes the target a cycle later
 * (IBusCachedPlugin: iBusRsp's stages not ready), unless a device load
 * right before the jump waited (the jump redirected in each cycle of that
 * wait) or, with wrong_path_csr_miss, the CSR instruction is first on the
 * line the jump's wrong path asked a refill for; then notes the redirect.
 * Each returns the cycles added (or taken back). */
static inline void timing_note_redirect(timing *t, uint64_t end, uint32_t bubbles) {
  t->redirect_end = end;
  t->drain_bubbles = bubbles;
}
uint32_t timing_csr_drain(timing *t, uint64_t start, uint32_t stall, uint8_t sig, uint32_t taken);
uint32_t timing_redirect_drain(timing *t, uint32_t pc, uint32_t next_pc, uint32_t next, uint64_t now,
                               uint32_t bubbles, bool jump);
uint32_t timing_load_slow(timing *t, uint32_t addr, uint64_t now);
uint32_t timing_store_slow(timing *t, uint32_t addr, uint64_t now);
/* timing_store_slow then timing_note_store, for a write-through D-cache
 * with [dcache] store_load_replay (the cached VexRiscv models') */
uint32_t timing_store_through(timing *t, uint32_t addr, uint32_t bytes, uint64_t now);
/* A load, or a store to a write-back D-cache, whose cache_probe just
 * missed: the fill and its counts (the caller has taken back the access's
 * static hit pulse, if any). */
uint32_t timing_dcache_miss(timing *t, uint32_t addr, uint64_t now, bool is_write);
uint32_t timing_muldiv_slow(timing *t, uint8_t kind, uint32_t a, uint32_t b, uint32_t overlap);

/* An address in the model's on-chip SRAM ([memory] sram_base/sram_size):
 * never cached, no wait. The checks are on the slow paths only: an SRAM
 * line is never filled, so its cache probe always misses first. */
static inline bool timing_in_sram(const timing *t, uint32_t addr) {
  return addr - t->model.sram_base < t->model.sram_size;
}

/* The lean miss routines' gates, besides the rows to charge: where one
 * fails they take the general routine. fetch_regions.c asks the same
 * question before it puts a region's row aside, so both read it here. */
static inline bool timing_ifill_lean_ok(const timing *t, uint32_t line_addr) {
  return t->lean_ifill && !t->icache_miss_fn && !t->reset_flush && !t->hold_floor && !t->hold_floor_late && !t->fill_held &&
         !t->max_wait_states && !t->prof_row && !t->wrong_path_carry && !timing_in_sram(t, line_addr);
}
static inline bool timing_dfill_lean_ok(const timing *t, uint32_t addr) {
  return t->lean_dfill && !t->dcache_miss_fn && !t->max_wait_states && !t->prof_row && !timing_in_sram(t, addr);
}

/* Hit tests for accesses whose hit is a static pulse (timing_static_hits)
 * or a per-block count: true on a hit, which then counts nothing; on a
 * miss nothing has changed and the caller takes the count back and goes
 * the slow way. A loop whose size makes the compiler call them out of
 * line (the profiled one) defines TIMING_HIT_INLINE to force them in. */
#ifndef TIMING_HIT_INLINE
#define TIMING_HIT_INLINE inline
#endif
static TIMING_HIT_INLINE bool timing_fetch_hit(timing *t, uint32_t line_addr) {
  uint32_t i;
  if (__builtin_expect(!cache_probe(&t->icache, line_addr >> t->icache.line_shift, &i), 0))
    return false;
  t->fetch_line = line_addr;
  return true;
}

static TIMING_HIT_INLINE bool timing_load_hit(timing *t, uint32_t addr) {
  uint32_t i;
  return __builtin_expect(cache_probe(&t->dcache, addr >> t->dcache.line_shift, &i), 1);
}

static TIMING_HIT_INLINE bool timing_store_hit(timing *t, uint32_t addr) {
  uint32_t i;
  if (__builtin_expect(!cache_probe(&t->dcache, addr >> t->dcache.line_shift, &i), 0))
    return false;
  t->dcache.dirty[i] = 1;
  return true;
}

static inline uint32_t timing_load(timing *t, uint32_t addr, uint64_t now) {
  if (__builtin_expect(!t->dcache_on || cache_hit(&t->dcache, addr >> t->dcache.line_shift) < 0, 0))
    return timing_load_slow(t, addr, now);
  timing_count(t, SIG_DCACHE_READ_HIT, 1);
  return 0;
}

/* Only write-back stores can hit without going to memory. */
static inline uint32_t timing_store(timing *t, uint32_t addr, uint64_t now) {
  int32_t i;
  if (__builtin_expect(!t->dcache_wb || (i = cache_hit(&t->dcache, addr >> t->dcache.line_shift)) < 0, 0))
    return timing_store_slow(t, addr, now);
  t->dcache.dirty[i] = 1;
  timing_count(t, SIG_DCACHE_WRITE_HIT, 1);
  return 0;
}

/* Dynamic multiply/divide/shift timing only for models that have it. */
/* overlap: cycles of the next fetch's wait the extra time hides (op_timing.overlap) */
static inline uint32_t timing_muldiv(timing *t, uint8_t kind, uint32_t a, uint32_t b, uint32_t overlap) {
  return t->dynamic_muldiv ? timing_muldiv_slow(t, kind, a, b, overlap) : 0;
}

uint32_t timing_trap(timing *t, bool interrupt);
/* Before timing_trap: the jump `insn` (its bits) traps as misaligned
 * (core without C, IALIGN = 32): it does not redirect, so its own jump
 * penalty is not paid (the trap's flush takes its place). */
void timing_jump_trap(timing *t, uint32_t insn);
void timing_idle(timing *t, uint64_t cycles);

/* Changes clock and voltage (DVFS): closes the energy/time segment, pays
 * the PLL relock stall, recomputes memory latencies in cycles. */
void timing_set_clock(timing *t, double freq_mhz, double voltage);

/* The program changed its markers at cycle `now`. */
void timing_set_markers(timing *t, uint32_t bits, uint64_t now);
/* Marker signal totals up to `now` (for reports). */
void timing_marker_totals(const timing *t, uint64_t now, uint64_t totals[4]);

/* Energy (joules) and time (seconds) up to the current cycle; `totals` are
 * the signal totals (core_signal_totals). */
typedef struct timing_energy {
  double core_j, static_j, cache_j, mem_j, total_j;
  double seconds;
} timing_energy;
timing_energy timing_energy_now(const timing *t, const uint64_t *totals);

/* Adds what one op contributes per execution, times n (negative to take
 * back), into sig; timing_add_ops does it for ops [from, to) of a block. */
void timing_add_op(const op_timing *o, int64_t n, int64_t *sig);
void timing_add_ops(const block_timing *bt, uint32_t from, uint32_t to, int64_t n, int64_t *sig);
/* The same for all of the block's ops, from bt->sum. */
static inline void timing_add_block(const block_timing *bt, int64_t n, int64_t *sig) {
  for (uint32_t i = 0; i < bt->nsum; i++)
    sig[bt->sum[i].sig] += n * (int64_t)bt->sum[i].n;
}
/* Writes the (signal, count) pairs of one execution of ops[0, n) into out
 * (room for SIG_COUNT) and returns how many there are. */
uint32_t timing_block_sum(const op_timing *ops, uint32_t n, sig_count_pair *out);

/* Adds the signals of the per-block event counts of bt (block_timing) into
 * sig: of the ending branch (taken branches, mispredictions, penalty
 * cycles) when `branch`, of the first instruction (entry fetch hits,
 * load-use stalls) when `head`. The caller clears the counts. */
void timing_add_block_events(const timing *t, const block_timing *bt, bool branch, bool head, int64_t *sig);
/* The same from explicit counts: not taken, taken, entry hits, entry
 * load-use stalls (a block's in one calling context, ctx_count). */
static inline void timing_add_event_counts(const timing *t, const block_timing *bt, uint64_t not_taken,
                                           uint64_t taken, uint64_t entry_hits, uint64_t entry_load_use,
                                           int64_t *sig) {
  int64_t nt = (int64_t)not_taken, tk = (int64_t)taken;
  int64_t pen = nt * bt->branch_pen[0] + tk * bt->branch_pen[1];
  int64_t stall = (int64_t)entry_load_use; /* cycles */
  (void)t;
  sig[SIG_BRANCH_TAKEN] += tk;
  sig[SIG_BRANCH_MISPREDICT] += bt->predict_taken ? nt : tk;
  sig[SIG_CYCLE] += pen + stall;
  sig[SIG_STALL_BRANCH] += pen;
  sig[SIG_ICACHE_ACCESS] += (int64_t)entry_hits;
  sig[SIG_ICACHE_HIT] += (int64_t)entry_hits;
  sig[SIG_STALL_LOAD_USE] += stall;
}

/* An upper bound of the dynamic cycles an op of this kind can add (a table
 * made with the model and remade at each clock change). */
static inline uint32_t timing_dynamic_bound(const timing *t, uint8_t kind) { return t->dyn_bounds[kind]; }
/* ... and what any block can add besides its ops' bounds: a trap's entry
 * and a load-use stall on entering it. A block's bound is this plus its
 * ops' static cycles and dynamic bounds (block.c, and run.c's prefixes). */
/* The bound of a block that must never be run unstepped (a PMU access):
 * no horizon is ever this far away (run.c keeps the cycle horizon within
 * TIMING_HORIZON_MAX of the count on a core that has PMU counters). */
#define TIMING_MUST_STEP UINT32_MAX
#define TIMING_HORIZON_MAX (UINT32_MAX / 2)
static inline uint32_t timing_block_bound(const timing *t) {
  return t->model.trap_penalty + t->hazard_bound;
}

/* Entering a block while late results of the block before are on their
 * way (t->hz): the extra cycles its first instructions wait, beyond the
 * stalls their own block already counts; sets t->hz to the results on
 * their way at its end. Exact for penalties up to 2 (a result is late for
 * at most two instructions). */
uint32_t timing_hazard_entry(timing *t, const block_timing *bt);

/* The row of signal totals for the instruction at pc (timing_rows). */
static inline int64_t *timing_row(const timing *t, uint32_t pc) {
  const timing_rows *r = &t->rows;
  uint32_t i = pc - r->lo < r->hi - r->lo ? (pc - r->lo) >> 1 : (r->hi - r->lo) >> 1;
  return r->base + (uint64_t)i * SIG_COUNT;
}

/* A new side record (timing_rows) of a fill site of the instruction at
 * pc: of its I-cache fills (dside false) or D-cache ones; NULL when out of
 * memory */
int64_t *timing_side(timing *t, uint32_t pc, bool dside);

#endif
