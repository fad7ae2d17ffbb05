/* The end-of-run statistics (tally_export_stats; `tally run --stats` and
 * `--stats-json`), from the public API only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tally/export.h"
#include "tally/irq.h"
#include "json.h"

static double pct(uint64_t part, uint64_t whole) { return whole ? 100.0 * (double)part / (double)whole : 0.0; }

static const char *si(double v, const char *unit, char *buf, size_t size) {
  static const struct { double scale; const char *prefix; } p[] = {
    {1, ""}, {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"},
  };
  size_t i = 0;
  while (i + 1 < sizeof p / sizeof p[0] && v != 0 && v < p[i].scale)
    i++;
  snprintf(buf, size, "%.3f %s%s", v / p[i].scale, p[i].prefix, unit);
  return buf;
}

static void stats_text(tally_sim *sim, FILE *f) {
  int n = tally_signal_count();
  uint64_t *t = calloc((size_t)n, sizeof *t);
  if (!t)
    return;
  tally_signal_totals(sim, t);
  char a[32], b[32], c[32], d[32], e2[32];
  uint64_t cycles = tally_cycles(sim), insns = tally_instret(sim);
  tally_energy e = tally_energy_now(sim);
#define S(name) t[tally_signal_lookup(name)]
  fprintf(f, "\ntally: core model %s\n", tally_core_name(sim));
  fprintf(f, "  cycles        %20s\n", tally_format_count(cycles, a, sizeof a));
  fprintf(f, "  instructions  %20s   CPI %.3f\n", tally_format_count(insns, a, sizeof a), insns ? (double)cycles / (double)insns : 0.0);
  fprintf(f, "  time          %20s   at %.1f MHz, %.2f V\n", si(e.seconds, "s", a, sizeof a), e.frequency_mhz, e.voltage);
  fprintf(f, "  energy        %20s   core %s, static %s, caches %s, memory %s\n", si(e.total_j, "J", a, sizeof a),
          si(e.core_j, "J", b, sizeof b), si(e.static_j, "J", c, sizeof c), si(e.cache_j, "J", d, sizeof d),
          si(e.mem_j, "J", e2, sizeof e2));
  uint64_t ia = S("icache.access"), ih = S("icache.hit");
  uint64_t rh = S("dcache.read_hit"), rm = S("dcache.read_miss"), wh = S("dcache.write_hit"), wm = S("dcache.write_miss");
  if (ia)
    fprintf(f, "  I-cache       %20s   accesses, %.2f%% hits\n", tally_format_count(ia, a, sizeof a), pct(ih, ia));
  if (rh + rm + wh + wm) {
    fprintf(f, "  D-cache reads %20s   accesses, %.2f%% hits\n", tally_format_count(rh + rm, a, sizeof a), pct(rh, rh + rm));
    fprintf(f, "  D-cache writes%20s   accesses, %.2f%% hits\n", tally_format_count(wh + wm, a, sizeof a), pct(wh, wh + wm));
  }
  fprintf(f, "\n  %-20s %20s %9s  %s\n", "signal", "total", "per insn", "meaning");
  for (int i = 0; i < n; i++)
    fprintf(f, "  %-20s %20s %9.4f  %s\n", tally_signal_name(i), tally_format_count(t[i], a, sizeof a),
            insns ? (double)t[i] / (double)insns : 0.0, tally_signal_meaning(i));
#undef S
  free(t);
}

/* A source's "tasks": [{task, taken, latency_min ...}] (tally_irq_tasks). */
static void interrupt_tasks_json(const tally_irq_task *v, size_t n, unsigned src, const tally_profile *p, FILE *f) {
  const tally_task_profile *tp;
  size_t ntasks = tally_profile_tasks(p, &tp);
  fputs(", \"tasks\": [", f);
  bool first = true;
  for (size_t i = 0; i < n; i++) {
    if (v[i].source != src)
      continue;
    fputs(first ? "\n      {\"task\": " : ",\n      {\"task\": ", f);
    first = false;
    if (v[i].task >= 0 && (size_t)v[i].task < ntasks)
      json_write_string(f, tp[v[i].task].name);
    else
      fputs("null", f);
    fprintf(f, ", \"taken\": %llu, \"latency_min\": %llu, \"latency_median\": %llu, \"latency_max\": %llu, "
               "\"jitter\": %llu}",
            (unsigned long long)v[i].taken, (unsigned long long)v[i].lat_min, (unsigned long long)v[i].lat_median,
            (unsigned long long)v[i].lat_max, (unsigned long long)(v[i].lat_max - v[i].lat_min));
  }
  fputs(first ? "]" : "\n    ]", f);
}

