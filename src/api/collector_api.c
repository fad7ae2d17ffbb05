/*
 * include/tally/collector.h: the collector (src/net/collector.h) with the
 * store it writes, as one library object.
 */
#include <stdlib.h>
#include <string.h>

#include "../net/auth.h"
#include "../net/collector.h"
#include "../net/udp.h"
#include "api_internal.h"
#include "tally/collector.h"

struct tally_collector {
  store *st;
  net_collector *col;
  tally_collector_cfg cfg;
};

static void on_run(void *ctx, const net_run_result *r) {
  tally_collector *c = ctx;
  if (!c->cfg.on_run)
    return;
  tally_collected_run t = {.run_id = r->run_id, .status = (tally_store_status)r->status, .intervals = r->intervals,
                           .packets = r->packets, .duplicates = r->duplicates,
                           .resend_requests = r->resend_requests, .program = r->program, .note = r->note};
  c->cfg.on_run(c->cfg.ctx, &t);
}

static void on_warning(void *ctx, const char *msg) {
  tally_collector *c = ctx;
  if (c->cfg.on_warning)
    c->cfg.on_warning(c->cfg.ctx, msg);
}

tally_collector *tally_collector_open(const tally_collector_cfg *cfg, tally_error *err) {
  char e[512];
  if (!cfg->listen) {
    api_fail(err, TALLY_E_USAGE, "the collector needs an address to listen on (ADDR:PORT)");
    return NULL;
  }
  net_key key;
  if ((cfg->key_file != NULL) + (cfg->key_env != NULL) + (cfg->key != NULL) > 1) {
    api_fail(err, TALLY_E_USAGE, "the key comes from a file, an environment variable or memory: one of them");
    return NULL;
  }
  if (cfg->key && net_key_set(&key, cfg->key, cfg->key_len, e, sizeof e) != 0) {
    api_fail(err, TALLY_E_INPUT, "the key: %s", e);
    return NULL;
  }
  if (cfg->key_file && net_key_load(cfg->key_file, &key, e, sizeof e) != 0) {
    api_fail(err, TALLY_E_INPUT, "--key %s", e);
    return NULL;
  }
  if (cfg->key_env && net_key_from_env(cfg->key_env, &key, e, sizeof e) != 0) {
    api_fail(err, TALLY_E_INPUT, "--key-env %s", e);
    return NULL;
  }
  const char *db = cfg->db ? cfg->db : store_default_path();
  tally_collector *c = calloc(1, sizeof *c);
  if (!c) {
    api_error(err, "out of memory");
    return NULL;
  }
  c->cfg = *cfg;
  c->st = store_open(db, e, sizeof e);
  if (!c->st) {
    api_fail(err, TALLY_E_CREATE, "cannot open the store: %s", e);
    free(c);
    return NULL;
  }
  net_collector_cfg nc = {.listen = cfg->listen, .rcvbuf = cfg->rcvbuf, .resend_delay_ms = cfg->resend_delay_ms,
                          .resend_tries = cfg->resend_tries, .run_timeout_ms = cfg->run_timeout_ms,
                          .on_run = on_run, .on_warning = on_warning, .ctx = c,
                          .key = cfg->key_file || cfg->key_env || cfg->key ? &key : NULL};
  c->col = net_collector_open(&nc, c->st, e, sizeof e);
  if (!c->col) {
    api_error(err, "%s", e);
    store_close(c->st);
    free(c);
    return NULL;
  }
  return c;
}

void tally_collector_close(tally_collector *c, const char *note) {
  if (!c)
    return;
  net_collector_finish_all(c->col, note ? note : "collector closed");
  net_collector_close(c->col);
  store_close(c->st);
  free(c);
}

void tally_collector_finish_all(tally_collector *c, const char *note) { net_collector_finish_all(c->col, note); }

long tally_collector_import(tally_collector *c, const char *path, bool *truncated, bool *bad_data,
                            tally_error *err) {
  char e[600];
  long n = net_collector_import(c->col, path, truncated, bad_data, e, sizeof e);
  if (n < 0)
    return api_fail(err, TALLY_E_INPUT, "%s", e);
  const char *store_err = net_collector_error(c->col);
  if (store_err && *store_err)
    return api_error(err, "%s", store_err);
  return n;
}

int tally_collector_poll(tally_collector *c, int timeout_ms, tally_error *err) {
  if (net_collector_poll(c->col, timeout_ms) != 0) {
    api_error(err, "%s", net_collector_error(c->col));
    return -1;
  }
  return 0;
}

const char *tally_collector_addr(const tally_collector *c, char *buf, size_t size) {
  return net_collector_addr(c->col, buf, size);
}

int tally_collector_rcvbuf(const tally_collector *c) { return net_collector_rcvbuf(c->col); }
uint64_t tally_collector_idle_ms(const tally_collector *c) { return net_collector_idle_ms(c->col); }
int tally_collector_fd(const tally_collector *c) { return net_collector_fd(c->col); }

void tally_collector_stats_get(const tally_collector *c, tally_collector_stats *st) {
  net_collector_stats s;
  net_collector_get_stats(c->col, &s);
  *st = (tally_collector_stats){.received = s.received, .stored = s.stored, .duplicates = s.duplicates,
                                .malformed = s.malformed, .resend_requests = s.resend_requests, .foreign = s.foreign, .bad_tags = s.bad_tags,
                                .runs_open = s.runs_open, .runs_complete = s.runs_complete,
                                .runs_refused = s.runs_refused, .runs_evicted = s.runs_evicted,
                                .deferred = s.deferred,
                                .runs_incomplete = s.runs_incomplete};
}

int tally_addr_check(const char *text, bool need_port, tally_error *err) {
  net_addr a;
  char e[300];
  if (net_addr_parse(text, &a, e, sizeof e) != 0) {
    return api_fail(err, TALLY_E_USAGE, "%s", e);
  }
  if (need_port && net_addr_port(&a) == 0) {
    return api_fail(err, TALLY_E_USAGE, "'%s' needs a port other than 0", text);
  }
  return 0;
}
