/*
 * Board side of the protocol: packetizing intervals, the resend ring,
 * control packets, lingering after the final packet. board_link.h says
 * what each part promises; docs/protocol.md has the packets.
 */
#define _GNU_SOURCE
#include "board_link.h"
#include "spool.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "pipe.h"
#include "udp.h"

/* Bytes of entries a COUNTER_INFO packet takes: room is left for a tag
 * whether or not there is a key, so a keyed stream is the same packets. */
#define INFO_ROOM (NET_MAX_PAYLOAD - NET_TAG_SIZE - 4)

typedef struct slot {
  uint32_t seq;
  uint16_t len;   /* 0: empty */
  uint8_t bytes[NET_MAX_PACKET];
} slot;

struct net_board {
  net_board_cfg cfg;
  net_key key;
  bool keyed;
  net_addr collector;
  int data_fd, ctl_fd;
  uint64_t run_id;
  net_spool *spool;
  char spool_path[4200];
  bool spool_failed;
  uint32_t next_seq;        /* the run's next stream sequence number */
  bool described;
  uint32_t desc_end;        /* describe packets are seqs [0, desc_end) */
  bool final_sent;
  uint32_t final_first;     /* final packets are seqs [final_first, next_seq) */
  slot *pinned;             /* describe packets, then final packets */
  uint32_t npinned, pinned_cap;
  slot *ring;
  uint32_t ring_n;
  uint32_t data_packets;
  bool cut_short;
  /* control */
  uint32_t last_ctl_seq;
  uint8_t last_req[NET_MAX_PACKET], last_reply[NET_MAX_PACKET];
  size_t last_req_len, last_reply_len;
  net_board_stats st;
  net_msg *in, *out;
  uint8_t rx[NET_RECV_BUF];
  char err[256];
};

static void set_err(net_board *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_err(net_board *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b->err, sizeof b->err, fmt, ap);
  va_end(ap);
}

const char *net_board_error(const net_board *b) { return b->err; }
uint64_t net_board_run_id(const net_board *b) { return b->run_id; }
const char *net_board_spool_path(const net_board *b) { return b->spool_path; }
void net_board_get_stats(const net_board *b, net_board_stats *st) { *st = b->st; }
void net_board_set_state(net_board *b, net_state s) { b->st.state = s; }
void net_board_set_cut_short(net_board *b) { b->cut_short = true; }

int net_board_control_addr(const net_board *b, char *buf, size_t size) {
  net_addr a;
  if (b->ctl_fd < 0 || net_udp_local(b->ctl_fd, &a) != 0)
    return -1;
  net_addr_str(&a, buf, size);
  return 0;
}

net_board *net_board_open(const net_board_cfg *cfg, char *err, size_t errlen) {
  const statmod_params *p = &cfg->params;
  if (p->counters < 1 || p->counters > STATMOD_MAX_COUNTERS || p->width < 1 || p->width > 64 ||
      p->arrs > STATMOD_MAX_ARRS) {
    snprintf(err, errlen, "module of %u counters of %u bits and %u ARRs is out of range", p->counters, p->width,
             p->arrs);
    return NULL;
  }
  net_board *b = calloc(1, sizeof *b);
  if (!b || !(b->in = malloc(sizeof *b->in)) || !(b->out = calloc(1, sizeof *b->out))) {
    snprintf(err, errlen, "out of memory");
    goto fail;
  }
  b->cfg = *cfg;
  b->data_fd = b->ctl_fd = -1;
  b->ring_n = cfg->ring ? cfg->ring : 4096;
  b->ring = calloc(b->ring_n, sizeof *b->ring);
  if (!b->ring) {
    snprintf(err, errlen, "out of memory for a ring of %u packets", b->ring_n);
    goto fail;
  }
  if (cfg->key) {
    b->key = *cfg->key;
    b->keyed = true;
  }
  if (cfg->pipe) {
    net_pipe_addr(&b->collector);
  } else {
    if (net_addr_parse(cfg->collector ? cfg->collector : "", &b->collector, err, errlen) != 0)
      goto fail;
    if (net_addr_port(&b->collector) == 0) {
      snprintf(err, errlen, "collector address '%s' needs a port other than 0", cfg->collector);
      goto fail;
    }
    if ((b->data_fd = net_udp_open_for(&b->collector, err, errlen)) < 0)
      goto fail;
  }
  if (cfg->control) {
    net_addr ca;
    if (net_addr_parse(cfg->control, &ca, err, errlen) != 0 || (b->ctl_fd = net_udp_bind(&ca, 0, err, errlen)) < 0)
      goto fail;
  }
  b->run_id = cfg->run_id;
  while (b->run_id == 0)
    if (getrandom(&b->run_id, sizeof b->run_id, 0) != sizeof b->run_id)
      b->run_id = ((uint64_t)getpid() << 32) ^ net_now_ms();
  if (cfg->spool_dir) {
    if ((size_t)snprintf(b->spool_path, sizeof b->spool_path, "%s/tally-%016" PRIx64 ".spool", cfg->spool_dir,
                         b->run_id) >= sizeof b->spool_path) {
      snprintf(err, errlen, "spool directory '%s': path too long", cfg->spool_dir);
      b->spool_path[0] = '\0';
      goto fail;
    }
    /* no spool (a full or unwritable folder) does not stop the run: the
     * owner reads why from net_board_error and says so */
    char why[300];
    if (!(b->spool = net_spool_create(b->spool_path, why, sizeof why))) {
      b->spool_path[0] = '\0';
      set_err(b, "%s", why);
    }
  }
  b->st.state = cfg->control ? NET_STATE_CONFIGURING : NET_STATE_RUNNING;
  return b;
fail:
  net_board_close(b);
  return NULL;
}

