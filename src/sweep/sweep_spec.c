/*
 * The sweep's description: programs, configurations, axes and options,
 * from a spec file (INI, through inih) or one call at a time; and the
 * numbering of its points.
 */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tally/run.h"
#include "sweep_int.h"

void sw_err(tally_error *err, tally_errcode code, const char *fmt, ...) {
  if (!err)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
  err->code = code;
}

int sw_list_add(sw_list *l, const char *s) {
  char **v = realloc(l->v, (l->n + 1) * sizeof *v);
  if (!v)
    return -1;
  l->v = v;
  if (!(v[l->n] = strdup(s)))
    return -1;
  l->n++;
  return 0;
}

void sw_list_free(sw_list *l) {
  for (size_t i = 0; i < l->n; i++)
    free(l->v[i]);
  free(l->v);
  l->v = NULL;
  l->n = 0;
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s))
    s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1]))
    s[--n] = 0;
  return s;
}

/* Splits s at any of seps, trimming blanks; empty pieces are dropped. */
int sw_split(sw_list *l, const char *s, const char *seps) {
  char *copy = strdup(s);
  if (!copy)
    return -1;
  int rc = 0;
  char *save = NULL;
  for (char *t = strtok_r(copy, seps, &save); t && rc == 0; t = strtok_r(NULL, seps, &save)) {
    t = trim(t);
    if (*t)
      rc = sw_list_add(l, t);
  }
  free(copy);
  return rc;
}

tally_sweep *tally_sweep_new(void) {
  tally_sweep *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->core = strdup("tally5");
  s->objective = strdup("cycles");
  s->pareto[0] = strdup("cycles");
  s->pareto[1] = strdup("energy_uj");
  if (!s->core || !s->objective || !s->pareto[0] || !s->pareto[1]) {
    tally_sweep_free(s);
    return NULL;
  }
  return s;
}

void tally_sweep_free(tally_sweep *s) {
  if (!s)
    return;
  for (size_t i = 0; i < s->nprogs; i++) {
    free(s->progs[i].name);
    sw_list_free(&s->progs[i].argv);
  }
  for (size_t i = 0; i < s->ncfgs; i++) {
    free(s->cfgs[i].name);
    free(s->cfgs[i].core);
    sw_list_free(&s->cfgs[i].sets);
  }
  for (size_t i = 0; i < s->naxes; i++) {
    free(s->axes[i].key);
    sw_list_free(&s->axes[i].values);
  }
  free(s->progs);
  free(s->cfgs);
  free(s->axes);
  sw_list_free(&s->sets);
  sw_list_free(&s->record);
  free(s->core);
  free(s->objective);
  free(s->pareto[0]);
  free(s->pareto[1]);
  free(s->name);
  free(s);
}

int tally_sweep_add_program(tally_sweep *s, const char *name, const char *elf, const char *args, tally_error *err) {
  sw_program *p = realloc(s->progs, (s->nprogs + 1) * sizeof *p);
  if (!p)
    goto oom;
  s->progs = p;
  p += s->nprogs;
  memset(p, 0, sizeof *p);
  if (!(p->name = strdup(name)) || sw_list_add(&p->argv, elf) != 0 || (args && sw_split(&p->argv, args, " \t") != 0))
    goto oom;
  s->nprogs++;
  return 0;
oom:
  sw_err(err, TALLY_E_INTERNAL, "out of memory");
  return -1;
}

/* "section.key=value" with both sides non-empty: the key and value split. */
static int split_set(const char *spec, char *key, size_t ksize, const char **value, tally_error *err) {
  const char *eq = strchr(spec, '=');
  const char *dot = strchr(spec, '.');
  if (!eq || !dot || dot > eq || eq == spec || !eq[1] || (size_t)(eq - spec) >= ksize) {
    sw_err(err, TALLY_E_USAGE, "'%s': expected section.key=value", spec);
    return -1;
  }
  memcpy(key, spec, (size_t)(eq - spec));
  key[eq - spec] = 0;
  char *k = trim(key);
  memmove(key, k, strlen(k) + 1); /* trim may start inside key: overlapping */
  *value = eq + 1;
  return 0;
}

