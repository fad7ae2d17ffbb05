/* Deterministic intervals for the network tests (synth.h). */
#include "synth.h"

#include <stdlib.h>

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int synth_init(synth *s, uint32_t counters, uint32_t width, uint64_t period, uint64_t seed) {
  *s = (synth){.counters = counters, .width = width, .period = period, .state = seed};
  s->values = calloc(counters, sizeof *s->values);
  s->totals = calloc(counters, sizeof *s->totals);
  s->saturated = calloc(counters, 1);
  return s->values && s->totals && s->saturated ? 0 : -1;
}

void synth_next(synth *s, statmod_interval *iv) {
  uint64_t max = s->width >= 64 ? UINT64_MAX : (UINT64_C(1) << s->width) - 1;
  /* Saturating only where the totals stay far from 2^64 (SQLite sums them). */
  bool may_saturate = s->width <= 40;
  uint64_t big = max < (UINT64_C(1) << 40) ? max : (UINT64_C(1) << 40) - 1;
  for (uint32_t i = 0; i < s->counters; i++) {
    uint64_t x = splitmix(&s->state);
    uint64_t v;
    switch (x & 15) {
    case 0: v = 0; break;
    case 1: v = may_saturate ? max : big; break;
    case 2: case 3: v = (x >> 8) % (big + 1); break;
    default: v = (x >> 8) % (big < 1000 ? big + 1 : 1000); break;
    }
    if (s->enabled && !s->enabled[i])
      v = 0;
    s->values[i] = v;
    s->saturated[i] = v == max;
    s->totals[i] += v;
  }
  *iv = (statmod_interval){.index = s->index, .cycle_begin = s->index * s->period,
                           .cycle_end = (s->index + 1) * s->period, .n = s->counters, .values = s->values,
                           .saturated = s->saturated};
  s->index++;
}

void synth_final(synth *s, statmod_interval *iv) {
  *iv = (statmod_interval){.index = s->index, .cycle_begin = 0, .cycle_end = s->index * s->period,
                           .n = s->counters, .values = s->totals, .final = true, .intervals = s->index};
}

void synth_free(synth *s) {
  free(s->values);
  free(s->totals);
  free(s->saturated);
}
