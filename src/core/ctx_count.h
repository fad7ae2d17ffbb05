/*
 * Per calling context counts of the cached blocks' executions, for the
 * profile's inclusive counts of every signal (src/profile/profile.h).
 *
 * A block's static counts are not charged when it runs but folded later
 * from its execution count (block_timing.execs). With a profile, the
 * calling context it ran in must get them too. Adding them up at every
 * call, return and trap costs in proportion to the blocks run in
 * between, on every call; instead the profiled loop counts each block's
 * executions (and its per-block events) per context, in a ctx_count it
 * reaches through the block (block_timing.cc, its last context;
 * block_timing.home, the one it was last new in, inside the block's
 * timing; block_timing.ccw, a cache of the ones before; and the
 * context's own table of its records by block, timing.ctx_tab), and
 * the counts are added to the contexts' rows only when the blocks are
 * folded (core_fold_blocks): one increment per block entry, nothing per
 * call. The profiled loop counts there only: the fold moves the counts
 * into the blocks' own (block_timing.execs and the like) too, for the
 * run's totals. The table holds at most CTX_COUNT_MAX records; past that it adds
 * them all up and starts again, so memory stays bounded whatever the
 * program does.
 */
#ifndef TALLY_CORE_CTX_COUNT_H
#define TALLY_CORE_CTX_COUNT_H

#include "../timing/timing.h"
#include "cpu.h"

#define CTX_COUNT_MAX (1u << 18)

typedef struct ctx_count_chunk ctx_count_chunk;

/* A slot of the hash table: the record and its key's hash, so a probe
 * past another key's slot reads no record; hash 0: empty. The translated
 * entry probes a key's first slot itself (jit.c, emit_check_paths). */
typedef struct ctx_slot {
  uint64_t hash;
  ctx_count *r;
} ctx_slot;

/* The hash of the key (row, bt): ctx_hash_row(row) ^ ctx_hash_bt(bt),
 * with bit 0 set (never an empty slot's 0); its slot, bits 32 up under
 * the table's mask. Two halves, as the translated code has bt's half as a
 * constant of the block. */
#define CTX_HASH_ROW_MUL 0x9E3779B97F4A7C15ull
static inline uint64_t ctx_hash_row(const int64_t *row) {
  return ((uint64_t)(uintptr_t)row >> 3) * CTX_HASH_ROW_MUL;
}
/* The slot of block_timing.ccw for the context row: the top bits of its
 * hash (the translated entry computes it too: jit.c, emit_check_paths) */
#define CTX_WAY_SHIFT 59
_Static_assert(TIMING_CTX_WAYS == 1 << (64 - CTX_WAY_SHIFT), "ccw's slots are the hash's top bits");
static inline uint32_t ctx_way(const int64_t *row) {
  return (uint32_t)(ctx_hash_row(row) >> CTX_WAY_SHIFT);
}
static inline uint64_t ctx_hash_bt(const block_timing *bt) {
  return ((uint64_t)(uintptr_t)bt >> 4) * 0xC2B2AE3D27D4EB4Full;
}

/* Each context's table of its records by block (timing.ctx_tab,
 * prof_node.ctx_tab), made at its first record: the translated entry of
 * a cached block reads its record in the context on top there, at the
 * block's ctx_id - 1, and goes to C (core_ctx_count_find, which fills
 * the slot) only when the slot is empty, so a block entered from
 * context to context (a call's callee, a recursion) finds its record
 * with no compare and no probe. CTX_TAB_IDS slots each, mapped lazily
 * (a context's blocks of low ids touch a page or two); blocks past them
 * have no ctx_id, and contexts past CTX_TAB_MAX no table (both: the
 * block's cc, its cache ways, the hash table). */
#define CTX_TAB_IDS (1u << 17)
#define CTX_TAB_MAX 4096u

typedef struct ctx_tab_made {
  ctx_count ***own;         /* its context's prof_node.ctx_tab */
  ctx_count **tab;
} ctx_tab_made;

/* The records and their hash table, keyed by (context row, block). */
typedef struct core_ctx_counts {
  ctx_count none;           /* no context: where a block points before it runs in one */
  ctx_count step;           /* the counts of the block being stepped (in no cache): core_fold_stepped */
  ctx_slot *slots;          /* open addressing, mask + 1 slots, at most half used */
  uint32_t mask, used;
  uint32_t max;             /* records at most: CTX_COUNT_MAX (a test sets fewer) */
  ctx_count_chunk *chunks;  /* the records, newest chunk first */
  ctx_count **homes;        /* the records that are blocks' own (block_timing.home) */
  uint32_t nhomes, homes_cap;
  ctx_count **tab_zero;     /* CTX_TAB_IDS empty slots, read-only: the table of a context with none */
  ctx_tab_made *tabs;       /* the contexts' tables made, to drop them */
  uint32_t ntabs;
} core_ctx_counts;

core_ctx_counts *core_ctx_counts_new(void);
void core_ctx_counts_free(core_ctx_counts *t);

/* The record of block b in the context on top (timing.ctx_row), made
 * block_timing.cc; the slow path of the profiled loop's block entry, when
 * b's last context is another. &step for a block in no cache. */
ctx_count *core_ctx_count_find(core_cpu *cpu, core_block *b);
/* Moves every record's counts into its block's (block_timing.execs and
 * the event counts, where the run's totals are folded from) and, when
 * to_rows, adds them to its context's row; clears them. */
void core_ctx_counts_fold(core_cpu *cpu, bool to_rows);
/* Moves the step record's counts into b's (the block being stepped). */
void core_ctx_counts_take_step(core_cpu *cpu, block_timing *bt);
/* Forgets every record without adding it up (the blocks or the contexts
 * they point to are going, the contexts still readable); the cached
 * blocks' cc point at none again, the contexts' tables go. */
void core_ctx_counts_drop(core_cpu *cpu, bool blocks_stay);

#endif
