/* include/tally/irq.h: scripted interrupt sources, timed UART input and
 * interrupt latencies, on the simulation's board (src/board/irq.c, plic.c). */
#include <stdlib.h>
#include <string.h>

#include "../board/board.h"
#include "../core/cpu.h"
#include "api_internal.h"
#include "tally/irq.h"

int tally_irq_add(tally_sim *sim, const char *spec, tally_error *err) {
  char msg[sizeof err->msg];
  if (board_irq_add(api_sim_cpu(sim), spec ? spec : "", msg, sizeof msg) != 0)
    return api_fail(err, TALLY_E_USAGE, "%s", msg);
  return 0;
}

int tally_uart_rx(tally_sim *sim, const char *path, tally_error *err) {
  char msg[sizeof err->msg];
  if (board_uart_rx_load(api_sim_cpu(sim), path ? path : "", msg, sizeof msg) != 0)
    return api_fail(err, TALLY_E_INPUT, "%s", msg);
  return 0;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

size_t tally_irq_sources(tally_sim *sim, tally_irq_source *out, size_t max) {
  core_cpu *cpu = api_sim_cpu(sim);
  const board *b = cpu->board;
  if (!b->desc.has[BOARD_DEV_PLIC])
    return 0;
  size_t n = 0;
  for (unsigned s = 1; s < PLIC_SOURCES; s++) {
    const irq_stat *st = &b->plic.stat[s];
    if (!st->rises && !st->requests)
      continue;
    if (n < max) {
      tally_irq_source *o = &out[n];
      memset(o, 0, sizeof *o);
      o->source = s;
      o->rises = st->rises;
      o->requests = st->requests;
      o->merged = st->merged;
      o->taken = st->nlat;
      o->polled = st->polled;
      if (st->nlat) {
        uint64_t *sorted = malloc(st->nlat * sizeof *sorted);
        if (sorted) {
          memcpy(sorted, st->lat, st->nlat * sizeof *sorted);
          qsort(sorted, st->nlat, sizeof *sorted, cmp_u64);
          o->lat_min = sorted[0];
          o->lat_median = sorted[(st->nlat - 1) / 2];
          o->lat_max = sorted[st->nlat - 1];
          free(sorted);
        }
      }
      o->waiting = st->waiting;
      o->waiting_since = st->since;
      if (st->waiting)
        plic_why_waiting(cpu, s, o->why, sizeof o->why);
    }
    n++;
  }
  return n;
}

const uint64_t *tally_irq_latencies(tally_sim *sim, unsigned src, size_t *n) {
  const board *b = api_sim_cpu(sim)->board;
  *n = 0;
  if (!b->desc.has[BOARD_DEV_PLIC] || src == 0 || src >= PLIC_SOURCES)
    return NULL;
  *n = b->plic.stat[src].nlat;
  return b->plic.stat[src].lat;
}
