/*
 * unit.cache: the tag-only cache model (src/timing/cache.c).
 *
 *   1. hand-computed cases, each expectation worked out in the comments;
 *   2. geometries cache_init must refuse;
 *   3. a randomized differential test against the plain reference model in
 *      cache_reference.c: many address streams with locality, every
 *      replacement policy and write policy, a spread of geometries; every
 *      access's hit/filled/writeback/victim_addr must agree.
 *
 * Usage: test_cache [accesses per configuration]   (default 40000)
 * Prints "N passed, M failed" last; exits 1 when anything failed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_reference.h"
#include "timing/cache.h"

static unsigned passed, failed;

#define CHECK(cond)                                                           \
  do {                                                                        \
    if (cond) {                                                               \
      passed++;                                                               \
    } else {                                                                  \
      failed++;                                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                         \
  } while (0)

static cache_params params(uint32_t size, uint32_t line, uint32_t ways, cache_replacement repl,
                           cache_write_policy wp, uint32_t seed) {
  cache_params p;
  memset(&p, 0, sizeof p);
  p.enabled = true;
  p.size = size;
  p.line = line;
  p.ways = ways;
  p.replacement = repl;
  p.seed = seed;
  p.write_policy = wp;
  return p;
}

/* Checks one access against the expected outcome. */
#define EXPECT(c, addr, wr, e_hit, e_filled, e_wb, e_victim)                   \
  do {                                                                        \
    cache_result r_ = cache_access((c), (addr), (wr));                        \
    CHECK(r_.hit == (e_hit));                                                 \
    CHECK(r_.filled == (e_filled));                                           \
    CHECK(r_.writeback == (e_wb));                                            \
    if (e_wb)                                                                 \
      CHECK(r_.victim_addr == (uint32_t)(e_victim));                          \
  } while (0)

#define R false
#define W true

/* ---------------------------------------------------------------- hand */

/* 64 bytes, 16-byte lines, 2 ways -> 2 sets; set = (addr >> 4) & 1.
 * A = 0x000 (line 0), B = 0x020 (line 2), C = 0x040 (line 4): all set 0.
 * All accesses are stores in write-back mode, so every line is dirty and an
 * eviction shows its victim through writeback/victim_addr. */
static void hand_lru_vs_lrr(void) {
  cache c;
  cache_params p = params(64, 16, 2, REPL_LRU, WRITE_BACK, 0);
  CHECK(cache_init(&c, &p) == 0);
  CHECK(c.sets == 2 && c.ways == 2 && c.line_shift == 4 && c.set_mask == 1);
  /* LRU: A fills way 0, B way 1, A hits (now B is least recently used),
   * C evicts B. Afterwards A still hits, B misses (evicting C, the LRU now,
   * since A was used after C). */
  EXPECT(&c, 0x000, W, false, true, false, 0);
  EXPECT(&c, 0x020, W, false, true, false, 0);
  EXPECT(&c, 0x004, W, true, false, false, 0);
  EXPECT(&c, 0x040, W, false, true, true, 0x020);
  EXPECT(&c, 0x008, R, true, false, false, 0);
  EXPECT(&c, 0x02c, R, false, true, true, 0x040);
  /* The other set is untouched: 0x010 (line 1, set 1) misses without a victim. */
  EXPECT(&c, 0x010, R, false, true, false, 0);
  cache_free(&c);

  /* LRR: A fills way 0, B way 1, A hits (the fill order stays A, B),
   * C evicts A, the first filled. Then B hits, A misses and evicts B
   * (filled before C). */
  p.replacement = REPL_LRR;
  CHECK(cache_init(&c, &p) == 0);
  EXPECT(&c, 0x000, W, false, true, false, 0);
  EXPECT(&c, 0x020, W, false, true, false, 0);
  EXPECT(&c, 0x004, W, true, false, false, 0);
  EXPECT(&c, 0x040, W, false, true, true, 0x000);
  EXPECT(&c, 0x024, R, true, false, false, 0);
  EXPECT(&c, 0x000, R, false, true, true, 0x020);
  /* Now the set holds C (dirty) and A (clean, refilled by a read):
   * the next miss evicts C, the older fill. */
  EXPECT(&c, 0x060, R, false, true, true, 0x040);
  /* ...and the one after that A, which is clean: no writeback. */
  EXPECT(&c, 0x080, R, false, true, false, 0);
  cache_free(&c);
}

