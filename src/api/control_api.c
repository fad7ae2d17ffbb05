/*
 * include/tally/control.h: the client side of the control packets (what
 * `tally config` sends), over the protocol's encoder (src/net/proto.h),
 * authentication (src/net/auth.h) and UDP (src/net/udp.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "../net/auth.h"
#include "../net/proto.h"
#include "../net/udp.h"
#include "api_internal.h"
#include "tally/control.h"

struct tally_control {
  int fd;
  net_addr board;
  char board_text[200];
  net_key key;
  bool keyed;
  int timeout_ms, retries;
  uint64_t run_id;
  uint32_t next_seq;
  net_msg reply;
  uint8_t in[NET_RECV_BUF];    /* the reply's bytes: reply.name points into them */
  char last[160];              /* the last request in words */
};

const char *tally_control_last(const tally_control *c) { return c->last; }

/* Sends one request (m's header type, fields) and waits for its reply:
 * 0 with c->reply set, or -1 with err. */
static int transact(tally_control *c, net_msg *m, uint64_t run_id, uint32_t seq, tally_error *err) {
  m->h.run_id = run_id;
  m->h.seq = seq;
  uint8_t out[NET_MAX_PACKET], *in = c->in;
  char e[200];
  size_t len = net_encode(m, c->keyed ? &c->key : NULL, out, e, sizeof e);
  if (!len)
    return api_fail(err, TALLY_E_USAGE, "%s: %s", c->last, e);
  for (int attempt = 0; attempt < c->retries; attempt++) {
    if (net_udp_send(c->fd, &c->board, out, len) != 0)
      return api_fail(err, TALLY_E_NOANSWER, "cannot send to %s: %s", c->board_text, strerror(errno));
    uint64_t deadline = net_now_ms() + (uint64_t)c->timeout_ms;
    for (;;) {
      uint64_t now = net_now_ms();
      if (now >= deadline)
        break;
      size_t n;
      net_addr from;
      int r = net_udp_recv(c->fd, in, sizeof c->in, &n, &from, (int)(deadline - now));
      if (r < 0)
        return api_fail(err, TALLY_E_NOANSWER, "no answer from %s: %s", c->board_text, strerror(errno));
      if (r == 0)
        break;
      if (!net_addr_equal(&from, &c->board) || net_decode(in, n, &c->reply, NULL, 0) != 0 ||
          c->reply.h.seq != seq || (c->reply.h.type != NET_ACK && c->reply.h.type != NET_ERROR &&
                                    c->reply.h.type != NET_STATUS))
        continue;   /* not the answer to this request */
      if (c->keyed && !(c->reply.h.flags & NET_FLAG_AUTH))
        return api_fail(err, TALLY_E_REFUSED, "the board at %s answers without authentication: is it running "
                        "without --key?", c->board_text);
      if (c->keyed && !net_verify(&c->key, in, n))
        return api_fail(err, TALLY_E_REFUSED, "the board's answer to %s carries a tag that does not match --key: "
                        "the keys differ", c->last);
      return 0;
    }
  }
  return api_fail(err, TALLY_E_NOANSWER, "no answer from %s to %s after %d tries (is the board waiting: tally run "
                  "--control %s?)", c->board_text, c->last, c->retries, c->board_text);
}

static int refused(const tally_control *c, tally_error *err) {
  const net_msg *r = &c->reply;
  return api_fail(err, TALLY_E_REFUSED, "the board refused %s: %s%s%.*s%s", c->last, net_err_name(r->code),
                  r->name_len ? ": " : "", (int)r->name_len, r->name,
                  r->code == NET_E_BAD_TAG && !c->keyed
                      ? "\nthe board wants authenticated packets: give its key with --key FILE" : "");
}

/* One request of the run, in sequence: its reply, a refusal, or no answer. */
static int request(tally_control *c, net_msg *m, tally_error *err) {
  if (transact(c, m, c->run_id, c->next_seq, err) != 0)
    return -1;
  c->next_seq = c->reply.next_seq > c->next_seq ? c->reply.next_seq : c->next_seq + 1;
  return c->reply.h.type == NET_ERROR ? refused(c, err) : 0;
}

