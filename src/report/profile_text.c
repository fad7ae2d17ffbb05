/*
 * A profile as text for people (tally_export_profile_text; what `tally
 * profile` prints): the flat profile, the line profile, the call graph with
 * its call sites, the sampler against the exact profile, and a function's
 * annotated disassembly. Written from the public API only.
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile_text.h"

typedef struct sort_ctx {
  const tally_func_profile *f;
  int sig;
} sort_ctx;

static int by_signal(const void *a, const void *b, void *ctx) {
  const sort_ctx *s = ctx;
  const tally_func_profile *x = &s->f[*(const size_t *)a], *y = &s->f[*(const size_t *)b];
  if (x->self[s->sig] != y->self[s->sig])
    return x->self[s->sig] < y->self[s->sig] ? 1 : -1;
  return strcmp(x->name, y->name);
}

static size_t *sorted_order(const tally_func_profile *f, size_t n, int sig) {
  size_t *order = malloc((n ? n : 1) * sizeof *order);
  if (!order)
    return NULL;
  for (size_t i = 0; i < n; i++)
    order[i] = i;
  sort_ctx ctx = {f, sig};
  if (n > 1) /* order may be NULL when empty */
    qsort_r(order, n, sizeof *order, by_signal, &ctx);
  return order;
}

static void print_flat(FILE *out, const tally_profile *p, const tally_profile_text_opts *o) {
  const tally_func_profile *f;
  size_t n = tally_profile_functions(p, &f);
  int cyc = tally_signal_lookup("cycle");
  uint64_t total = tally_profile_total(p, cyc);
  size_t *order = sorted_order(f, n, o->sort);
  if (!order)
    return;
  char a[32];
  fprintf(out, "\nFlat profile (exact: every cycle of the run, nothing sampled)\n\n");
  fprintf(out, "%8s %8s %14s", "%self", "%incl", "calls");
  for (int c = 0; c < o->nsignals; c++)
    fprintf(out, " %16s", tally_signal_name(o->signals[c]));
  fprintf(out, " %16s  %s\n", "incl cycles", "function");
  size_t shown = 0;
  for (size_t i = 0; i < n; i++) {
    const tally_func_profile *fp = &f[order[i]];
    if (!fp->self[cyc] && !fp->calls && !fp->inclusive_cycles)
      continue;
    if (o->top && shown == o->top)
      break;
    shown++;
    fprintf(out, "%7.2f%% %7.2f%% %14s", total ? 100.0 * (double)fp->self[cyc] / (double)total : 0.0,
           total ? 100.0 * (double)fp->inclusive_cycles / (double)total : 0.0, tally_format_count(fp->calls, a, sizeof a));
    for (int c = 0; c < o->nsignals; c++)
      fprintf(out, " %16s", tally_format_count(fp->self[o->signals[c]], a, sizeof a));
    fprintf(out, " %16s  %s%s\n", tally_format_count(fp->inclusive_cycles, a, sizeof a), fp->name,
           fp->is_handler ? "  [trap handler]" : "");
  }
  fprintf(out, "%8s %8s %14s", "", "", "total");
  for (int c = 0; c < o->nsignals; c++)
    fprintf(out, " %16s", tally_format_count(tally_profile_total(p, o->signals[c]), a, sizeof a));
  fprintf(out, "\n  calls: times the function was entered (calls into it); %%self and the signal columns: its own\n"
               "  code, not the functions it calls; %%incl and incl cycles: with everything it called.\n");
  free(order);
}

/* ---- tasks ---- */

typedef struct task_func_sort {
  const tally_task_func *f;
  int sig;
} task_func_sort;

static int by_task_func(const void *a, const void *b, void *ctx) {
  const task_func_sort *c = ctx;
  uint64_t x = c->f[*(const size_t *)a].self[c->sig], y = c->f[*(const size_t *)b].self[c->sig];
  return x < y ? 1 : x > y ? -1 : 0;
}

