/*
 * The tag-only cache of cache.h.
 *
 * Layout: way w of set s is slot s*ways + w in every per-way array. A slot's
 * tag is its line address (addr >> line_shift), or CACHE_NO_TAG while it is
 * invalid, so a lookup compares tags and nothing else.
 *
 * Fill order: lines only ever become invalid all at once (cache_reset), and a
 * miss always fills the lowest invalid way, so the valid ways of a set are
 * always ways 0..k-1. next_victim[set] is therefore enough to find the way a
 * miss fills:
 *   LRU, random: k, the number of valid ways, until the set is full; then
 *                the least recently used way / a random way.
 *   LRR:         the round-robin pointer. It walks 0,1,..,ways-1 while the
 *                set fills and then keeps going round, which is exactly the
 *                order in which the lines came in (first in, first out).
 * (Should single lines ever be invalidated, this has to become a scan for
 * an invalid way.)
 *
 * LRU: with two ways, lru_way[set] is the way used less recently, the
 * victim. With more, stamp[slot] is the value of the access clock when the
 * slot was last used; the victim has the smallest stamp in the set. When
 * the 32-bit clock would wrap, the stamps are renumbered by rank within
 * each set, which keeps every order and frees the range again. Both give
 * the same victims (the differential test holds them to a reference).
 *
 * tags has one slot more than the cache, always CACHE_NO_TAG, so that the
 * two-way probe may compare t[1] in a direct-mapped cache's last set.
 */
#include "cache.h"

#include <stdlib.h>
#include <string.h>

static bool is_pow2(uint32_t x) { return x && !(x & (x - 1)); }

static uint32_t log2u(uint32_t x) {
  uint32_t n = 0;
  while (x >>= 1)
    n++;
  return n;
}

int cache_init(cache *c, const cache_params *p) {
  memset(c, 0, sizeof *c);
  if (!p || !is_pow2(p->size) || !is_pow2(p->line) || !is_pow2(p->ways) || p->line < 4 ||
      (uint64_t)p->line * p->ways > p->size)
    return -1;
  if (p->replacement != REPL_LRU && p->replacement != REPL_LRR && p->replacement != REPL_RANDOM)
    return -1;
  c->ways = p->ways;
  c->sets = p->size / (p->line * p->ways);
  c->line_shift = log2u(p->line);
  c->way_shift = log2u(p->ways);
  c->set_mask = c->sets - 1;
  c->replacement = p->replacement;
  c->write_back = p->write_policy == WRITE_BACK;
  c->rng_seed = cache_rng_seed(p->seed);
  if (c->replacement == REPL_LRU && c->ways == 2)
    c->touch = CACHE_TOUCH_LRU2;
  else if (c->replacement == REPL_LRU && c->ways > 2)
    c->touch = CACHE_TOUCH_STAMP;
  else
    c->touch = CACHE_TOUCH_NONE;    /* FIFO, random, or one way: a hit changes nothing */

  size_t n = (size_t)c->sets * c->ways;
  c->tags = malloc((n + 1) * sizeof *c->tags);   /* + the padding slot */
  c->stamp = malloc((n + c->ways) * sizeof *c->stamp);   /* + scratch, see lru_renumber */
  c->valid = malloc(n);
  c->dirty = malloc(n);
  c->next_victim = malloc((size_t)c->sets * sizeof *c->next_victim);
  c->lru_way = malloc((size_t)c->sets * sizeof *c->lru_way);
  if (!c->tags || !c->stamp || !c->valid || !c->dirty || !c->next_victim || !c->lru_way) {
    cache_free(c);
    return -1;
  }
  cache_reset(c);
  return 0;
}

void cache_free(cache *c) {
  free(c->tags);
  free(c->stamp);
  free(c->valid);
  free(c->dirty);
  free(c->next_victim);
  free(c->lru_way);
  free(c->mru_tag);
  c->mru_tag = NULL;
  c->tags = c->stamp = c->next_victim = c->lru_way = NULL;
  c->valid = c->dirty = NULL;
}

void cache_reset(cache *c) {
  size_t n = (size_t)c->sets * c->ways;
  if (!c->tags)
    return;
  for (size_t i = 0; i <= n; i++)
    c->tags[i] = CACHE_NO_TAG;
  memset(c->stamp, 0, n * sizeof *c->stamp);
  memset(c->valid, 0, n);
  memset(c->dirty, 0, n);
  memset(c->next_victim, 0, (size_t)c->sets * sizeof *c->next_victim);
  memset(c->lru_way, 0, (size_t)c->sets * sizeof *c->lru_way);
  if (c->mru_tag) /* way 1 the one used last, holding nothing */
    for (uint32_t i = 0; i < c->sets; i++)
      c->mru_tag[i] = CACHE_NO_TAG;
  c->clock = 0;
  c->rng = c->rng_seed;
}

/* The clock is about to wrap: replace each set's stamps by their rank
 * (0 = least recent), then restart the clock above every rank. The ranks
 * are built in the spare `ways` entries past the end of the stamp array. */
void cache_lru_renumber(cache *c) {
  uint32_t ways = c->ways;
  uint32_t *r = c->stamp + (size_t)c->sets * ways;
  for (uint32_t s = 0; s < c->sets; s++) {
    uint32_t *st = c->stamp + (size_t)s * ways;
    for (uint32_t a = 0; a < ways; a++) {
      uint32_t k = 0;
      for (uint32_t b = 0; b < ways; b++)
        k += st[b] < st[a] || (st[b] == st[a] && b < a);
      r[a] = k;
    }
    memcpy(st, r, ways * sizeof *st);
  }
  c->clock = ways;
}

uint32_t cache_lru_victim(const cache *c, uint32_t base) {
  const uint32_t *st = c->stamp + base;
  uint32_t best = 0, oldest = st[0];     /* the minimum stays in a register */
  for (uint32_t w = 1, n = c->ways; w < n; w++) {
    if (st[w] < oldest) {
      oldest = st[w];
      best = w;
    }
  }
  return best;
}

cache_result cache_access(cache *c, uint32_t addr, bool is_write) {
  uint32_t tag = addr >> c->line_shift, i;
  if (!cache_probe(c, tag, &i))
    return cache_fill(c, tag, is_write);
  if (is_write && c->write_back)
    c->dirty[i] = 1;
  return (cache_result){true, false, false, 0};
}

int cache_track_mru(cache *c) {
  if (c->touch != CACHE_TOUCH_LRU2 || c->mru_tag)
    return 0;
  c->mru_tag = malloc((size_t)c->sets * sizeof *c->mru_tag);
  if (!c->mru_tag)
    return -1;
  for (uint32_t set = 0; set < c->sets; set++)
    c->mru_tag[set] = c->tags[2 * set + (c->lru_way[set] ^ 1u)];
  return 0;
}