/* Direct mapped, 1 KiB, 16-byte lines: 64 sets, set = (addr >> 4) & 63.
 * Addresses 1 KiB apart all map to set 0, so a loop over 4 of them (or even
 * 2) misses on every access; a 4-way cache of the same size holds all 4. */
static void hand_conflict_stride(void) {
  cache c;
  cache_params p = params(1024, 16, 1, REPL_LRU, WRITE_BACK, 0);
  CHECK(cache_init(&c, &p) == 0);
  unsigned misses = 0;
  for (int pass = 0; pass < 10; pass++)
    for (uint32_t k = 0; k < 4; k++)
      misses += !cache_access(&c, 0x8000 + k * 1024, R).hit;
  CHECK(misses == 40);
  misses = 0;
  for (int i = 0; i < 20; i++)
    misses += !cache_access(&c, i & 1 ? 0x400 : 0x000, R).hit;
  CHECK(misses == 20);
  cache_free(&c);

  /* 4-way, same size: 16 sets, all four lines in set 0: 4 cold misses,
   * then 36 hits. */
  p.ways = 4;
  CHECK(cache_init(&c, &p) == 0);
  misses = 0;
  for (int pass = 0; pass < 10; pass++)
    for (uint32_t k = 0; k < 4; k++)
      misses += !cache_access(&c, 0x8000 + k * 1024, R).hit;
  CHECK(misses == 4);
  cache_free(&c);
}

/* 1 KiB, 32-byte lines, 4 ways (8 sets). A 512-byte array read word by
 * word: first pass 512/32 = 16 misses and 128 - 16 = 112 hits; second pass
 * 128 hits. A 2 KiB array read twice with LRU: each line's first word misses
 * in both passes (the second pass finds the lines of the array's second
 * half, which evicted the first half): 64 misses per pass. */
static void hand_array_passes(void) {
  static const cache_replacement pol[] = {REPL_LRU, REPL_LRR, REPL_RANDOM};
  for (int k = 0; k < 3; k++) {
    cache c;
    cache_params p = params(1024, 32, 4, pol[k], WRITE_BACK, 7);
    CHECK(cache_init(&c, &p) == 0);
    unsigned hits[2] = {0, 0}, misses[2] = {0, 0};
    for (int pass = 0; pass < 2; pass++)
      for (uint32_t a = 0x10000; a < 0x10000 + 512; a += 4) {
        cache_result r = cache_access(&c, a, R);
        hits[pass] += r.hit;
        misses[pass] += !r.hit;
      }
    CHECK(misses[0] == 16 && hits[0] == 112);
    CHECK(misses[1] == 0 && hits[1] == 128);
    cache_free(&c);
  }
  for (int k = 0; k < 2; k++) {    /* LRU and LRR agree on a plain sweep */
    cache c;
    cache_params p = params(1024, 32, 4, pol[k], WRITE_BACK, 0);
    CHECK(cache_init(&c, &p) == 0);
    unsigned misses[2] = {0, 0};
    for (int pass = 0; pass < 2; pass++)
      for (uint32_t a = 0; a < 2048; a += 4)
        misses[pass] += !cache_access(&c, a, R).hit;
    CHECK(misses[0] == 64 && misses[1] == 64);
    cache_free(&c);
  }
}

/* Write-back, direct mapped, 64 bytes, 16-byte lines: 4 sets,
 * set = (addr >> 4) & 3. 0x104, 0x204 and 0x304 are all in set 0. */
