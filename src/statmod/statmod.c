/*
 * The statistics module (statmod.h): parameters, configuration, run-time
 * control, the dispatch timer and delivery to the sinks. Reading the
 * counters is in statmod_count.c; how, in statmod_impl.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "statmod_impl.h"
#include "statmod_run.h"

int statmod_fail(char *err, size_t errlen, const char *fmt, ...) {
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* ---- parameters and lifetime ---- */

void statmod_params_default(statmod_params *p) {
  *p = (statmod_params){STATMOD_DEFAULT_COUNTERS, STATMOD_DEFAULT_WIDTH, STATMOD_DEFAULT_ARRS};
}

int statmod_params_check(const statmod_params *p, char *err, size_t errlen) {
  if (p->counters < 1 || p->counters > STATMOD_MAX_COUNTERS)
    return statmod_fail(err, errlen, "the module can have 1 to %u counters, not %u", STATMOD_MAX_COUNTERS,
                        p->counters);
  if (p->width < 1 || p->width > 64)
    return statmod_fail(err, errlen, "a counter is 1 to 64 bits wide, not %u", p->width);
  if (p->arrs > STATMOD_MAX_ARRS)
    return statmod_fail(err, errlen, "the module can have 0 to %u address range registers, not %u",
                        STATMOD_MAX_ARRS, p->arrs);
  return 0;
}

statmod *statmod_new(const statmod_params *p, char *err, size_t errlen) {
  if (statmod_params_check(p, err, errlen) != 0)
    return NULL;
  statmod *m = calloc(1, sizeof *m);
  if (!m) {
    statmod_fail(err, errlen, "out of memory for the statistics module");
    return NULL;
  }
  size_t n = p->counters;
  m->p = *p;
  m->max = p->width == 64 ? UINT64_MAX : (1ull << p->width) - 1;
  m->arrs = calloc(p->arrs ? p->arrs : 1, sizeof *m->arrs);
  m->cfg = calloc(n, sizeof *m->cfg);
  m->carry = calloc(n, sizeof *m->carry);
  m->base = calloc(n, sizeof *m->base);
  m->cum = calloc(n, sizeof *m->cum);
  m->val = calloc(n, sizeof *m->val);
  m->total = calloc(n, sizeof *m->total);
  m->sat = calloc(n, 1);
  m->sat_any = calloc(n, 1);
  m->rlo = calloc(n, sizeof *m->rlo);
  m->rhi = calloc(n, sizeof *m->rhi);
  m->tacc = calloc(n, sizeof *m->tacc);
  m->tstart = calloc(n, sizeof *m->tstart);
  m->raw = calloc(n, sizeof *m->raw);
  m->tactive = calloc(n, 1);
  if (!m->arrs || !m->cfg || !m->carry || !m->base || !m->cum || !m->val || !m->total || !m->sat || !m->sat_any ||
      !m->rlo || !m->rhi || !m->tacc || !m->tstart || !m->raw || !m->tactive) {
    statmod_free(m);
    statmod_fail(err, errlen, "out of memory for %zu counters", n);
    return NULL;
  }
  for (size_t i = 0; i < n; i++)
    m->cfg[i] = (statmod_counter_cfg){.signal = SIG_CYCLE, .arr = STATMOD_ANYWHERE, .enabled = false};
  m->state = STATMOD_IDLE;
  m->next = UINT64_MAX;
  return m;
}

void statmod_free(statmod *m) {
  if (!m)
    return;
  statmod_detach(m);
  free(m->arrs);
  free(m->cfg);
  free(m->carry);
  free(m->base);
  free(m->cum);
  free(m->val);
  free(m->total);
  free(m->sat);
  free(m->sat_any);
  free(m->rlo);
  free(m->rhi);
  free(m->tacc);
  free(m->tstart);
  free(m->raw);
  free(m->tactive);
  free(m->pending);
  free(m->sched);
  free(m);
}

const statmod_params *statmod_params_of(const statmod *m) { return &m->p; }