/* Per task: its totals in the --signals columns, then its functions. */
static void print_tasks(FILE *out, const tally_profile *p, const tally_profile_text_opts *o) {
  const tally_task_profile *t;
  size_t nt = tally_profile_tasks(p, &t);
  if (!nt)
    return;
  const tally_func_profile *fn;
  size_t nfn = tally_profile_functions(p, &fn);
  int cyc = tally_signal_lookup("cycle");
  uint64_t total = tally_profile_total(p, cyc);
  char a[32];
  fprintf(out, "\nTasks (exact: every cycle of the run counted to the task or trap context it ran in)\n");
  fprintf(out, "  following %s\n\n", tally_profile_tasks_source(p));
  fprintf(out, "%8s %12s", "%cycles", "switches");
  for (int c = 0; c < o->nsignals; c++)
    fprintf(out, " %16s", tally_signal_name(o->signals[c]));
  fprintf(out, "  %s\n", "task");
  for (size_t i = 0; i < nt; i++) {
    fprintf(out, "%7.2f%% %12s", total ? 100.0 * (double)t[i].total[cyc] / (double)total : 0.0,
            tally_format_count(t[i].switches, a, sizeof a));
    for (int c = 0; c < o->nsignals; c++)
      fprintf(out, " %16s", tally_format_count(t[i].total[o->signals[c]], a, sizeof a));
    fprintf(out, "  %s\n", t[i].name);
  }
  fprintf(out, "%8s %12s", "", "total");
  for (int c = 0; c < o->nsignals; c++)
    fprintf(out, " %16s", tally_format_count(tally_profile_total(p, o->signals[c]), a, sizeof a));
  fprintf(out, "\n");
  for (size_t i = 0; i < nt; i++) {
    size_t n = t[i].nfuncs, *order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
      return;
    for (size_t k = 0; k < n; k++)
      order[k] = k;
    task_func_sort ctx = {t[i].funcs, o->sort};
    qsort_r(order, n, sizeof *order, by_task_func, &ctx);
    fprintf(out, "\n  %s:\n%8s %8s %14s", t[i].name, "%self", "%incl", "calls");
    for (int c = 0; c < o->nsignals; c++)
      fprintf(out, " %16s", tally_signal_name(o->signals[c]));
    fprintf(out, " %16s  %s\n", "incl cycles", "function");
    uint64_t tt = t[i].total[cyc];
    size_t shown = 0;
    for (size_t k = 0; k < n; k++) {
      const tally_task_func *f = &t[i].funcs[order[k]];
      if (!f->self[cyc] && !f->calls && !f->inclusive[cyc])
        continue;
      if (o->top && shown == o->top)
        break;
      shown++;
      fprintf(out, "%7.2f%% %7.2f%% %14s", tt ? 100.0 * (double)f->self[cyc] / (double)tt : 0.0,
              tt ? 100.0 * (double)f->inclusive[cyc] / (double)tt : 0.0, tally_format_count(f->calls, a, sizeof a));
      for (int c = 0; c < o->nsignals; c++)
        fprintf(out, " %16s", tally_format_count(f->self[o->signals[c]], a, sizeof a));
      fprintf(out, " %16s  %s\n", tally_format_count(f->inclusive[cyc], a, sizeof a),
              f->func >= 0 && (size_t)f->func < nfn ? fn[f->func].name : "[unknown]");
    }
    free(order);
  }
  fprintf(out, "\n  per task: %%self and %%incl are shares of the task's cycles; a trap taken while a task ran\n"
               "  is counted in its own context (irq:N for interrupt N, trap:N for exception cause N).\n");
  const char *const *notes;
  size_t dropped, nn = tally_profile_task_notes(p, &notes, &dropped);
  for (size_t k = 0; k < nn; k++)
    fprintf(out, "note: tasks: %s\n", notes[k]);
  if (dropped)
    fprintf(out, "note: tasks: %zu more problems like these\n", dropped);
}

/* ---- the line profile ---- */

typedef struct line_sort {
  const tally_line_profile *l;
  const tally_func_profile *f;
  int sig;
} line_sort;

static int by_line_signal(const void *a, const void *b, void *ctx) {
  const line_sort *s = ctx;
  const tally_line_profile *x = &s->l[*(const size_t *)a], *y = &s->l[*(const size_t *)b];
  if (x->self[s->sig] != y->self[s->sig])
    return x->self[s->sig] < y->self[s->sig] ? 1 : -1;
  if (!x->file != !y->file)
    return x->file ? -1 : 1;
  int c = x->file ? strcmp(x->file, y->file) : 0;
  if (c)
    return c;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return strcmp(s->f[x->func].name, s->f[y->func].name);
}

/* "dir/file.c:12", relative to the working directory when under it (the
 * CSV and JSON keep the recorded path). */
static const char *line_place(const tally_line_profile *l, const char *cwd, char *buf, size_t size) {
  if (!l->file)
    return "[no line info]";
  const char *file = l->file;
  size_t n = cwd ? strlen(cwd) : 0;
  if (n > 1 && strncmp(file, cwd, n) == 0 && file[n] == '/')
    file += n + 1;
  snprintf(buf, size, "%s:%u", file, l->line);
  return buf;
}

