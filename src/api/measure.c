/*
 * A measured run (include/tally/run.h): the statistics module attached to
 * a simulation, its events in plain words, the callbacks, running in
 * slices, and the results. Where the intervals go is measure_net.c.
 */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "measure_internal.h"
#include "tally/inst.h"

void tally_measure_params_default(tally_measure_params *p) {
  *p = (tally_measure_params){.counters = STATMOD_DEFAULT_COUNTERS, .width = STATMOD_DEFAULT_WIDTH,
                              .arrs = STATMOD_DEFAULT_ARRS};
}

/* ---- the module's sink: results and callbacks ---- */

static void measure_sink(void *ctx, const statmod_interval *iv) {
  tally_measure *m = ctx;
  for (uint32_t i = 0; i < m->n; i++) {
    uint32_t c = m->ev[i].counter;
    m->vals[i] = c < iv->n ? iv->values[c] : 0;
    m->sat[i] = c < iv->n ? iv->saturated[c] : 0;
    m->ev[i].saturated |= m->sat[i] != 0;
    if (iv->final)
      m->ev[i].total = m->vals[i];
  }
  if (!iv->final)
    atomic_store(&m->prog_intervals, iv->index + 1);
  tally_interval t = {.index = iv->index, .cycle_begin = iv->cycle_begin, .cycle_end = iv->cycle_end, .n = m->n,
                      .values = m->vals, .saturated = m->sat, .final = iv->final, .intervals = iv->intervals};
  for (int k = 0; k < m->ncb; k++)
    m->cb[k].fn(m->cb[k].ctx, &t);
}

/* ---- creating ---- */

static void task_switched(void *ctx, const char *name);

void tally_measure_free(tally_measure *m) {
  if (!m)
    return;
  if (m->tasks_on)
    api_tasks_unfollow(m->sim, task_switched, m);
  mnet_free(m->net);
  statmod_free(m->sm);
  free(m->ev);
  free(m->label);
  free(m->where);
  free(m->arr_name);
  free(m->arr_range);
  free(m->at.last);
  free(m->vals);
  free(m->sat);
  free(m);
}

static bool alloc_tables(tally_measure *m) {
  uint32_t n = m->p.counters ? m->p.counters : 1, a = m->p.arrs ? m->p.arrs : 1;
  m->ev = calloc(n, sizeof *m->ev);
  m->label = calloc(n, sizeof *m->label);
  m->where = calloc(n, sizeof *m->where);
  m->arr_name = calloc(a, sizeof *m->arr_name);
  m->arr_range = calloc(a, sizeof *m->arr_range);
  m->vals = calloc(n, sizeof *m->vals);
  m->sat = calloc(n, sizeof *m->sat);
  return m->ev && m->label && m->where && m->arr_name && m->arr_range && m->vals && m->sat;
}

tally_measure *tally_measure_new(tally_sim *sim, const tally_measure_params *p, tally_error *err) {
  char e[256];
  statmod_params sp = {.counters = p->counters, .width = p->width, .arrs = p->arrs};
  if (statmod_params_check(&sp, e, sizeof e) != 0) {
    api_fail(err, TALLY_E_USAGE, "%s", e);
    return NULL;
  }
  if (p->interval > STATMOD_MAX_PERIOD) {
    api_fail(err, TALLY_E_USAGE, "interval %llu is above the dispatch timer's %llu", (unsigned long long)p->interval,
             (unsigned long long)STATMOD_MAX_PERIOD);
    return NULL;
  }
  tally_measure *m = calloc(1, sizeof *m);
  if (!m || (m->p = *p, !alloc_tables(m))) {
    tally_measure_free(m);
    api_error(err, "out of memory");
    return NULL;
  }
  m->sim = sim;
  atomic_init(&m->cancel, 0);
  atomic_init(&m->prog_instret, 0);
  atomic_init(&m->prog_cycles, 0);
  atomic_init(&m->prog_intervals, 0);
  m->sm = statmod_new(&sp, e, sizeof e);
  int rc = m->sm ? 0 : api_error(err, "%s", e);
  tally_error ae;
  if (rc == 0 && tally_statmod_attach(sim, m->sm, &ae) != 0)
    rc = api_fail(err, TALLY_E_USAGE, "%s", ae.msg);
  if (rc == 0 && p->interval && statmod_set_period(m->sm, p->interval, e, sizeof e) != 0)
    rc = api_fail(err, TALLY_E_USAGE, "%s", e);
  if (rc == 0 && statmod_add_sink(m->sm, measure_sink, m, e, sizeof e) != 0)
    rc = api_error(err, "%s", e);
  if (rc != 0) {
    tally_measure_free(m);
    return NULL;
  }
  return m;
}