int net_board_spool_end(net_board *b, bool remove) {
  if (!b->spool_path[0])
    return 0;
  int rc = net_spool_close(b->spool);
  b->spool = NULL;
  if (rc != 0 && !b->spool_failed)
    set_err(b, "spool file %s: %s", b->spool_path, strerror(errno));
  rc = rc != 0 || b->spool_failed ? -1 : 0;
  if (remove)
    unlink(b->spool_path);
  return rc;
}

void net_board_close(net_board *b) {
  if (!b)
    return;
  if (b->spool) /* not ended by its owner (an error path): what was written is kept */
    net_spool_close(b->spool);
  if (b->data_fd >= 0)
    close(b->data_fd);
  if (b->ctl_fd >= 0)
    close(b->ctl_fd);
  free(b->ring);
  free(b->pinned);
  free(b->in);
  free(b->out);
  free(b);
}

/* ---- the run's packet stream ---- */

static slot *pin_slot(net_board *b) {
  if (b->npinned == b->pinned_cap) {
    uint32_t cap = b->pinned_cap ? b->pinned_cap * 2 : 16;
    slot *p = realloc(b->pinned, cap * sizeof *p);
    if (!p)
      return NULL;
    b->pinned = p;
    b->pinned_cap = cap;
  }
  return &b->pinned[b->npinned++];
}

/* To the collector, over its socket or the in-process pipe. A full pipe
 * loses the packet as a full socket buffer would: the collector asks again. */
static int data_send(net_board *b, const void *buf, size_t len) {
  if (b->cfg.pipe) {
    net_pipe_send(b->cfg.pipe, NET_PIPE_UP, buf, len);
    return 0;
  }
  return net_udp_send(b->data_fd, &b->collector, buf, len);
}

static void send_slot(net_board *b, const slot *s) {
  if (data_send(b, s->bytes, s->len) != 0) {
    b->st.send_errors++;
    char where[80];
    set_err(b, "cannot send to the collector at %s: %s", net_addr_str(&b->collector, where, sizeof where),
            strerror(errno));
  }
}

/* With a key every packet to the collector carries its tag, so the
 * collector can tell the board's packets from anyone else's. */
static const net_key *stream_key(const net_board *b) { return b->keyed ? &b->key : NULL; }

/* Encodes b->out as the stream's next packet, keeps it (pinned or in the
 * ring) and sends it. */
static int stream_send(net_board *b, bool pin) {
  slot *s = pin ? pin_slot(b) : &b->ring[b->next_seq % b->ring_n];
  if (!s) {
    set_err(b, "out of memory keeping packets for resends");
    return -1;
  }
  b->out->h.run_id = b->run_id;
  b->out->h.seq = b->next_seq;
  char why[200];
  size_t n = net_encode(b->out, stream_key(b), s->bytes, why, sizeof why);
  if (n == 0) {
    set_err(b, "cannot encode %s packet: %s", net_type_name(b->out->h.type), why);
    s->len = 0;
    if (pin)
      b->npinned--;
    return -1;
  }
  s->seq = b->next_seq++;
  s->len = (uint16_t)n;
  b->st.packets_sent++;
  if (b->spool && !b->spool_failed && net_spool_add(b->spool, s->bytes, n) != 0) {
    b->spool_failed = true; /* said once; the network copy goes on */
    set_err(b, "spool file %s: %s", b->spool_path, strerror(errno));
  }
  send_slot(b, s);
  return 0;
}

