/*
 * A sweep's results as people and tools read them: the table, CSV, JSON,
 * the Pareto front over two metrics and the best point, each of them per
 * program (a point of one program is never weighed against another's: the
 * shorter program would always win), and over all programs each
 * configuration's geometric mean, over the programs, of each metric
 * relative to the baseline configuration (point 0's). Everything is read
 * back from the file, so the output of a resumed or merged sweep is the
 * output of one uninterrupted run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tally/run.h"
#include "sweep_int.h"

typedef struct row {
  sw_point pt;
  int stored;
  double *v;                 /* one per column */
} row;

typedef struct table {
  const tally_sweep *s;
  sw_list cols;              /* metrics */
  row *rows;
  size_t n;
  int iexit, iobj, ip0, ip1; /* column indexes */
  int wcfg;                  /* the config column's width */
} table;

static int col(table *t, const char *m) {
  for (size_t i = 0; i < t->cols.n; i++)
    if (strcmp(t->cols.v[i], m) == 0)
      return (int)i;
  if (sw_list_add(&t->cols, m) != 0)
    return -1;
  return (int)t->cols.n - 1;
}

static int columns(table *t) {
  const tally_sweep *s = t->s;
  if (s->record.n == 0) {
    if (col(t, "cycles") < 0 || col(t, "instructions") < 0 || col(t, "energy_uj") < 0)
      return -1;
  }
  for (size_t i = 0; i < s->record.n; i++)
    if (col(t, s->record.v[i]) < 0)
      return -1;
  t->iobj = col(t, s->objective);
  t->ip0 = col(t, s->pareto[0]);
  t->ip1 = col(t, s->pareto[1]);
  t->iexit = col(t, "exit");
  return t->iobj < 0 || t->ip0 < 0 || t->ip1 < 0 || t->iexit < 0 ? -1 : 0;
}

static int metric_known(const char *m) {
  static const char *const own[] = {"cycles", "instructions", "energy_uj", "exit", "cache_bytes"};
  for (size_t i = 0; i < sizeof own / sizeof *own; i++)
    if (strcmp(m, own[i]) == 0)
      return 1;
  tally_event ev;
  return tally_signal_lookup(m) >= 0 || (strchr(m, '@') && tally_event_parse(m, &ev, NULL) == 0);
}

static void table_free(table *t) {
  for (size_t i = 0; i < t->n; i++) {
    sw_point_free(&t->rows[i].pt);
    free(t->rows[i].v);
  }
  free(t->rows);
  sw_list_free(&t->cols);
}

static int table_load(table *t, const tally_sweep *s, const char *db, tally_error *err) {
  memset(t, 0, sizeof *t);
  t->s = s;
  if (sw_check_size(s, err) != 0)
    return -1;
  if (columns(t) != 0)
    return sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1;
  for (size_t i = 0; i < t->cols.n; i++)
    if (!metric_known(t->cols.v[i]))
      return sw_err(err, TALLY_E_USAGE,
                    "unknown metric '%s' (cycles, instructions, energy_uj, exit, cache_bytes, a signal: tally signals, "
                    "or a counter SIGNAL@FUNCTION)",
                    t->cols.v[i]), -1;
  sw_db *d = sw_db_open(db, err);
  if (!d)
    return -1;
  size_t total = tally_sweep_points(s);
  t->rows = calloc(total ? total : 1, sizeof *t->rows);
  int rc = t->rows ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < total; i++, t->n++) {
    row *r = &t->rows[i];
    if (sw_point_make(s, i, &r->pt) != 0 || !(r->v = calloc(t->cols.n, sizeof *r->v))) {
      rc = -1;
      break;
    }
    r->stored = sw_db_has(d, r->pt.key) == 1;
    for (size_t c = 0; r->stored && c < t->cols.n; c++)
      if (sw_db_metric(d, r->pt.key, t->cols.v[c], &r->v[c]) != 1)
        r->v[c] = NAN;
  }
  sw_db_close(d);
  t->wcfg = 6;
  for (size_t i = 0; i < s->ncfgs; i++)
    if ((int)strlen(s->cfgs[i].name) > t->wcfg)
      t->wcfg = (int)strlen(s->cfgs[i].name);
  if (rc != 0)
    sw_err(err, TALLY_E_INTERNAL, "out of memory");
  return rc;
}

