/*
 * Callgrind with tasks (tally profile --tasks --callgrind): the task is the
 * root frame. Each task is a function "[TASK]" whose self costs are what
 * ran in it outside any frame, and each function that ran in a task is a
 * function of its own, "NAME [TASK]", so that KCachegrind and
 * callgrind_annotate show every task's call tree apart. Costs come from
 * the calling contexts (tally_profile_contexts), so they have no
 * per-instruction positions: every cost line is at position 0 line 0. A
 * call line carries the callee's inclusive counts when called from that
 * caller in that task, recursion counted once, as in the whole profile.
 */
#include <stdlib.h>
#include <string.h>

#include "export.h"

#define MAX_EVENTS 64

typedef struct cg_func {
  char *name;
  uint64_t self[MAX_EVENTS];
} cg_func;

typedef struct cg_arc {
  int caller, callee;
  uint64_t calls;
  uint64_t incl[MAX_EVENTS];
} cg_arc;

typedef struct cg {
  int ev[MAX_EVENTS], nev;
  cg_func *f;
  size_t nf, capf;
  int *ftab;            /* 1 + index by name hash, 0 free */
  size_t ftab_cap;
  cg_arc *a;
  size_t na, capa;
  int *atab;
  size_t atab_cap;
  int *path;
  size_t path_cap;
  bool oom;
} cg;

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static bool grow_tab(int **tab, size_t *cap, size_t n, uint64_t (*key)(const cg *, int), const cg *c) {
  if (2 * (n + 1) <= *cap)
    return true;
  size_t nc = *cap ? 2 * *cap : 256;
  int *t = calloc(nc, sizeof *t);
  if (!t)
    return false;
  for (size_t i = 0; i < *cap; i++)
    if ((*tab)[i]) {
      size_t j = key(c, (*tab)[i] - 1) & (nc - 1);
      while (t[j])
        j = (j + 1) & (nc - 1);
      t[j] = (*tab)[i];
    }
  free(*tab);
  *tab = t;
  *cap = nc;
  return true;
}

static uint64_t func_key(const cg *c, int i) { return hash_str(c->f[i].name); }
static uint64_t arc_key2(int caller, int callee) {
  uint64_t h = (uint64_t)(uint32_t)caller * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uint32_t)callee * 0xC2B2AE3D27D4EB4Full;
  return h ^ (h >> 29);
}
static uint64_t arc_key(const cg *c, int i) { return arc_key2(c->a[i].caller, c->a[i].callee); }

/* The function named "[task]" (depth 0) or "name [task]". */
static int func_id(cg *c, const char *name, const char *task, bool root) {
  char buf[512];
  if (root)
    snprintf(buf, sizeof buf, "[%s]", task);
  else
    snprintf(buf, sizeof buf, "%s [%s]", name, task);
  if (!grow_tab(&c->ftab, &c->ftab_cap, c->nf, func_key, c))
    return -1;
  size_t mask = c->ftab_cap - 1, j = hash_str(buf) & mask;
  for (; c->ftab[j]; j = (j + 1) & mask)
    if (!strcmp(c->f[c->ftab[j] - 1].name, buf))
      return c->ftab[j] - 1;
  if (c->nf == c->capf) {
    size_t cap = c->capf ? 2 * c->capf : 64;
    cg_func *v = realloc(c->f, cap * sizeof *v);
    if (!v)
      return -1;
    c->f = v;
    c->capf = cap;
  }
  cg_func *fn = &c->f[c->nf];
  memset(fn, 0, sizeof *fn);
  if (!(fn->name = strdup(buf)))
    return -1;
  c->ftab[j] = (int)++c->nf;
  return (int)c->nf - 1;
}

static int arc_id(cg *c, int caller, int callee) {
  if (!grow_tab(&c->atab, &c->atab_cap, c->na, arc_key, c))
    return -1;
  size_t mask = c->atab_cap - 1, j = arc_key2(caller, callee) & mask;
  for (; c->atab[j]; j = (j + 1) & mask)
    if (c->a[c->atab[j] - 1].caller == caller && c->a[c->atab[j] - 1].callee == callee)
      return c->atab[j] - 1;
  if (c->na == c->capa) {
    size_t cap = c->capa ? 2 * c->capa : 64;
    cg_arc *v = realloc(c->a, cap * sizeof *v);
    if (!v)
      return -1;
    c->a = v;
    c->capa = cap;
  }
  cg_arc *a = &c->a[c->na];
  memset(a, 0, sizeof *a);
  a->caller = caller;
  a->callee = callee;
  c->atab[j] = (int)++c->na;
  return (int)c->na - 1;
}