int statmod_add_sink(statmod *m, statmod_sink fn, void *ctx, char *err, size_t errlen) {
  if (!fn)
    return statmod_fail(err, errlen, "no sink function given");
  if (m->nsinks == STATMOD_MAX_SINKS)
    return statmod_fail(err, errlen, "the module already has %d sinks", STATMOD_MAX_SINKS);
  m->sinks[m->nsinks++] = (statmod_sink_entry){fn, ctx};
  return 0;
}

void statmod_remove_sink(statmod *m, statmod_sink fn, void *ctx) {
  for (uint32_t i = 0; i < m->nsinks; i++) {
    if (m->sinks[i].fn == fn && m->sinks[i].ctx == ctx) {
      memmove(&m->sinks[i], &m->sinks[i + 1], (m->nsinks - i - 1) * sizeof m->sinks[0]);
      m->nsinks--;
      return;
    }
  }
}

int statmod_attach(statmod *m, core_cpu *cpu, char *err, size_t errlen) {
  if (!cpu->tm)
    return statmod_fail(err, errlen, "the statistics module needs a core model (cycles are counted on one)");
  if (cpu->tm->watch && cpu->tm->watch != m)
    return statmod_fail(err, errlen, "another statistics module is attached to this simulation");
  if (m->cpu && m->cpu != cpu)
    return statmod_fail(err, errlen, "the statistics module is attached to another simulation");
  m->cpu = cpu;
  cpu->tm->watch_ops = &statmod_watch_ops;
  cpu->tm->watch = m;
  /* each dispatch folds the blocks entered since the last (statmod_settle),
   * not the whole block cache */
  core_track_blocks(cpu);
  return 0;
}

void statmod_detach(statmod *m) {
  if (!m->cpu)
    return;
  statmod_uninstall_regions(m);
  if (m->state == STATMOD_RUNNING) { /* abandoned: nothing is delivered */
    m->state = STATMOD_STOPPED;
    m->next = UINT64_MAX;
  }
  if (m->cpu->tm && m->cpu->tm->watch == m) {
    m->cpu->tm->watch = NULL;
    m->cpu->tm->watch_ops = NULL;
  }
  m->cpu = NULL;
}

/* ---- control made from inside a sink: applied at the next edge ---- */

static int queue(statmod *m, statmod_pending op, char *err, size_t errlen) {
  if (m->npending == m->pending_cap) {
    uint32_t cap = m->pending_cap ? 2 * m->pending_cap : 16;
    statmod_pending *p = realloc(m->pending, cap * sizeof *p);
    if (!p)
      return statmod_fail(err, errlen, "out of memory for a control request");
    m->pending = p;
    m->pending_cap = cap;
  }
  m->pending[m->npending++] = op;
  return 0;
}

int statmod_apply(statmod *m, const statmod_change *c, char *err, size_t errlen) {
  switch (c->kind) {
  case STATMOD_CHANGE_PERIOD: return statmod_set_period(m, c->period, err, errlen);
  case STATMOD_CHANGE_ARR: return statmod_set_arr(m, c->index, c->arr.lo, c->arr.hi, err, errlen);
  case STATMOD_CHANGE_COUNTER: return statmod_set_counter(m, c->index, &c->cfg, err, errlen);
  case STATMOD_CHANGE_START: return statmod_start(m, err, errlen);
  case STATMOD_CHANGE_STOP: return statmod_stop(m, err, errlen);
  }
  return statmod_fail(err, errlen, "unknown configuration change %d", (int)c->kind);
}

static void apply_pending(statmod *m) {
  /* each applied op may deliver (stop) and so queue more: take them in order */
  for (uint32_t i = 0; i < m->npending; i++) {
    statmod_pending op = m->pending[i];
    statmod_apply(m, &op, NULL, 0);
  }
  m->npending = 0;
}

/* Tells the observer (the cycle trace) of a change that took effect now. */
static void changed(statmod *m, const statmod_change *c) {
  if (m->on_change && m->state == STATMOD_RUNNING && m->cpu)
    m->on_change(m->on_change_ctx, m->cpu->tm->cycle, c);
}

