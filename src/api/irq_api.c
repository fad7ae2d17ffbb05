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

const uint64_t *tally_irq_rises(tally_sim *sim, unsigned src, size_t *n) {
  const board *b = api_sim_cpu(sim)->board;
  *n = 0;
  if (!b->desc.has[BOARD_DEV_PLIC] || src == 0 || src >= PLIC_SOURCES)
    return NULL;
  *n = b->plic.stat[src].nlat;
  return b->plic.stat[src].rise;
}

/* The task the timeline has running in cycle c: the last change at or
 * before it; -1 past the end of a log that filled up. A rise at cycle C is
 * the task's that ran in cycle C - 1: an interrupt taken at once, at C,
 * is a change at C already. */
static int task_at(const tally_task_change *ch, size_t n, uint64_t end, int cut, uint64_t c) {
  if (n == 0 || c < ch[0].cycle || (cut && c >= end))
    return -1;
  size_t lo = 0, hi = n; /* ch[lo].cycle <= c < ch[hi].cycle */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (ch[mid].cycle <= c)
      lo = mid;
    else
      hi = mid;
  }
  return ch[lo].task;
}

size_t tally_irq_tasks(tally_sim *sim, const tally_profile *p, tally_irq_task *out, size_t max) {
  const board *b = api_sim_cpu(sim)->board;
  const tally_task_profile *tp;
  size_t ntasks = p ? tally_profile_tasks(p, &tp) : 0;
  if (!b->desc.has[BOARD_DEV_PLIC] || ntasks == 0)
    return 0;
  const tally_task_change *ch;
  uint64_t end;
  int cut;
  size_t nch = tally_profile_task_changes(p, &ch, &end, &cut);
  size_t n = 0;
  uint64_t *lat = NULL;
  int *who = NULL;
  for (unsigned s = 1; s < PLIC_SOURCES; s++) {
    const irq_stat *st = &b->plic.stat[s];
    if (!st->nlat)
      continue;
    uint64_t *l2 = realloc(lat, st->nlat * sizeof *l2);
    int *w2 = l2 ? realloc(who, st->nlat * sizeof *w2) : NULL;
    if (l2)
      lat = l2;
    if (!w2)
      break; /* out of memory: the sources so far */
    who = w2;
    for (size_t i = 0; i < st->nlat; i++)
      who[i] = task_at(ch, nch, end, cut, st->rise[i] ? st->rise[i] - 1 : 0);
    /* tasks by index, the unknown (-1) last */
    for (long t = 0; t <= (long)ntasks; t++) {
      int task = t == (long)ntasks ? -1 : (int)t;
      size_t k = 0;
      for (size_t i = 0; i < st->nlat; i++)
        if (who[i] == task)
          lat[k++] = st->lat[i];
      if (!k)
        continue;
      if (n < max) {
        qsort(lat, k, sizeof *lat, cmp_u64);
        out[n] = (tally_irq_task){.source = s, .task = task, .taken = k, .lat_min = lat[0],
                                  .lat_median = lat[(k - 1) / 2], .lat_max = lat[k - 1]};
      }
      n++;
    }
  }
  free(lat);
  free(who);
  return n;
}
