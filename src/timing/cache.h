/*
 * A tag-only set-associative cache: it decides hit or miss and which line
 * leaves, and keeps dirty bits; the data always lives in the board's RAM.
 * Deterministic for every replacement policy (random uses its own seeded
 * generator), so the same accesses give the same results in every run.
 */
#ifndef TALLY_TIMING_CACHE_H
#define TALLY_TIMING_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "core_model.h"

typedef struct cache {
  uint32_t sets, ways, line_shift, set_mask;
  uint32_t way_shift;       /* log2(ways) */
  cache_replacement replacement;
  bool write_back;          /* write-back + write-allocate, else write-through + no-allocate */
  uint32_t *tags;           /* sets*ways; tag = line address (addr >> line_shift), CACHE_NO_TAG when invalid */
  uint8_t *valid, *dirty;
  uint32_t *stamp;          /* LRU of more than two ways: last use time per way; LRR: fill order per way */
  uint32_t *lru_way;        /* LRU of two ways: per set, the way used less recently */
  uint32_t *mru_tag;        /* two-way LRU, when asked for (cache_track_mru): per set, the tag of the
                               way used last (tags[2 * set + (lru_way[set] ^ 1)]), so that a check
                               for a hit there is one load; NULL otherwise */
  uint32_t *next_victim;    /* per set, the way the next fill goes to: LRR: round-robin pointer;
                               LRU/random: number of valid ways until the set is full */
  uint8_t touch;            /* what a hit updates: CACHE_TOUCH_* */
  uint32_t clock;
  uint64_t rng;             /* random replacement state */
  uint64_t rng_seed;        /* rng as cache_init set it; cache_reset restores it */
} cache;

/* What a hit must update for the replacement policy. Two-way LRU needs
 * one word per set (the way not used last: the victim), which costs a hit
 * a single store instead of a clock tick and a stamp. */
enum { CACHE_TOUCH_NONE, CACHE_TOUCH_LRU2, CACHE_TOUCH_STAMP };

/* Never a line address: line_shift >= 2 leaves the top two bits clear. */
#define CACHE_NO_TAG UINT32_MAX

typedef struct cache_result {
  bool hit;
  bool filled;              /* a line was brought in (read miss, or write miss with allocate) */
  bool writeback;           /* a dirty line was evicted and must be written to memory */
  uint32_t victim_addr;     /* its address when writeback */
} cache_result;

/* Returns 0, or -1 if the parameters are not a valid cache. */
int cache_init(cache *c, const cache_params *p);
void cache_free(cache *c);
void cache_reset(cache *c);

/* For a two-way LRU cache, keep mru_tag from now on (made from the
 * cache's state): the translator's fetch check reads it, and turns it on
 * for the I-cache at its first translation; nothing for other shapes.
 * Returns -1 when out of memory. */
int cache_track_mru(cache *c);

/* One access to the line holding addr. Reads allocate on a miss; writes
 * allocate only in write-back mode and mark the line dirty there. */
cache_result cache_access(cache *c, uint32_t addr, bool is_write);

/* The generator of random replacement, xorshift64* (Vigna) started from
 * splitmix64(seed). It advances only when a miss fills a line into a set
 * with no invalid way left; the line leaving is then way
 * cache_rng_next(&c->rng) % ways. Kept here so that a second model (the
 * tests' reference) draws exactly the same sequence. */
static inline uint64_t cache_rng_seed(uint32_t seed) {
  uint64_t z = (uint64_t)seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return z ? z : 0x9E3779B97F4A7C15ull;     /* xorshift must not start at 0 */
}