static void on_context(void *ctx, const char *const *names, size_t depth, uint64_t calls, const uint64_t *counts) {
  cg *c = ctx;
  if (c->oom || depth == 0)
    return;
  if (depth > c->path_cap) {
    int *p = realloc(c->path, 2 * depth * sizeof *p);
    if (!p) {
      c->oom = true;
      return;
    }
    c->path = p;
    c->path_cap = 2 * depth;
  }
  for (size_t i = 0; i < depth; i++)
    if ((c->path[i] = func_id(c, names[i], names[0], i == 0)) < 0) {
      c->oom = true;
      return;
    }
  cg_func *leaf = &c->f[c->path[depth - 1]];
  for (int e = 0; e < c->nev; e++)
    leaf->self[e] += counts[c->ev[e]];
  for (size_t i = 0; i + 1 < depth; i++) {
    bool seen = false; /* an arc nested in itself counts once */
    for (size_t k = 0; k < i && !seen; k++)
      seen = c->path[k] == c->path[i] && c->path[k + 1] == c->path[i + 1];
    int a = arc_id(c, c->path[i], c->path[i + 1]);
    if (a < 0) {
      c->oom = true;
      return;
    }
    if (i + 2 == depth)
      c->a[a].calls += calls;
    if (!seen)
      for (int e = 0; e < c->nev; e++)
        c->a[a].incl[e] += counts[c->ev[e]];
  }
}

int report_write_callgrind_tasks(const tally_profile *p, const report_run *run, FILE *f) {
  cg c = {0};
  int cyc = tally_signal_lookup("cycle"), ins = tally_signal_lookup("instret");
  c.ev[c.nev++] = cyc;
  c.ev[c.nev++] = ins;
  for (int s = 0; s < tally_signal_count() && c.nev < MAX_EVENTS; s++)
    if (s != cyc && s != ins && tally_profile_total(p, s) && strncmp(tally_signal_name(s), "marker", 6) != 0)
      c.ev[c.nev++] = s;
  tally_profile_contexts(p, on_context, &c);
  int rc = c.oom ? -1 : 0;
  if (rc == 0) {
    report_callgrind_header(f, run,
                            "Tasks: the root of each call tree is a task, [TASK]; a function NAME running in it is "
                            "\"NAME [TASK]\"",
                            c.ev, c.nev);
    fprintf(f, "fl=???\n");
    for (size_t i = 0; i < c.nf; i++) {
      fprintf(f, "\nfn=(%zu) %s\n0 0", i + 1, c.f[i].name);
      for (int e = 0; e < c.nev; e++)
        fprintf(f, " %llu", (unsigned long long)c.f[i].self[e]);
      fputc('\n', f);
      for (size_t k = 0; k < c.na; k++) {
        if (c.a[k].caller != (int)i)
          continue;
        /* a name's first use must carry it: callees are named by id after their fn= (written above or below) */
        fprintf(f, "cfn=(%d) %s\ncalls=%llu 0 0\n0 0", c.a[k].callee + 1, c.f[c.a[k].callee].name,
                (unsigned long long)c.a[k].calls);
        for (int e = 0; e < c.nev; e++)
          fprintf(f, " %llu", (unsigned long long)c.a[k].incl[e]);
        fputc('\n', f);
      }
    }
    fprintf(f, "\ntotals:");
    for (int e = 0; e < c.nev; e++)
      fprintf(f, " %llu", (unsigned long long)tally_profile_total(p, c.ev[e]));
    fprintf(f, "\n");
  }
  for (size_t i = 0; i < c.nf; i++)
    free(c.f[i].name);
  free(c.f);
  free(c.ftab);
  free(c.a);
  free(c.atab);
  free(c.path);
  return rc == 0 && !ferror(f) ? 0 : -1;
}
