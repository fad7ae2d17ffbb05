/*
 * tally's JSON profile ("format": "tally-profile", "version": 1), written
 * by `tally profile --json` and read back by `tally diff`. The schema is in
 * docs/profile.md; in short:
 *
 *   { "format", "version", "program", "argv", "core", "clock_hz",
 *     "run": {stop, detail, exit_status, cycles, instructions},
 *     "signals": [names...], "totals": {signal: n}, "samples_taken",
 *     "functions": [{name, lo, hi, calls, inclusive_cycles, handler, samples,
 *                    self: {signal: n}, inclusive: {signal: n}}],
 *     "arcs": [{caller, callee, caller_name, callee_name, calls, inclusive_cycles,
 *               inclusive: {signal: n},
 *               sites: [{pc, calls, inclusive_cycles, inclusive: {signal: n}}]}],
 *     "lines": [{function, function_name, file, line, samples, self}],  (--lines)
 *     "stacks": [{frames: [root, ..., leaf], cycles}],
 *     "tasks": {source, notes: [...], list: [{name, tcb, trap, switches, total: {signal: n},
 *               functions: [{function, name, calls, self: {signal: n}, inclusive: {signal: n}}]}]},
 *                                                                  (--tasks)
 *     "anomalies": {unmatched_returns, unwinds} }
 *
 * Functions are those with any self count, call, inclusive cycle or
 * sample; arcs and lines name them by index into "functions" (null:
 * outside any function). Every count is an exact unsigned integer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "json.h"

#define FORMAT_NAME "tally-profile"
#define FORMAT_VERSION 1

static bool active(const tally_func_profile *f, int nsig) {
  if (f->calls || f->inclusive_cycles || f->samples)
    return true;
  for (int s = 0; s < nsig; s++)
    if (f->self[s])
      return true;
  return false;
}

/* `"key": {signal: n, ...}` over every signal. */
static void write_signals(FILE *f, const char *key, const uint64_t *v) {
  fprintf(f, "\"%s\": {", key);
  for (int s = 0; s < tally_signal_count(); s++)
    fprintf(f, "%s\"%s\": %llu", s ? ", " : "", tally_signal_name(s), (unsigned long long)v[s]);
  fputc('}', f);
}

typedef struct stack_ctx {
  FILE *f;
  bool first;
} stack_ctx;

static void stack_entry(void *ctx, const char *const *names, size_t depth, uint64_t cycles) {
  stack_ctx *c = ctx;
  fprintf(c->f, "%s\n    {\"frames\": [", c->first ? "" : ",");
  c->first = false;
  for (size_t i = 0; i < depth; i++) {
    if (i)
      fputs(", ", c->f);
    json_write_string(c->f, names[i]);
  }
  fprintf(c->f, "], \"cycles\": %llu}", (unsigned long long)cycles);
}

/* "lines": one object per source line of each function (--lines). */
static void write_lines(const tally_profile *p, const tally_func_profile *fn, size_t nfn, const long *index,
                        FILE *f) {
  int nsig = tally_signal_count();
  const tally_line_profile *lp;
  size_t n = tally_profile_lines(p, &lp);
  fputs("\n  \"lines\": [", f);
  for (size_t k = 0; k < n; k++) {
    fprintf(f, "%s\n    {\"function\": ", k ? "," : "");
    size_t fi = (size_t)lp[k].func;
    if (fi < nfn && index[fi] >= 0) fprintf(f, "%ld", index[fi]); else fputs("null", f);
    fputs(", \"function_name\": ", f);
    json_write_string(f, fi < nfn ? fn[fi].name : "[unknown]");
    fputs(", \"file\": ", f);
    if (lp[k].file) {
      json_write_string(f, lp[k].file);
      fprintf(f, ", \"line\": %u", lp[k].line);
    } else {
      fputs("null, \"line\": null", f);
    }
    fprintf(f, ", \"samples\": %llu,\n     \"self\": {", (unsigned long long)lp[k].samples);
    for (int s = 0; s < nsig; s++)
      fprintf(f, "%s\"%s\": %llu", s ? ", " : "", tally_signal_name(s), (unsigned long long)lp[k].self[s]);
    fputs("}}", f);
  }
  fputs("\n  ],", f);
}