static int check_str(net_board *b, const char *what, unsigned i, const char *s, size_t max) {
  if (s && strlen(s) > max) {
    set_err(b, "counter %u: %s of %zu bytes (at most %zu)", i, what, strlen(s), max);
    return -1;
  }
  return 0;
}

static uint8_t slen(const char *s) { return s ? (uint8_t)strlen(s) : 0; }

int net_board_describe(net_board *b, const net_run_desc *d) {
  if (b->described) {
    set_err(b, "the run was already described (describe before the first interval)");
    return -1;
  }
  const statmod_params *p = &b->cfg.params;
  const char *program = d->program ? d->program : "";
  if (strlen(program) > NET_MAX_PROGRAM && strrchr(program, '/'))
    program = strrchr(program, '/') + 1;
  const char *core = d->core ? d->core : "";
  if (strlen(program) > NET_MAX_PROGRAM || strlen(core) > NET_MAX_TEXT) {
    set_err(b, "program name (%zu bytes) or core name (%zu bytes) too long", strlen(program), strlen(core));
    return -1;
  }
  /* Pack the counter descriptions first: RUN_START says how many packets they take. */
  net_counter_desc *descs = d->counters ? calloc(p->counters, sizeof *descs) : NULL;
  if (d->counters && !descs) {
    set_err(b, "out of memory");
    return -1;
  }
  uint16_t info_packets = 0;
  size_t room = 0;
  unsigned in_packet = 0;
  for (unsigned i = 0; d->counters && i < p->counters; i++) {
    const net_counter_label *c = &d->counters[i];
    if (check_str(b, "signal name", i, c->name, NET_MAX_TEXT) || check_str(b, "where", i, c->where, NET_MAX_TEXT) ||
        check_str(b, "label", i, c->label, NET_MAX_TEXT)) {
      free(descs);
      return -1;
    }
    descs[i] = (net_counter_desc){.signal = (uint16_t)c->signal, .arr = (uint16_t)c->arr, .lo = c->lo, .hi = c->hi,
                                  .enabled = c->enabled, .name_len = slen(c->name), .where_len = slen(c->where),
                                  .label_len = slen(c->label), .name = c->name, .where = c->where, .label = c->label};
    size_t sz = net_desc_size(&descs[i]);
    if (info_packets == 0 || sz > room || in_packet == NET_MAX_DESCS) {
      info_packets++;
      room = INFO_ROOM;
      in_packet = 0;
    }
    room -= sz;
    in_packet++;
  }
  net_msg *m = b->out;
  m->h.type = NET_RUN_START;
  m->counters = (uint16_t)p->counters;
  m->width = (uint8_t)p->width;
  m->arrs = (uint16_t)p->arrs;
  m->info_packets = info_packets;
  m->period = d->period;
  m->freq_khz = d->freq_mhz > 0 ? (uint32_t)(d->freq_mhz * 1000.0 + 0.5) : 0;
  m->program = program;
  m->program_len = (uint16_t)strlen(program);
  m->core = core;
  m->core_len = (uint16_t)strlen(core);
  b->described = true;
  int rc = stream_send(b, true);
  /* The same greedy packing as above, now sending. */
  for (unsigned i = 0; rc == 0 && descs && i < p->counters;) {
    unsigned n = 0;
    size_t used = 0;
    while (i + n < p->counters && n < NET_MAX_DESCS && used + net_desc_size(&descs[i + n]) <= INFO_ROOM)
      used += net_desc_size(&descs[i + n++]);
    m->h.type = NET_COUNTER_INFO;
    m->first = (uint16_t)i;
    m->n = (uint16_t)n;
    m->descs = &descs[i];
    rc = stream_send(b, true);
    i += n;
  }
  free(descs);
  b->desc_end = b->next_seq;
  return rc;
}

/* Answers whatever is waiting on either socket, then returns. */
static int drain(net_board *b);