static void value(FILE *out, double v, const char *fmtint, int width) {
  if (isnan(v))
    fprintf(out, "%*s", width, "-");
  else if (v == floor(v) && fabs(v) < 9e15)
    fprintf(out, fmtint, width, (long long)v);
  else
    fprintf(out, "%*.3f", width, v);
}

static const char *cfg_name(const row *r) {
  return r->pt.cfg ? r->pt.cfg->name : "";
}

static int usable(const table *t, const row *r);
static int on_front(const table *t, const row *r);

static void header(FILE *out, const table *t, const char *sep, int csv) {
  if (csv)
    fprintf(out, "point%sprogram%sconfig", sep, sep);
  else
    fprintf(out, "%5s %-12s %-*s", "point", "program", t->wcfg, "config");
  for (size_t a = 0; a < t->s->naxes; a++)
    fprintf(out, csv ? "%s%s" : "%s%14s", sep, t->s->axes[a].key);
  for (size_t c = 0; c < t->cols.n; c++)
    fprintf(out, csv ? "%s%s" : "%s%16s", sep, t->cols.v[c]);
  if (csv)
    fprintf(out, "%sfront", sep);
  fputc('\n', out);
}

static void line(FILE *out, const table *t, const row *r, const char *sep, int csv) {
  if (csv)
    fprintf(out, "%zu%s%s%s%s", r->pt.index, sep, r->pt.prog->name, sep, cfg_name(r));
  else
    fprintf(out, "%5zu %-12s %-*s", r->pt.index, r->pt.prog->name, t->wcfg, cfg_name(r));
  for (size_t a = 0; a < t->s->naxes; a++)
    fprintf(out, csv ? "%s%s" : "%s%14s", sep, sw_axis_value(t->s, a, r->pt.index));
  for (size_t c = 0; c < t->cols.n; c++) {
    fputs(sep, out);
    if (!r->stored) {
      if (!csv)
        fprintf(out, "%16s", c ? "" : "not run");
    }
    else
      value(out, r->v[c], "%*lld", csv ? 0 : 16);
  }
  if (csv) /* on its program's front: 1, 0; empty when not run */
    fprintf(out, "%s%s", sep, !r->stored ? "" : usable(t, r) && on_front(t, r) ? "1" : "0");
  fputc('\n', out);
}

static int usable(const table *t, const row *r) {
  return r->stored && r->v[t->iexit] == 0;
}

/* r is on its program's front: no usable point of the same program is at
 * least as good in both metrics and better in one (smaller is better). */
static int on_front(const table *t, const row *r) {
  double a = r->v[t->ip0], b = r->v[t->ip1];
  for (size_t j = 0; j < t->n; j++) {
    const row *q = &t->rows[j];
    if (!usable(t, q) || q->pt.prog != r->pt.prog)
      continue;
    double qa = q->v[t->ip0], qb = q->v[t->ip1];
    if (qa <= a && qb <= b && (qa < a || qb < b))
      return 0;
  }
  return 1;
}

/* Points per program: its configurations times the axes' values. Point
 * p * per + c is configuration c of program p (sw_point_make). */
static size_t per_program(const tally_sweep *s) {
  size_t n = s->ncfgs ? s->ncfgs : 1;
  for (size_t a = 0; a < s->naxes; a++)
    n *= s->axes[a].values.n;
  return n;
}

/* Program p's best point by the objective, or NULL. */
static const row *best_of(const table *t, size_t p) {
  size_t per = per_program(t->s);
  const row *best = NULL;
  for (size_t c = 0; c < per && p * per + c < t->n; c++) {
    const row *r = &t->rows[p * per + c];
    if (usable(t, r) && (!best || r->v[t->iobj] < best->v[t->iobj]))
      best = r;
  }
  return best;
}

/* Configuration c by name: its [config] and axis values ("fast icache.size=1K"). */
static void config_name(const table *t, size_t c, char *buf, size_t size) {
  const row *r = &t->rows[c];
  size_t o = (size_t)snprintf(buf, size, "%s", cfg_name(r));
  for (size_t a = 0; a < t->s->naxes && o < size; a++)
    o += (size_t)snprintf(buf + o, size - o, "%s%s=%s", o ? " " : "", t->s->axes[a].key, sw_axis_value(t->s, a, c));
  if (!buf[0])
    snprintf(buf, size, "(the one configuration)");
}

/* Configuration c's geometric mean over the programs of metric column m
 * relative to configuration 0's: NAN when no program has both (exit 0,
 * both values above 0); *k the programs counted. */