static void hand_write_back(void) {
  cache c;
  cache_params p = params(64, 16, 1, REPL_LRU, WRITE_BACK, 0);
  CHECK(cache_init(&c, &p) == 0);
  unsigned wbs = 0;
  cache_result r;
  /* Store miss: allocates (filled), the line is now dirty, nothing leaves. */
  r = cache_access(&c, 0x104, W);
  CHECK(!r.hit && r.filled && !r.writeback);
  wbs += r.writeback;
  /* Load of another line of set 0: evicts the dirty line 0x100. */
  r = cache_access(&c, 0x208, R);
  CHECK(!r.hit && r.filled && r.writeback && r.victim_addr == 0x100);
  wbs += r.writeback;
  /* 0x200 came in clean: evicting it writes nothing back. */
  r = cache_access(&c, 0x30c, R);
  CHECK(!r.hit && r.filled && !r.writeback);
  wbs += r.writeback;
  r = cache_access(&c, 0x104, R);
  CHECK(!r.hit && r.filled && !r.writeback);
  wbs += r.writeback;
  CHECK(wbs == 1);
  /* A store hit dirties a clean line: 0x100 (read in) written, then evicted. */
  EXPECT(&c, 0x100, W, true, false, false, 0);
  EXPECT(&c, 0x200, R, false, true, true, 0x100);
  /* Other sets keep their own lines: 0x010 (set 1) and 0x020 (set 2). */
  EXPECT(&c, 0x01c, W, false, true, false, 0);
  EXPECT(&c, 0x020, R, false, true, false, 0);
  EXPECT(&c, 0x014, R, true, false, false, 0);
  EXPECT(&c, 0x410, R, false, true, true, 0x010);
  cache_free(&c);
}

/* Write-through, same geometry: a store miss neither hits nor fills, a
 * store hit keeps the line clean, nothing is ever written back. */
static void hand_write_through(void) {
  cache c;
  cache_params p = params(64, 16, 1, REPL_LRU, WRITE_THROUGH, 0);
  CHECK(cache_init(&c, &p) == 0);
  EXPECT(&c, 0x104, W, false, false, false, 0);   /* not allocated */
  EXPECT(&c, 0x100, R, false, true, false, 0);    /* so the load misses */
  EXPECT(&c, 0x108, W, true, false, false, 0);    /* store hit */
  EXPECT(&c, 0x200, R, false, true, false, 0);    /* evicts 0x100: clean */
  EXPECT(&c, 0x300, W, false, false, false, 0);   /* store miss leaves 0x200 */
  EXPECT(&c, 0x204, R, true, false, false, 0);
  /* Many stores and loads over 4 KiB: never a writeback. */
  unsigned wbs = 0;
  uint32_t x = 12345;
  for (int i = 0; i < 10000; i++) {
    x = x * 1103515245u + 12345u;
    wbs += cache_access(&c, (x >> 8) & 0xfff, (x >> 4) & 1).writeback;
  }
  CHECK(wbs == 0);
  cache_free(&c);
}

/* Random replacement: invalid ways first (lowest index first, no draw from
 * the generator), then way cache_rng_next(&rng) % ways, and a reset replays
 * the very same choices. 64 bytes, 16-byte lines, 4 ways: one set. */