static void print_lines(FILE *out, const tally_profile *p, const tally_profile_text_opts *o) {
  const tally_func_profile *f;
  tally_profile_functions(p, &f);
  const tally_line_profile *l;
  size_t n = tally_profile_lines(p, &l);
  int cyc = tally_signal_lookup("cycle");
  uint64_t total = tally_profile_total(p, cyc);
  size_t *order = malloc((n ? n : 1) * sizeof *order);
  if (!order)
    return;
  for (size_t i = 0; i < n; i++)
    order[i] = i;
  line_sort ctx = {l, f, o->sort};
  if (n > 1) /* order may be NULL when empty */
    qsort_r(order, n, sizeof *order, by_line_signal, &ctx);
  size_t shown = o->top && o->top < n ? o->top : n;
  char cwd[4096], place[4400], a[32];
  const char *here = getcwd(cwd, sizeof cwd);
  int w = 8;
  for (size_t k = 0; k < shown; k++) {
    int len = (int)strlen(f[l[order[k]].func].name);
    if (len > w)
      w = len;
  }
  fprintf(out, "\nLine profile (exact: every instruction counted to its source line, nothing sampled)\n\n");
  fprintf(out, "%8s", "%self");
  for (int c = 0; c < o->nsignals; c++)
    fprintf(out, " %16s", tally_signal_name(o->signals[c]));
  fprintf(out, "  %-*s  %s\n", w, "function", "source");
  for (size_t k = 0; k < shown; k++) {
    const tally_line_profile *lp = &l[order[k]];
    fprintf(out, "%7.2f%%", total ? 100.0 * (double)lp->self[cyc] / (double)total : 0.0);
    for (int c = 0; c < o->nsignals; c++)
      fprintf(out, " %16s", tally_format_count(lp->self[o->signals[c]], a, sizeof a));
    fprintf(out, "  %-*s  %s\n", w, f[lp->func].name, line_place(lp, here, place, sizeof place));
  }
  fprintf(out, "%8s", "total");
  for (int c = 0; c < o->nsignals; c++)
    fprintf(out, " %16s", tally_format_count(tally_profile_total(p, o->signals[c]), a, sizeof a));
  fprintf(out, "\n");
  if (shown < n)
    fprintf(out, "(%s more lines; --top shows more)\n", tally_format_count(n - shown, a, sizeof a));
  free(order);
}

static int by_inclusive(const void *a, const void *b, void *ctx) {
  const tally_arc *arcs = ctx;
  uint64_t x = arcs[*(const size_t *)a].inclusive_cycles, y = arcs[*(const size_t *)b].inclusive_cycles;
  return x == y ? 0 : x < y ? 1 : -1;
}

static void print_callgraph(FILE *out, const tally_sim *sim, const tally_profile *p, size_t top) {
  const tally_func_profile *f;
  const tally_arc *arcs;
  tally_profile_functions(p, &f);
  size_t n = tally_profile_arcs(p, &arcs);
  char a[32], b[32];
  fprintf(out, "\nCall graph (exact calls; the callee's inclusive cycles when called from\n"
         "this caller: time in a callee shared by several callers is split exactly)\n\n");
  fprintf(out, "%14s %18s  %s\n", "calls", "incl cycles", "caller -> callee  (call site)");
  size_t *order = malloc((n ? n : 1) * sizeof *order);
  if (!order)
    return;
  for (size_t i = 0; i < n; i++)
    order[i] = i;
  if (n > 1) /* order may be NULL when empty */
    qsort_r(order, n, sizeof *order, by_inclusive, (void *)arcs);
  size_t shown = top && top < n ? top : n; /* --top: the arcs with the most inclusive cycles */
  for (size_t k = 0; k < shown; k++) {
    size_t i = order[k];
    const char *caller = arcs[i].caller >= 0 ? f[arcs[i].caller].name : "?";
    const char *callee = arcs[i].callee >= 0 ? f[arcs[i].callee].name : "?";
    char at[128];
    if (arcs[i].nsites == 1)
      tally_symbolize(sim, arcs[i].sites[0].pc, at, sizeof at);
    fprintf(out, "%14s %18s  %s -> %s%s%s%s\n", tally_format_count(arcs[i].calls, a, sizeof a),
           tally_format_count(arcs[i].inclusive_cycles, b, sizeof b), caller, callee, arcs[i].nsites == 1 ? "  (" : "",
           arcs[i].nsites == 1 ? at : "", arcs[i].nsites == 1 ? ")" : "");
    /* several sites: one line each, under the arc */
    for (size_t k = 0; arcs[i].nsites > 1 && k < arcs[i].nsites; k++) {
      const tally_call_site *cs = &arcs[i].sites[k];
      tally_symbolize(sim, cs->pc, at, sizeof at);
      fprintf(out, "%14s %18s      at %s (0x%08x)\n", tally_format_count(cs->calls, a, sizeof a),
             tally_format_count(cs->inclusive_cycles, b, sizeof b), at, cs->pc);
    }
  }
  free(order);
}