void statmod_on_change(statmod *m, statmod_change_fn fn, void *ctx) {
  m->on_change = fn;
  m->on_change_ctx = ctx;
}

/* ---- scheduled changes ---- */

/* Checks a change as the call would, without making it. */
static int check_change(const statmod *m, const statmod_change *c, char *err, size_t errlen) {
  switch (c->kind) {
  case STATMOD_CHANGE_PERIOD:
    if (c->period < 1 || c->period > STATMOD_MAX_PERIOD)
      return statmod_fail(err, errlen, "the dispatch period is 1 to 4,294,967,295 cycles (a 32-bit timer), not %llu",
                          (unsigned long long)c->period);
    return 0;
  case STATMOD_CHANGE_ARR:
    if (c->index >= m->p.arrs)
      return statmod_fail(err, errlen, "ARR %u does not exist: the module has %u address range registers", c->index,
                          m->p.arrs);
    if (c->arr.lo > c->arr.hi)
      return statmod_fail(err, errlen, "ARR %u: the range 0x%08x-0x%08x ends before it starts", c->index, c->arr.lo,
                          c->arr.hi);
    return 0;
  case STATMOD_CHANGE_COUNTER:
    if (c->index >= m->p.counters)
      return statmod_fail(err, errlen, "counter %u does not exist: the module has %u counters (0-%u)", c->index,
                          m->p.counters, m->p.counters - 1);
    if (c->cfg.signal >= SIG_COUNT)
      return statmod_fail(err, errlen, "counter %u: unknown signal %u", c->index, c->cfg.signal);
    if (c->cfg.arr != STATMOD_ANYWHERE && c->cfg.arr >= m->p.arrs)
      return statmod_fail(err, errlen, "counter %u: ARR %u does not exist: the module has %u", c->index, c->cfg.arr,
                          m->p.arrs);
    if (c->cfg.task > STATMOD_TASK_REGS)
      return statmod_fail(err, errlen, "counter %u: task register %u does not exist: the module has %u (1-%u)",
                          c->index, c->cfg.task, STATMOD_TASK_REGS, STATMOD_TASK_REGS);
    return 0;
  case STATMOD_CHANGE_STOP:
    return 0;
  default:
    return statmod_fail(err, errlen, "only the period, ARRs, counters and STOP can be scheduled");
  }
}

int statmod_schedule(statmod *m, uint64_t at, const statmod_change *c, char *err, size_t errlen) {
  if (m->state != STATMOD_IDLE)
    return statmod_fail(err, errlen, "changes are scheduled before the run starts");
  if (check_change(m, c, err, errlen) != 0)
    return -1;
  if (m->nsched == m->sched_cap) {
    uint32_t cap = m->sched_cap ? 2 * m->sched_cap : 8;
    statmod_scheduled *v = realloc(m->sched, cap * sizeof *v);
    if (!v)
      return statmod_fail(err, errlen, "out of memory for a scheduled change");
    m->sched = v;
    m->sched_cap = cap;
  }
  uint32_t i = m->nsched; /* after every one at or before `at`: equal cycles keep their order */
  while (i > 0 && m->sched[i - 1].at > at) {
    m->sched[i] = m->sched[i - 1];
    i--;
  }
  m->sched[i] = (statmod_scheduled){.at = at, .applied = UINT64_MAX, .seq = m->nsched, .c = *c};
  return (int)m->nsched++;
}

uint64_t statmod_schedule_applied(const statmod *m, uint32_t k) {
  for (uint32_t i = 0; i < m->nsched; i++)
    if (m->sched[i].seq == k)
      return m->sched[i].applied;
  return UINT64_MAX;
}

static uint64_t next_scheduled(const statmod *m) {
  return m->next_sched < m->nsched ? m->sched[m->next_sched].at : UINT64_MAX;
}

