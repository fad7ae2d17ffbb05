/*
 * Timelines for Perfetto and Chromium's trace viewer (include/tally/
 * export.h, docs/tally-trace.md "Timelines"): the Chrome JSON trace event
 * format, which ui.perfetto.dev, trace_processor and chrome://tracing all
 * read. Written as the run goes: the statistics module's intervals as
 * counter events ("ph":"C") when they arrive, the profile's call slices
 * ("ph":"X", complete events, a caller before its callees) at the end.
 *
 * The time axis is real time at the core's clock (the run's clock_hz):
 * "ts" and "dur" are microseconds, as the format defines them, written
 * with three decimals (whole nanoseconds), and "displayTimeUnit" is "ns".
 * Every cycle number is rounded to a nanosecond the same way, so slices
 * nest as the cycles do; the exact cycles are in each slice's args
 * (begin_cycle, cycles). Without a clock (0), one cycle is one
 * microsecond, as before there was one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tally/export.h"

#define PID 1
#define TID_CALLS 1

struct tally_perfetto {
  FILE *f;
  bool first;          /* no event written yet: no comma before the next */
  uint64_t hz;         /* the core clock in Hz; 0: none known */
};

/* A cycle number in nanoseconds at the clock, rounded (no clock: one
 * cycle is 1,000 ns, a microsecond on the axis). Exact up to clocks of
 * 18 GHz: the remainder times 10^9 fits in 64 bits. */
static uint64_t ns_at(const tally_perfetto *w, uint64_t cycle) {
  if (!w->hz)
    return cycle * 1000;
  return cycle / w->hz * 1000000000u + (cycle % w->hz * 1000000000u + w->hz / 2) / w->hz;
}

/* Nanoseconds as the format's microseconds: "12.340". */
static void put_us(const tally_perfetto *w, uint64_t ns) {
  fprintf(w->f, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

static void event_start(tally_perfetto *w) {
  fputs(w->first ? "\n" : ",\n", w->f);
  w->first = false;
}

static void metadata(tally_perfetto *w, const char *what, int tid, const char *name) {
  event_start(w);
  fprintf(w->f, "{\"ph\":\"M\",\"pid\":%d,", PID);
  if (tid)
    fprintf(w->f, "\"tid\":%d,", tid);
  fprintf(w->f, "\"name\":\"%s\",\"args\":{\"name\":", what);
  tally_json_string(w->f, name);
  fputs("}}", w->f);
}

tally_perfetto *tally_perfetto_begin(FILE *f, const tally_run_info *run, tally_error *err) {
  tally_perfetto *w = calloc(1, sizeof *w);
  if (!w) {
    snprintf(err->msg, sizeof err->msg, "out of memory");
    err->code = TALLY_E_INTERNAL;
    return NULL;
  }
  w->f = f;
  w->first = true;
  w->hz = run && run->clock_hz >= 1 && run->clock_hz < 1.8e10 ? (uint64_t)(run->clock_hz + 0.5) : 0;
  if (w->hz)
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":\"real time at the core clock "
               "(%.6g MHz: a cycle is %.6g ns); cycles in each slice's args\"", run->clock_hz / 1e6,
            1e9 / run->clock_hz);
  else
    fputs("{\"otherData\":{\"time_unit\":\"1 us on the axis is 1 core cycle (no clock known)\"", f);
  if (run && run->program) {
    fputs(",\"program\":", f);
    tally_json_string(f, run->program);
  }
  if (run && run->core) {
    fputs(",\"core\":", f);
    tally_json_string(f, run->core);
  }
  if (run && run->clock_hz > 0)
    fprintf(f, ",\"clock_hz\":%.0f", run->clock_hz);
  fputs("},\"traceEvents\":[", f);
  char name[300];
  snprintf(name, sizeof name, "tally %s", run && run->program ? run->program : "run");
  metadata(w, "process_name", 0, name);
  metadata(w, "thread_name", TID_CALLS, "calls (hart 0)");
  return w;
}

void tally_perfetto_interval(tally_perfetto *w, uint64_t cycle_begin, uint32_t n, const uint64_t *values,
                             const char *const *labels) {
  for (uint32_t i = 0; i < n; i++) {
    event_start(w);
    fprintf(w->f, "{\"ph\":\"C\",\"pid\":%d,\"ts\":", PID);
    put_us(w, ns_at(w, cycle_begin));
    fputs(",\"name\":", w->f);
    tally_json_string(w->f, labels[i]);
    fprintf(w->f, ",\"args\":{\"count\":%" PRIu64 "}}", values[i]);
  }
}

void tally_perfetto_slices(tally_perfetto *w, const tally_profile *p) {
  const tally_func_profile *funcs;
  size_t nfuncs = tally_profile_functions(p, &funcs);
  const tally_slice *s;
  size_t n = tally_profile_slices(p, &s, NULL);
  for (size_t i = 0; i < n; i++) {
    const char *name = s[i].func >= 0 && (size_t)s[i].func < nfuncs ? funcs[s[i].func].name : "[unknown]";
    event_start(w);
    fprintf(w->f, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"cat\":\"%s\",\"ts\":", PID, TID_CALLS,
            s[i].is_handler ? "handler" : "function");
    put_us(w, ns_at(w, s[i].begin));
    fputs(",\"dur\":", w->f);
    put_us(w, ns_at(w, s[i].end) - ns_at(w, s[i].begin));
    fputs(",\"name\":", w->f);
    tally_json_string(w->f, name);
    fprintf(w->f, ",\"args\":{\"depth\":%" PRIu32 ",\"begin_cycle\":%" PRIu64 ",\"cycles\":%" PRIu64 "}}",
            s[i].depth, s[i].begin, s[i].end - s[i].begin);
  }
}

/* Tasks: one thread track per task and trap context (tid TID_TASKS + its
 * index), a slice for each stretch it ran, [change, next change). */
#define TID_TASKS 100
void tally_perfetto_tasks(tally_perfetto *w, const tally_profile *p) {
  const tally_task_profile *t;
  size_t nt = tally_profile_tasks(p, &t);
  const tally_task_change *c;
  uint64_t end;
  size_t n = tally_profile_task_changes(p, &c, &end, NULL);
  for (size_t i = 0; i < nt; i++) {
    metadata(w, "thread_name", TID_TASKS + (int)i, t[i].name);
    event_start(w);
    fprintf(w->f, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%d}}",
            PID, TID_TASKS + (int)i, (int)i + 1);
  }
  for (size_t i = 0; i < n; i++) {
    uint64_t b = c[i].cycle, e = i + 1 < n ? c[i + 1].cycle : end;
    if (e <= b || c[i].task < 0 || (size_t)c[i].task >= nt)
      continue;
    event_start(w);
    fprintf(w->f, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"cat\":\"%s\",\"ts\":%" PRIu64 ",\"dur\":%" PRIu64
                  ",\"name\":",
            PID, TID_TASKS + c[i].task, t[c[i].task].is_trap ? "trap" : "task", b, e - b);
    tally_json_string(w->f, t[c[i].task].name);
    fputs("}", w->f);
  }
}

int tally_perfetto_end(tally_perfetto *w, tally_error *err) {
  if (!w)
    return 0;
  fputs("\n]}\n", w->f);
  int bad = fflush(w->f) != 0 || ferror(w->f);
  free(w);
  if (bad) {
    snprintf(err->msg, sizeof err->msg, "cannot write: %s", strerror(errno));
    err->code = TALLY_E_CREATE;
    return -1;
  }
  return 0;
}