int tally_sweep_add_axis(tally_sweep *s, const char *spec, tally_error *err) {
  char key[128];
  const char *vals;
  if (split_set(spec, key, sizeof key, &vals, err) != 0)
    return -1;
  for (size_t i = 0; i < s->naxes; i++)
    if (strcmp(s->axes[i].key, key) == 0) {
      sw_err(err, TALLY_E_USAGE, "axis '%s' given twice", key);
      return -1;
    }
  sw_axis *a = realloc(s->axes, (s->naxes + 1) * sizeof *a);
  if (!a)
    goto oom;
  s->axes = a;
  a += s->naxes;
  memset(a, 0, sizeof *a);
  if (!(a->key = strdup(key)) || sw_split(&a->values, vals, ",") != 0)
    goto oom;
  s->naxes++;
  if (a->values.n == 0) {
    sw_err(err, TALLY_E_USAGE, "axis '%s' has no values", key);
    return -1;
  }
  return 0;
oom:
  sw_err(err, TALLY_E_INTERNAL, "out of memory");
  return -1;
}

int tally_sweep_add_set(tally_sweep *s, const char *spec, tally_error *err) {
  char key[128];
  const char *val;
  if (split_set(spec, key, sizeof key, &val, err) != 0)
    return -1;
  if (sw_list_add(&s->sets, spec) != 0) {
    sw_err(err, TALLY_E_INTERNAL, "out of memory");
    return -1;
  }
  return 0;
}

static int replace(char **dst, const char *v) {
  char *c = strdup(v);
  if (!c)
    return -1;
  free(*dst);
  *dst = c;
  return 0;
}

int tally_sweep_option(tally_sweep *s, const char *key, const char *value, tally_error *err) {
  int rc = 0;
  if (strcmp(key, "core") == 0)
    rc = replace(&s->core, value);
  else if (strcmp(key, "name") == 0)
    rc = replace(&s->name, value);
  else if (strcmp(key, "objective") == 0)
    rc = replace(&s->objective, value);
  else if (strcmp(key, "record") == 0) {
    sw_list_free(&s->record);
    rc = sw_split(&s->record, value, ", \t");
  } else if (strcmp(key, "pareto") == 0) {
    sw_list l = {0};
    if (sw_split(&l, value, ", \t") != 0 || l.n != 2) {
      sw_list_free(&l);
      sw_err(err, TALLY_E_USAGE, "pareto '%s': expected two metrics, e.g. cycles,energy_uj", value);
      return -1;
    }
    rc = replace(&s->pareto[0], l.v[0]) | replace(&s->pareto[1], l.v[1]);
    sw_list_free(&l);
  } else if (strcmp(key, "one_pass") == 0) {
    if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0) {
      sw_err(err, TALLY_E_USAGE, "one_pass '%s': expected true or false", value);
      return -1;
    }
    s->one_pass = strcmp(value, "true") == 0;
  } else if (strcmp(key, "max_insns") == 0) {
    if (!tally_parse_number(value, &s->max_insns)) {
      sw_err(err, TALLY_E_USAGE, "max_insns '%s': not a number", value);
      return -1;
    }
  } else if (strcmp(key, "max_cycles") == 0) {
    if (!tally_parse_number(value, &s->max_cycles)) {
      sw_err(err, TALLY_E_USAGE, "max_cycles '%s': not a number", value);
      return -1;
    }
  } else {
    sw_err(err, TALLY_E_USAGE, "unknown option '%s' (name, core, objective, pareto, record, max_insns, max_cycles, "
           "one_pass)", key);
    return -1;
  }
  if (rc != 0)
    sw_err(err, TALLY_E_INTERNAL, "out of memory");
  return rc ? -1 : 0;
}

/* ---- The spec file ---- */

typedef struct spec_ctx {
  tally_sweep *s;
  const char *path;
  tally_error *err;
  int failed;
  char program[128];         /* the [program NAME] being read */
  char elf[1024], args[1024];
  FILE *f;
  int line;                  /* lines read so far */
} spec_ctx;