void tally_control_close(tally_control *c) {
  if (!c)
    return;
  if (c->fd >= 0)
    close(c->fd);
  free(c);
}

/* Hello: learn the board's run and the sequence number it accepts next. */
static int hello(tally_control *c, tally_error *err) {
  uint32_t seq;
  if (getrandom(&seq, sizeof seq, 0) != sizeof seq)
    seq = (uint32_t)net_now_ms();
  snprintf(c->last, sizeof c->last, "the first QUERY");
  net_msg q = {.h = {.type = NET_QUERY}};
  if (transact(c, &q, 0, seq, err) != 0)
    return -1;
  if (c->reply.h.type == NET_ERROR)
    return refused(c, err);
  if (c->reply.h.type != NET_STATUS)
    return api_fail(err, TALLY_E_NOANSWER, "the board at %s did not answer the QUERY with its status",
                    c->board_text);
  c->run_id = c->reply.h.run_id;
  c->next_seq = c->reply.next_seq;
  return 0;
}

tally_control *tally_control_open(const tally_control_cfg *cfg, tally_error *err) {
  char e[400];
  tally_control *c = calloc(1, sizeof *c);
  if (!c) {
    api_error(err, "out of memory");
    return NULL;
  }
  c->fd = -1;
  c->timeout_ms = cfg->timeout_ms > 0 ? cfg->timeout_ms : 1000;
  c->retries = cfg->retries > 0 ? cfg->retries : 3;
  snprintf(c->board_text, sizeof c->board_text, "%s", cfg->board);
  int rc = 0;
  if (net_addr_parse(cfg->board, &c->board, e, sizeof e) != 0)
    rc = api_fail(err, TALLY_E_USAGE, "--board %s", e);
  else if (net_addr_port(&c->board) == 0)
    rc = api_fail(err, TALLY_E_USAGE, "--board '%s' needs a port other than 0", cfg->board);
  else if (cfg->key_path && cfg->key_env)
    rc = api_fail(err, TALLY_E_USAGE, "--key FILE and --key-env VAR both name a key: give one");
  else if (cfg->key_path && net_key_load(cfg->key_path, &c->key, e, sizeof e) != 0)
    rc = api_fail(err, TALLY_E_INPUT, "%s", e);
  else if (cfg->key_env && net_key_from_env(cfg->key_env, &c->key, e, sizeof e) != 0)
    rc = api_fail(err, TALLY_E_INPUT, "--key-env %s", e);
  else if ((c->fd = net_udp_open_for(&c->board, e, sizeof e)) < 0)
    rc = api_error(err, "%s", e);
  c->keyed = cfg->key_path != NULL || cfg->key_env != NULL;
  if (rc == 0)
    rc = hello(c, err);
  if (rc != 0) {
    tally_control_close(c);
    return NULL;
  }
  return c;
}

int tally_control_set_timer(tally_control *c, uint64_t period, tally_error *err) {
  char n[32];
  snprintf(c->last, sizeof c->last, "timer = %s cycles", tally_format_count(period, n, sizeof n));
  net_msg m = {.h = {.type = NET_SET_TIMER}, .period = period};
  return request(c, &m, err);
}

int tally_control_set_arr(tally_control *c, unsigned index, uint32_t lo, uint32_t hi, const char *name,
                          tally_error *err) {
  snprintf(c->last, sizeof c->last, "ARR %u = 0x%08x-0x%08x%s%.100s", index, lo, hi, name ? " " : "",
           name ? name : "");
  if (name && strlen(name) > NET_MAX_TEXT)
    return api_fail(err, TALLY_E_USAGE, "%s: the name is longer than %d bytes", c->last, NET_MAX_TEXT);
  net_msg m = {.h = {.type = NET_SET_ARR}, .index = index, .lo = lo, .hi = hi, .name = name ? name : "",
               .name_len = (uint16_t)(name ? strlen(name) : 0)};
  return request(c, &m, err);
}