/* ---- events ---- */

void measure_set_arr_name(tally_measure *m, uint32_t arr, const char *name) {
  if (arr < m->p.arrs)
    snprintf(m->arr_name[arr], MEASURE_LABEL_MAX, "%s", name ? name : "");
}

const char *measure_arr_name(const tally_measure *m, uint32_t arr) {
  return arr < m->p.arrs ? m->arr_name[arr] : "";
}

const char *measure_words(const tally_measure *m, uint32_t counter, char *label, size_t lsize, char *where,
                          size_t wsize, bool *anywhere, uint32_t *lo, uint32_t *hi) {
  statmod_counter_cfg c = statmod_counter(m->sm, counter);
  *anywhere = c.arr == STATMOD_ANYWHERE;
  statmod_arr range = *anywhere ? (statmod_arr){0, 0} : statmod_arr_of(m->sm, c.arr);
  const char *fname = *anywhere ? "" : measure_arr_name(m, c.arr);
  *lo = range.lo;
  *hi = range.hi;
  const char *sig = statmod_words(&c, &range, *fname ? fname : NULL, label, lsize, where, wsize);
  if (c.task)
    statmod_task_words(statmod_task_of(m->sm, c.task), *anywhere, label, lsize, where, wsize);
  return sig;
}

/* Event i's description from its counter's configuration. */
static void describe_event(tally_measure *m, uint32_t i, uint32_t counter) {
  tally_event_info *e = &m->ev[i];
  *e = (tally_event_info){.counter = counter, .label = m->label[i], .where = m->where[i]};
  e->signal = measure_words(m, counter, m->label[i], MEASURE_LABEL_MAX, m->where[i], MEASURE_LABEL_MAX,
                            &e->anywhere, &e->lo, &e->hi);
  uint8_t k = statmod_counter(m->sm, counter).task;
  e->task = k ? statmod_task_of(m->sm, k) : NULL;
}

/* ---- tasks ---- */

static void task_switched(void *ctx, const char *name) { statmod_task_switch(((tally_measure *)ctx)->sm, name); }

int tally_measure_tasks(tally_measure *m, const char *spec, tally_error *err) {
  if (m->tasks_on || m->started)
    return api_fail(err, TALLY_E_USAGE, "the tasks are chosen before the first task event and before the run");
  if (spec && strlen(spec) >= sizeof m->task_spec)
    return api_fail(err, TALLY_E_USAGE, "--tasks=%.40s...: longer than %zu bytes", spec, sizeof m->task_spec - 1);
  snprintf(m->task_spec, sizeof m->task_spec, "%s", spec ? spec : "");
  return 0;
}

/* The module follows the running task from now on. */
int measure_tasks_on(tally_measure *m, tally_error *err) {
  if (m->tasks_on)
    return 0;
  tally_error te;
  if (api_tasks_follow(m->sim, m->task_spec[0] ? m->task_spec : NULL, task_switched, m, &te) != 0)
    return api_fail(err, TALLY_E_USAGE, "a task counter needs to know which task runs: %s", te.msg);
  m->tasks_on = true;
  return 0;
}

int measure_task_reg(tally_measure *m, const char *text, const char *name, uint8_t *reg, tally_error *err) {
  char e[256];
  tally_error te;
  if (measure_tasks_on(m, &te) != 0)
    return api_fail(err, TALLY_E_USAGE, "'%s': %s", text, te.msg);
  uint32_t k = 1;
  for (; k <= STATMOD_TASK_REGS && statmod_task_of(m->sm, k)[0]; k++)
    if (strcmp(statmod_task_of(m->sm, k), name) == 0) {
      *reg = (uint8_t)k;
      return 0;
    }
  if (k > STATMOD_TASK_REGS)
    return api_fail(err, TALLY_E_USAGE, "'%s': the events name more than %d different tasks (the module has %d "
                    "task registers)", text, STATMOD_TASK_REGS, STATMOD_TASK_REGS);
  if (statmod_set_task(m->sm, k, name, e, sizeof e) != 0)
    return api_fail(err, TALLY_E_USAGE, "'%s': %s", text, e);
  *reg = (uint8_t)k;
  return 0;
}

