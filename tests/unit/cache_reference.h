/*
 * A second, deliberately plain cache model for the tests of src/timing/cache.c.
 * It shares nothing with it but the parameter types and the random
 * generator (cache_rng_seed/cache_rng_next, which define the random policy),
 * and it computes everything the slow, obvious way: arithmetic with / and %,
 * and per set an explicit list of ways in replacement order.
 */
#ifndef TALLY_TESTS_CACHE_REFERENCE_H
#define TALLY_TESTS_CACHE_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/core_model.h"

typedef struct ref_way {
  bool valid, dirty;
  uint32_t line_addr;          /* address of the line's first byte */
} ref_way;

typedef struct ref_cache {
  uint32_t size, line, ways, sets;
  cache_replacement replacement;
  bool write_back;
  uint32_t seed;
  uint64_t rng;
  ref_way *way;                /* sets * ways */
  /* Per set, the valid ways in replacement order: order[0] is the next to
   * leave (least recently used for LRU, first filled for LRR), the last
   * entry the newest. count[set] entries are in use. Unused for random. */
  uint32_t *order, *count;
} ref_cache;

typedef struct ref_result {
  bool hit, filled, writeback;
  uint32_t victim_addr;        /* 0 unless writeback */
} ref_result;

/* Same acceptance rules as cache_init; 0 or -1. */
int ref_init(ref_cache *r, const cache_params *p);
void ref_free(ref_cache *r);
ref_result ref_access(ref_cache *r, uint32_t addr, bool is_write);

#endif
