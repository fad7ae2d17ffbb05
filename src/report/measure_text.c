/*
 * A measured run's events for people (tally_export_events; the head of
 * `tally run --count`'s table): the module, then per event its counter,
 * plain words, signal and where. From the public API only.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tally/export.h"
#include "tally/run.h"

/* What "own code" and "made from" mean, under a table that has them. */
static void say_meanings(const tally_measure *m, FILE *f) {
  bool own = false, made = false;
  for (uint32_t i = 0; i < tally_measure_events(m); i++) {
    const char *label = tally_measure_event(m, i)->label;
    own |= strstr(label, "'s own code") != NULL;
    made |= strstr(label, " made from ") != NULL;
  }
  if (own)
    fprintf(f, "  F's own code: while the pc is in F's range, not in the functions F calls (their counts are in\n"
               "  F's inclusive counts: tally profile); its cycles are F's self cycles.\n");
  if (made)
    fprintf(f, "  calls (returns) made from F's own code: F's call (return) instructions, not the calls into F\n"
               "  (tally profile's \"calls\").\n");
}

/* The events: number, plain words, signal, where (and a function's range). */
void tally_export_events(const tally_measure *m, FILE *f) {
  uint32_t n = tally_measure_events(m);
  const tally_measure_params *p = tally_measure_params_of(m);
  char a[32];
  fprintf(f, "\ntally: statistics module: %u event%s, %u-bit counters, interval %s cycles\n", n, n == 1 ? "" : "s",
          p->width, tally_format_count(p->interval, a, sizeof a));
  int ws = 6, wl = 6;
  for (uint32_t i = 0; i < n; i++) {
    const tally_event_info *e = tally_measure_event(m, i);
    if ((int)strlen(e->label) > wl)
      wl = (int)strlen(e->label);
    if (e->signal && (int)strlen(e->signal) > ws)
      ws = (int)strlen(e->signal);
  }
  fprintf(f, "  %3s  %-*s  %-*s  %s\n", "#", wl, "counts", ws, "signal", "where");
  for (uint32_t i = 0; i < n; i++) {
    const tally_event_info *e = tally_measure_event(m, i);
    fprintf(f, "  %3u  %-*s  %-*s  %s", e->counter, wl, e->label, ws, e->signal ? e->signal : "?", e->where);
    if (!e->anywhere && strncmp(e->where, "0x", 2) != 0) /* a function: its range too */
      fprintf(f, "  0x%08x-0x%08x", e->lo, e->hi);
    fputc('\n', f);
  }
  say_meanings(m, f);
}

