/*
 * A sweep's description kept in its own file, for readers that do not have
 * the spec (tally serve lists and shows the sweeps of a file): every field
 * that decides a point's key and the reports, one line per item, fields
 * separated by tabs, with backslash escapes for tab, newline and backslash.
 * Not INI on purpose: two programs of one name or an override holding ';'
 * must come back exactly, or the points' keys would not match.
 *
 *   tally-sweep 1
 *   name <TAB> fig5
 *   core <TAB> tally5          objective, max_insns alike
 *   pareto <TAB> cycles <TAB> energy_uj
 *   record <TAB> cycles ...
 *   set <TAB> icache.line=32
 *   program <TAB> NAME <TAB> argv0 <TAB> argv1 ...
 *   config <TAB> NAME <TAB> CORE or empty <TAB> set ...
 *   axis <TAB> KEY <TAB> v1 <TAB> v2 ...
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweep_int.h"

#define MAGIC "tally-sweep 1"

static void field(FILE *f, const char *v) {
  fputc('\t', f);
  for (; *v; v++) {
    if (*v == '\t')
      fputs("\\t", f);
    else if (*v == '\n')
      fputs("\\n", f);
    else if (*v == '\\')
      fputs("\\\\", f);
    else
      fputc(*v, f);
  }
}

static void list_line(FILE *f, const char *kind, const char *first, const sw_list *l) {
  fputs(kind, f);
  if (first)
    field(f, first);
  for (size_t i = 0; i < l->n; i++)
    field(f, l->v[i]);
  fputc('\n', f);
}

char *sw_spec_text(const tally_sweep *s) {
  char *buf = NULL, *name = sw_name(s);
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f || !name) {
    if (f)
      fclose(f);
    free(buf);
    free(name);
    return NULL;
  }
  fputs(MAGIC "\nname", f);
  field(f, name);
  fputs("\ncore", f);
  field(f, s->core);
  fputs("\nobjective", f);
  field(f, s->objective);
  fprintf(f, "\nmax_insns\t%llu", (unsigned long long)s->max_insns);
  if (s->max_cycles)
    fprintf(f, "\nmax_cycles\t%llu", (unsigned long long)s->max_cycles);
  fputs("\npareto", f);
  field(f, s->pareto[0]);
  field(f, s->pareto[1]);
  fputc('\n', f);
  list_line(f, "record", NULL, &s->record);
  for (size_t i = 0; i < s->sets.n; i++) {
    fputs("set", f);
    field(f, s->sets.v[i]);
    fputc('\n', f);
  }
  for (size_t i = 0; i < s->nprogs; i++)
    list_line(f, "program", s->progs[i].name, &s->progs[i].argv);
  for (size_t i = 0; i < s->ncfgs; i++) {
    fputs("config", f);
    field(f, s->cfgs[i].name);
    list_line(f, "", s->cfgs[i].core ? s->cfgs[i].core : "", &s->cfgs[i].sets);
  }
  for (size_t i = 0; i < s->naxes; i++)
    list_line(f, "axis", s->axes[i].key, &s->axes[i].values);
  free(name);
  if (fclose(f) != 0) {
    free(buf);
    return NULL;
  }
  return buf;
}

char *sw_name(const tally_sweep *s) {
  if (s->name)
    return strdup(s->name);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f)
    return NULL;
  for (size_t i = 0; i < s->nprogs; i++)
    fprintf(f, "%s%s", i ? ", " : "", s->progs[i].name);
  for (size_t i = 0; i < s->naxes; i++)
    fprintf(f, "%s%s", i ? " x " : ": ", s->axes[i].key);
  if (fclose(f) != 0) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* ---- Reading it back ---- */

/* Splits a line in place at tabs, undoing the escapes; the fields' count. */
static size_t split_fields(char *line, char **f, size_t max) {
  size_t n = 0;
  char *w = line;
  f[n++] = w;
  for (char *r = line; *r; r++) {
    if (*r == '\t' && n < max) {
      *w++ = 0;
      f[n++] = w;
    } else if (*r == '\\' && r[1]) {
      r++;
      *w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r;
    } else {
      *w++ = *r;
    }
  }
  *w = 0;
  return n;
}