/* "tasks": per task its totals and functions (tally_profile_tasks). */
static void write_tasks(const tally_profile *p, const tally_func_profile *fn, size_t nfn, const long *index, FILE *f) {
  const tally_task_profile *t;
  size_t nt = tally_profile_tasks(p, &t);
  if (!nt)
    return;
  fputs("\n  \"tasks\": {\"source\": ", f);
  json_write_string(f, tally_profile_tasks_source(p));
  fputs(", \"notes\": [", f);
  const char *const *notes;
  size_t nn = tally_profile_task_notes(p, &notes, NULL);
  for (size_t i = 0; i < nn; i++) {
    if (i)
      fputs(", ", f);
    json_write_string(f, notes[i]);
  }
  fputs("], \"list\": [", f);
  for (size_t i = 0; i < nt; i++) {
    fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
    json_write_string(f, t[i].name);
    fprintf(f, ", \"tcb\": %u, \"trap\": %s, \"switches\": %llu,\n     ", t[i].tcb, t[i].is_trap ? "true" : "false",
            (unsigned long long)t[i].switches);
    write_signals(f, "total", t[i].total);
    fputs(",\n     \"functions\": [", f);
    for (size_t k = 0; k < t[i].nfuncs; k++) {
      const tally_task_func *tf = &t[i].funcs[k];
      bool known = tf->func >= 0 && (size_t)tf->func < nfn;
      fprintf(f, "%s\n      {\"function\": ", k ? "," : "");
      if (known && index[tf->func] >= 0)
        fprintf(f, "%ld", index[tf->func]);
      else
        fputs("null", f);
      fputs(", \"name\": ", f);
      json_write_string(f, known ? fn[tf->func].name : "[unknown]");
      fprintf(f, ", \"calls\": %llu, ", (unsigned long long)tf->calls);
      write_signals(f, "self", tf->self);
      fputs(", ", f);
      write_signals(f, "inclusive", tf->inclusive);
      fputc('}', f);
    }
    fputs("]}", f);
  }
  fputs("\n  ]},", f);
}

int report_write_json(const tally_profile *p, const report_run *run, FILE *f) {
  int nsig = tally_signal_count();
  const tally_func_profile *fn;
  size_t n = tally_profile_functions(p, &fn);
  const tally_arc *arcs;
  size_t narcs = tally_profile_arcs(p, &arcs);
  long *index = malloc((n ? n : 1) * sizeof *index); /* function -> position in "functions" */
  if (!index)
    return -1;

  fprintf(f, "{\n  \"format\": \"%s\",\n  \"version\": %d,\n  \"program\": ", FORMAT_NAME, FORMAT_VERSION);
  json_write_string(f, run->program);
  fprintf(f, ",\n  \"argv\": [");
  for (int i = 0; i < run->argc; i++) {
    if (i)
      fputs(", ", f);
    json_write_string(f, run->argv[i]);
  }
  fprintf(f, "],\n  \"core\": ");
  json_write_string(f, run->core);
  fprintf(f, ",\n  \"clock_hz\": %.0f,\n  \"run\": {\"stop\": ", run->clock_hz);
  json_write_string(f, run->stop);
  fprintf(f, ", \"detail\": ");
  json_write_string(f, run->stop_detail ? run->stop_detail : "");
  fprintf(f, ", \"exit_status\": %d, \"cycles\": %llu, \"instructions\": %llu},\n", run->exit_status,
          (unsigned long long)run->cycles, (unsigned long long)run->instret);

  fprintf(f, "  \"signals\": [");
  for (int s = 0; s < nsig; s++)
    fprintf(f, "%s\"%s\"", s ? ", " : "", tally_signal_name(s));
  fprintf(f, "],\n  \"totals\": {");
  for (int s = 0; s < nsig; s++)
    fprintf(f, "%s\"%s\": %llu", s ? ", " : "", tally_signal_name(s),
            (unsigned long long)tally_profile_total(p, s));
  fprintf(f, "},\n  \"samples_taken\": %llu,\n  \"functions\": [", (unsigned long long)tally_profile_samples_taken(p));

  long shown = 0;
  for (size_t k = 0; k < n; k++) {
    index[k] = -1;
    if (!active(&fn[k], nsig))
      continue;
    index[k] = shown;
    fprintf(f, "%s\n    {\"name\": ", shown ? "," : "");
    json_write_string(f, fn[k].name);
    fprintf(f, ", \"lo\": %u, \"hi\": %u, \"calls\": %llu, \"inclusive_cycles\": %llu, \"handler\": %s, "
            "\"samples\": %llu,\n     ",
            fn[k].lo, fn[k].hi, (unsigned long long)fn[k].calls, (unsigned long long)fn[k].inclusive_cycles,
            fn[k].is_handler ? "true" : "false", (unsigned long long)fn[k].samples);
    write_signals(f, "self", fn[k].self);
    fputs(",\n     ", f);
    write_signals(f, "inclusive", fn[k].inclusive);
    fputc('}', f);
    shown++;
  }
  fprintf(f, "\n  ],\n  \"arcs\": [");
  bool first = true;
  for (size_t a = 0; a < narcs; a++) {
    const tally_arc *arc = &arcs[a];
    long caller = arc->caller >= 0 ? index[arc->caller] : -1;
    long callee = arc->callee >= 0 ? index[arc->callee] : -1;
    fprintf(f, "%s\n    {\"caller\": ", first ? "" : ",");
    first = false;
    if (caller >= 0) fprintf(f, "%ld", caller); else fputs("null", f);
    fputs(", \"callee\": ", f);
    if (callee >= 0) fprintf(f, "%ld", callee); else fputs("null", f);
    fputs(", \"caller_name\": ", f);
    json_write_string(f, arc->caller >= 0 ? fn[arc->caller].name : "[unknown]");
    fputs(", \"callee_name\": ", f);
    json_write_string(f, arc->callee >= 0 ? fn[arc->callee].name : "[unknown]");
    fprintf(f, ", \"calls\": %llu, \"inclusive_cycles\": %llu,\n     ", (unsigned long long)arc->calls,
            (unsigned long long)arc->inclusive_cycles);
    write_signals(f, "inclusive", arc->inclusive);
    fputs(",\n     \"sites\": [", f);
    for (size_t i = 0; i < arc->nsites; i++) {
      fprintf(f, "%s{\"pc\": %u, \"calls\": %llu, \"inclusive_cycles\": %llu, ", i ? ",\n       " : "",
              arc->sites[i].pc, (unsigned long long)arc->sites[i].calls,
              (unsigned long long)arc->sites[i].inclusive_cycles);
      write_signals(f, "inclusive", arc->sites[i].inclusive);
      fputc('}', f);
    }
    fputs("]}", f);
  }
  fputs("\n  ],", f);
  if (run->lines)
    write_lines(p, fn, n, index, f);
  fprintf(f, "\n  \"stacks\": [");
  stack_ctx sc = {f, true};
  tally_profile_stacks(p, stack_entry, &sc);
  uint64_t unmatched, unwinds;
  tally_profile_anomalies(p, &unmatched, &unwinds);
  fputs("\n  ],", f);
  write_tasks(p, fn, n, index, f);
  fprintf(f, "\n  \"anomalies\": {\"unmatched_returns\": %llu, \"unwinds\": %llu}\n}\n",
          (unsigned long long)unmatched, (unsigned long long)unwinds);
  free(index);
  return ferror(f) ? -1 : 0;
}