sw_config *sw_config_add(tally_sweep *s, const char *name) {
  sw_config *c = realloc(s->cfgs, (s->ncfgs + 1) * sizeof *c);
  if (!c)
    return NULL;
  s->cfgs = c;
  c += s->ncfgs;
  memset(c, 0, sizeof *c);
  if (!(c->name = strdup(name)))
    return NULL;
  s->ncfgs++;
  return c;
}

static int config_named(tally_sweep *s, const char *name, sw_config **out) {
  for (size_t i = 0; i < s->ncfgs; i++)
    if (strcmp(s->cfgs[i].name, name) == 0)
      return *out = &s->cfgs[i], 0;
  return (*out = sw_config_add(s, name)) ? 0 : -1;
}

/* Ends a [program] section: it must have named its ELF. */
static int flush_program(spec_ctx *c, int line) {
  if (!c->program[0])
    return 0;
  int rc = 0;
  if (!c->elf[0]) {
    sw_err(c->err, TALLY_E_INPUT, "%s:%d: [program %s] has no 'elf ='", c->path, line, c->program);
    rc = -1;
  } else {
    rc = tally_sweep_add_program(c->s, c->program, c->elf, c->args, c->err);
  }
  c->program[0] = c->elf[0] = c->args[0] = 0;
  return rc;
}

static int section_is(const char *section, const char *word, const char **name) {
  size_t n = strlen(word);
  if (strncmp(section, word, n) != 0 || (section[n] && section[n] != ' '))
    return 0;
  *name = section + n;
  while (**name == ' ')
    (*name)++;
  return 1;
}

static int spec_line(void *user, const char *section, const char *key, const char *value, int line) {
  spec_ctx *c = user;
  const char *name;
  tally_error e = {{0}, TALLY_E_INPUT};
  int rc = 0;
  char buf[1200];
  if (section_is(section, "program", &name)) {
    if (strcmp(c->program, name) != 0) {
      if (flush_program(c, line) != 0)
        return c->failed = 1, 0;
      snprintf(c->program, sizeof c->program, "%s", *name ? name : "program");
    }
    if (strcmp(key, "elf") == 0)
      snprintf(c->elf, sizeof c->elf, "%s", value);
    else if (strcmp(key, "args") == 0)
      snprintf(c->args, sizeof c->args, "%s", value);
    else
      rc = (sw_err(&e, TALLY_E_INPUT, "unknown key '%s' (elf, args)", key), -1);
  } else if (flush_program(c, line) != 0) {
    return c->failed = 1, 0;
  } else if (strcmp(section, "sweep") == 0) {
    rc = tally_sweep_option(c->s, key, value, &e);
  } else if (strcmp(section, "set") == 0) {
    snprintf(buf, sizeof buf, "%s=%s", key, value);
    rc = tally_sweep_add_set(c->s, buf, &e);
  } else if (strcmp(section, "axis") == 0) {
    snprintf(buf, sizeof buf, "%s=%s", key, value);
    rc = tally_sweep_add_axis(c->s, buf, &e);
  } else if (section_is(section, "config", &name) && *name) {
    sw_config *cfg;
    snprintf(buf, sizeof buf, "%s=%s", key, value);
    if (config_named(c->s, name, &cfg) != 0)
      rc = (sw_err(&e, TALLY_E_INTERNAL, "out of memory"), -1);
    else if (strcmp(key, "core") == 0)
      rc = replace(&cfg->core, value) ? (sw_err(&e, TALLY_E_INTERNAL, "out of memory"), -1) : 0;
    else if (!strchr(key, '.'))
      rc = (sw_err(&e, TALLY_E_INPUT, "'%s': expected core or section.key", key), -1);
    else if (sw_list_add(&cfg->sets, buf) != 0)
      rc = (sw_err(&e, TALLY_E_INTERNAL, "out of memory"), -1);
  } else {
    rc = (sw_err(&e, TALLY_E_INPUT, "unknown section [%s] (sweep, program NAME, set, config NAME, axis)", section), -1);
  }
  if (rc != 0) {
    sw_err(c->err, e.code == TALLY_E_USAGE ? TALLY_E_INPUT : e.code, "%s:%d: %s", c->path, line, e.msg);
    c->failed = 1;
    return 0;
  }
  return 1;
}