/* The scheduled changes due by now, on this instruction edge. */
static void apply_scheduled(statmod *m, uint64_t now) {
  if (m->applying)
    return;
  m->applying = true;
  while (m->state == STATMOD_RUNNING && m->next_sched < m->nsched && m->sched[m->next_sched].at <= now) {
    statmod_scheduled *s = &m->sched[m->next_sched++];
    if (statmod_apply(m, &s->c, NULL, 0) == 0)
      s->applied = now;
  }
  m->applying = false;
}

/* ---- delivery ---- */

static void deliver(statmod *m, const statmod_interval *iv) {
  for (uint32_t i = 0; i < m->nsinks; i++)
    m->sinks[i].fn(m->sinks[i].ctx, iv);
}

/* Ends the current interval at `end` with the counts in m->cum (cum at
 * the dispatch cycle, or at the end of the program), delivers it and
 * starts the next one: counters reset, the timer reloaded. */
static void end_interval(statmod *m, uint64_t end) {
  for (uint32_t i = 0; i < m->p.counters; i++) {
    uint64_t v = m->carry[i];
    if (m->cfg[i].enabled) {
      v += m->cum[i] > m->base[i] ? m->cum[i] - m->base[i] : 0;
      m->base[i] = m->cum[i];
    }
    m->carry[i] = 0;
    m->sat[i] = v >= m->max; /* the counter reached its ceiling and stopped there */
    m->val[i] = v < m->max ? v : m->max;
    m->total[i] = m->total[i] + m->val[i] >= m->total[i] ? m->total[i] + m->val[i] : UINT64_MAX;
    m->sat_any[i] |= m->sat[i];
  }
  statmod_interval iv = {
    .index = m->index, .cycle_begin = m->begin, .cycle_end = end, .n = m->p.counters,
    .values = m->val, .saturated = m->sat, .final = false,
  };
  m->index++;
  m->begin = end;
  m->next = end + m->period;
  deliver(m, &iv);
}

uint64_t statmod_horizon(const statmod *m) {
  if (m->state != STATMOD_RUNNING)
    return UINT64_MAX;
  uint64_t s = next_scheduled(m);
  return s < m->next ? s : m->next;
}

static uint64_t watch_horizon(const void *w) { return statmod_horizon(w); }
static void watch_reached(void *w, const timing_unit *units, uint32_t n) { statmod_reached(w, units, n); }
static void watch_detach(void *w) { statmod_detach(w); }
const timing_watch_ops statmod_watch_ops = {.horizon = watch_horizon, .reached = watch_reached,
                                            .detach = watch_detach};

void statmod_reached(statmod *m, const statmod_unit *u, uint32_t n) {
  if (m->state != STATMOD_RUNNING || !m->cpu || m->in_dispatch)
    return;
  uint64_t now = m->cpu->tm->cycle;
  if (m->next > now) {
    apply_scheduled(m, now);
    return;
  }
  statmod_settle(m);
  m->in_dispatch = true;
  /* A wfi sleep may hold 2^62 cycles of intervals: a stop the host asks
   * for ends the dispatches here (statmod_stop then ends the run at the
   * last one dispatched). */
  while (m->state == STATMOD_RUNNING && m->next <= now && !core_poll_stop_request(m->cpu)) {
    uint64_t c = m->next;
    bool known = c == now || (n && u[0].start <= c);
    if (!known)
      m->inexact++; /* ran past the horizon unseen: cannot happen (statmod_run.h) */
    statmod_cum(m, known ? c : now, u, known ? n : 0);
    end_interval(m, c);
  }
  m->in_dispatch = false;
  apply_pending(m);
  apply_scheduled(m, now);
}

/* ---- configuration ---- */

static bool running(const statmod *m) { return m->state == STATMOD_RUNNING && m->cpu; }

/* Before a change while running: what each counter has counted so far in
 * this interval is kept (a counter's register keeps its value when its
 * selection changes). */