static void hand_random(void) {
  cache c;
  cache_params p = params(64, 16, 4, REPL_RANDOM, WRITE_BACK, 99);
  CHECK(cache_init(&c, &p) == 0);
  for (int round = 0; round < 2; round++) {
    uint64_t rng = cache_rng_seed(99);
    uint32_t in_way[4];
    for (uint32_t k = 0; k < 4; k++) {            /* stores fill ways 0..3 */
      EXPECT(&c, k * 16, W, false, true, false, 0);
      in_way[k] = k * 16;
      CHECK(c.tags[k] == k && c.valid[k] && c.dirty[k]);
    }
    CHECK(c.rng == rng);                          /* no draw while filling */
    for (uint32_t k = 4; k < 40; k++) {
      uint32_t w = cache_rng_next(&rng) % 4;
      EXPECT(&c, k * 16, W, false, true, true, in_way[w]);
      in_way[w] = k * 16;
    }
    cache_reset(&c);
  }
  cache_free(&c);

  /* The seed matters: two seeds give different miss counts on a stream
   * that evicts a lot (checked to hold for these two seeds). */
  unsigned misses[2] = {0, 0};
  for (int s = 0; s < 2; s++) {
    p = params(256, 16, 16, REPL_RANDOM, WRITE_BACK, s + 1);
    CHECK(cache_init(&c, &p) == 0);
    uint32_t x = 1;
    for (int i = 0; i < 5000; i++) {
      x = x * 1103515245u + 12345u;
      misses[s] += !cache_access(&c, ((x >> 8) % 24) * 16, R).hit;
    }
    cache_free(&c);
  }
  CHECK(misses[0] != misses[1]);
}

/* Direct mapped is the same for every policy, and fully associative means
 * one set with the whole address (minus offset) as the tag. */
static void hand_shapes(void) {
  cache c;
  cache_params p = params(256, 16, 16, REPL_LRU, WRITE_BACK, 0);
  CHECK(cache_init(&c, &p) == 0);
  CHECK(c.sets == 1 && c.set_mask == 0);
  /* 16 lines anywhere in memory all fit... */
  for (uint32_t k = 0; k < 16; k++)
    EXPECT(&c, k * 0x10000000u + k * 16, R, false, true, false, 0);
  for (uint32_t k = 0; k < 16; k++)
    EXPECT(&c, k * 0x10000000u + k * 16 + 12, R, true, false, false, 0);
  /* ...and the top of the address space is an ordinary line. */
  EXPECT(&c, 0xfffffffc, W, false, true, false, 0);
  EXPECT(&c, 0xfffffff0, R, true, false, false, 0);
  CHECK(cache_line_of(&c, 0xfffffffc) == 0xfffffff0);
  cache_free(&c);

  p = params(4096, 64, 1, REPL_RANDOM, WRITE_BACK, 0);
  CHECK(cache_init(&c, &p) == 0);
  CHECK(c.sets == 64 && c.line_shift == 6);
  EXPECT(&c, 0x1040, W, false, true, false, 0);
  EXPECT(&c, 0x2040, R, false, true, true, 0x1040);
  EXPECT(&c, 0x207f, R, true, false, false, 0);
  cache_free(&c);
}

/* -------------------------------------------------------- invalid shapes */

static void invalid_geometries(void) {
  static const struct { uint32_t size, line, ways; } bad[] = {
      {0, 16, 1},              /* size 0 */
      {3000, 16, 1},           /* size not a power of two */
      {4096, 0, 1},            /* line 0 */
      {4096, 2, 1},            /* line < 4 */
      {4096, 1, 1},
      {4096, 24, 1},           /* line not a power of two */
      {4096, 16, 0},           /* no ways */
      {4096, 16, 3},           /* ways not a power of two */
      {4096, 16, 6},
      {64, 16, 8},             /* size < line * ways */
      {16, 32, 1},             /* line bigger than the cache */
      {0x80000000u, 0x80000000u, 2},   /* line * ways overflows 32 bits */
      {0x80000000u, 4, 0x80000000u},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cache c;
    ref_cache r;
    cache_params p = params(bad[i].size, bad[i].line, bad[i].ways, REPL_LRU, WRITE_BACK, 0);
    int rc = cache_init(&c, &p);
    CHECK(rc == -1);
    if (rc != -1)
      fprintf(stderr, "  accepted size %" PRIu32 " line %" PRIu32 " ways %" PRIu32 "\n", bad[i].size,
              bad[i].line, bad[i].ways);
    cache_free(&c);          /* safe after a refused init */
    cache_reset(&c);
    CHECK(ref_init(&r, &p) == -1);
    ref_free(&r);
  }
  /* An unknown replacement policy is refused too. */
  cache c;
  cache_params p = params(4096, 16, 2, (cache_replacement)7, WRITE_BACK, 0);
  CHECK(cache_init(&c, &p) == -1);
  cache_free(&c);
  /* Edges that are valid: the smallest cache, and one line per way. */
  p = params(4, 4, 1, REPL_LRU, WRITE_BACK, 0);
  CHECK(cache_init(&c, &p) == 0);
  cache_free(&c);
  p = params(4, 4, 1, REPL_LRR, WRITE_THROUGH, 0);
  CHECK(cache_init(&c, &p) == 0);
  cache_free(&c);
}