static double geomean(const table *t, size_t c, size_t m, size_t *k) {
  size_t per = per_program(t->s);
  double sum = 0;
  *k = 0;
  for (size_t p = 0; p < t->s->nprogs && p * per + c < t->n; p++) {
    const row *r = &t->rows[p * per + c], *b = &t->rows[p * per];
    if (!usable(t, r) || !usable(t, b) || !(r->v[m] > 0) || !(b->v[m] > 0))
      continue;
    sum += log(r->v[m] / b->v[m]);
    (*k)++;
  }
  return *k ? exp(sum / (double)*k) : NAN;
}

static void json_str(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fprintf(out, "\\%c", *s);
    else if ((unsigned char)*s < 0x20)
      fprintf(out, "\\u%04x", *s);
    else
      fputc(*s, out);
  }
  fputc('"', out);
}

static void json_strs(FILE *out, char *const *v, size_t n) {
  fputc('[', out);
  for (size_t i = 0; i < n; i++) {
    fputs(i ? ", " : "", out);
    json_str(out, v[i]);
  }
  fputc(']', out);
}

/* What the sweep is, for readers that draw it (tally serve's page). */
static void json_head(FILE *out, const table *t, const char *name) {
  const tally_sweep *s = t->s;
  fputs("{\"name\": ", out);
  json_str(out, name);
  fputs(", \"objective\": ", out);
  json_str(out, s->objective);
  fputs(", \"pareto_metrics\": ", out);
  json_strs(out, s->pareto, 2);
  fputs(", \"metrics\": ", out);
  json_strs(out, t->cols.v, t->cols.n);
  fputs(",\n \"axes\": [", out);
  for (size_t a = 0; a < s->naxes; a++) {
    fputs(a ? ", {\"key\": " : "{\"key\": ", out);
    json_str(out, s->axes[a].key);
    fputs(", \"values\": ", out);
    json_strs(out, s->axes[a].values.v, s->axes[a].values.n);
    fputc('}', out);
  }
  fputs("],\n", out);
}

static void json(FILE *out, const table *t, const char *name) {
  json_head(out, t, name);
  fputs(" \"points\": [", out);
  int first = 1;
  for (size_t i = 0; i < t->n; i++) {
    const row *r = &t->rows[i];
    if (!r->stored)
      continue;
    fprintf(out, "%s\n  {\"point\": %zu, \"program\": ", first ? "" : ",", r->pt.index);
    json_str(out, r->pt.prog->name);
    fputs(", \"config\": ", out);
    json_str(out, cfg_name(r));
    fputs(", \"axes\": {", out);
    for (size_t a = 0; a < t->s->naxes; a++) {
      fputs(a ? ", " : "", out);
      json_str(out, t->s->axes[a].key);
      fputs(": ", out);
      json_str(out, sw_axis_value(t->s, a, i));
    }
    fprintf(out, "}, \"pareto\": %s, \"metrics\": {", usable(t, r) && on_front(t, r) ? "true" : "false");
    for (size_t c = 0; c < t->cols.n; c++) {
      fputs(c ? ", " : "", out);
      json_str(out, t->cols.v[c]);
      fputs(": ", out);
      if (isnan(r->v[c]))
        fputs("null", out);
      else
        value(out, r->v[c], "%*lld", 0);
    }
    fputs("}}", out);
    first = 0;
  }
  fputs("\n],\n \"best\": [", out);
  for (size_t p = 0; p < t->s->nprogs; p++) {
    const row *b = best_of(t, p);
    fputs(p ? ", {\"program\": " : "{\"program\": ", out);
    json_str(out, t->s->progs[p].name);
    if (b)
      fprintf(out, ", \"point\": %zu}", b->pt.index);
    else
      fputs(", \"point\": null}", out);
  }
  char cname[1400];
  config_name(t, 0, cname, sizeof cname);
  fputs("],\n \"aggregate\": {\"baseline\": ", out);
  json_str(out, cname);
  fputs(", \"configs\": [", out);
  size_t per = per_program(t->s);
  for (size_t c = 0; c < per && c < t->n; c++) {
    config_name(t, c, cname, sizeof cname);
    fputs(c ? ",\n  {\"config\": " : "\n  {\"config\": ", out);
    json_str(out, cname);
    size_t most = 0;
    fputs(", \"geomean\": {", out);
    int any = 0;
    for (size_t m = 0; m < t->cols.n; m++) {
      if ((int)m == t->iexit)
        continue;
      size_t k;
      double g = geomean(t, c, m, &k);
      most = k > most ? k : most;
      fputs(any ? ", " : "", out);
      json_str(out, t->cols.v[m]);
      if (isnan(g))
        fputs(": null", out);
      else
        fprintf(out, ": %.6f", g);
      any = 1;
    }
    fprintf(out, "}, \"programs\": %zu}", most);
  }
  fputs("]}}\n", out);
}