static void hold_counts(statmod *m) {
  statmod_settle(m);
  statmod_cum(m, m->cpu->tm->cycle, NULL, 0);
  for (uint32_t i = 0; i < m->p.counters; i++)
    if (m->cfg[i].enabled && m->cum[i] > m->base[i])
      m->carry[i] += m->cum[i] - m->base[i];
}

/* After it: counting goes on from here under the new configuration. */
static void resume_counts(statmod *m) {
  statmod_settle(m);
  statmod_cum(m, m->cpu->tm->cycle, NULL, 0);
  memcpy(m->base, m->cum, m->p.counters * sizeof *m->base);
}

int statmod_set_period(statmod *m, uint64_t cycles, char *err, size_t errlen) {
  if (cycles < 1 || cycles > STATMOD_MAX_PERIOD)
    return statmod_fail(err, errlen,
                        "the dispatch period is 1 to 4,294,967,295 cycles (a 32-bit timer), not %llu",
                        (unsigned long long)cycles);
  if (m->in_dispatch)
    return queue(m, (statmod_pending){.kind = STATMOD_CHANGE_PERIOD, .period = cycles}, err, errlen);
  m->period = cycles; /* while running: from the next reload of the timer */
  changed(m, &(statmod_change){.kind = STATMOD_CHANGE_PERIOD, .period = cycles});
  return 0;
}

static int check_arr_index(const statmod *m, uint32_t index, char *err, size_t errlen) {
  if (index >= m->p.arrs)
    return m->p.arrs ? statmod_fail(err, errlen,
                                    "ARR %u does not exist: the module has %u address range registers (0-%u)",
                                    index, m->p.arrs, m->p.arrs - 1)
                     : statmod_fail(err, errlen, "ARR %u does not exist: the module has no address range registers",
                                    index);
  return 0;
}

int statmod_set_arr(statmod *m, uint32_t index, uint32_t lo, uint32_t hi, char *err, size_t errlen) {
  if (check_arr_index(m, index, err, errlen) != 0)
    return -1;
  if (lo > hi)
    return statmod_fail(err, errlen, "ARR %u: the range 0x%08x-0x%08x ends before it starts", index, lo, hi);
  if (m->in_dispatch)
    return queue(m, (statmod_pending){.kind = STATMOD_CHANGE_ARR, .index = index, .arr = {lo, hi}}, err, errlen);
  bool used = false;
  for (uint32_t i = 0; i < m->p.counters && !used; i++)
    used = statmod_counts_range(m, i) && m->cfg[i].arr == index;
  statmod_change ch = {.kind = STATMOD_CHANGE_ARR, .index = index, .arr = {lo, hi}};
  if (!running(m) || !used) {
    m->arrs[index] = (statmod_arr){lo, hi};
    changed(m, &ch);
    return 0;
  }
  statmod_arr old = m->arrs[index];
  hold_counts(m);
  m->arrs[index] = (statmod_arr){lo, hi};
  if (statmod_install_regions(m, err, errlen) != 0) {
    m->arrs[index] = old;
    statmod_install_regions(m, NULL, 0);
    resume_counts(m);
    return -1;
  }
  resume_counts(m);
  changed(m, &ch);
  return 0;
}

int statmod_set_counter(statmod *m, uint32_t index, const statmod_counter_cfg *c, char *err, size_t errlen) {
  if (index >= m->p.counters)
    return statmod_fail(err, errlen, "counter %u does not exist: the module has %u counters (0-%u)", index,
                        m->p.counters, m->p.counters - 1);
  if (c->signal >= SIG_COUNT)
    return statmod_fail(err, errlen, "counter %u: unknown signal %u (signals are numbered 0-%d: tally signals)",
                        index, c->signal, SIG_COUNT - 1);
  if (c->arr != STATMOD_ANYWHERE && check_arr_index(m, c->arr, err, errlen) != 0)
    return -1;
  if (c->task > STATMOD_TASK_REGS)
    return statmod_fail(err, errlen, "counter %u: task register %u does not exist: the module has %u (1-%u)", index,
                        c->task, STATMOD_TASK_REGS, STATMOD_TASK_REGS);
  if (m->in_dispatch)
    return queue(m, (statmod_pending){.kind = STATMOD_CHANGE_COUNTER, .index = index, .cfg = *c}, err, errlen);
  statmod_change ch = {.kind = STATMOD_CHANGE_COUNTER, .index = index, .cfg = *c};
  if (!running(m)) {
    m->cfg[index] = *c;
    return 0;
  }
  statmod_counter_cfg old = m->cfg[index];
  hold_counts(m);
  m->cfg[index] = *c;
  if (statmod_install_regions(m, err, errlen) != 0) {
    m->cfg[index] = old;
    statmod_install_regions(m, NULL, 0);
    resume_counts(m);
    return -1;
  }
  statmod_settle(m);
  statmod_task_begin(m, index, index + 1);
  resume_counts(m);
  changed(m, &ch);
  return 0;
}