static inline uint32_t cache_rng_next(uint64_t *state) {
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

/* Renumbers the LRU stamps when the access clock would wrap (cache.c). */
void cache_lru_renumber(cache *c);

static inline uint32_t cache_lru_tick(cache *c) {
  if (__builtin_expect(++c->clock == 0, 0))
    cache_lru_renumber(c);
  return c->clock;
}

/* The way of the set whose tags start at t that holds tag, or ways if
 * none. Four ways are compared per step into a bit mask, so finding a line
 * in a random way costs one well-predicted branch per four ways rather than
 * a mispredicted loop exit. */
static inline uint32_t cache_find_way(const uint32_t *t, uint32_t ways, uint32_t tag) {
  if (ways < 4) {
    /* at most one way matches: m is 0, 1 or 2, and way = m >> 1 */
    uint32_t m = (uint32_t)(t[0] == tag) | (ways == 2 ? (uint32_t)(t[1] == tag) << 1 : 0u);
    return m ? m >> 1 : ways;
  }
  for (uint32_t w = 0; w < ways; w += 4) {
    uint32_t m = (uint32_t)(t[w] == tag) | (uint32_t)(t[w + 1] == tag) << 1 |
                 (uint32_t)(t[w + 2] == tag) << 2 | (uint32_t)(t[w + 3] == tag) << 3;
    if (m)
      return w + (uint32_t)__builtin_ctz(m);
  }
  return ways;
}

/* A hit, inline for the timing model's fast paths: true and the slot
 * holding the line `tag` (addr >> line_shift) in *slot, with the
 * replacement state updated as a hit updates it; or false on a miss, which
 * changes nothing (the caller then goes through cache_access). The set is
 * searched straight away, without a guess at the slot used last first: a
 * guess that fails half the time costs more than it saves. */
static inline __attribute__((always_inline)) bool cache_probe(cache *c, uint32_t tag, uint32_t *slot) {
  uint32_t set = tag & c->set_mask, w;
  if (__builtin_expect(c->touch == CACHE_TOUCH_LRU2, 1)) {
    /* two-way LRU, the default cores' shape, with its constants spelled
     * out: one branch on hit or miss, none on the way */
    const uint32_t *t = c->tags + 2 * set;
    w = t[1] == tag;
    if (__builtin_expect(!((uint32_t)(t[0] == tag) | w), 0))
      return false;
    c->lru_way[set] = w ^ 1u;
    if (c->mru_tag)
      c->mru_tag[set] = tag;
    *slot = 2 * set + w;
    return true;
  }
  if (c->ways == 1) {
    /* direct-mapped (the cached VexRiscv models'): one tag, no state */
    if (__builtin_expect(c->tags[set] != tag, 0))
      return false;
    *slot = set;
    return true;
  }
  uint32_t base = set << c->way_shift;
  const uint32_t *t = c->tags + base;
  if (c->ways <= 2) {
    /* in a direct-mapped cache t[1] is the next set's (or the padding
     * slot's) and never holds this set's tag */
    w = t[1] == tag;
    if (__builtin_expect(!((uint32_t)(t[0] == tag) | w), 0))
      return false;
  } else {
    w = cache_find_way(t, c->ways, tag);
    if (__builtin_expect(w == c->ways, 0))
      return false;
  }
  if (c->touch == CACHE_TOUCH_STAMP)
    c->stamp[base + w] = cache_lru_tick(c);
  *slot = base + w;
  return true;
}

/* The way of the least recently used line of the set at `base`, for LRU
 * of more than two ways (cache.c). */
uint32_t cache_lru_victim(const cache *c, uint32_t base);

/* The miss half of cache_access, for a caller whose cache_probe of `tag`
 * (addr >> line_shift) just failed: the way to fill, its victim, the new
 * line; the same result and state as cache_access. Inline because the
 * timing model's miss path is hot in workloads that miss a lot. */
static inline cache_result cache_fill(cache *c, uint32_t tag, bool is_write) {
  cache_result r = {false, false, false, 0};
  if (is_write && !c->write_back)
    return r;                      /* write-through: no allocate */

  uint32_t set = tag & c->set_mask, ways = c->ways;
  uint32_t base = set * ways;
  uint32_t w = c->next_victim[set];
  switch (c->replacement) {
  case REPL_LRR:
    c->next_victim[set] = (w + 1) & (ways - 1);
    break;
  case REPL_LRU:
    if (w < ways)
      c->next_victim[set] = w + 1;
    else if (c->touch == CACHE_TOUCH_LRU2)
      w = c->lru_way[set];
    else
      w = cache_lru_victim(c, base);
    break;
  case REPL_RANDOM:
    if (w < ways)
      c->next_victim[set] = w + 1;
    else
      w = cache_rng_next(&c->rng) & (ways - 1);
    break;
  }

  uint32_t i = base + w;
  if (c->dirty[i]) {               /* only a valid line is ever dirty */
    r.writeback = true;
    r.victim_addr = c->tags[i] << c->line_shift;
  }
  c->tags[i] = tag;
  c->valid[i] = 1;
  c->dirty[i] = is_write;
  if (c->touch == CACHE_TOUCH_LRU2) {
    c->lru_way[set] = w ^ 1u;
    if (c->mru_tag)
      c->mru_tag[set] = tag;
  } else if (c->touch == CACHE_TOUCH_STAMP)
    c->stamp[i] = cache_lru_tick(c);
  else if (c->replacement == REPL_LRR)
    c->stamp[i] = ++c->clock;      /* fill order, for inspection only */
  r.filled = true;
  return r;
}

/* cache_probe as a slot number, -1 on a miss. */
static inline int32_t cache_hit(cache *c, uint32_t tag) {
  uint32_t i;
  return cache_probe(c, tag, &i) ? (int32_t)i : -1;
}

/* Line address (addr with the offset bits cleared). */
static inline uint32_t cache_line_of(const cache *c, uint32_t addr) { return addr >> c->line_shift << c->line_shift; }

#endif