static void send_interval(net_board *b, const statmod_interval *iv) {
  unsigned chunk = net_data_chunk(b->cfg.params.width);
  net_msg *m = b->out;
  for (uint32_t first = 0; first < iv->n; first += chunk) {
    m->h.type = NET_DATA;
    m->index = iv->index;
    m->cycle_begin = iv->cycle_begin;
    m->cycle_end = iv->cycle_end;
    m->first = (uint16_t)first;
    m->n = (uint16_t)(iv->n - first < chunk ? iv->n - first : chunk);
    m->width = (uint8_t)b->cfg.params.width;
    m->values = iv->values + first;
    m->saturated = iv->saturated ? iv->saturated + first : NULL;
    if (stream_send(b, false) == 0)
      b->data_packets++;
  }
  b->st.intervals++;
}

static void send_final(net_board *b, const statmod_interval *iv) {
  net_msg *m = b->out;
  uint32_t chunks = (iv->n + NET_FINAL_CHUNK - 1) / NET_FINAL_CHUNK;
  b->final_first = b->next_seq;
  for (uint32_t first = 0; first < iv->n; first += NET_FINAL_CHUNK) {
    m->h.type = NET_FINAL;
    m->intervals = iv->intervals;
    m->cycle_begin = iv->cycle_begin;
    m->cycle_end = iv->cycle_end;
    m->data_packets = b->data_packets;
    m->total_packets = b->final_first + chunks;
    m->counters = (uint16_t)iv->n;
    m->first = (uint16_t)first;
    m->n = (uint16_t)(iv->n - first < NET_FINAL_CHUNK ? iv->n - first : NET_FINAL_CHUNK);
    m->values = iv->values + first;
    m->cut_short = b->cut_short;
    stream_send(b, true);
  }
  b->final_sent = true;
}

static void linger(net_board *b) {
  uint64_t limit = b->cfg.linger_ms ? b->cfg.linger_ms : 5000;
  uint64_t start = net_now_ms(), heard = start, retry = 200, next_retx = start + retry;
  while (!b->st.acked) {
    uint64_t now = net_now_ms();
    /* Quiet for `limit`, or ten times that in all: the collector is gone. */
    if (now - heard >= limit || now - start >= 10 * limit)
      break;
    uint64_t until = heard + limit < next_retx ? heard + limit : next_retx;
    if (net_board_poll(b, (int)(until > now ? until - now : 0)) > 0)
      heard = net_now_ms();
    if (!b->st.acked && net_now_ms() >= next_retx) {
      for (uint32_t i = 0; i < b->npinned; i++)
        if (b->pinned[i].seq >= b->final_first) {
          send_slot(b, &b->pinned[i]);
          b->st.resent++;
        }
      retry = retry * 2 < 2000 ? retry * 2 : 2000;
      next_retx = net_now_ms() + retry;
    }
  }
}

void net_board_sink(void *ctx, const statmod_interval *iv) {
  net_board *b = ctx;
  if (!b->described) {
    net_run_desc d = {0};
    uint64_t period = 0;
    if (b->cfg.ops && b->cfg.ops->query) {
      uint64_t intervals, cycle;
      b->cfg.ops->query(b->cfg.ops_ctx, &period, &intervals, &cycle);
    }
    d.period = period;
    net_board_describe(b, &d);
  }
  if (iv->n != b->cfg.params.counters) {
    set_err(b, "interval with %u counters from a module of %u", iv->n, b->cfg.params.counters);
    return;
  }
  if (b->final_sent)
    return;
  if (iv->final) {
    send_final(b, iv);
    b->st.state = NET_STATE_FINISHED;
    linger(b);
  } else {
    send_interval(b, iv);
    drain(b);
  }
}

/* ---- resend requests ---- */

typedef struct gone_list {
  net_range r[NET_MAX_RANGES];
  unsigned n;
} gone_list;

static void send_gone(net_board *b, gone_list *g) {
  if (!g->n)
    return;
  net_msg *m = b->out;
  m->h.type = NET_GONE;
  m->h.run_id = b->run_id;
  m->h.seq = 0;
  m->nranges = (uint16_t)g->n;
  m->ranges = g->r;
  uint8_t buf[NET_MAX_PACKET];
  size_t n = net_encode(m, stream_key(b), buf, NULL, 0);
  if (n && data_send(b, buf, n) != 0)
    b->st.send_errors++;
  g->n = 0;
}

