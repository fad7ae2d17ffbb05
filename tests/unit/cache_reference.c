/*
 * The reference cache model; see cache_reference.h. Written for obviousness,
 * not speed.
 */
#include "cache_reference.h"

#include <stdlib.h>
#include <string.h>

#include "timing/cache.h"      /* only for cache_rng_seed / cache_rng_next */

static bool power_of_two(uint32_t x) {
  for (uint64_t p = 1; p <= 0x80000000u; p *= 2)
    if (x == p)
      return true;
  return false;
}

int ref_init(ref_cache *r, const cache_params *p) {
  memset(r, 0, sizeof *r);
  if (!power_of_two(p->size) || !power_of_two(p->line) || !power_of_two(p->ways))
    return -1;
  if (p->line < 4 || (uint64_t)p->line * (uint64_t)p->ways > (uint64_t)p->size)
    return -1;
  r->size = p->size;
  r->line = p->line;
  r->ways = p->ways;
  r->sets = p->size / p->line / p->ways;
  r->replacement = p->replacement;
  r->write_back = p->write_policy == WRITE_BACK;
  r->seed = p->seed;
  r->rng = cache_rng_seed(p->seed);
  r->way = calloc((size_t)r->sets * r->ways, sizeof *r->way);
  r->order = calloc((size_t)r->sets * r->ways, sizeof *r->order);
  r->count = calloc(r->sets, sizeof *r->count);
  if (!r->way || !r->order || !r->count) {
    ref_free(r);
    return -1;
  }
  return 0;
}

void ref_free(ref_cache *r) {
  free(r->way);
  free(r->order);
  free(r->count);
  r->way = NULL;
  r->order = r->count = NULL;
}

/* Removes way w from the set's order list, if it is there. */
static void order_remove(ref_cache *r, uint32_t set, uint32_t w) {
  uint32_t *o = r->order + (size_t)set * r->ways;
  for (uint32_t k = 0; k < r->count[set]; k++) {
    if (o[k] == w) {
      for (uint32_t j = k; j + 1 < r->count[set]; j++)
        o[j] = o[j + 1];
      r->count[set]--;
      return;
    }
  }
}

/* Puts way w at the newest end of the set's order list. */
static void order_push(ref_cache *r, uint32_t set, uint32_t w) {
  order_remove(r, set, w);
  r->order[(size_t)set * r->ways + r->count[set]] = w;
  r->count[set]++;
}

ref_result ref_access(ref_cache *r, uint32_t addr, bool is_write) {
  ref_result res = {false, false, false, 0};
  uint32_t line_addr = addr - addr % r->line;
  uint32_t set = (addr / r->line) % r->sets;
  ref_way *ways = r->way + (size_t)set * r->ways;

  for (uint32_t w = 0; w < r->ways; w++) {
    if (ways[w].valid && ways[w].line_addr == line_addr) {
      res.hit = true;
      if (r->replacement == REPL_LRU)
        order_push(r, set, w);              /* a use makes it the newest */
      if (is_write && r->write_back)
        ways[w].dirty = true;
      return res;
    }
  }

  if (is_write && !r->write_back)
    return res;                             /* write-through: no allocate */

  /* The lowest invalid way, if any; else ask the policy. */
  uint32_t victim = r->ways;
  for (uint32_t w = 0; w < r->ways; w++) {
    if (!ways[w].valid) {
      victim = w;
      break;
    }
  }
  if (victim == r->ways) {
    if (r->replacement == REPL_RANDOM)
      victim = cache_rng_next(&r->rng) % r->ways;
    else
      victim = r->order[(size_t)set * r->ways];   /* oldest in the list */
    if (ways[victim].dirty) {
      res.writeback = true;
      res.victim_addr = ways[victim].line_addr;
    }
  }
  ways[victim].valid = true;
  ways[victim].dirty = is_write;
  ways[victim].line_addr = line_addr;
  if (r->replacement != REPL_RANDOM)
    order_push(r, set, victim);             /* filled: newest, for LRU and LRR */
  res.filled = true;
  return res;
}
