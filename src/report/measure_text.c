/*
 * A measured run's events for people (tally_export_events; the head of
 * `tally run --count`'s table): the module, then per event its counter,
 * plain words, signal and where. From the public API only.
 */
#include <stdio.h>
#include <string.h>

#include "tally/export.h"
#include "tally/run.h"

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
}

