/*
 * The operating points tally dvfs chooses among, from the core model: its
 * `[dvfs] points` table (docs/core-models.md) and `pll_relock_cycles`,
 * read from the model's description as INI text (tally_core_describe
 * lists every key), so that tally dvfs needs nothing beyond the public
 * API. The first point is always the model's own start (frequency_mhz,
 * voltage): the program's normal speed; the others are sorted fastest
 * first. An empty table means the start and half its clock at 5/6 of its
 * voltage (500 MHz/1.2 V and 250 MHz/1.0 V on dsp500, the paper's two).
 * Also the model's on-chip SRAM ([memory] sram_base, sram_size), where the
 * switch code runs when it holds tally inst's analysis region.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dvfs.h"

enum { EXIT_BADDATA = 65 };

static int by_mhz_desc(const void *a, const void *b) {
  const dvfs_point *x = a, *y = b;
  return x->mhz < y->mhz ? 1 : x->mhz > y->mhz ? -1 : 0;
}

/* "MHZ:V[, MHZ:V]..." (commas or spaces between points). */
bool dvfs_parse_points(const char *s, dvfs_point *pts, size_t *n, char *why, size_t whylen) {
  *n = 0;
  while (*s) {
    while (*s == ',' || isspace((unsigned char)*s))
      s++;
    if (!*s)
      break;
    char *end;
    dvfs_point p;
    p.mhz = strtod(s, &end);
    if (end == s || *end != ':' || !(p.mhz > 0 && p.mhz <= 100000)) {
      snprintf(why, whylen, "'%.40s' is not MHZ:VOLTS (e.g. 250:1.0)", s);
      return false;
    }
    s = end + 1;
    p.volt = strtod(s, &end);
    if (end == s || !(p.volt > 0 && p.volt <= 10) || (*end && *end != ',' && !isspace((unsigned char)*end))) {
      snprintf(why, whylen, "'%.40s' is not a voltage in volts", s);
      return false;
    }
    s = end;
    if (*n == DVFS_MAX_POINTS) {
      snprintf(why, whylen, "more than %d operating points", DVFS_MAX_POINTS);
      return false;
    }
    pts[(*n)++] = p;
  }
  return true;
}

/* The value of `key` in section `section` of INI text, into buf. */
static bool ini_value(const char *text, const char *section, const char *key, char *buf, size_t size) {
  char want[64];
  snprintf(want, sizeof want, "[%s]", section);
  const char *sec = strstr(text, want);
  if (!sec)
    return false;
  size_t kl = strlen(key);
  for (const char *line = strchr(sec, '\n'); line && line[1] && line[1] != '['; line = strchr(line + 1, '\n')) {
    const char *p = line + 1;
    if (strncmp(p, key, kl) || (p[kl] != ' ' && p[kl] != '='))
      continue;
    p = strchr(p, '=');
    if (!p)
      return false;
    p++;
    while (*p == ' ')
      p++;
    size_t len = strcspn(p, "\n");
    snprintf(buf, size, "%.*s", (int)len, p);
    return true;
  }
  return false;
}

/* A size as the model's description writes it: a number, or one with a
 * K, M or G suffix (KiB, MiB, GiB). */
static uint32_t size_value(const char *v) {
  char *end;
  unsigned long long n = strtoull(v, &end, 0);
  unsigned long long mul = *end == 'K' ? 1ull << 10 : *end == 'M' ? 1ull << 20 : *end == 'G' ? 1ull << 30 : 1;
  n *= mul;
  return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* The start point first, the rest fastest first without it. */
static void order_points(dvfs_opts *o, dvfs_point start) {
  size_t m = 0;
  dvfs_point rest[DVFS_MAX_POINTS];
  for (size_t i = 0; i < o->npts; i++)
    if (!(o->pts[i].mhz == start.mhz && o->pts[i].volt == start.volt))
      rest[m++] = o->pts[i];
  qsort(rest, m, sizeof *rest, by_mhz_desc);
  o->pts[0] = start;
  for (size_t i = 0; i < m && i + 1 < DVFS_MAX_POINTS; i++)
    o->pts[i + 1] = rest[i];
  o->npts = m + 1 < DVFS_MAX_POINTS ? m + 1 : DVFS_MAX_POINTS;
}

int dvfs_model_read(dvfs_opts *o, tally_error *err) {
  int rc;
  tally_sim *sim = dvfs_new_sim(o, o->in, NULL, NULL, 0, NULL, err, &rc);
  if (!sim)
    return rc;
  tally_energy e = tally_energy_now(sim);
  dvfs_point start = {e.frequency_mhz, e.voltage};
  static const size_t size = 16384;
  char *text = malloc(size), value[256], why[128];
  rc = 0;
  if (!text) {
    snprintf(err->msg, sizeof err->msg, "out of memory");
    rc = 70;
  } else {
    tally_core_describe(sim, text, size);
    if (ini_value(text, "dvfs", "pll_relock_cycles", value, sizeof value))
      o->relock_cycles = (unsigned)strtoul(value, NULL, 10);
    if (ini_value(text, "memory", "sram_size", value, sizeof value))
      o->sram_size = size_value(value);
    if (o->sram_size && ini_value(text, "memory", "sram_base", value, sizeof value))
      o->sram_base = (uint32_t)strtoul(value, NULL, 0);
    const char *list = o->points_opt;
    if (!list && ini_value(text, "dvfs", "points", value, sizeof value))
      list = value;
    if (list && !dvfs_parse_points(list, o->pts, &o->npts, why, sizeof why)) {
      snprintf(err->msg, sizeof err->msg, "%s: operating points: %s", o->points_opt ? "--points" : o->core, why);
      rc = o->points_opt ? 64 : EXIT_BADDATA;
    }
  }
  free(text);
  tally_sim_free(sim);
  if (rc)
    return rc;
  if (o->npts == 0)
    o->pts[o->npts++] = (dvfs_point){start.mhz / 2, start.volt * 5 / 6};
  order_points(o, start);
  return 0;
}