int tally_measure_check_tasks(const tally_measure *m, tally_error *err) {
  char seen[1024];
  for (uint32_t k = 1; k <= STATMOD_TASK_REGS; k++) {
    const char *name = statmod_task_of(m->sm, k);
    if (!name[0])
      continue;
    bool used = false;
    for (uint32_t i = 0; i < m->n && !used; i++)
      used = statmod_counter(m->sm, m->ev[i].counter).task == k;
    if (!used || api_tasks_seen(m->sim, name, seen, sizeof seen))
      continue;
    for (uint32_t i = 0; i < m->n; i++)
      if (statmod_counter(m->sm, m->ev[i].counter).task == k)
        return api_fail(err, TALLY_E_USAGE, "'%s@%s': no task '%s' ran (the tasks and trap contexts seen: %s); "
                        "its counts are 0", m->ev[i].signal, m->ev[i].where, name, seen[0] ? seen : "none");
  }
  return 0;
}

void measure_configured(tally_measure *m) {
  statmod_status st;
  statmod_query(m->sm, &st);
  m->p.interval = st.period;
  m->n = 0;
  for (uint32_t i = 0; i < m->p.counters; i++)
    if (statmod_counter(m->sm, i).enabled)
      describe_event(m, m->n++, i);
}

/* The ARR an event's range uses: one already holding the same range under
 * the same name, else the next free one (ARR_NONE when none is left). */
#define ARR_NONE UINT32_MAX
static uint32_t arr_for(const tally_measure *m, const tally_event *ev) {
  const char *name = ev->func ? ev->func : "";
  for (uint32_t a = 0; a < m->arrs_used; a++) {
    statmod_arr r = m->arr_range[a]; /* the module's, or the one a scheduled change will set */
    if (r.lo == ev->lo && r.hi == ev->hi && strcmp(m->arr_name[a], name) == 0)
      return a;
  }
  return m->arrs_used < m->p.arrs ? m->arrs_used : ARR_NONE;
}

/* The two ranges of a program instrumented by `tally inst` that have names
 * of their own (when no function of the program has that name): "inst",
 * the analysis region, and "program", every address below it, which holds
 * all of an instrumented program's code. So a counter can leave the
 * instrumentation out (cycle@program) or count only it (cycle@inst). */
/* Where the instrumentation's code starts: its trampolines (the jump
 * tactic's .tally_inst.tramp section, in the hole target/tally.ld leaves
 * after .rodata) when it has any, else the analysis region. */
static uint32_t inst_code_lo(const tally_sim *sim) {
  const sym_table *t = api_sim_symbols(sim);
  for (size_t i = 0; i < t->nsections; i++)
    if (strcmp(t->sections[i].name, ".tally_inst.tramp") == 0)
      return t->sections[i].lo;
  return TALLY_INST_REGION_BASE;
}

/* The two halves of an instrumented program's code, by the executing pc:
 * "inst" from its first trampoline to the end of the analysis region,
 * "program" below. Between the trampolines and the analysis region lie
 * only the program's data, heap and stack, where no code runs (a program
 * that runs code from RAM data would have it counted as "inst"). */
static bool named_region(const tally_sim *sim, const char *name, uint32_t *lo, uint32_t *hi) {
  if (strcmp(name, "inst") == 0) {
    *lo = inst_code_lo(sim);
    *hi = TALLY_INST_REGION_BASE + TALLY_INST_REGION_SIZE;
    return true;
  }
  if (strcmp(name, "program") == 0) {
    *lo = 0;
    *hi = inst_code_lo(sim);
    return true;
  }
  return false;
}

int measure_where(const tally_measure *m, const char *text, const char *func, uint32_t *lo, uint32_t *hi,
                  tally_error *err) {
  tally_error fe;
  if (tally_function_range(m->sim, func, lo, hi, &fe) != 0 && !named_region(m->sim, func, lo, hi))
    return api_fail(err, TALLY_E_USAGE, "'%s': %s", text, fe.msg);
  return 0;
}