static void add_gone(net_board *b, gone_list *g, uint32_t first, uint32_t count) {
  b->st.gone += count;
  if (g->n && g->r[g->n - 1].first + g->r[g->n - 1].count == first) {
    g->r[g->n - 1].count += count;
    return;
  }
  if (g->n == NET_MAX_RANGES)
    send_gone(b, g);
  g->r[g->n++] = (net_range){first, count};
}

static void resend_pinned(net_board *b, uint32_t lo, uint32_t hi) {
  for (uint32_t i = 0; i < b->npinned; i++)
    if (b->pinned[i].seq >= lo && b->pinned[i].seq < hi) {
      send_slot(b, &b->pinned[i]);
      b->st.resent++;
    }
}

static uint32_t max32(uint32_t a, uint32_t b) { return a > b ? a : b; }
static uint32_t min32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* The stream is describe [0, desc_end), data [desc_end, data_end) of which
 * the ring holds the last ring_n, final [data_end, next_seq). */
static void answer_resend(net_board *b, const net_msg *m) {
  uint32_t data_end = b->final_sent ? b->final_first : b->next_seq;
  uint32_t ring_lo = data_end - b->desc_end > b->ring_n ? data_end - b->ring_n : b->desc_end;
  gone_list g = {.n = 0};
  for (unsigned i = 0; i < m->nranges; i++) {
    uint32_t lo = m->ranges[i].first;
    uint64_t end = (uint64_t)lo + m->ranges[i].count;
    uint32_t hi = end > b->next_seq ? b->next_seq : (uint32_t)end;
    if (lo >= hi)
      continue;
    resend_pinned(b, lo, min32(hi, b->desc_end));
    if (max32(lo, b->desc_end) < min32(hi, ring_lo))
      add_gone(b, &g, max32(lo, b->desc_end), min32(hi, ring_lo) - max32(lo, b->desc_end));
    for (uint32_t s = max32(lo, ring_lo); s < min32(hi, data_end); s++) {
      slot *sl = &b->ring[s % b->ring_n];
      if (sl->len && sl->seq == s) {
        send_slot(b, sl);
        b->st.resent++;
      } else {
        add_gone(b, &g, s, 1);   /* failed to encode when first sent */
      }
    }
    if (b->final_sent)
      resend_pinned(b, max32(lo, b->final_first), hi);
  }
  send_gone(b, &g);
}

/* ---- control packets ---- */

/* Replies to a peer that has not shown the key (keyed boards only) name no
 * run and no sequence number: a run id is what a forger needs. */
static bool anonymous_reply(const net_board *b, const net_msg *m) {
  return b->keyed && m->h.type == NET_ERROR && (m->code == NET_E_BAD_TAG || m->code == NET_E_MALFORMED);
}

static void send_reply(net_board *b, const net_addr *to, bool remember) {
  net_msg *m = b->out;
  bool anon = anonymous_reply(b, m);
  m->h.run_id = anon ? 0 : b->run_id;
  m->next_seq = anon ? 0 : b->last_ctl_seq + 1;
  uint8_t buf[NET_MAX_PACKET];
  size_t n = net_encode(m, b->keyed ? &b->key : NULL, buf, NULL, 0);
  if (!n)
    return;
  if (net_udp_send(b->ctl_fd, to, buf, n) != 0)
    b->st.send_errors++;
  if (remember) {
    memcpy(b->last_reply, buf, n);
    b->last_reply_len = n;
  }
}

static void reply_error(net_board *b, const net_addr *to, unsigned req_type, uint32_t seq, unsigned code,
                        const char *text, bool remember) {
  net_msg *m = b->out;
  m->h.type = NET_ERROR;
  m->h.seq = seq;
  m->req_type = (uint8_t)req_type;
  m->code = (uint8_t)code;
  m->name = text;
  m->name_len = (uint16_t)min32((uint32_t)strlen(text), NET_MAX_TEXT);
  send_reply(b, to, remember);
}