statmod_counter_cfg statmod_counter(const statmod *m, uint32_t index) {
  return index < m->p.counters ? m->cfg[index] : (statmod_counter_cfg){0, STATMOD_ANYWHERE, false, 0};
}

/* ---- tasks ---- */

int statmod_set_task(statmod *m, uint32_t k, const char *name, char *err, size_t errlen) {
  if (k < 1 || k > STATMOD_TASK_REGS)
    return statmod_fail(err, errlen, "task register %u does not exist: the module has %u (1-%u)", k,
                        STATMOD_TASK_REGS, STATMOD_TASK_REGS);
  if (strlen(name) >= STATMOD_TASK_NAME)
    return statmod_fail(err, errlen, "task register %u: the name '%.20s...' is longer than %d bytes", k, name,
                        STATMOD_TASK_NAME - 1);
  if (m->state == STATMOD_RUNNING)
    return statmod_fail(err, errlen, "task register %u: task registers are set before the run starts", k);
  snprintf(m->tasks[k], sizeof m->tasks[k], "%s", name);
  return 0;
}

const char *statmod_task_of(const statmod *m, uint32_t k) {
  return k >= 1 && k <= STATMOD_TASK_REGS ? m->tasks[k] : "";
}

uint64_t statmod_task_inexact(const statmod *m) { return m->task_inexact; }

static bool task_runs(const statmod *m, uint32_t i) {
  uint8_t k = m->cfg[i].task;
  return k && m->tasks[k][0] && strcmp(m->tasks[k], m->running_task) == 0;
}

void statmod_task_begin(statmod *m, uint32_t from, uint32_t to) {
  statmod_cum_raw(m, m->cpu->tm->cycle, NULL, 0);
  for (uint32_t i = from; i < to; i++) {
    m->tacc[i] = 0;
    m->tstart[i] = m->raw[i];
    m->tactive[i] = task_runs(m, i);
  }
}

void statmod_task_switch(statmod *m, const char *name) {
  if (strncmp(m->running_task, name, sizeof m->running_task - 1) == 0)
    return;
  bool any = false;
  for (uint32_t i = 0; i < m->p.counters && !any; i++)
    any = m->cfg[i].enabled && m->cfg[i].task;
  if (!running(m) || !any || m->in_dispatch) {
    snprintf(m->running_task, sizeof m->running_task, "%s", name);
    return;
  }
  /* A dispatch due and not yet made: the switch came inside the
   * instruction (or trap entry) that reaches it, before the run loop
   * hands that over. It is made here, split at the switch. */
  if (m->next <= m->cpu->tm->cycle) {
    uint64_t before = m->inexact;
    statmod_reached(m, NULL, 0);
    m->task_inexact += m->inexact - before;
    m->inexact = before;
    if (!running(m))
      return;
  }
  statmod_settle(m);
  statmod_cum_raw(m, m->cpu->tm->cycle, NULL, 0);
  snprintf(m->running_task, sizeof m->running_task, "%s", name);
  for (uint32_t i = 0; i < m->p.counters; i++) {
    if (!m->cfg[i].enabled || !m->cfg[i].task)
      continue;
    if (m->tactive[i])
      m->tacc[i] += m->raw[i] > m->tstart[i] ? m->raw[i] - m->tstart[i] : 0;
    m->tactive[i] = task_runs(m, i);
    m->tstart[i] = m->raw[i];
  }
}