static void print_sampling(FILE *out, const tally_profile *p, const tally_profile_text_opts *o) {
  const tally_func_profile *f;
  size_t n = tally_profile_functions(p, &f);
  int cyc = tally_signal_lookup("cycle");
  uint64_t total = tally_profile_total(p, cyc), taken = tally_profile_samples_taken(p);
  size_t *order = sorted_order(f, n, cyc);
  if (!order)
    return;
  char a[32];
  fprintf(out, "\nPC sampling every %g ms of simulated time (%s samples) against the exact profile\n\n",
         o->sample_seconds * 1e3, tally_format_count(taken, a, sizeof a));
  fprintf(out, "%10s %10s %10s %10s  %s\n", "exact", "sampled", "error", "samples", "function");
  size_t shown = 0;
  for (size_t i = 0; i < n; i++) {
    const tally_func_profile *fp = &f[order[i]];
    if (!fp->self[cyc] && !fp->samples)
      continue;
    if (o->top && shown++ == o->top)
      break; /* --top: as many functions as the flat profile shows */
    double exact = total ? 100.0 * (double)fp->self[cyc] / (double)total : 0;
    double sampled = taken ? 100.0 * (double)fp->samples / (double)taken : 0;
    fprintf(out, "%9.2f%% %9.2f%% %+9.2f%% %10s  %s\n", exact, sampled, sampled - exact,
           tally_format_count(fp->samples, a, sizeof a), fp->name);
  }
  free(order);
}

/* Before the first instruction of each new source line: "file:line" and
 * the line's text when the file can be read (the line table's path). */
static void print_source(FILE *out, const tally_profile *p, uint32_t pc, const char **last_file,
                         uint32_t *last_line) {
  const char *file;
  uint32_t line;
  if (!tally_profile_source_at(p, pc, &file, &line) || (*last_file && !strcmp(file, *last_file) && line == *last_line))
    return;
  *last_file = file;
  *last_line = line;
  char text[256];
  if (report_source_line(file, line, text, sizeof text))
    fprintf(out, "%10s  %s:%u: %s\n", "", file, line, text);
  else
    fprintf(out, "%10s  %s:%u\n", "", file, line);
}

static int print_annotation(FILE *out, const tally_sim *sim, const tally_profile *p, const tally_profile_text_opts *o) {
  const tally_func_profile *f;
  size_t n = tally_profile_functions(p, &f);
  for (size_t i = 0; i < n; i++) {
    if (strcmp(f[i].name, o->annotate) != 0)
      continue;
    fprintf(out, "\n%s [0x%08x, 0x%08x)\n\n", f[i].name, f[i].lo, f[i].hi);
    fprintf(out, "%10s", "address");
    for (int c = 0; c < o->nsignals; c++)
      fprintf(out, " %14s", tally_signal_name(o->signals[c]));
    fprintf(out, "  instruction\n");
    const char *last_file = NULL;
    uint32_t last_line = 0;
    for (uint32_t pc = f[i].lo; pc < f[i].hi;) {
      char dis[96], a[32];
      int len = tally_disasm_at(sim, pc, dis, sizeof dis);
      if (!len)
        break;
      print_source(out, p, pc, &last_file, &last_line);
      fprintf(out, "%10x", pc);
      for (int c = 0; c < o->nsignals; c++)
        fprintf(out, " %14s", tally_format_count(tally_profile_at(p, pc, o->signals[c]), a, sizeof a));
      fprintf(out, "  %s\n", dis);
      pc += (uint32_t)len;
    }
    return 0;
  }
  return -1;
}


int report_profile_text(const tally_sim *sim, const tally_profile *p, const tally_profile_text_opts *o, FILE *out,
                        char *err, size_t errsize) {
  char a[32], b[32];
  uint64_t cycles = tally_cycles(sim), insns = tally_instret(sim);
  if (o->program)
    fprintf(out, "\ntally profile: %s on core %s: %s cycles, %s instructions, CPI %.3f\n", o->program,
            tally_core_name(sim), tally_format_count(cycles, a, sizeof a), tally_format_count(insns, b, sizeof b),
            insns ? (double)cycles / (double)insns : 0.0);
  print_flat(out, p, o);
  print_tasks(out, p, o);
  if (o->lines)
    print_lines(out, p, o);
  if (o->callgraph)
    print_callgraph(out, sim, p, o->top);
  if (o->sample_seconds > 0)
    print_sampling(out, p, o);
  int rc = 0;
  if (o->annotate && print_annotation(out, sim, p, o) != 0) {
    snprintf(err, errsize, "no function named '%s'", o->annotate);
    rc = 1;
  }
  uint64_t unmatched, unwinds;
  tally_profile_anomalies(p, &unmatched, &unwinds);
  if (unmatched || unwinds)
    fprintf(out, "\nnote: %llu returns matched no call and %llu returns unwound several frames\n",
            (unsigned long long)unmatched, (unsigned long long)unwinds);
  return rc;
}