static void reply_status(net_board *b, const net_addr *to, uint32_t seq, bool remember) {
  net_msg *m = b->out;
  m->h.type = NET_STATUS;
  m->h.seq = seq;
  m->state = (uint8_t)b->st.state;
  m->width = (uint8_t)b->cfg.params.width;
  m->counters = (uint16_t)b->cfg.params.counters;
  m->arrs = (uint16_t)b->cfg.params.arrs;
  m->bad_tags = b->st.bad_tags;
  m->stale = b->st.stale;
  m->malformed = b->st.malformed;
  m->period = 0;
  m->intervals = b->st.intervals;
  m->cycle = 0;
  if (b->cfg.ops && b->cfg.ops->query)
    b->cfg.ops->query(b->cfg.ops_ctx, &m->period, &m->intervals, &m->cycle);
  send_reply(b, to, remember);
}

/* Applies an accepted request; 0 or a net_err code with text in err. */
static int apply(net_board *b, const net_msg *m, char *err, size_t errlen) {
  const net_board_ops *ops = b->cfg.ops;
  void *ctx = b->cfg.ops_ctx;
  const statmod_params *p = &b->cfg.params;
  unsigned index = (unsigned)m->index;   /* 16 bits on the wire */
  switch (m->h.type) {
  case NET_SET_TIMER:
    if (m->period == 0)
      return snprintf(err, errlen, "the timer period must be at least 1 cycle"), NET_E_BAD_VALUE;
    if (!ops || !ops->set_timer)
      return snprintf(err, errlen, "this board cannot set its timer"), NET_E_UNSUPPORTED;
    return ops->set_timer(ctx, m->period, err, errlen);
  case NET_SET_ARR: {
    if (index >= p->arrs)
      return snprintf(err, errlen, "ARR %u does not exist (the board has %u)", index, p->arrs), NET_E_BAD_VALUE;
    if (m->lo > m->hi)
      return snprintf(err, errlen, "ARR %u: range 0x%08x-0x%08x ends before it begins", index, m->lo, m->hi),
             NET_E_BAD_VALUE;
    if (!ops || !ops->set_arr)
      return snprintf(err, errlen, "this board cannot set ARRs"), NET_E_UNSUPPORTED;
    char name[NET_MAX_TEXT + 1];
    memcpy(name, m->name, m->name_len);
    name[m->name_len] = '\0';
    return ops->set_arr(ctx, index, m->lo, m->hi, name, err, errlen);
  }
  case NET_SET_COUNTER:
    if (index >= p->counters)
      return snprintf(err, errlen, "counter %u does not exist (the board has %u)", index, p->counters),
             NET_E_BAD_VALUE;
    if (m->arr != STATMOD_ANYWHERE && m->arr >= p->arrs)
      return snprintf(err, errlen, "counter %u: ARR %u does not exist (the board has %u)", index, m->arr, p->arrs),
             NET_E_BAD_VALUE;
    if (m->task) {
      if (m->task > STATMOD_TASK_REGS)
        return snprintf(err, errlen, "counter %u: task register %u does not exist (the board has %d, 1-%d)", index,
                        m->task, STATMOD_TASK_REGS, STATMOD_TASK_REGS), NET_E_BAD_VALUE;
      if (!ops || !ops->set_task_counter)
        return snprintf(err, errlen, "this board has no task counters"), NET_E_UNSUPPORTED;
      return ops->set_task_counter(ctx, index, m->signal, m->arr, m->enabled, m->task, err, errlen);
    }
    if (!ops || !ops->set_counter)
      return snprintf(err, errlen, "this board cannot set counters"), NET_E_UNSUPPORTED;
    return ops->set_counter(ctx, index, m->signal, m->arr, m->enabled, err, errlen);
  case NET_SET_TASK: {
    if (index < 1 || index > STATMOD_TASK_REGS)
      return snprintf(err, errlen, "task register %u does not exist (the board has %d, 1-%d)", index,
                      STATMOD_TASK_REGS, STATMOD_TASK_REGS), NET_E_BAD_VALUE;
    if (!ops || !ops->set_task)
      return snprintf(err, errlen, "this board has no task counters"), NET_E_UNSUPPORTED;
    char name[NET_MAX_TEXT + 1];
    memcpy(name, m->name, m->name_len);
    name[m->name_len] = '\0';
    return ops->set_task(ctx, index, name, err, errlen);
  }
  case NET_START: {
    if (b->st.state != NET_STATE_CONFIGURING)
      return snprintf(err, errlen, "already started (%s)", net_state_name(b->st.state)), NET_E_BAD_STATE;
    int rc = ops && ops->start ? ops->start(ctx, err, errlen) : 0;
    if (rc == 0)
      b->st.state = NET_STATE_RUNNING;
    return rc;
  }
  case NET_STOP: {
    if (b->st.state != NET_STATE_RUNNING)
      return snprintf(err, errlen, "not running (%s)", net_state_name(b->st.state)), NET_E_BAD_STATE;
    int rc = ops && ops->stop ? ops->stop(ctx, err, errlen) : 0;
    if (rc == 0)
      b->st.state = NET_STATE_STOPPING;
    return rc;
  }
  default:
    return 0;
  }
}

