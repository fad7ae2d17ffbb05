/* src/sweep: `tally sweep --one-pass`'s parts (sweep_onepass.c, sweep_model.c, sweep_lru.c). */
#ifndef TALLY_SWEEP_ONEPASS_H
#define TALLY_SWEEP_ONEPASS_H
#include "sweep_int.h"

/* What the one pass needs of a point's core model (tally_core_describe). */
typedef struct sw_model {
  int icache_on, dcache_on, dcache_wb, sdram;
  uint32_t size, ways, line, bus_bytes, write_buffer;
  char replacement[16];
  double freq_mhz, voltage, nominal_voltage, read_first_ns, read_beat_ns, row_miss_ns;
  double core_pj, static_mw, mem_read_pj;
  char *rest;                /* the whole model but the I-cache's size and ways, to compare */
} sw_model;

/* Reads point p's core model (its core and overrides) into m; m->rest is
 * malloc'd. -1 with err naming the point. */
int sw_model_of(const sw_point *p, sw_model *m, tally_error *err);
/* Why a point of model m is outside the exact family; NULL when it is in. */
const char *sw_model_outside(const sw_model *m);
/* Bus beats of an I-cache line fill. */
uint32_t sw_model_beats(const sw_model *m);
/* Nanoseconds as core cycles at mhz, rounded as the timing model rounds. */
uint32_t sw_ns_cycles(double ns, double mhz);

/* every associativity of one set count */
typedef struct sw_lru_family {
  uint32_t sets, depth;      /* depth: the most ways asked for */
  uint32_t *tags;            /* sets x depth, most recent first; UINT32_MAX empty */
  uint64_t *hist;            /* lookups found at each depth */
  uint64_t cold;             /* lookups not found in the stack */
} sw_lru_family;

/* the stacks of every set count a sweep asks for */
typedef struct sw_lru {
  sw_lru_family *f;
  size_t nf;
  uint32_t line_shift;
  uint64_t seen;             /* misses of the one-line reference */
} sw_lru;

/* Makes the stacks of `sets` at least `ways` deep (before the run). */
int sw_lru_add(sw_lru *o, uint32_t sets, uint32_t ways);
/* tally_on_icache_miss's callback: ctx is the onepass. */
void sw_lru_on_miss(void *ctx, uint32_t line_addr);
/* Misses of a cache of `sets` sets and `ways` ways (sw_lru_add'ed). */
uint64_t sw_lru_misses(const sw_lru *o, uint32_t sets, uint32_t ways);
void sw_lru_free(sw_lru *o);
#endif