/* ------------------------------------------------------------ differential */

/* The stream generator's own PRNG (not the cache's). */
static uint64_t gen_state;
static uint32_t gen(void) {
  gen_state ^= gen_state << 13;
  gen_state ^= gen_state >> 7;
  gen_state ^= gen_state << 17;
  return (uint32_t)(gen_state >> 16);
}
static uint32_t gen_below(uint32_t n) { return gen() % n; }

typedef struct access {
  uint32_t addr;
  bool write;
} access;

/* Fills s[0..n) with chunks of different kinds of locality. */
static void make_stream(access *s, size_t n, uint32_t size, uint32_t line, uint32_t ways) {
  static const uint32_t bases[] = {0x00000000u, 0x80000000u, 0x20001000u, 0xfffff000u};
  size_t i = 0;
  while (i < n) {
    size_t len = 16 + gen_below(600);
    if (len > n - i)
      len = n - i;
    uint32_t base = gen_below(4) ? bases[gen_below(4)] + (gen_below(64) << 6) : gen();
    /* writes: none, a few, many or all */
    static const uint32_t wpct[] = {0, 10, 40, 100};
    uint32_t wp = wpct[gen_below(4)];
    switch (gen_below(6)) {
    case 0: {    /* array sweeps, smaller and bigger than the cache */
      static const uint32_t num[] = {1, 1, 1, 3, 2, 4}, den[] = {4, 2, 1, 2, 1, 1};
      uint32_t k = gen_below(6);
      uint32_t bytes = (uint32_t)((uint64_t)size * num[k] / den[k]);
      uint32_t stride = 1u << gen_below(8);          /* 1..128 bytes */
      if (bytes < stride)
        bytes = stride;
      uint32_t off = 0;
      for (size_t j = 0; j < len; j++) {
        s[i + j].addr = base + off;
        s[i + j].write = gen_below(100) < wp;
        off = (off + stride) % bytes;
      }
      break;
    }
    case 1: {    /* lines that all fall into one set */
      uint32_t way_span = size / ways;               /* bytes between lines of one set */
      uint32_t count = 1 + gen_below(ways + 3);
      bool cyclic = gen_below(2);
      for (size_t j = 0; j < len; j++) {
        uint32_t k = cyclic ? (uint32_t)(j % count) : gen_below(count);
        s[i + j].addr = base + k * way_span + gen_below(line);
        s[i + j].write = gen_below(100) < wp;
      }
      break;
    }
    case 2: {    /* random within a window around the cache's size */
      uint32_t window = size << gen_below(3);
      for (size_t j = 0; j < len; j++) {
        s[i + j].addr = base + gen_below(window);
        s[i + j].write = gen_below(100) < wp;
      }
      break;
    }
    case 3: {    /* a small working set of lines, visited in a loop */
      uint32_t lines[64];
      uint32_t count = 1 + gen_below(64);
      for (uint32_t k = 0; k < count; k++)
        lines[k] = base + gen_below(size * 2) / line * line;
      for (size_t j = 0; j < len; j++) {
        s[i + j].addr = lines[j % count] + gen_below(line);
        s[i + j].write = gen_below(100) < wp;
      }
      break;
    }
    case 4:      /* anywhere at all */
      for (size_t j = 0; j < len; j++) {
        s[i + j].addr = gen();
        s[i + j].write = gen_below(100) < wp;
      }
      break;
    default: {   /* a stack: pushes and pops around a moving pointer */
      uint32_t sp = base;
      for (size_t j = 0; j < len; j++) {
        sp += (gen_below(3) - 1) * 4;
        s[i + j].addr = sp + gen_below(8) * 4;
        s[i + j].write = gen_below(2);
      }
      break;
    }
    }
    i += len;
  }
}