static void handle_control(net_board *b, const uint8_t *buf, size_t len, const net_addr *from) {
  net_msg *m = b->in;
  char why[200];
  uint32_t hseq = len >= 20 ? (uint32_t)buf[16] | (uint32_t)buf[17] << 8 | (uint32_t)buf[18] << 16 |
                                  (uint32_t)buf[19] << 24
                            : 0;
  unsigned htype = len >= 6 ? buf[5] : 0;
  int decoded = net_decode(buf, len, m, why, sizeof why);
  if (decoded != 0 || !net_is_control(m->h.type)) {
    b->st.malformed++;
    if (decoded == 0)
      snprintf(why, sizeof why, "%s is not a control packet", net_type_name(m->h.type));
    if (len >= 4 && memcmp(buf, "TALY", 4) == 0)   /* answer only what looks like ours */
      reply_error(b, from, htype, hseq, NET_E_MALFORMED, why, false);
    return;
  }
  if (b->keyed && (!(m->h.flags & NET_FLAG_AUTH) || !net_verify(&b->key, buf, len))) {
    b->st.bad_tags++;
    reply_error(b, from, m->h.type, m->h.seq, NET_E_BAD_TAG,
                m->h.flags & NET_FLAG_AUTH ? "authentication tag does not match (different key?)"
                                           : "this board requires authenticated control packets (--key)",
                false);
    return;
  }
  /* The sender did not hear our reply and sent the same bytes again. */
  if (len == b->last_req_len && memcmp(buf, b->last_req, len) == 0) {
    if (net_udp_send(b->ctl_fd, from, b->last_reply, b->last_reply_len) != 0)
      b->st.send_errors++;
    return;
  }
  if (m->h.type == NET_QUERY && m->h.run_id == 0) {   /* hello */
    reply_status(b, from, m->h.seq, false);
    return;
  }
  if (m->h.run_id != b->run_id) {
    b->st.stale++;
    snprintf(why, sizeof why, "run id 0x%016llx is not this board's (send a QUERY for run 0 to learn it)",
             (unsigned long long)m->h.run_id);
    reply_error(b, from, m->h.type, m->h.seq, NET_E_WRONG_RUN, why, false);
    return;
  }
  /* Above the last accepted one, but not by more than a window: a jump to
   * 2^32 - 1 would leave no number to accept afterwards (a locked channel). */
  if (m->h.seq <= b->last_ctl_seq || m->h.seq - b->last_ctl_seq > NET_CTL_SEQ_WINDOW) {
    b->st.stale++;
    if (m->h.seq <= b->last_ctl_seq)
      snprintf(why, sizeof why, "sequence number %u is not above the last accepted one (%u)", m->h.seq,
               b->last_ctl_seq);
    else
      snprintf(why, sizeof why, "sequence number %u is more than %u above the last accepted one (%u)", m->h.seq,
               NET_CTL_SEQ_WINDOW, b->last_ctl_seq);
    reply_error(b, from, m->h.type, m->h.seq, NET_E_STALE, why, false);
    return;
  }
  b->last_ctl_seq = m->h.seq;
  memcpy(b->last_req, buf, len);
  b->last_req_len = len;
  if (m->h.type == NET_QUERY) {
    reply_status(b, from, m->h.seq, true);
    return;
  }
  char text[240] = "";
  int code = apply(b, m, text, sizeof text);
  if (code) {
    reply_error(b, from, m->h.type, m->h.seq, (unsigned)code, text, true);
    return;
  }
  net_msg *r = b->out;
  r->h.type = NET_ACK;
  r->h.seq = m->h.seq;
  r->req_type = m->h.type;
  send_reply(b, from, true);
}