static int add_all(sw_list *l, char **f, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (sw_list_add(l, f[i]) != 0)
      return -1;
  return 0;
}

static int add_config(tally_sweep *s, char **f, size_t n) {
  sw_config *c = sw_config_add(s, f[0]);
  if (!c || (f[1][0] && !(c->core = strdup(f[1]))))
    return -1;
  return add_all(&c->sets, f + 2, n - 2);
}

static int add_axis(tally_sweep *s, char **f, size_t n) {
  sw_axis *a = realloc(s->axes, (s->naxes + 1) * sizeof *a);
  if (!a)
    return -1;
  s->axes = a;
  a += s->naxes;
  memset(a, 0, sizeof *a);
  if (!(a->key = strdup(f[0])))
    return -1;
  s->naxes++;
  return add_all(&a->values, f + 1, n - 1);
}

static int add_program(tally_sweep *s, char **f, size_t n) {
  sw_program *p = realloc(s->progs, (s->nprogs + 1) * sizeof *p);
  if (!p)
    return -1;
  s->progs = p;
  p += s->nprogs;
  memset(p, 0, sizeof *p);
  if (!(p->name = strdup(f[0])))
    return -1;
  s->nprogs++;
  return add_all(&p->argv, f + 1, n - 1);
}

/* One line of the description; 1 done, 0 not understood, -1 out of memory. */
static int spec_item(tally_sweep *s, char *line) {
  char *f[4096];
  size_t n = split_fields(line, f, sizeof f / sizeof *f);
  const char *k = f[0];
  if (n == 2 && (!strcmp(k, "name") || !strcmp(k, "core") || !strcmp(k, "objective") || !strcmp(k, "max_insns") ||
                 !strcmp(k, "max_cycles")))
    return tally_sweep_option(s, k, f[1], NULL) == 0 ? 1 : 0;
  if (!strcmp(k, "pareto") && n == 3) {
    char both[1024];
    snprintf(both, sizeof both, "%s,%s", f[1], f[2]);
    return tally_sweep_option(s, "pareto", both, NULL) == 0 ? 1 : 0;
  }
  if (!strcmp(k, "record"))
    return sw_list_free(&s->record), add_all(&s->record, f + 1, n - 1) == 0 ? 1 : -1;
  if (!strcmp(k, "set") && n == 2)
    return sw_list_add(&s->sets, f[1]) == 0 ? 1 : -1;
  if (!strcmp(k, "program") && n >= 3)
    return add_program(s, f + 1, n - 1) == 0 ? 1 : -1;
  if (!strcmp(k, "config") && n >= 3)
    return add_config(s, f + 1, n - 1) == 0 ? 1 : -1;
  if (!strcmp(k, "axis") && n >= 3)
    return add_axis(s, f + 1, n - 1) == 0 ? 1 : -1;
  return 0;
}

static int spec_parse(tally_sweep *s, const char *text, const char *db, long id, tally_error *err) {
  char *copy = strdup(text), *save = NULL;
  if (!copy)
    return sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1;
  int rc = 0, lineno = 0;
  for (char *line = strtok_r(copy, "\n", &save); line && rc == 0; line = strtok_r(NULL, "\n", &save)) {
    if (++lineno == 1) {
      if (strcmp(line, MAGIC) != 0)
        rc = (sw_err(err, TALLY_E_INPUT, "%s: sweep %ld: not a description this tally reads", db, id), -1);
      continue;
    }
    int r = spec_item(s, line);
    if (r < 0)
      rc = (sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1);
    else if (r == 0)
      rc = (sw_err(err, TALLY_E_INPUT, "%s: sweep %ld: line %d of its description is wrong", db, id, lineno), -1);
  }
  free(copy);
  return rc;
}

/* ---- The file's list ---- */

static sqlite3 *open_ro(const char *db, tally_error *err) {
  sqlite3 *h = NULL;
  if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
    sw_err(err, TALLY_E_INPUT, "%s: cannot open it (%s)", db, h ? sqlite3_errmsg(h) : "out of memory");
    sqlite3_close(h);
    return NULL;
  }
  sqlite3_busy_timeout(h, 10000);
  return h;
}