int measure_take_arr(tally_measure *m, const tally_event *ev, bool set_now, uint32_t *arr, bool *fresh,
                     tally_error *err) {
  char e[256];
  uint32_t a = arr_for(m, ev);
  if (a == ARR_NONE)
    return api_fail(err, TALLY_E_USAGE, "the events name %u different address ranges but the module has %u "
                    "address range registers: add --arrs %u (up to %u)", m->arrs_used + 1, m->p.arrs,
                    m->arrs_used + 1, STATMOD_MAX_ARRS);
  *fresh = a == m->arrs_used;
  if (*fresh) {
    if (set_now && statmod_set_arr(m->sm, a, ev->lo, ev->hi, e, sizeof e) != 0)
      return api_fail(err, TALLY_E_USAGE, "%s", e);
    measure_set_arr_name(m, a, ev->func);
    m->arr_range[a] = (statmod_arr){ev->lo, ev->hi};
    m->arrs_used++;
  }
  *arr = a;
  return 0;
}

static int add_event(tally_measure *m, const tally_event *given, const char *text, tally_error *err) {
  char e[256];
  tally_event ev = *given;
  if (m->started)
    return api_fail(err, TALLY_E_USAGE, "'%s': the run has started; events are added before", text);
  if (ev.signal < 0 || ev.signal >= tally_signal_count())
    return api_fail(err, TALLY_E_USAGE, "'%s': unknown signal number %d", text, ev.signal);
  if (m->n == m->p.counters)
    return api_fail(err, TALLY_E_USAGE, "'%s': %u events asked for but the module has %u counters: add --counters "
                    "%u (up to %u)", text, m->n + 1, m->p.counters, m->n + 1, STATMOD_MAX_COUNTERS);
  if (!ev.anywhere && ev.func && ev.lo == ev.hi && measure_where(m, text, ev.func, &ev.lo, &ev.hi, err) != 0)
    return -1;
  statmod_counter_cfg c = {.signal = (uint16_t)ev.signal, .arr = STATMOD_ANYWHERE, .enabled = true};
  if (!ev.anywhere) {
    uint32_t a;
    bool fresh;
    if (measure_take_arr(m, &ev, true, &a, &fresh, err) != 0)
      return -1;
    c.arr = (uint16_t)a;
  }
  if (ev.task && measure_task_reg(m, text, ev.task, &c.task, err) != 0)
    return -1;
  if (statmod_set_counter(m->sm, m->n, &c, e, sizeof e) != 0)
    return api_fail(err, TALLY_E_USAGE, "'%s': %s", text, e);
  describe_event(m, m->n, m->n);
  m->n++;
  return 0;
}

int tally_measure_add(tally_measure *m, const char *spec, tally_error *err) {
  tally_event ev;
  if (tally_event_parse(spec, &ev, err) != 0)
    return -1;
  return add_event(m, &ev, spec, err);
}

int tally_measure_add_event(tally_measure *m, const tally_event *ev, tally_error *err) {
  char text[128];
  const char *sig = ev->signal >= 0 && ev->signal < tally_signal_count() ? tally_signal_name(ev->signal) : "?";
  if (ev->anywhere)
    snprintf(text, sizeof text, "%s", sig);
  else if (ev->func)
    snprintf(text, sizeof text, "%s@%s", sig, ev->func);
  else
    snprintf(text, sizeof text, "%s@0x%08x-0x%08x", sig, ev->lo, ev->hi);
  if (ev->task) {
    size_t n = strlen(text);
    snprintf(text + n, sizeof text - n, "%s%%%s", ev->anywhere ? "@" : "", ev->task);
  }
  return add_event(m, ev, text, err);
}

/* ---- where the intervals go ---- */

static int not_started(const tally_measure *m, tally_error *err) {
  return m->started ? api_fail(err, TALLY_E_USAGE, "the run has started: choose where it goes before") : 0;
}

int tally_measure_store(tally_measure *m, const char *db_path, tally_error *err) {
  return not_started(m, err) ? -1 : mnet_store(m, db_path, err);
}

int tally_measure_collector(tally_measure *m, const char *addr, tally_error *err) {
  return not_started(m, err) ? -1 : mnet_remote(m, addr, err);
}

int tally_measure_key(tally_measure *m, const char *key_file, const char *key_env, tally_error *err) {
  return not_started(m, err) ? -1 : mnet_key(m, key_file, key_env, err);
}

int tally_measure_key_bytes(tally_measure *m, const void *key, size_t len, tally_error *err) {
  return not_started(m, err) ? -1 : mnet_key_bytes(m, key, len, err);
}

int tally_measure_control(tally_measure *m, const char *addr, const char *key_path, tally_error *err) {
  return not_started(m, err) ? -1 : mnet_control(m, addr, key_path, err);
}