/* "interrupts": each PLIC source that rose (include/tally/irq.h), when any
 * did; with a task-aware profile p, per task too. */
static void interrupts_json(tally_sim *sim, const tally_profile *p, FILE *f) {
  tally_irq_source src[96];
  size_t n = tally_irq_sources(sim, src, sizeof src / sizeof src[0]);
  if (!n)
    return;
  const tally_task_profile *tp;
  bool tasks = p && tally_profile_tasks(p, &tp) > 0;
  size_t nt = tasks ? tally_irq_tasks(sim, p, NULL, 0) : 0;
  tally_irq_task *tv = nt ? calloc(nt, sizeof *tv) : NULL;
  if (tv)
    nt = tally_irq_tasks(sim, p, tv, nt);
  fprintf(f, "  \"interrupts\": {\n");
  for (size_t i = 0; i < n; i++) {
    const tally_irq_source *s = &src[i];
    fprintf(f,
            "    \"%u\": {\"rises\": %llu, \"requests\": %llu, \"merged\": %llu, \"taken\": %llu, \"polled\": %llu, "
            "\"latency_min\": %llu, \"latency_median\": %llu, \"latency_max\": %llu, \"jitter\": %llu, "
            "\"waiting\": %s",
            s->source, (unsigned long long)s->rises, (unsigned long long)s->requests, (unsigned long long)s->merged,
            (unsigned long long)s->taken, (unsigned long long)s->polled, (unsigned long long)s->lat_min,
            (unsigned long long)s->lat_median, (unsigned long long)s->lat_max,
            (unsigned long long)(s->lat_max - s->lat_min), s->waiting ? "true" : "false");
    if (tasks)
      interrupt_tasks_json(tv, tv ? nt : 0, s->source, p, f);
    fprintf(f, "}%s\n", i + 1 < n ? "," : "");
  }
  fprintf(f, "  },\n");
  free(tv);
}

static int stats_json(tally_sim *sim, const tally_profile *p, int exit_status, FILE *f) {
  int n = tally_signal_count();
  uint64_t *t = calloc((size_t)n, sizeof *t);
  if (!t)
    return -1;
  tally_signal_totals(sim, t);
  tally_energy e = tally_energy_now(sim);
  uint64_t cycles = tally_cycles(sim), insns = tally_instret(sim);
  fprintf(f, "{\n  \"core\": \"%s\",\n  \"exit_status\": %d,\n", tally_core_name(sim), exit_status);
  fprintf(f, "  \"cycles\": %llu,\n  \"instructions\": %llu,\n  \"cpi\": %.6f,\n", (unsigned long long)cycles,
          (unsigned long long)insns, insns ? (double)cycles / (double)insns : 0.0);
  fprintf(f, "  \"seconds\": %.9g,\n  \"frequency_mhz\": %g,\n  \"voltage\": %g,\n", e.seconds, e.frequency_mhz, e.voltage);
  fprintf(f, "  \"energy_j\": {\"core\": %.9g, \"static\": %.9g, \"caches\": %.9g, \"memory\": %.9g, \"total\": %.9g},\n",
          e.core_j, e.static_j, e.cache_j, e.mem_j, e.total_j);
  interrupts_json(sim, p, f);
  fprintf(f, "  \"signals\": {\n");
  for (int i = 0; i < n; i++)
    fprintf(f, "    \"%s\": %llu%s\n", tally_signal_name(i), (unsigned long long)t[i], i + 1 < n ? "," : "");
  fprintf(f, "  }\n}\n");
  free(t);
  return 0;
}

static int fail(tally_error *err, const char *what) {
  if (err) {
    snprintf(err->msg, sizeof err->msg, "%s", what);
    err->code = TALLY_E_INTERNAL;
  }
  return -1;
}

int tally_export_stats(tally_sim *sim, bool json, int exit_status, FILE *f, tally_error *err) {
  return tally_export_stats_tasks(sim, NULL, json, exit_status, f, err);
}

int tally_export_stats_tasks(tally_sim *sim, const tally_profile *p, bool json, int exit_status, FILE *f,
                             tally_error *err) {
  if (json ? stats_json(sim, p, exit_status, f) : (stats_text(sim, f), 0))
    return fail(err, "out of memory");
  return ferror(f) ? fail(err, "could not write the statistics") : 0;
}
