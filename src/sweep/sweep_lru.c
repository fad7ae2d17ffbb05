/*
 * LRU stack distances for `tally sweep --one-pass`: one stack per set count,
 * as deep as the most ways asked for, fed with a cache's access stream;
 * an access hits in a cache of W ways exactly when it is found above depth
 * W in its set's stack, so one pass gives the misses of every associativity
 * of every set count at once (Mattson et al., 1970).
 *
 * Write-back: a line is dirty in a cache of W ways when a store reached it
 * and every access since had a stack distance below W (a deeper one missed
 * there and brought it back clean). So each entry keeps the fewest ways in
 * which it is dirty: 1 after a store, raised to d + 1 by a load at
 * distance d. An access at distance d pushes the entries above depth d one
 * down: the one leaving depth j is the line a cache of j + 1 ways evicts,
 * written back when it is dirty there (after Thompson & Smith, 1989).
 *
 * Write-through without allocation: a store that misses changes nothing,
 * one that hits moves its line up, so caches of different ways stop being
 * one stack; only a direct-mapped cache, where a hit changes nothing, is
 * asked for (sweep_model.c refuses more ways). Stores then only look.
 */
#include <stdlib.h>
#include <string.h>
#include "sweep_onepass.h"

typedef struct sw_lru_entry entry;

/* One access to a family's stacks: the set's stack is searched and
 * shifted down in the same pass, the entry leaving depth j - 1 for depth
 * j being the line a cache of j ways evicts (written back if dirty there). */
static void lookup(sw_lru_family *f, uint32_t tag, int write, int allocate) {
  entry *e = f->e + (size_t)(tag & (f->sets - 1)) * f->depth;
  if (e[0].tag == tag) { /* distance 0: a hit everywhere that moves nothing */
    f->hist[write][0]++;
    if (write && allocate)
      e[0].dirty = 1;
    return;
  }
  if (!allocate) { /* a write-through store: it only looks */
    uint32_t d = 1;
    while (d < f->depth && e[d].tag != tag)
      d++;
    if (d < f->depth)
      f->hist[1][d]++;
    else
      f->cold[1]++;
    return;
  }
  entry carry = e[0];
  uint32_t d = 1, was = 0;
  for (; d < f->depth; d++) {
    if (carry.dirty && carry.dirty <= d && carry.tag != UINT32_MAX)
      f->wb[d]++;
    entry here = e[d];
    e[d] = carry;
    if (here.tag == tag) {
      was = here.dirty;
      break;
    }
    carry = here;
  }
  if (d < f->depth) {
    f->hist[write][d]++;
  } else { /* not in the stack: the last entry leaves the largest cache */
    f->cold[write]++;
    if (carry.dirty && carry.dirty <= f->depth && carry.tag != UINT32_MAX)
      f->wb[f->depth]++;
  }
  e[0].tag = tag;
  e[0].dirty = write ? 1 : was && d < f->depth ? (was > d + 1 ? was : d + 1) : 0;
}

/* The line accessed last was stored to while it stayed on top: dirty in
 * every cache. */
static void mark_dirty(sw_lru_family *f, uint32_t tag) {
  entry *e = f->e + (size_t)(tag & (f->sets - 1)) * f->depth;
  if (e[0].tag == tag)
    e[0].dirty = 1;
}

void sw_lru_on_miss(void *ctx, uint32_t line_addr) {
  sw_lru *o = ctx;
  o->seen++;
  for (size_t i = 0; i < o->nf; i++)
    lookup(&o->f[i], line_addr >> o->line_shift, 0, 1);
}

/* A one-line write-back D-cache reports a run of accesses to one line by
 * its first (the fill); a store among the others shows as the write-back
 * of that line when the next fill pushes it out. The others hit in every
 * cache and move nothing: the line is on top of its set's stack. */
static void on_dcache(sw_lru *o, uint32_t line_addr, uint32_t flags) {
  uint32_t tag = line_addr >> o->line_shift;
  int write = (flags & TALLY_DCACHE_WRITE) != 0;
  o->seen++;
  for (size_t i = 0; i < o->nf; i++) {
    if ((flags & TALLY_DCACHE_WRITEBACK) && o->have_last)
      mark_dirty(&o->f[i], o->last);
    lookup(&o->f[i], tag, write, !(write && o->no_allocate));
  }
  if (!(write && o->no_allocate))
    o->last = tag, o->have_last = 1;
}

/* Longer lines than the reference's see its stream with the line
 * address cut shorter: a run of its accesses within one longer line is
 * a run there too (the second and later are at distance 0, hits that
 * move nothing), and the line it filled last is the longer line's last. */
void sw_lru_on_dcache(void *ctx, uint32_t line_addr, uint32_t flags) {
  for (sw_lru *o = ctx; o; o = o->next)
    on_dcache(o, line_addr, flags);
}

static const sw_lru_family *family(const sw_lru *o, uint32_t sets) {
  for (size_t i = 0; i < o->nf; i++)
    if (o->f[i].sets == sets)
      return &o->f[i];
  return NULL;
}

uint64_t sw_lru_misses(const sw_lru *o, uint32_t sets, uint32_t ways, int write) {
  const sw_lru_family *f = family(o, sets);
  if (!f)
    return UINT64_MAX;
  uint64_t m = 0;
  for (int w = 0; w < 2; w++) {
    if (write >= 0 && w != write)
      continue;
    m += f->cold[w];
    for (uint32_t d = ways; d < f->depth; d++)
      m += f->hist[w][d];
  }
  return m;
}

uint64_t sw_lru_writebacks(const sw_lru *o, uint32_t sets, uint32_t ways) {
  const sw_lru_family *f = family(o, sets);
  return f && ways <= f->depth ? f->wb[ways] : UINT64_MAX;
}

static void family_free(sw_lru_family *f) {
  free(f->e), free(f->hist[0]), free(f->hist[1]), free(f->wb);
  f->e = NULL;
  f->hist[0] = f->hist[1] = f->wb = NULL;
}

static int stacks_alloc(sw_lru_family *f) {
  f->e = malloc((size_t)f->sets * f->depth * sizeof *f->e);
  f->hist[0] = calloc(f->depth, sizeof *f->hist[0]);
  f->hist[1] = calloc(f->depth, sizeof *f->hist[1]);
  f->wb = calloc((size_t)f->depth + 1, sizeof *f->wb);
  if (!f->e || !f->hist[0] || !f->hist[1] || !f->wb)
    return -1;
  for (size_t i = 0; i < (size_t)f->sets * f->depth; i++)
    f->e[i] = (entry){UINT32_MAX, 0};
  return 0;
}

/* Makes the stacks of `sets` at least `ways` deep (before the run, while
 * they are empty, so resizing them loses nothing). */
int sw_lru_add(sw_lru *o, uint32_t sets, uint32_t ways) {
  for (size_t i = 0; i < o->nf; i++)
    if (o->f[i].sets == sets) {
      if (ways <= o->f[i].depth)
        return 0;
      family_free(&o->f[i]);
      o->f[i].depth = ways;
      return stacks_alloc(&o->f[i]);
    }
  sw_lru_family *f = realloc(o->f, (o->nf + 1) * sizeof *f);
  if (!f)
    return -1;
  o->f = f;
  f += o->nf++;
  *f = (sw_lru_family){.sets = sets, .depth = ways};
  return stacks_alloc(f);
}

void sw_lru_free(sw_lru *o) {
  for (size_t i = 0; i < o->nf; i++)
    family_free(&o->f[i]);
  free(o->f);
}