/* A FINAL_ACK counts only as the answer to this run's final packets: its
 * sequence number is the number of packets in the stream (the FINAL
 * packets' total_packets), so an acknowledgement sent or forged before the
 * final packets, or for a stream of another length, is not one; and
 * "complete" must say the collector holds every packet. */
static bool ack_answers_final(const net_board *b, const net_msg *m) {
  if (!b->final_sent || m->h.seq != b->next_seq)
    return false;
  return m->verdict != 1 || m->received == b->next_seq;
}

static void handle_data(net_board *b, const uint8_t *buf, size_t len) {
  net_msg *m = b->in;
  if (net_decode(buf, len, m, NULL, 0) != 0 || m->h.run_id != b->run_id) {
    b->st.malformed++;
    return;
  }
  if (m->h.type != NET_RESEND && m->h.type != NET_FINAL_ACK) {
    b->st.malformed++;
    return;
  }
  /* With a key only the collector can ask for resends or end the run. */
  if (b->keyed && (!(m->h.flags & NET_FLAG_AUTH) || !net_verify(&b->key, buf, len))) {
    b->st.refused_replies++;
    return;
  }
  if (m->h.type == NET_RESEND) {
    answer_resend(b, m);
  } else if (ack_answers_final(b, m)) {
    b->st.acked = true;
    b->st.verdict = m->verdict;
  } else {
    b->st.refused_replies++;
  }
}

static int drain_fd(net_board *b, int fd, bool control) {
  int handled = 0;
  for (int budget = 0; budget < 1024; budget++) {
    size_t len;
    net_addr from;
    int r = net_udp_recv(fd, b->rx, sizeof b->rx, &len, &from, 0);
    if (r <= 0)
      break;
    handled++;
    if (control)
      handle_control(b, b->rx, len, &from);
    else
      handle_data(b, b->rx, len);
  }
  return handled;
}

static int drain_pipe(net_board *b) {
  int handled = 0;
  size_t len;
  while (handled < 1024 && net_pipe_recv(b->cfg.pipe, NET_PIPE_DOWN, b->rx, sizeof b->rx, &len)) {
    handle_data(b, b->rx, len);
    handled++;
  }
  return handled;
}

static int drain(net_board *b) {
  int n = b->cfg.pipe ? drain_pipe(b) : drain_fd(b, b->data_fd, false);
  if (b->ctl_fd >= 0)
    n += drain_fd(b, b->ctl_fd, true);
  return n;
}

/* Waits up to timeout_ms for the pipe's replies or a control packet: the
 * pipe has nothing to poll(), so it is looked at every millisecond. */
static void wait_pipe(net_board *b, int timeout_ms) {
  uint64_t deadline = net_now_ms() + (uint64_t)timeout_ms;
  for (;;) {
    if (net_pipe_ready(b->cfg.pipe, NET_PIPE_DOWN))
      return;
    uint64_t now = net_now_ms();
    if (now >= deadline)
      return;
    struct pollfd p = {.fd = b->ctl_fd, .events = POLLIN};
    if (poll(&p, b->ctl_fd >= 0 ? 1 : 0, 1) > 0)
      return;
  }
}

int net_board_poll(net_board *b, int timeout_ms) {
  if (b->cfg.pipe) {
    if (timeout_ms != 0)
      wait_pipe(b, timeout_ms < 0 ? INT32_MAX : timeout_ms);
    return drain(b);
  }
  if (timeout_ms != 0) {
    struct pollfd p[2] = {{.fd = b->data_fd, .events = POLLIN}, {.fd = b->ctl_fd, .events = POLLIN}};
    if (poll(p, b->ctl_fd >= 0 ? 2 : 1, timeout_ms) <= 0)
      return 0;
  }
  return drain(b);
}

int net_board_wait_start(net_board *b, int timeout_ms, const volatile int *cancel) {
  if (b->ctl_fd < 0) {
    set_err(b, "no control address: nothing can start this board");
    return -1;
  }
  uint64_t deadline = timeout_ms < 0 ? UINT64_MAX : net_now_ms() + (uint64_t)timeout_ms;
  while (b->st.state == NET_STATE_CONFIGURING) {
    if (cancel && *cancel)
      return 1;
    uint64_t now = net_now_ms();
    if (now >= deadline)
      return 1;
    uint64_t wait = deadline - now < 100 ? deadline - now : 100;   /* look at *cancel often */
    net_board_poll(b, (int)wait);
  }
  return 0;
}
