/* src/sweep: `tally sweep --one-pass`'s parts (sweep_onepass.c, sweep_model.c, sweep_lru.c). */
#ifndef TALLY_SWEEP_ONEPASS_H
#define TALLY_SWEEP_ONEPASS_H
#include "sweep_int.h"

/* One cache of a point's core model, as the one pass needs it. */
typedef struct sw_cache {
  int on, wb;                /* enabled; write-back (the D-cache) */
  uint32_t size, ways, line;
  char replacement[16];
} sw_cache;

/* What the one pass needs of a point's core model (tally_core_describe). */
typedef struct sw_model {
  sw_cache i, d;
  int sdram;
  uint32_t bus_bytes, write_buffer;
  double freq_mhz, voltage, nominal_voltage, read_first_ns, read_beat_ns, write_ns, row_miss_ns;
  double core_pj, static_mw, mem_read_pj, mem_write_pj;
  char *rest;                /* the whole model but the caches' sizes and ways, to compare */
} sw_model;

/* Reads point p's core model (its core and overrides) into m; m->rest is
 * malloc'd. -1 with err naming the point. */
int sw_model_of(const sw_point *p, sw_model *m, tally_error *err);
/* Why the n points of models m (one machine: they differ in the caches'
 * sizes and ways only) are outside the exact family, when the I-cache's
 * (vary_i) or the D-cache's (vary_d) size or ways differ among them; NULL
 * when they are in. */
const char *sw_models_outside(const sw_model *m, size_t n, int vary_i, int vary_d);
/* The bytes of m's enabled caches. */
uint64_t sw_model_cache_bytes(const sw_model *m);
/* Bus beats of a line fill of cache c. */
uint32_t sw_model_beats(const sw_model *m, const sw_cache *c);
/* Nanoseconds as core cycles at mhz, rounded as the timing model rounds. */
uint32_t sw_ns_cycles(double ns, double mhz);

/* every associativity of one set count */
typedef struct sw_lru_family {
  uint32_t sets, depth;      /* depth: the most ways asked for */
  struct sw_lru_entry {
    uint32_t tag;            /* UINT32_MAX: empty */
    uint32_t dirty;          /* the fewest ways of a cache in which the line is dirty; 0: clean in all */
  } *e;                      /* sets x depth, most recent first */
  uint64_t *hist[2];         /* reads [0] and writes [1] found at each depth */
  uint64_t cold[2];          /* ... not found in the stack */
  uint64_t *wb;              /* [w]: dirty lines pushed out of a cache of w ways (depth + 1 entries) */
} sw_lru_family;

/* the stacks of every set count a sweep asks for, of one cache */
typedef struct sw_lru {
  sw_lru_family *f;
  size_t nf;
  uint32_t line_shift;
  int no_allocate;           /* a write-through D-cache: stores look, but enter no stack */
  uint64_t seen;             /* accesses the one-line reference reported */
  uint32_t last;             /* the D-cache line filled last (its dirtiness comes with the next fill) */
  int have_last;
  struct sw_lru *next;       /* the D-cache's stacks of another line size, fed by the same callback */
} sw_lru;

/* Makes the stacks of `sets` at least `ways` deep (before the run). */
int sw_lru_add(sw_lru *o, uint32_t sets, uint32_t ways);
/* tally_on_icache_miss's callback: ctx is the I-cache's sw_lru. */
void sw_lru_on_miss(void *ctx, uint32_t line_addr);
/* tally_on_dcache_miss's callback: ctx is the D-cache's sw_lru, the
 * first of a chain (next) of line sizes no shorter than the reference's. */
void sw_lru_on_dcache(void *ctx, uint32_t line_addr, uint32_t flags);
/* Misses of a cache of `sets` sets and `ways` ways (sw_lru_add'ed), of
 * reads (write 0), writes (1) or both (-1); and its dirty write-backs. */
uint64_t sw_lru_misses(const sw_lru *o, uint32_t sets, uint32_t ways, int write);
uint64_t sw_lru_writebacks(const sw_lru *o, uint32_t sets, uint32_t ways);
void sw_lru_free(sw_lru *o);
#endif
