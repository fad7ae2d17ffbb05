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
  cache_replacement replacement;
  bool write_back;          /* write-back + write-allocate, else write-through + no-allocate */
  uint32_t *tags;           /* sets*ways; tag = line address (addr >> line_shift), CACHE_NO_TAG when invalid */
  uint8_t *valid, *dirty;
  uint32_t *stamp;          /* LRU: last use time per way; LRR: fill order per way */
  uint32_t *next_victim;    /* per set, the way the next fill goes to: LRR: round-robin pointer;
                               LRU/random: number of valid ways until the set is full */
  uint32_t clock;
  uint64_t rng;             /* random replacement state */
  uint64_t rng_seed;        /* rng as cache_init set it; cache_reset restores it */
  uint32_t mru;             /* slot (set*ways + way) of the last hit or fill, looked at first */
} cache;

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

/* Line address (addr with the offset bits cleared). */
static inline uint32_t cache_line_of(const cache *c, uint32_t addr) { return addr >> c->line_shift << c->line_shift; }

#endif