/* ---- reading it back ------------------------------------------------------ */

void report_profile_free(report_profile *p) {
  if (!p)
    return;
  free(p->program);
  free(p->core);
  for (size_t i = 0; i < p->nsignals; i++)
    free(p->signals[i]);
  free(p->signals);
  free(p->totals);
  for (size_t i = 0; i < p->nfuncs; i++) {
    free(p->funcs[i].name);
    free(p->funcs[i].self);
  }
  free(p->funcs);
  free(p);
}

int report_profile_signal(const report_profile *p, const char *name) {
  for (size_t i = 0; i < p->nsignals; i++)
    if (!strcmp(p->signals[i], name))
      return (int)i;
  return -1;
}

static char *read_file(const char *path, size_t *len, char *err, size_t errsize) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errsize, "%s: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap)
      break;
    char *b = cap > (SIZE_MAX >> 2) ? NULL : realloc(buf, cap * 2);
    if (!b) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = b;
    cap *= 2;
  }
  if (!buf || ferror(f)) {
    snprintf(err, errsize, "%s: %s", path, buf ? strerror(errno) : "out of memory");
    free(buf);
    fclose(f);
    return NULL;
  }
  fclose(f);
  *len = n;
  return buf;
}

/* Sets err to "PATH: line L: WHAT" and returns false. */
static bool bad(char *err, size_t errsize, const char *path, const json_value *at, const char *what) {
  if (at)
    snprintf(err, errsize, "%s: line %u: %s", path, at->line, what);
  else
    snprintf(err, errsize, "%s: %s", path, what);
  return false;
}

static bool take_string(const json_value *v, char **out) {
  if (!v || v->type != JSON_STRING)
    return false;
  return (*out = strdup(v->text)) != NULL;
}

