/*
 * Synthetic statistics-module output: deterministic interval records from
 * a seed, with the totals they must add up to. Values mix zeros, small
 * counts, large counts and saturated counters.
 */
#ifndef TALLY_TESTS_NET_SYNTH_H
#define TALLY_TESTS_NET_SYNTH_H

#include <stdbool.h>
#include <stdint.h>

#include "statmod/statmod.h"

typedef struct synth {
  uint32_t counters, width;
  uint64_t period, state, index;
  const bool *enabled;      /* NULL: all enabled; else counters entries */
  uint64_t *values, *totals;
  uint8_t *saturated;
} synth;

int synth_init(synth *s, uint32_t counters, uint32_t width, uint64_t period, uint64_t seed);
/* The next data interval (values valid until the next call). */
void synth_next(synth *s, statmod_interval *iv);
/* The final record: totals of everything handed out so far. */
void synth_final(synth *s, statmod_interval *iv);
void synth_free(synth *s);

#endif