int tally_control_set_counter(tally_control *c, unsigned index, int signal, unsigned arr, bool enabled,
                              tally_error *err) {
  if (!enabled)
    snprintf(c->last, sizeof c->last, "counter %u disabled", index);
  else if (arr != TALLY_CONTROL_ANYWHERE)
    snprintf(c->last, sizeof c->last, "counter %u = %s in ARR %u", index, tally_signal_name(signal), arr);
  else
    snprintf(c->last, sizeof c->last, "counter %u = %s anywhere", index, tally_signal_name(signal));
  if (enabled && (signal < 0 || signal >= tally_signal_count()))
    return api_fail(err, TALLY_E_USAGE, "%s: unknown signal number %d", c->last, signal);
  net_msg m = {.h = {.type = NET_SET_COUNTER}, .index = index, .signal = (uint16_t)(enabled ? signal : 0),
               .arr = (uint16_t)arr, .enabled = enabled};
  return request(c, &m, err);
}

int tally_control_set_task(tally_control *c, unsigned index, const char *name, tally_error *err) {
  snprintf(c->last, sizeof c->last, "task %u = %.100s", index, name);
  if (strlen(name) > 63)
    return api_fail(err, TALLY_E_USAGE, "%s: the name is longer than 63 bytes", c->last);
  if (index < 1 || index > 255)
    return api_fail(err, TALLY_E_USAGE, "%s: task registers are numbered from 1", c->last);
  net_msg m = {.h = {.type = NET_SET_TASK}, .index = index, .name = name, .name_len = (uint16_t)strlen(name)};
  return request(c, &m, err);
}

int tally_control_set_task_counter(tally_control *c, unsigned index, int signal, unsigned arr, bool enabled,
                                   unsigned task, tally_error *err) {
  if (!task)
    return tally_control_set_counter(c, index, signal, arr, enabled, err);
  if (arr != TALLY_CONTROL_ANYWHERE)
    snprintf(c->last, sizeof c->last, "counter %u = %s in ARR %u in task %u", index, tally_signal_name(signal), arr,
             task);
  else
    snprintf(c->last, sizeof c->last, "counter %u = %s in task %u", index, tally_signal_name(signal), task);
  if (signal < 0 || signal >= tally_signal_count())
    return api_fail(err, TALLY_E_USAGE, "%s: unknown signal number %d", c->last, signal);
  if (task > 255)
    return api_fail(err, TALLY_E_USAGE, "%s: task register past 255", c->last);
  net_msg m = {.h = {.type = NET_SET_COUNTER}, .index = index, .signal = (uint16_t)signal, .arr = (uint16_t)arr,
               .enabled = enabled, .task = (uint8_t)task};
  return request(c, &m, err);
}

int tally_control_start(tally_control *c, tally_error *err) {
  snprintf(c->last, sizeof c->last, "START");
  net_msg m = {.h = {.type = NET_START}};
  return request(c, &m, err);
}

int tally_control_stop(tally_control *c, tally_error *err) {
  snprintf(c->last, sizeof c->last, "STOP");
  net_msg m = {.h = {.type = NET_STOP}};
  return request(c, &m, err);
}

int tally_control_query(tally_control *c, tally_control_status *st, tally_error *err) {
  snprintf(c->last, sizeof c->last, "QUERY");
  net_msg m = {.h = {.type = NET_QUERY}};
  if (transact(c, &m, c->run_id, c->next_seq, err) != 0)
    return -1;
  if (c->reply.h.type == NET_ERROR)
    return refused(c, err);
  const net_msg *r = &c->reply;
  *st = (tally_control_status){.run_id = r->h.run_id, .state = net_state_name(r->state), .counters = r->counters,
                               .width = r->width, .arrs = r->arrs, .period = r->period, .intervals = r->intervals,
                               .cycle = r->cycle, .bad_tags = r->bad_tags, .stale = r->stale,
                               .malformed = r->malformed};
  return 0;
}