/* The description of sweep id: malloc'd text, NULL with *found 0 when the
 * file has no such sweep (or no descriptions at all). */
static char *spec_of(sqlite3 *h, long id, int *found) {
  sqlite3_stmt *st = NULL;
  char *text = NULL;
  *found = 0;
  if (sqlite3_prepare_v2(h, "SELECT spec FROM sweep_spec WHERE id=?", -1, &st, NULL) == SQLITE_OK) {
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) == SQLITE_ROW) {
      *found = 1;
      text = strdup((const char *)sqlite3_column_text(st, 0));
    }
  }
  sqlite3_finalize(st);
  return text;
}

int tally_sweep_load_stored(tally_sweep *s, const char *db, long id, tally_error *err) {
  sqlite3 *h = open_ro(db, err);
  if (!h)
    return -1;
  int found;
  char *text = spec_of(h, id, &found);
  sqlite3_close(h);
  if (!found)
    return sw_err(err, TALLY_E_USAGE, "%s holds no sweep %ld", db, id), -1;
  if (!text)
    return sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1;
  int rc = spec_parse(s, text, db, id, err);
  free(text);
  return rc;
}

/* How many of the sweep's points the file db holds. */
static long stored_points(const tally_sweep *s, sqlite3 *h) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(h, "SELECT 1 FROM sweep_point WHERE key=?", -1, &st, NULL) != SQLITE_OK)
    return -1;
  long n = 0;
  size_t total = tally_sweep_points(s);
  for (size_t i = 0; i < total && n >= 0; i++) {
    sw_point p;
    if (sw_point_make(s, i, &p) != 0) {
      n = -1;
    } else {
      sqlite3_reset(st);
      sqlite3_bind_text(st, 1, p.key, -1, SQLITE_TRANSIENT);
      n += sqlite3_step(st) == SQLITE_ROW;
    }
    sw_point_free(&p);
  }
  sqlite3_finalize(st);
  return n;
}

static int entry(sqlite3 *h, const char *db, long id, const char *text, tally_sweep_entry *e, tally_error *err) {
  tally_sweep *s = tally_sweep_new();
  memset(e, 0, sizeof *e);
  e->id = id;
  int rc = s ? spec_parse(s, text, db, id, err) : (sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1);
  if (rc == 0 && sw_check_size(s, err) != 0)
    rc = -1;
  if (rc == 0) {
    long n = stored_points(s, h);
    e->points = tally_sweep_points(s);
    e->stored = n > 0 ? (size_t)n : 0;
    if (n < 0 || !(e->name = sw_name(s)))
      rc = (sw_err(err, TALLY_E_INTERNAL, "%s: cannot count the points of sweep %ld", db, id), -1);
  }
  tally_sweep_free(s);
  return rc;
}

int tally_sweep_list(const char *db, tally_sweep_entry **out, size_t *n, tally_error *err) {
  *out = NULL;
  *n = 0;
  sqlite3 *h = open_ro(db, err);
  if (!h)
    return -1;
  sqlite3_stmt *st = NULL;
  int rc = 0;
  if (sqlite3_prepare_v2(h, "SELECT id, spec FROM sweep_spec ORDER BY id", -1, &st, NULL) != SQLITE_OK) {
    /* a sweep file of an older tally (or any other SQLite file) has no
     * descriptions; what is not SQLite is an error */
    rc = strstr(sqlite3_errmsg(h), "no such table") ? 0 : -1;
    if (rc != 0)
      sw_err(err, TALLY_E_INPUT, "%s: not a sweep file (%s)", db, sqlite3_errmsg(h));
    sqlite3_close(h);
    return rc;
  }
  while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
    tally_sweep_entry *v = realloc(*out, (*n + 1) * sizeof *v);
    if (!v) {
      rc = (sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1);
      break;
    }
    *out = v;
    rc = entry(h, db, (long)sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1), &v[*n], err);
    if (rc == 0)
      (*n)++;
  }
  sqlite3_finalize(st);
  sqlite3_close(h);
  if (rc != 0) {
    tally_sweep_list_free(*out, *n);
    *out = NULL;
    *n = 0;
  }
  return rc;
}

void tally_sweep_list_free(tally_sweep_entry *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(v[i].name);
  free(v);
}