/* inih's reader: one line per call, counting lines for the messages (the
 * library's handler gets no line number), and making a [config NAME]
 * section exist even when it has no line (the sweep's base: no override). */
static char *spec_reader(char *buf, int size, void *stream) {
  spec_ctx *c = stream;
  if (c->failed || !fgets(buf, size, c->f))
    return NULL;
  c->line++;
  const char *p = buf, *name;
  while (*p == ' ' || *p == '\t')
    p++;
  char sec[160];
  if (*p == '[' && sscanf(p + 1, "%159[^]]", sec) == 1) {
    char *s = trim(sec);
    sw_config *cfg;
    if (section_is(s, "config", &name) && *name && config_named(c->s, name, &cfg) != 0) {
      sw_err(c->err, TALLY_E_INTERNAL, "out of memory");
      c->failed = 1;
      return NULL;
    }
  }
  return buf;
}

static int spec_handler(void *user, const char *section, const char *key, const char *value) {
  spec_ctx *c = user;
  return c->failed ? 0 : spec_line(user, section, key, value, c->line);
}

/* A spec file without "name =" is named after the file: fig5.ini -> fig5. */
static int name_from_path(tally_sweep *s, const char *path, tally_error *err) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen(base);
  if (n > 4 && strcmp(base + n - 4, ".ini") == 0)
    n -= 4;
  if (!(s->name = strndup(base, n))) {
    sw_err(err, TALLY_E_INTERNAL, "out of memory");
    return -1;
  }
  return 0;
}

int tally_sweep_load_spec(tally_sweep *s, const char *path, tally_error *err) {
  FILE *f = fopen(path, "r");
  if (!f) {
    sw_err(err, TALLY_E_INPUT, "%s: %s", path, strerror(errno));
    return -1;
  }
  spec_ctx c = {.s = s, .path = path, .err = err, .f = f};
  int rc = ini_parse_stream(spec_reader, &c, spec_handler, &c);
  fclose(f);
  if (c.failed)
    return -1;
  if (rc != 0) {
    sw_err(err, TALLY_E_INPUT, "%s:%d: not an INI line", path, rc);
    return -1;
  }
  if (flush_program(&c, c.line) != 0)
    return -1;
  return s->name ? 0 : name_from_path(s, path, err);
}

/* ---- Points ---- */

size_t tally_sweep_points(const tally_sweep *s) {
  size_t n = s->nprogs;
  if (__builtin_mul_overflow(n, s->ncfgs ? s->ncfgs : 1, &n))
    return SIZE_MAX;
  for (size_t a = 0; a < s->naxes; a++)
    if (__builtin_mul_overflow(n, s->axes[a].values.n, &n))
      return SIZE_MAX;
  return n;
}

int sw_check_size(const tally_sweep *s, tally_error *err) {
  size_t n = tally_sweep_points(s);
  if (n <= TALLY_SWEEP_MAX_POINTS)
    return 0;
  if (n == SIZE_MAX)
    sw_err(err, TALLY_E_USAGE, "the sweep has more points than can be counted (at most %u)", TALLY_SWEEP_MAX_POINTS);
  else
    sw_err(err, TALLY_E_USAGE, "the sweep has %zu points (at most %u)", n, TALLY_SWEEP_MAX_POINTS);
  return -1;
}

/* Point numbering: program slowest, then config, then the axes in order,
 * the last axis fastest. */
const char *sw_axis_value(const tally_sweep *s, size_t a, size_t index) {
  for (size_t b = s->naxes; b-- > a + 1;)
    index /= s->axes[b].values.n;
  return s->axes[a].values.v[index % s->axes[a].values.n];
}