statmod_arr statmod_arr_of(const statmod *m, uint32_t index) {
  return index < m->p.arrs ? m->arrs[index] : (statmod_arr){0, 0};
}

/* ---- start, stop, query ---- */

int statmod_start(statmod *m, char *err, size_t errlen) {
  if (m->state == STATMOD_RUNNING)
    return statmod_fail(err, errlen, "the statistics module is already running (stop it first)");
  if (!m->cpu)
    return statmod_fail(err, errlen, "the statistics module is not attached to a simulation");
  if (!m->period)
    return statmod_fail(err, errlen, "no dispatch period is set (set the timer first)");
  if (m->in_dispatch)
    return queue(m, (statmod_pending){.kind = STATMOD_CHANGE_START}, err, errlen);
  if (statmod_install_regions(m, err, errlen) != 0)
    return -1;
  uint64_t now = m->cpu->tm->cycle;
  m->index = 0;
  m->run_begin = m->begin = now;
  m->next = now + m->period;
  size_t n = m->p.counters;
  memset(m->carry, 0, n * sizeof *m->carry);
  memset(m->total, 0, n * sizeof *m->total);
  memset(m->sat_any, 0, n);
  m->state = STATMOD_RUNNING;
  m->next_sched = 0;
  for (uint32_t i = 0; i < m->nsched; i++)
    m->sched[i].applied = UINT64_MAX;
  m->task_inexact = 0;
  statmod_settle(m);
  statmod_task_begin(m, 0, m->p.counters);
  resume_counts(m);
  changed(m, &(statmod_change){.kind = STATMOD_CHANGE_START});
  return 0;
}

int statmod_stop(statmod *m, char *err, size_t errlen) {
  if (m->state != STATMOD_RUNNING || !m->cpu)
    return statmod_fail(err, errlen, "the statistics module is not running");
  if (m->in_dispatch)
    return queue(m, (statmod_pending){.kind = STATMOD_CHANGE_STOP}, err, errlen);
  statmod_reached(m, NULL, 0); /* anything due (the loop has done it already) */
  if (m->state != STATMOD_RUNNING)
    return 0; /* a sink stopped it */
  uint64_t now = m->cpu->tm->cycle;
  changed(m, &(statmod_change){.kind = STATMOD_CHANGE_STOP});
  m->in_dispatch = true;
  /* m->next <= now: a stop cut the dispatches of a sleep short; the cycles
   * after the last one are not measured, so no partial interval */
  if (now > m->begin && m->next > now) {
    /* the counters freeze now; the timer runs down to its natural end */
    statmod_settle(m);
    statmod_cum(m, now, NULL, 0);
    end_interval(m, m->next);
  }
  statmod_interval fin = {
    .index = m->index, .cycle_begin = m->run_begin, .cycle_end = m->begin, .n = m->p.counters,
    .values = m->total, .saturated = m->sat_any, .final = true, .intervals = m->index,
  };
  m->state = STATMOD_STOPPED;
  m->next = UINT64_MAX;
  deliver(m, &fin);
  m->in_dispatch = false;
  statmod_uninstall_regions(m);
  apply_pending(m);
  return 0;
}

void statmod_query(const statmod *m, statmod_status *st) {
  *st = (statmod_status){
    .state = m->state, .params = m->p, .period = m->period,
    .cycle = m->cpu && m->cpu->tm ? m->cpu->tm->cycle : 0,
    .intervals = m->index,
    .interval_begin = m->state == STATMOD_RUNNING ? m->begin : 0,
    .next_dispatch = statmod_horizon(m),
    .inexact = m->inexact,
  };
  for (uint32_t i = 0; i < m->p.counters; i++)
    st->enabled += m->cfg[i].enabled;
}
