/*
 * LRU stack distances for `tally sweep --one-pass`: one stack per set count,
 * as deep as the most ways asked for, fed with the I-cache lookup stream;
 * a lookup hits in a cache of W ways exactly when it is found above depth
 * W in its set's stack, so one pass gives the misses of every associativity
 * of every set count at once (Mattson et al., 1970).
 */
#include <stdlib.h>
#include <string.h>
#include "sweep_onepass.h"

static void lookup(sw_lru_family *f, uint32_t tag) {
  uint32_t *t = f->tags + (size_t)(tag & (f->sets - 1)) * f->depth, d = 0;
  while (d < f->depth && t[d] != tag)
    d++;
  if (d < f->depth)
    f->hist[d]++;
  else
    f->cold++, d = f->depth - 1;
  memmove(t + 1, t, d * sizeof *t);
  t[0] = tag;
}

void sw_lru_on_miss(void *ctx, uint32_t line_addr) {
  sw_lru *o = ctx;
  o->seen++;
  for (size_t i = 0; i < o->nf; i++)
    lookup(&o->f[i], line_addr >> o->line_shift);
}

uint64_t sw_lru_misses(const sw_lru *o, uint32_t sets, uint32_t ways) {
  for (size_t i = 0; i < o->nf; i++)
    if (o->f[i].sets == sets) {
      uint64_t m = o->f[i].cold;
      for (uint32_t d = ways; d < o->f[i].depth; d++)
        m += o->f[i].hist[d];
      return m;
    }
  return UINT64_MAX;
}

static int stacks_alloc(sw_lru_family *f) {
  f->tags = malloc((size_t)f->sets * f->depth * sizeof *f->tags);
  f->hist = calloc(f->depth, sizeof *f->hist);
  if (!f->tags || !f->hist)
    return -1;
  memset(f->tags, 0xff, (size_t)f->sets * f->depth * sizeof *f->tags);
  return 0;
}

/* Makes the stacks of `sets` at least `ways` deep (before the run, while
 * they are empty, so resizing them loses nothing). */
int sw_lru_add(sw_lru *o, uint32_t sets, uint32_t ways) {
  for (size_t i = 0; i < o->nf; i++)
    if (o->f[i].sets == sets) {
      if (ways <= o->f[i].depth)
        return 0;
      free(o->f[i].tags), free(o->f[i].hist);
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
    free(o->f[i].tags), free(o->f[i].hist);
  free(o->f);
}
