/*
 * Reconfiguration at a given cycle (include/tally/run.h: tally_measure_at):
 * the change's text, resolved to the module's changes (a new ARR before
 * the counter that needs it), scheduled in the statistics module
 * (statmod_schedule), which applies them on an instruction edge.
 */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "measure_internal.h"

/* "I:REST" after "counter=" or "arr=": the index and REST. */
static int index_and_rest(const char *change, const char *p, uint32_t limit, const char *what, uint32_t *index,
                          const char **rest, tally_error *err) {
  const char *colon = strchr(p, ':');
  char num[16];
  size_t n = colon ? (size_t)(colon - p) : 0;
  uint64_t v;
  if (!colon || n == 0 || n >= sizeof num)
    return api_fail(err, TALLY_E_USAGE, "'%s': expected %s=INDEX:...", change, what);
  memcpy(num, p, n);
  num[n] = '\0';
  if (!tally_parse_number(num, &v) || v >= limit)
    return api_fail(err, TALLY_E_USAGE, "'%s': %s %s does not exist (0 to %u)", change, what, num,
                    limit ? limit - 1 : 0);
  *index = (uint32_t)v;
  *rest = colon + 1;
  return 0;
}

static int schedule(tally_measure *m, uint64_t cycle, const char *change, const statmod_change *c, int *k,
                    tally_error *err) {
  char e[256];
  int r = statmod_schedule(m->sm, cycle, c, e, sizeof e);
  if (r < 0)
    return api_fail(err, TALLY_E_USAGE, "'%s': %s", change, e);
  *k = r;
  return 0;
}

/* WHERE: a function (or "inst", "program") or 0xLO-0xHI, as in an event. */
static int parse_where(tally_measure *m, const char *change, const char *where, tally_event *ev, tally_error *err) {
  char spec[300];
  if (strchr(where, '%'))
    return api_fail(err, TALLY_E_USAGE, "'%s': an ARR holds an address range; a task goes on a counter "
                    "(counter=I:SIGNAL@WHERE%%TASK)", change);
  if ((size_t)snprintf(spec, sizeof spec, "cycle@%s", where) >= sizeof spec)
    return api_fail(err, TALLY_E_USAGE, "'%s': the range is too long", change);
  tally_error pe;
  if (tally_event_parse(spec, ev, &pe) != 0)
    return api_fail(err, TALLY_E_USAGE, "'%s': '%s' is not a function or 0xLO-0xHI", change, where);
  ev->func = ev->func ? where + (ev->func - (spec + 6)) : NULL;
  if (ev->func && measure_where(m, change, ev->func, &ev->lo, &ev->hi, err) != 0)
    return -1;
  return 0;
}

static int at_counter(tally_measure *m, uint64_t cycle, const char *change, const char *p, int *k,
                      tally_error *err) {
  uint32_t i;
  const char *spec;
  if (index_and_rest(change, p, m->n, "event", &i, &spec, err) != 0)
    return -1;
  statmod_change c = {.kind = STATMOD_CHANGE_COUNTER, .index = m->ev[i].counter};
  if (strcmp(spec, "off") == 0) {
    c.cfg = statmod_counter(m->sm, c.index);
    c.cfg.enabled = false;
    return schedule(m, cycle, change, &c, k, err);
  }
  tally_event ev;
  tally_error pe;
  if (tally_event_parse(spec, &ev, &pe) != 0)
    return api_fail(err, TALLY_E_USAGE, "'%s': %s", change, pe.msg);
  c.cfg = (statmod_counter_cfg){.signal = (uint16_t)ev.signal, .arr = STATMOD_ANYWHERE, .enabled = true};
  if (!ev.anywhere) {
    if (ev.func && measure_where(m, change, ev.func, &ev.lo, &ev.hi, err) != 0)
      return -1;
    uint32_t a;
    bool fresh;
    if (measure_take_arr(m, &ev, false, &a, &fresh, err) != 0)
      return -1;
    if (fresh) { /* the new ARR is set on the same edge, just before */
      statmod_change ac = {.kind = STATMOD_CHANGE_ARR, .index = a, .arr = {ev.lo, ev.hi}};
      if (schedule(m, cycle, change, &ac, k, err) != 0)
        return -1;
    }
    c.cfg.arr = (uint16_t)a;
  }
  if (ev.task && measure_task_reg(m, change, ev.task, &c.cfg.task, err) != 0)
    return -1;
  return schedule(m, cycle, change, &c, k, err);
}

static int at_arr(tally_measure *m, uint64_t cycle, const char *change, const char *p, int *k, tally_error *err) {
  uint32_t j;
  const char *where;
  if (index_and_rest(change, p, m->p.arrs, "ARR", &j, &where, err) != 0)
    return -1;
  tally_event ev;
  if (parse_where(m, change, where, &ev, err) != 0)
    return -1;
  statmod_change c = {.kind = STATMOD_CHANGE_ARR, .index = j, .arr = {ev.lo, ev.hi}};
  return schedule(m, cycle, change, &c, k, err);
}

static int remember(tally_measure *m, int k, tally_error *err) {
  measure_at *a = &m->at;
  if (a->n == a->cap) {
    uint32_t cap = a->cap ? 2 * a->cap : 8;
    uint32_t *v = realloc(a->last, cap * sizeof *v);
    if (!v)
      return api_error(err, "out of memory");
    a->last = v;
    a->cap = cap;
  }
  a->last[a->n] = (uint32_t)k;
  return (int)a->n++;
}

int tally_measure_at(tally_measure *m, uint64_t cycle, const char *change, tally_error *err) {
  if (m->started)
    return api_fail(err, TALLY_E_USAGE, "'%s': the run has started; changes are scheduled before", change);
  int k = -1, rc;
  if (strncmp(change, "interval=", 9) == 0) {
    uint64_t v;
    if (!tally_parse_number(change + 9, &v) || v < 1 || v > STATMOD_MAX_PERIOD)
      return api_fail(err, TALLY_E_USAGE, "'%s': the interval is 1 to %llu cycles", change,
                      (unsigned long long)STATMOD_MAX_PERIOD);
    rc = schedule(m, cycle, change, &(statmod_change){.kind = STATMOD_CHANGE_PERIOD, .period = v}, &k, err);
  } else if (strncmp(change, "counter=", 8) == 0) {
    rc = at_counter(m, cycle, change, change + 8, &k, err);
  } else if (strncmp(change, "arr=", 4) == 0) {
    rc = at_arr(m, cycle, change, change + 4, &k, err);
  } else {
    return api_fail(err, TALLY_E_USAGE, "'%s': expected interval=N, counter=I:SPEC, counter=I:off or arr=J:WHERE",
                    change);
  }
  return rc != 0 ? -1 : remember(m, k, err);
}

uint64_t tally_measure_at_applied(const tally_measure *m, uint32_t k) {
  return k < m->at.n ? statmod_schedule_applied(m->sm, m->at.last[k]) : UINT64_MAX;
}