static unsigned long long diff_checked, diff_hits, diff_fills, diff_writebacks;
static unsigned diff_configs;

static const char *pol_name(cache_replacement r) {
  return r == REPL_LRU ? "lru" : r == REPL_LRR ? "lrr" : "random";
}

/* Runs s through the cache as it is and a fresh reference model; returns
 * the number of mismatching accesses (reporting the first few). */
static unsigned run_diff(cache *c, const cache_params *p, const access *s, size_t n, const char *what) {
  ref_cache r;
  if (ref_init(&r, p) != 0) {
    CHECK(!"reference refused a valid geometry");
    return 1;
  }
  unsigned bad = 0;
  for (size_t i = 0; i < n; i++) {
    cache_result a = cache_access(c, s[i].addr, s[i].write);
    ref_result b = ref_access(&r, s[i].addr, s[i].write);
    uint32_t va = a.writeback ? a.victim_addr : 0;
    if (a.hit != b.hit || a.filled != b.filled || a.writeback != b.writeback || va != b.victim_addr) {
      if (bad < 3)
        fprintf(stderr,
                "mismatch (%s) size %" PRIu32 " line %" PRIu32 " ways %" PRIu32 " %s %s seed %" PRIu32
                ", access %zu: %s 0x%08" PRIx32 ": cache hit %d filled %d wb %d victim 0x%08" PRIx32
                ", reference hit %d filled %d wb %d victim 0x%08" PRIx32 "\n",
                what, p->size, p->line, p->ways, pol_name(p->replacement),
                p->write_policy == WRITE_BACK ? "write-back" : "write-through", p->seed, i,
                s[i].write ? "store" : "load", s[i].addr, a.hit, a.filled, a.writeback, va, b.hit,
                b.filled, b.writeback, b.victim_addr);
      bad++;
    }
    diff_hits += b.hit;
    diff_fills += b.filled;
    diff_writebacks += b.writeback;
  }
  diff_checked += n;
  ref_free(&r);
  return bad;
}

