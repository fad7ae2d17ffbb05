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

static void cache_key(sw_cache *c, const char *key, const char *v) {
  if (!strcmp(key, "enabled")) c->on = !strcmp(v, "true");
  else if (!strcmp(key, "size")) c->size = bytes_of(v);
  else if (!strcmp(key, "ways")) c->ways = bytes_of(v);
  else if (!strcmp(key, "line")) c->line = bytes_of(v);
  else if (!strcmp(key, "replacement")) snprintf(c->replacement, sizeof c->replacement, "%s", v);
  else if (!strcmp(key, "write_policy")) c->wb = !strcmp(v, "write-back");
}

static int model_key(void *user, const char *sec, const char *key, const char *v) {
  sw_model *m = user;
  if (!strcmp(sec, "icache")) {
    cache_key(&m->i, key, v);
  } else if (!strcmp(sec, "dcache")) {
    cache_key(&m->d, key, v);
    if (!strcmp(key, "write_buffer")) m->write_buffer = bytes_of(v);
  } else if (!strcmp(sec, "memory")) {
    if (!strcmp(key, "type")) m->sdram = !strcmp(v, "sdram");
    else if (!strcmp(key, "bus_bytes")) m->bus_bytes = bytes_of(v);
    else if (!strcmp(key, "read_first_ns")) m->read_first_ns = atof(v);
    else if (!strcmp(key, "read_beat_ns")) m->read_beat_ns = atof(v);
    else if (!strcmp(key, "write_ns")) m->write_ns = atof(v);
    else if (!strcmp(key, "sdram_row_miss_ns")) m->row_miss_ns = atof(v);
  } else if (!strcmp(sec, "core")) {
    if (!strcmp(key, "frequency_mhz")) m->freq_mhz = atof(v);
    else if (!strcmp(key, "voltage")) m->voltage = atof(v);
  } else if (!strcmp(sec, "energy")) {
    if (!strcmp(key, "nominal_voltage")) m->nominal_voltage = atof(v);
    else if (!strcmp(key, "core_pj_per_cycle")) m->core_pj = atof(v);
    else if (!strcmp(key, "static_mw")) m->static_mw = atof(v);
    else if (!strcmp(key, "mem_pj_per_read_beat")) m->mem_read_pj = atof(v);
    else if (!strcmp(key, "mem_pj_per_write_beat")) m->mem_write_pj = atof(v);
  }
  return 1;
}

/* The rest of the model: its text without comments and the four lines the
 * one pass varies (the caches' sizes and ways), so that two points compare
 * equal when only those differ. */
static char *model_rest(const char *text) {
  char *out = malloc(strlen(text) + 1), *w = out, *sec = "";
  if (!out)
    return NULL;
  for (const char *l = text; *l;) {
    const char *nl = strchr(l, '\n');
    size_t n = nl ? (size_t)(nl - l) : strlen(l);
    if (*l == '[')
      sec = strncmp(l, "[icache]", 8) == 0 ? "icache" : strncmp(l, "[dcache]", 8) == 0 ? "dcache" : "";
    /* the D-cache's line too: a shorter line's stream holds a longer's;
     * not the I-cache's, whose lookups happen at its line's boundaries */
    int skip = *l == ';' || (*sec && (!strncmp(l, "size ", 5) || !strncmp(l, "ways ", 5))) ||
               (!strcmp(sec, "dcache") && !strncmp(l, "line ", 5));
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

/* What the whole machine must be, whichever cache varies: every miss of
 * every point costs its memory's latency, whatever came before. */
static const char *machine_outside(const sw_model *m) {
  if (m->sdram && m->row_miss_ns > 0)
    return "its memory is SDRAM with row misses, which make a miss's cost depend on earlier accesses "
           "(--set memory.type=sram, or memory.sdram_row_miss_ns=0)";
  if (!(m->d.on && m->d.wb) && m->write_buffer > 0)
    return "its write buffer drains in the background, so a fetch or a fill may wait for it "
           "(a write-back D-cache, or dcache.write_buffer=0)";
  return NULL;
}

static const char *icache_outside(const sw_model *m) {
  if (!m->i.on)
    return "it has no I-cache (icache.enabled)";
  if (strcmp(m->i.replacement, "lru") != 0 && m->i.ways > 1)
    return "its I-cache replacement is not LRU (stack distances are an LRU law; icache.replacement)";
  return NULL;
}

static const char *dcache_outside(const sw_model *m) {
  if (!m->d.on)
    return "it has no D-cache (dcache.enabled)";
  if (m->d.wb && strcmp(m->d.replacement, "lru") != 0 && m->d.ways > 1)
    return "its D-cache replacement is not LRU (stack distances are an LRU law; dcache.replacement)";
  if (!m->d.wb && m->d.ways > 1)
    return "its D-cache is write-through with more than one way (dcache.ways): a store that hits moves "
           "its line up and one that misses allocates nothing, so caches of different sizes are not "
           "one LRU stack (direct-mapped write-through caches, and write-back ones, are)";
  return NULL;
}

const char *sw_models_outside(const sw_model *m, size_t n, int vary_i, int vary_d) {
  const char *why = NULL;
  for (size_t k = 0; !why && k < n; k++) {
    why = machine_outside(&m[k]);
    if (!why && vary_i)
      why = icache_outside(&m[k]);
    if (!why && vary_d)
      why = dcache_outside(&m[k]);
  }
  return why;
}

uint64_t sw_model_cache_bytes(const sw_model *m) {
  return (m->i.on ? (uint64_t)m->i.size : 0) + (m->d.on ? (uint64_t)m->d.size : 0);
}

uint64_t sw_cache_bytes(const char *model_text) {
  sw_model m;
  memset(&m, 0, sizeof m);
  ini_parse_string(model_text, model_key, &m);
  return sw_model_cache_bytes(&m);
}

uint32_t sw_model_beats(const sw_model *m, const sw_cache *c) {
  uint32_t b = m->bus_bytes ? c->line / m->bus_bytes : 1;
  return b ? b : 1;
}
