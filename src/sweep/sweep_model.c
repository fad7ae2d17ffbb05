/*
 * What `tally sweep --one-pass` needs of a point's core model, read back
 * from the model itself (tally_core_describe, an INI text), and the
 * conditions under which one pass gives exactly the numbers of separate
 * runs (sweep_onepass.c says why; docs/tally-sweep.md, "One pass").
 */
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweep_onepass.h"

static uint32_t bytes_of(const char *v) {
  char *end;
  double n = strtod(v, &end);
  if (*end == 'K' || *end == 'k')
    n *= 1024;
  else if (*end == 'M' || *end == 'm')
    n *= 1024 * 1024;
  return n > 0 && n < 4294967296.0 ? (uint32_t)n : 0;
}

static int model_key(void *user, const char *sec, const char *key, const char *v) {
  sw_model *m = user;
  int is = !strcmp(v, "true");
  if (!strcmp(sec, "icache")) {
    if (!strcmp(key, "enabled")) m->icache_on = is;
    else if (!strcmp(key, "size")) m->size = bytes_of(v);
    else if (!strcmp(key, "ways")) m->ways = bytes_of(v);
    else if (!strcmp(key, "line")) m->line = bytes_of(v);
    else if (!strcmp(key, "replacement")) snprintf(m->replacement, sizeof m->replacement, "%s", v);
  } else if (!strcmp(sec, "dcache")) {
    if (!strcmp(key, "enabled")) m->dcache_on = is;
    else if (!strcmp(key, "write_policy")) m->dcache_wb = !strcmp(v, "write-back");
    else if (!strcmp(key, "write_buffer")) m->write_buffer = bytes_of(v);
  } else if (!strcmp(sec, "memory")) {
    if (!strcmp(key, "type")) m->sdram = !strcmp(v, "sdram");
    else if (!strcmp(key, "bus_bytes")) m->bus_bytes = bytes_of(v);
    else if (!strcmp(key, "read_first_ns")) m->read_first_ns = atof(v);
    else if (!strcmp(key, "read_beat_ns")) m->read_beat_ns = atof(v);
    else if (!strcmp(key, "sdram_row_miss_ns")) m->row_miss_ns = atof(v);
  } else if (!strcmp(sec, "core")) {
    if (!strcmp(key, "frequency_mhz")) m->freq_mhz = atof(v);
    else if (!strcmp(key, "voltage")) m->voltage = atof(v);
  } else if (!strcmp(sec, "energy")) {
    if (!strcmp(key, "nominal_voltage")) m->nominal_voltage = atof(v);
    else if (!strcmp(key, "core_pj_per_cycle")) m->core_pj = atof(v);
    else if (!strcmp(key, "static_mw")) m->static_mw = atof(v);
    else if (!strcmp(key, "mem_pj_per_read_beat")) m->mem_read_pj = atof(v);
  }
  return 1;
}

/* The rest of the model: its text without comments and the two lines the
 * one pass varies, so that two points compare equal when only those differ. */
static char *model_rest(const char *text) {
  char *out = malloc(strlen(text) + 1), *w = out, *sec = "";
  if (!out)
    return NULL;
  for (const char *l = text; *l;) {
    const char *nl = strchr(l, '\n');
    size_t n = nl ? (size_t)(nl - l) : strlen(l);
    if (*l == '[')
      sec = strncmp(l, "[icache]", 8) == 0 ? "icache" : "";
    int skip = *l == ';' || (*sec && (!strncmp(l, "size ", 5) || !strncmp(l, "ways ", 5)));
    if (!skip) {
      memcpy(w, l, n);
      w += n;
      *w++ = '\n';
    }
    l += n + (nl != NULL);
  }
  *w = 0;
  return out;
}

int sw_model_of(const sw_point *p, sw_model *m, tally_error *err) {
  memset(m, 0, sizeof *m);
  tally_config cfg;
  tally_config_default(&cfg);
  tally_sim *sim = tally_sim_new(&cfg);
  char *text = malloc(65536);
  tally_error e = {{0}, TALLY_E_USAGE};
  int rc = sim && text ? tally_set_core(sim, p->core, (const char *const *)p->sets.v, (int)p->sets.n, &e) : -1;
  if (rc == 0) {
    tally_core_describe(sim, text, 65536);
    rc = ini_parse_string(text, model_key, m) == 0 && (m->rest = model_rest(text)) ? 0 : -1;
    if (rc != 0) {
      snprintf(e.msg, sizeof e.msg, "cannot read its core model back");
      e.code = TALLY_E_INTERNAL;
    }
  }
  if (rc != 0)
    sw_err(err, e.code ? e.code : TALLY_E_INTERNAL, "point %zu: %s", p->index, sim && text ? e.msg : "out of memory");
  free(text);
  tally_sim_free(sim);
  return rc;
}

uint32_t sw_ns_cycles(double ns, double mhz) {
  double c = ns * mhz / 1000.0;
  return c <= 0 ? 0 : (uint32_t)ceil(c - 1e-9); /* as the timing model rounds */
}

/* Why a point (of model m) is outside the exact family; NULL when it is in. */
const char *sw_model_outside(const sw_model *m) {
  if (!m->icache_on)
    return "it has no I-cache";
  if (strcmp(m->replacement, "lru") != 0 && m->ways > 1)
    return "its I-cache replacement is not LRU (stack distances are an LRU law)";
  if (m->sdram && m->row_miss_ns > 0)
    return "its memory is SDRAM with row misses, which make a miss's cost depend on earlier accesses "
           "(--set memory.type=sram, or memory.sdram_row_miss_ns=0)";
  if (!(m->dcache_on && m->dcache_wb) && m->write_buffer > 0)
    return "its write buffer drains in the background, so a fetch may wait for it "
           "(a write-back D-cache, or dcache.write_buffer=0)";
  return NULL;
}

uint32_t sw_model_beats(const sw_model *m) {
  uint32_t b = m->bus_bytes ? m->line / m->bus_bytes : 1;
  return b ? b : 1;
}