static void differential(size_t per_config) {
  static const uint32_t lines[] = {4, 8, 16, 32, 64};
  static const uint32_t sizes[] = {64, 256, 1024, 4096};
  static const uint32_t ways_list[] = {1, 2, 4, 8, 0 /* fully associative */};
  static const cache_replacement pols[] = {REPL_LRU, REPL_LRR, REPL_RANDOM};
  static const cache_write_policy wps[] = {WRITE_BACK, WRITE_THROUGH};
  access *s = malloc(per_config * sizeof *s);
  if (!s) {
    CHECK(!"out of memory");
    return;
  }
  uint32_t seed = 1;
  for (size_t li = 0; li < sizeof lines / sizeof lines[0]; li++)
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
      for (size_t wi = 0; wi < sizeof ways_list / sizeof ways_list[0]; wi++) {
        uint32_t line = lines[li], size = sizes[si];
        uint32_t ways = ways_list[wi] ? ways_list[wi] : size / line;
        if ((uint64_t)line * ways > size)
          continue;
        if (!ways_list[wi] && ways <= 8)
          continue;            /* already covered as an explicit way count */
        for (size_t pi = 0; pi < 3; pi++)
          for (size_t wpi = 0; wpi < 2; wpi++) {
            cache_params p = params(size, line, ways, pols[pi], wps[wpi], seed * 2654435761u);
            gen_state = 0x243F6A8885A308D3ull ^ ((uint64_t)seed << 20);
            seed++;
            make_stream(s, per_config, size, line, ways);
            cache c;
            if (cache_init(&c, &p) != 0) {
              CHECK(!"cache_init refused a valid geometry");
              continue;
            }
            diff_configs++;
            unsigned bad = run_diff(&c, &p, s, per_config, "fresh");
            /* After a reset the cache must behave exactly like a new one
             * again, random choices included. */
            cache_reset(&c);
            bad += run_diff(&c, &p, s, per_config / 4, "after reset");
            /* LRU: cross the 32-bit wrap of the access clock halfway. */
            if (p.replacement == REPL_LRU) {
              cache_reset(&c);
              c.clock = UINT32_MAX - (uint32_t)(per_config / 2);
              bad += run_diff(&c, &p, s, per_config, "clock wrap");
            }
            CHECK(bad == 0);
            cache_free(&c);
          }
      }
  free(s);
}

/* mru_tag (cache_track_mru), the tag of each set's way used last, which
 * the translator's fetch check reads: after every access, and after a
 * reset, it is tags[2 * set + (lru_way[set] ^ 1)], whether tracking began
 * on a fresh cache or halfway through a stream (then made from the
 * state). Other shapes have none. */
static void mru_tracking(size_t per_config) {
  static const uint32_t sizes[] = {64, 1024, 4096};
  access *s = malloc(per_config * sizeof *s);
  if (!s) {
    CHECK(!"out of memory");
    return;
  }
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
    for (int late = 0; late < 2; late++) {
      cache_params p = params(sizes[si], 16, 2, REPL_LRU, WRITE_BACK, 7);
      gen_state = 0x9E3779B97F4A7C15ull ^ (si << 8) ^ (uint64_t)late;
      make_stream(s, per_config, sizes[si], 16, 2);
      cache c;
      if (cache_init(&c, &p) != 0) {
        CHECK(!"cache_init refused a valid geometry");
        continue;
      }
      unsigned bad = 0;
      for (size_t i = 0; i < per_config; i++) {
        if (i == (late ? per_config / 2 : 0))
          CHECK(cache_track_mru(&c) == 0 && c.mru_tag);
        cache_access(&c, s[i].addr, s[i].write);
        if (i == per_config * 3 / 4)
          cache_reset(&c);
        if (c.mru_tag)
          for (uint32_t set = 0; set < c.sets; set++)
            bad += c.mru_tag[set] != c.tags[2 * set + (c.lru_way[set] ^ 1u)];
      }
      CHECK(bad == 0);
      cache_free(&c);
    }
  cache_params p4 = params(1024, 16, 4, REPL_LRU, WRITE_BACK, 7);
  cache c4;
  CHECK(cache_init(&c4, &p4) == 0 && cache_track_mru(&c4) == 0 && !c4.mru_tag);
  cache_free(&c4);
  free(s);
}

int main(int argc, char **argv) {
  size_t per_config = 40000;
  if (argc > 1)
    per_config = strtoul(argv[1], NULL, 0);
  if (per_config < 100)
    per_config = 100;

  hand_lru_vs_lrr();
  hand_conflict_stride();
  hand_array_passes();
  hand_write_back();
  hand_write_through();
  hand_random();
  hand_shapes();
  invalid_geometries();
  differential(per_config);
  mru_tracking(per_config);

  printf("differential: %u configurations, %llu accesses compared (%llu hits, %llu fills, %llu writebacks)\n",
         diff_configs, diff_checked, diff_hits, diff_fills, diff_writebacks);
  printf("%u passed, %u failed\n", passed, failed);
  return failed ? 1 : 0;
}