const char *tally_measure_control_addr(const tally_measure *m) { return mnet_control_addr(m->net); }

int tally_measure_on_interval(tally_measure *m, tally_interval_fn fn, void *ctx, tally_error *err) {
  if (m->ncb == MEASURE_MAX_CALLBACKS)
    return api_fail(err, TALLY_E_USAGE, "at most %d interval callbacks", MEASURE_MAX_CALLBACKS);
  m->cb[m->ncb++] = (measure_callback){fn, ctx};
  return 0;
}

void tally_measure_on_warning(tally_measure *m, void (*fn)(void *ctx, const char *msg), void *ctx) {
  m->warn_fn = fn;
  m->warn_ctx = ctx;
}

/* ---- running ---- */

int tally_measure_start(tally_measure *m, const char *program, const char *core, tally_error *err) {
  char e[256];
  if (not_started(m, err))
    return -1;
  if (m->n == 0)
    return api_fail(err, TALLY_E_USAGE, "nothing to count: add an event first");
  if (!m->p.interval)
    return api_fail(err, TALLY_E_USAGE, "no dispatch interval: set tally_measure_params.interval");
  if (mnet_begin(m, program, core, err) != 0)
    return -1;
  if (statmod_start(m->sm, e, sizeof e) != 0)
    return api_error(err, "%s", e);
  m->started = true;
  return 0;
}

int tally_measure_wait_start(tally_measure *m, const char *program, const char *core, const volatile int *cancel,
                             tally_error *err) {
  if (not_started(m, err))
    return -1;
  int rc = mnet_wait_start(m, program, core, cancel, err);
  if (rc == 0)
    m->started = true;
  return rc;
}

static void note_progress(tally_measure *m) {
  atomic_store(&m->prog_instret, tally_instret(m->sim));
  atomic_store(&m->prog_cycles, tally_cycles(m->sim));
}

tally_stop tally_measure_run(tally_measure *m, uint64_t max_insns) {
  tally_stop s = TALLY_STOP_LIMIT;
  while (max_insns > 0) {
    if (atomic_load(&m->cancel)) {
      s = TALLY_STOP_CANCELLED;
      break;
    }
    uint64_t slice = max_insns < MEASURE_SLICE ? max_insns : MEASURE_SLICE;
    s = tally_run(m->sim, slice);
    note_progress(m);
    if (s != TALLY_STOP_LIMIT)
      break;
    max_insns -= slice;
  }
  return s;
}

void tally_measure_cancel(tally_measure *m) { atomic_store(&m->cancel, 1); }

void tally_measure_progress(const tally_measure *m, tally_progress *p) {
  tally_measure *mm = (tally_measure *)m; /* atomics: loading does not change them */
  *p = (tally_progress){.instret = atomic_load(&mm->prog_instret), .cycles = atomic_load(&mm->prog_cycles),
                        .intervals = atomic_load(&mm->prog_intervals)};
}

int tally_measure_finish(tally_measure *m, const char *stopped_why, tally_measure_result *res, tally_error *err) {
  char e[256];
  *res = (tally_measure_result){.note = m->note};
  if (m->finished)
    return api_fail(err, TALLY_E_USAGE, "the run was finished already");
  m->finished = true;
  if (stopped_why)
    mnet_cut_short(m->net);
  statmod_status st;
  statmod_query(m->sm, &st);
  int rc = 0;
  if (st.state == STATMOD_RUNNING && statmod_stop(m->sm, e, sizeof e) != 0)
    rc = api_error(err, "%s", e);
  note_progress(m);
  statmod_query(m->sm, &st);
  res->intervals = st.intervals;
  if (st.inexact)
    rc = api_error(err, "internal error: %llu dispatches could not be split exactly",
                   (unsigned long long)st.inexact);
  if (mnet_finish(m, stopped_why, res, err) != 0)
    rc = -1;
  res->note = m->note;
  return rc;
}

/* ---- results ---- */

uint32_t tally_measure_events(const tally_measure *m) { return m->n; }

const tally_event_info *tally_measure_event(const tally_measure *m, uint32_t i) {
  return i < m->n ? &m->ev[i] : NULL;
}

const tally_measure_params *tally_measure_params_of(const tally_measure *m) { return &m->p; }

uint64_t tally_measure_run_id(const tally_measure *m) { return mnet_run_id(m->net); }