static bool read_counts(const json_value *obj, const report_profile *p, uint64_t *out, const char *path,
                        char *err, size_t errsize) {
  if (!obj || obj->type != JSON_OBJECT)
    return bad(err, errsize, path, obj, "expected an object of signal counts");
  for (size_t i = 0; i < obj->n; i++) {
    int s = report_profile_signal(p, obj->keys[i]);
    if (s < 0)
      continue; /* a signal not listed in "signals": ignored */
    if (!json_u64(&obj->items[i], &out[s])) {
      char what[160];
      snprintf(what, sizeof what, "count of '%s' is not a non-negative integer", obj->keys[i]);
      return bad(err, errsize, path, &obj->items[i], what);
    }
  }
  return true;
}

static bool convert(const json_value *root, report_profile *p, const char *path, char *err, size_t errsize) {
  const json_value *fmt = json_get(root, "format"), *ver = json_get(root, "version");
  uint64_t version;
  if (!fmt || fmt->type != JSON_STRING || strcmp(fmt->text, FORMAT_NAME) != 0)
    return bad(err, errsize, path, NULL, "not a tally JSON profile (no \"format\": \"" FORMAT_NAME "\"; write one with 'tally profile --json FILE')");
  if (!json_u64(ver, &version) || version != FORMAT_VERSION)
    return bad(err, errsize, path, ver, "unsupported profile version (this tally reads version 1)");
  if (!take_string(json_get(root, "program"), &p->program) || !take_string(json_get(root, "core"), &p->core))
    return bad(err, errsize, path, root, "\"program\" and \"core\" must be strings");

  const json_value *sig = json_get(root, "signals");
  if (!sig || sig->type != JSON_ARRAY || sig->n == 0)
    return bad(err, errsize, path, sig, "\"signals\" must be a non-empty array of names");
  p->signals = calloc(sig->n, sizeof *p->signals);
  p->totals = calloc(sig->n, sizeof *p->totals);
  if (!p->signals || !p->totals)
    return bad(err, errsize, path, NULL, "out of memory");
  for (size_t i = 0; i < sig->n; i++) {
    if (!take_string(&sig->items[i], &p->signals[i]))
      return bad(err, errsize, path, &sig->items[i], "\"signals\" must hold strings");
    p->nsignals++;
  }
  if (!read_counts(json_get(root, "totals"), p, p->totals, path, err, errsize))
    return false;

  const json_value *fns = json_get(root, "functions");
  if (!fns || fns->type != JSON_ARRAY)
    return bad(err, errsize, path, fns, "\"functions\" must be an array");
  p->funcs = calloc(fns->n ? fns->n : 1, sizeof *p->funcs);
  if (!p->funcs)
    return bad(err, errsize, path, NULL, "out of memory");
  for (size_t i = 0; i < fns->n; i++) {
    const json_value *fv = &fns->items[i];
    report_func *rf = &p->funcs[i];
    rf->self = calloc(p->nsignals, sizeof *rf->self);
    p->nfuncs++;
    if (!rf->self)
      return bad(err, errsize, path, NULL, "out of memory");
    if (fv->type != JSON_OBJECT || !take_string(json_get(fv, "name"), &rf->name))
      return bad(err, errsize, path, fv, "a function must be an object with a \"name\" string");
    if (!json_u64(json_get(fv, "calls"), &rf->calls) ||
        !json_u64(json_get(fv, "inclusive_cycles"), &rf->inclusive_cycles))
      return bad(err, errsize, path, fv, "a function needs integer \"calls\" and \"inclusive_cycles\"");
    if (!read_counts(json_get(fv, "self"), p, rf->self, path, err, errsize))
      return false;
  }
  return true;
}

report_profile *report_read_json(const char *path, char *err, size_t errsize) {
  size_t len;
  char *text = read_file(path, &len, err, errsize);
  if (!text)
    return NULL;
  char jerr[256];
  json_value *root = json_parse(text, len, jerr, sizeof jerr);
  free(text);
  if (!root) {
    snprintf(err, errsize, "%s: not valid JSON: %s", path, jerr);
    return NULL;
  }
  report_profile *p = calloc(1, sizeof *p);
  if (!p) {
    json_free(root);
    snprintf(err, errsize, "out of memory");
    return NULL;
  }
  bool ok = root->type == JSON_OBJECT ? convert(root, p, path, err, errsize)
                                      : bad(err, errsize, path, root, "not a tally JSON profile (not an object)");
  json_free(root);
  if (!ok) {
    report_profile_free(p);
    return NULL;
  }
  return p;
}