/* Over all programs: each configuration's geometric means (the table). */
static void aggregate(FILE *out, const table *t) {
  char cname[1400];
  size_t per = per_program(t->s);
  int w = 13;
  for (size_t c = 0; c < per && c < t->n; c++) {
    config_name(t, c, cname, sizeof cname);
    if ((int)strlen(cname) > w)
      w = (int)strlen(cname);
  }
  config_name(t, 0, cname, sizeof cname);
  fprintf(out, "over all %zu programs: each metric's geometric mean over the programs, relative to the baseline "
          "configuration %s (point 0's):\n", t->s->nprogs, cname);
  fprintf(out, "%-*s %8s", w, "configuration", "programs");
  for (size_t m = 0; m < t->cols.n; m++)
    if ((int)m != t->iexit)
      fprintf(out, " %16s", t->cols.v[m]);
  fputc('\n', out);
  for (size_t c = 0; c < per && c < t->n; c++) {
    config_name(t, c, cname, sizeof cname);
    size_t most = 0, k;
    for (size_t m = 0; m < t->cols.n; m++)
      if ((int)m != t->iexit && (geomean(t, c, m, &k), k > most))
        most = k;
    fprintf(out, "%-*s %8zu", w, cname, most);
    for (size_t m = 0; m < t->cols.n; m++) {
      if ((int)m == t->iexit)
        continue;
      double g = geomean(t, c, m, &k);
      if (isnan(g))
        fprintf(out, " %16s", "-");
      else
        fprintf(out, " %16.4f", g);
    }
    fputc('\n', out);
  }
}

int tally_sweep_write(const tally_sweep *s, const char *db, tally_sweep_format fmt, FILE *out, tally_error *err) {
  table t;
  if (table_load(&t, s, db, err) != 0) {
    table_free(&t);
    return -1;
  }
  int csv = fmt == TALLY_SWEEP_CSV;
  switch (fmt) {
  case TALLY_SWEEP_TABLE:
  case TALLY_SWEEP_CSV:
    header(out, &t, csv ? "," : " ", csv);
    for (size_t i = 0; i < t.n; i++)
      line(out, &t, &t.rows[i], csv ? "," : " ", csv);
    break;
  case TALLY_SWEEP_JSON: {
    char *name = sw_name(s);
    json(out, &t, name ? name : "");
    free(name);
    break;
  }
  case TALLY_SWEEP_PARETO:
    fprintf(out, "Pareto front over %s and %s (smaller is better; points that exited 0%s):\n", s->pareto[0],
            s->pareto[1], s->nprogs > 1 ? "; one front per program" : "");
    header(out, &t, " ", 0);
    for (size_t i = 0; i < t.n; i++)
      if (usable(&t, &t.rows[i]) && on_front(&t, &t.rows[i]))
        line(out, &t, &t.rows[i], " ", 0);
    break;
  case TALLY_SWEEP_BEST:
    for (size_t p = 0; p < s->nprogs; p++) {
      const row *best = best_of(&t, p);
      char of[300] = "";
      if (s->nprogs > 1)
        snprintf(of, sizeof of, " of %s", s->progs[p].name);
      if (p)
        fputc('\n', out);
      if (best) {
        fprintf(out, "best point%s by %s:\n", of, s->objective);
        header(out, &t, " ", 0);
        line(out, &t, best, " ", 0);
        fprintf(out, "  sets: ");
        for (size_t k = 0; k < best->pt.sets.n; k++)
          fprintf(out, "%s--set %s", k ? " " : "", best->pt.sets.v[k]);
        fputc('\n', out);
      } else {
        fprintf(out, "best point%s by %s: none (no point has run to exit status 0)\n", of, s->objective);
      }
    }
    if (s->nprogs > 1) {
      fputc('\n', out);
      aggregate(out, &t);
    }
    break;
  }
  table_free(&t);
  return 0;
}