int sw_point_make(const tally_sweep *s, size_t index, sw_point *p) {
  memset(p, 0, sizeof *p);
  p->index = index;
  size_t rest = index;
  for (size_t a = 0; a < s->naxes; a++)
    rest /= s->axes[a].values.n;
  size_t ncfg = s->ncfgs ? s->ncfgs : 1;
  p->cfg = s->ncfgs ? &s->cfgs[rest % ncfg] : NULL;
  p->prog = &s->progs[rest / ncfg];
  p->core = p->cfg && p->cfg->core ? p->cfg->core : s->core;
  for (size_t i = 0; i < s->sets.n; i++)
    if (sw_list_add(&p->sets, s->sets.v[i]) != 0)
      return -1;
  for (size_t i = 0; p->cfg && i < p->cfg->sets.n; i++)
    if (sw_list_add(&p->sets, p->cfg->sets.v[i]) != 0)
      return -1;
  char buf[1200];
  for (size_t a = 0; a < s->naxes; a++) {
    snprintf(buf, sizeof buf, "%s=%s", s->axes[a].key, sw_axis_value(s, a, index));
    if (sw_list_add(&p->sets, buf) != 0)
      return -1;
  }
  if (sw_counters(s, &p->counters) != 0)
    return -1;
  /* the key: everything that decides the simulation, nothing else; and
   * the counters, when there are any (a point stored without them lacks
   * their totals) */
  size_t len = strlen(p->core) + 96;
  for (size_t i = 0; i < p->counters.n; i++)
    len += strlen(p->counters.v[i]) + 8;
  for (size_t i = 0; i < p->prog->argv.n; i++)
    len += strlen(p->prog->argv.v[i]) + 1;
  for (size_t i = 0; i < p->sets.n; i++)
    len += strlen(p->sets.v[i]) + 1;
  if (!(p->key = malloc(len)))
    return -1;
  char *k = p->key;
  k += sprintf(k, "core=%s max_insns=%llu", p->core, (unsigned long long)s->max_insns);
  if (s->max_cycles) /* only when given: the keys of sweeps stored before it stay */
    k += sprintf(k, " max_cycles=%llu", (unsigned long long)s->max_cycles);
  k += sprintf(k, " argv=");
  for (size_t i = 0; i < p->prog->argv.n; i++)
    k += sprintf(k, "%s%s", i ? " " : "", p->prog->argv.v[i]);
  k += sprintf(k, " set=");
  for (size_t i = 0; i < p->sets.n; i++)
    k += sprintf(k, "%s%s", i ? ";" : "", p->sets.v[i]);
  for (size_t i = 0; i < p->counters.n; i++)
    k += sprintf(k, "%s%s", i ? ";" : " count=", p->counters.v[i]);
  return 0;
}

static int listed(const sw_list *l, const char *v) {
  for (size_t i = 0; i < l->n; i++)
    if (strcmp(l->v[i], v) == 0)
      return 1;
  return 0;
}

int sw_counters(const tally_sweep *s, sw_list *out) {
  const char *extra[] = {s->objective, s->pareto[0], s->pareto[1]};
  for (size_t i = 0; i < s->record.n + 3; i++) {
    const char *m = i < s->record.n ? s->record.v[i] : extra[i - s->record.n];
    if (m && strchr(m, '@') && !listed(out, m) && sw_list_add(out, m) != 0)
      return -1;
  }
  return 0;
}

int sw_counters_check(const tally_sweep *s, tally_error *err) {
  sw_list c = {0};
  if (sw_counters(s, &c) != 0)
    return sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1;
  int rc = 0;
  if (c.n > SW_MAX_COUNTERS)
    rc = (sw_err(err, TALLY_E_USAGE, "%zu statistics-module counters recorded; at most %d", c.n, SW_MAX_COUNTERS), -1);
  for (size_t i = 0; rc == 0 && i < c.n; i++) {
    tally_event ev;
    tally_error e;
    if (tally_event_parse(c.v[i], &ev, &e) != 0)
      rc = (sw_err(err, TALLY_E_USAGE, "metric '%s': %s", c.v[i], e.msg), -1);
  }
  sw_list_free(&c);
  return rc;
}

void sw_point_free(sw_point *p) {
  sw_list_free(&p->sets);
  sw_list_free(&p->counters);
  free(p->key);
  p->key = NULL;
}
