/*
 * The collector: one UDP socket, many runs. collector.h says what it
 * promises; docs/protocol.md, "Reliability", says what the board does in
 * return.
 */
#define _GNU_SOURCE
#include "collector.h"
#include "../store/store_read.h"
#include "spool.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "auth.h"
#include "pipe.h"
#include "proto.h"
#include "udp.h"

#define BATCH 64
#define MAX_RUNS 64                  /* open at once; more is someone flooding us */
/* When all MAX_RUNS slots are taken, a new run takes the slot of the one
 * with the least evidence of being a real run (make_room()): first one that
 * never had a RUN_START (any age), then one with a RUN_START but no DATA
 * silent for EVICT_BARE_MS, then one silent for EVICT_IDLE_MS. Otherwise
 * the new run is refused, with a warning at most every REFUSE_WARN_MS. */
#define EVICT_BARE_MS 2000
#define EVICT_IDLE_MS 10000
#define REFUSE_WARN_MS 10000
#define MAX_CLOSED 4096              /* closed runs remembered at most (the oldest go first) */
/* A run's gap bitmaps grow to its highest sequence number. A jump is
 * believed only while the run would be at most MAX_MISSING packets short of
 * what it has received (the board's resend ring holds 4,096), so a run's
 * maps are bounded by the packets really received plus 128 KiB, and all
 * runs together by MAX_RUNS times that: 1,025 forged packets can no longer
 * walk the window to 2^32 bits. */
#define MAX_MISSING (1u << 20)
#define CLOSED_KEEP_MS 60000         /* closed runs are remembered to re-acknowledge */
#define NOTE_SIZE 600
/* widest chunk a stored run can have: a 16-bit first counter plus a packet's values */
#define TAKE_UP_COUNTERS (65536u + NET_MAX_VALUES)

typedef struct crun {
  uint64_t id;
  net_addr board;
  bool begun, closed, described, final_known;
  bool taken_up;                     /* the store held it, described, before this process heard of it */
  uint64_t closed_at, last_heard;
  store_run_status verdict;
  /* sequence numbers held (have) and declared lost by the board (gone) */
  uint8_t *have, *gone;
  /* Sequence numbers are 32-bit, so one past the highest (end, a map's
   * size) can be 2^32: every count and bound over them is 64-bit. */
  uint64_t cap;                      /* bits in each map */
  uint64_t end;                      /* one past the highest seq seen */
  uint64_t low;                      /* every seq below is held or gone */
  uint64_t received;                 /* distinct packets held */
  uint32_t duplicates, resend_requests;
  /* description */
  uint32_t counters;
  uint8_t width;                  /* RUN_START's, with period: what a DATA_COMPACT packet needs */
  uint64_t period;
  char program[NET_MAX_PROGRAM + 1];
  /* final */
  uint32_t total_packets, data_packets_sent;
  uint64_t intervals_sent;
  bool cut_short;                 /* the board's program did not run to its end */
  bool no_totals;                 /* the board keeps none (FINAL with n = 0): the totals are the stored sums */
  uint32_t final_counters;
  uint64_t *totals;
  /* what was stored */
  uint64_t *sums;
  uint32_t nsums;
  uint32_t data_packets;
  uint64_t intervals;
  bool store_failed;
  /* resend timer */
  uint64_t gap_since, next_request;
  uint32_t tries;
  char note[NOTE_SIZE];
} crun;

struct net_collector {
  net_collector_cfg cfg;
  store *st;
  int fd;
  net_addr local;
  crun **runs;
  uint32_t nruns;
  net_msg *msg;
  uint8_t (*bufs)[NET_RECV_BUF];
  struct mmsghdr mm[BATCH];
  struct iovec iov[BATCH];
  net_addr from[BATCH];
  uint64_t last_packet, last_flush;
  bool dirty;
  net_key key;
  bool keyed, told_bad_tag;
  uint64_t refused_since_warn, refused_warned_at;
  net_collector_stats stats;
  char err[300];
};

/* A map holds r->cap bits; callers index below that (grow_maps first). */
static bool bit(const uint8_t *m, uint64_t i) { return m[i >> 3] >> (i & 7) & 1; }
static void setbit(uint8_t *m, uint64_t i) { m[i >> 3] |= (uint8_t)(1u << (i & 7)); }
static void clearbit(uint8_t *m, uint64_t i) { m[i >> 3] &= (uint8_t)~(1u << (i & 7)); }

static void warn(net_collector *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(net_collector *c, const char *fmt, ...) {
  if (!c->cfg.on_warning)
    return;
  char msg[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  c->cfg.on_warning(c->cfg.ctx, msg);
}

const char *net_collector_error(const net_collector *c) { return c->err; }
int net_collector_fd(const net_collector *c) { return c->fd; }
int net_collector_rcvbuf(const net_collector *c) { return c->fd >= 0 ? net_udp_rcvbuf(c->fd) : 0; }
uint64_t net_collector_idle_ms(const net_collector *c) { return net_now_ms() - c->last_packet; }
const char *net_collector_addr(const net_collector *c, char *buf, size_t size) {
  if (c->fd < 0) {
    snprintf(buf, size, "in-process");
    return buf;
  }
  return net_addr_str(&c->local, buf, size);
}

void net_collector_get_stats(const net_collector *c, net_collector_stats *st) {
  *st = c->stats;
  st->runs_open = 0;
  for (uint32_t i = 0; i < c->nruns; i++)
    st->runs_open += !c->runs[i]->closed;
}

net_collector *net_collector_open(const net_collector_cfg *cfg, store *st, char *err, size_t errlen) {
  net_collector *c = calloc(1, sizeof *c);
  /* receive buffers only for a socket or a pipe (net_collector_feed needs none) */
  if (!c || !(c->msg = malloc(sizeof *c->msg)) ||
      ((cfg->listen || cfg->pipe) && !(c->bufs = malloc(BATCH * sizeof *c->bufs)))) {
    snprintf(err, errlen, "out of memory");
    goto fail;
  }
  c->fd = -1;
  c->cfg = *cfg;
  if (!c->cfg.rcvbuf)
    c->cfg.rcvbuf = 8 << 20;
  if (!c->cfg.resend_delay_ms)
    c->cfg.resend_delay_ms = 20;
  if (!c->cfg.resend_tries)
    c->cfg.resend_tries = 10;
  if (!c->cfg.run_timeout_ms)
    c->cfg.run_timeout_ms = 30000;
  if (!c->cfg.flush_ms)
    c->cfg.flush_ms = 100;
  c->st = st;
  if (cfg->key) {
    c->key = *cfg->key;
    c->keyed = true;
  }
  c->cfg.key = NULL; /* the copy above is the one used */
  net_addr a;
  if (cfg->listen && (net_addr_parse(cfg->listen, &a, err, errlen) != 0 ||
                      (c->fd = net_udp_bind(&a, c->cfg.rcvbuf, err, errlen)) < 0))
    goto fail;
  if (c->fd >= 0)
    net_udp_local(c->fd, &c->local);
  for (int i = 0; c->bufs && i < BATCH; i++) {
    c->iov[i] = (struct iovec){.iov_base = c->bufs[i], .iov_len = NET_RECV_BUF};
    c->mm[i].msg_hdr = (struct msghdr){.msg_iov = &c->iov[i], .msg_iovlen = 1};
  }
  c->last_packet = c->last_flush = net_now_ms();
  return c;
fail:
  net_collector_close(c);
  return NULL;
}

void net_collector_set_key(net_collector *c, const net_key *key) {
  c->keyed = key != NULL;
  if (key)
    c->key = *key;
}

static void free_run_data(crun *r) {
  free(r->have);
  free(r->gone);
  free(r->totals);
  free(r->sums);
  r->have = r->gone = NULL;
  r->totals = r->sums = NULL;
  r->cap = r->nsums = 0;
}

void net_collector_close(net_collector *c) {
  if (!c)
    return;
  if (c->st && c->dirty)
    store_flush(c->st);
  for (uint32_t i = 0; i < c->nruns; i++) {
    free_run_data(c->runs[i]);
    free(c->runs[i]);
  }
  free(c->runs);
  if (c->fd >= 0)
    close(c->fd);
  free(c->msg);
  free(c->bufs);
  free(c);
}

/* ---- runs ---- */

static crun *find_run(net_collector *c, uint64_t id) {
  for (uint32_t i = 0; i < c->nruns; i++)
    if (c->runs[i]->id == id)
      return c->runs[i];
  return NULL;
}

static void forget_run(net_collector *c, uint32_t i) {
  free_run_data(c->runs[i]);
  free(c->runs[i]);
  c->runs[i] = c->runs[--c->nruns];
}

/* A new run's entry (the caller has made room among the open runs). The
 * closed runs remembered are bounded too: past MAX_CLOSED the one closed
 * longest ago is forgotten (it can then only be re-acknowledged from the
 * store's verdict). */
static crun *new_run(net_collector *c, uint64_t id) {
  uint32_t closed = 0, oldest = 0;
  for (uint32_t i = 0; i < c->nruns; i++) {
    if (!c->runs[i]->closed)
      continue;
    if (closed++ == 0 || c->runs[i]->closed_at < c->runs[oldest]->closed_at)
      oldest = i;
  }
  if (closed >= MAX_CLOSED)
    forget_run(c, oldest);
  crun **rs = realloc(c->runs, (c->nruns + 1) * sizeof *rs);
  if (!rs)
    return NULL;
  c->runs = rs;
  crun *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  r->id = id;
  c->runs[c->nruns++] = r;
  return r;
}

/* One past the last sequence number the run can have: the FINAL packets'
 * count once known, else one past the highest seen; never past the maps. */
static uint64_t stream_end(const crun *r) {
  uint64_t end = r->final_known ? r->total_packets : r->end;
  return end < r->cap ? end : r->cap;
}

/* Could the run really reach `end` packets, given what it has received? */
static bool believable_end(const crun *r, uint64_t end) {
  return end <= r->end || end - r->received <= (uint64_t)MAX_MISSING + 1;
}

/* Makes both maps hold at least `bits` bits (at most 2^32: one per
 * sequence number). */
static bool grow_maps(crun *r, uint64_t bits) {
  if (bits <= r->cap)
    return true;
  if (bits > (uint64_t)1 << 32)
    return false;
  uint64_t cap = r->cap ? r->cap : 1024;
  while (cap < bits)
    cap *= 2;   /* powers of two from 1,024: reaches 2^32 exactly, never past */
  size_t old = (size_t)((r->cap + 7) / 8), now = (size_t)((cap + 7) / 8);
  uint8_t *h = realloc(r->have, now);
  if (!h)
    return false;
  r->have = h;
  uint8_t *g = realloc(r->gone, now);
  if (!g)
    return false;
  r->gone = g;
  memset(r->have + old, 0, now - old);
  memset(r->gone + old, 0, now - old);
  r->cap = cap;
  return true;
}

static bool grow_sums(crun *r, uint64_t n) {
  if (n <= r->nsums)
    return true;
  if (n > TAKE_UP_COUNTERS)
    return false;
  uint64_t *s = realloc(r->sums, (size_t)n * sizeof *s);
  if (!s)
    return false;
  memset(s + r->nsums, 0, (size_t)(n - r->nsums) * sizeof *s);
  r->sums = s;
  r->nsums = (uint32_t)n;
  return true;
}

static void store_failed(net_collector *c, crun *r, const char *what) {
  r->store_failed = true;
  snprintf(c->err, sizeof c->err, "store: %s: %s", what, store_error(c->st));
  if (!r->note[0])
    snprintf(r->note, sizeof r->note, "the store failed (%s: %s)", what, store_error(c->st));
}

/* Creates the run in the store before anything of it is stored. */
static void begin(net_collector *c, crun *r) {
  if (r->begun)
    return;
  store_run_info info = {.run_id = r->id};
  if (store_begin_run(c->st, &info) != 0)
    store_failed(c, r, "begin run");
  r->begun = true;
  c->dirty = true;
}

/* Taking up a run the store already holds but has not closed complete (this
 * collector was restarted, or killed and restarted, while the board went
 * on): what the store holds counts as received, so the verdict comes from
 * the store, and no packet stored by the earlier process is asked for again
 * or reported missing. */
static int take_up_chunk(void *ctx, const store_chunk_view *ch) {
  crun *r = ctx;
  if (!believable_end(r, (uint64_t)ch->seq + 1) || !grow_maps(r, (uint64_t)ch->seq + 1) ||
      !grow_sums(r, (uint64_t)ch->first + ch->n))
    return 1;
  if (bit(r->have, ch->seq))
    return 0;
  setbit(r->have, ch->seq);
  for (uint32_t i = 0; i < ch->n; i++)
    r->sums[ch->first + i] += ch->values[i];
  r->data_packets++;
  if (ch->first == 0)
    r->intervals++;
  r->received++;
  if (ch->seq >= r->end)
    r->end = (uint64_t)ch->seq + 1;
  return 0;
}

static void take_up_stored(net_collector *c, crun *r) {
  r->begun = true; /* the store has the run: its description stays unless resent */
  int rc = store_each_chunk(c->st, r->id, TAKE_UP_COUNTERS, take_up_chunk, r);
  if (rc < 0)
    store_failed(c, r, "read what was stored before a restart");
  else if (rc > 0) {
    r->store_failed = true;
    snprintf(r->note, sizeof r->note, "the store's earlier packets of this run are past any believable count");
  }
}

/* ---- closing a run ---- */

static void fmt_count(char *buf, size_t size, uint64_t v) {
  char d[32];
  int n = snprintf(d, sizeof d, "%" PRIu64, v);
  size_t o = 0;
  for (int i = 0; i < n && o + 2 < size; i++) {
    if (i && (n - i) % 3 == 0)
      buf[o++] = ',';
    buf[o++] = d[i];
  }
  buf[o] = '\0';
}

/* "12-15, 40, 99-120": the sequence numbers in [from, end) that are
 * missing (neither held nor gone), or with want_gone those declared gone. */
static size_t list_ranges(const crun *r, uint64_t from, uint64_t end, bool want_gone, char *out, size_t size,
                          uint64_t *count) {
  size_t o = 0;
  unsigned shown = 0;
  uint64_t total = 0;
  out[0] = '\0';
  if (end > r->cap)
    end = r->cap;   /* past the maps nothing was ever seen: a run without maps lists nothing */
  for (uint64_t s = from; s < end;) {
    bool hit = want_gone ? bit(r->gone, s) : !bit(r->have, s) && !bit(r->gone, s);
    if (!hit) {
      s++;
      continue;
    }
    uint64_t e = s;
    while (e + 1 < end && (want_gone ? bit(r->gone, e + 1) : !bit(r->have, e + 1) && !bit(r->gone, e + 1)))
      e++;
    total += e - s + 1;
    if (shown < 8 && o + 40 < size) {
      o += (size_t)snprintf(out + o, size - o, shown ? ", %" PRIu64 : "%" PRIu64, s);
      if (e > s)
        o += (size_t)snprintf(out + o, size - o, "-%" PRIu64, e);
    } else if (shown == 8 && o + 8 < size) {
      o += (size_t)snprintf(out + o, size - o, ", ...");
    }
    shown++;
    s = e + 1;
  }
  *count = total;
  return o;
}

/* Checks the board's totals against what was stored; "" when they agree. */
static void verify(const crun *r, char *note, size_t size) {
  size_t o = 0;
  char a[32], b[32];
  note[0] = '\0';
  if (r->data_packets != r->data_packets_sent) {
    fmt_count(a, sizeof a, r->data_packets);
    fmt_count(b, sizeof b, r->data_packets_sent);
    o += (size_t)snprintf(note + o, size - o, "stored %s DATA packets, the board sent %s; ", a, b);
  }
  if (r->intervals != r->intervals_sent && o < size) {
    fmt_count(a, sizeof a, r->intervals);
    fmt_count(b, sizeof b, r->intervals_sent);
    o += (size_t)snprintf(note + o, size - o, "stored %s intervals, the board dispatched %s; ", a, b);
  }
  unsigned wrong = 0;
  for (uint32_t i = 0; i < r->final_counters; i++) {
    uint64_t sum = i < r->nsums ? r->sums[i] : 0;
    if (sum == r->totals[i])
      continue;
    if (wrong++ < 3 && o < size) {
      fmt_count(a, sizeof a, sum);
      fmt_count(b, sizeof b, r->totals[i]);
      o += (size_t)snprintf(note + o, size - o, "counter %" PRIu32 ": stored sum %s, board total %s; ", i, a, b);
    }
  }
  if (wrong > 3 && o < size)
    o += (size_t)snprintf(note + o, size - o, "%u counters disagree in all; ", wrong);
  if (o >= 2 && o < size)
    note[o - 2] = '\0';
}

/* With a key the collector's RESEND and FINAL_ACK carry its tag: the board
 * takes them from nobody else. */
static const net_key *reply_key(const net_collector *c) { return c->keyed ? &c->key : NULL; }

/* To a board: over the socket, or back through the pipe of a board in
 * this process. */
static int send_to_board(net_collector *c, const net_addr *to, const void *buf, size_t len) {
  if (!to->len)
    return -1; /* a run read from a spool file: no board to answer */
  if (net_pipe_is_addr(to))
    return c->cfg.pipe && net_pipe_send(c->cfg.pipe, NET_PIPE_DOWN, buf, len) ? 0 : -1;
  return c->fd >= 0 ? net_udp_send(c->fd, to, buf, len) : -1;
}

/* The answer to final packets that said the stream has `total` packets:
 * its sequence number is that total, so the board can tell it from an
 * acknowledgement of anything else (docs/protocol.md, FINAL_ACK). A run
 * closed complete holds every packet, whether this process or an earlier
 * one stored them. */
static void send_final_ack(net_collector *c, crun *r, uint32_t total) {
  if (!r->board.len)
    return;
  net_msg *m = c->msg;
  m->h.type = NET_FINAL_ACK;
  m->h.run_id = r->id;
  m->h.seq = total;
  m->verdict = r->verdict == STORE_RUN_COMPLETE ? 1 : 2;
  m->received = m->verdict == 1 ? total : r->received > UINT32_MAX ? UINT32_MAX : (uint32_t)r->received;
  uint8_t buf[NET_MAX_PACKET];
  size_t n = net_encode(m, reply_key(c), buf, NULL, 0);
  if (n)
    send_to_board(c, &r->board, buf, n);
}

/* A board without totals (docs/protocol.md, FINAL with n = 0): the run's
 * totals are the sums of the intervals stored. */
static void take_sums(crun *r) {
  if (r->final_known && r->no_totals)
    for (uint32_t i = 0; i < r->final_counters; i++)
      r->totals[i] = i < r->nsums ? r->sums[i] : 0;
}

static void close_run(net_collector *c, crun *r, store_run_status status, const char *note) {
  take_sums(r);
  if (r->store_failed)
    status = STORE_RUN_INCOMPLETE;
  if (note && !r->store_failed)
    snprintf(r->note, sizeof r->note, "%s", note);
  r->verdict = status;
  begin(c, r);
  if (store_finish_run(c->st, r->id, status, r->final_known ? r->totals : NULL, r->final_known ? r->final_counters : 0,
                       r->final_known ? r->intervals_sent : r->intervals, r->note) != 0)
    snprintf(c->err, sizeof c->err, "store: finish run: %s", store_error(c->st));
  if (store_flush(c->st) != 0)
    snprintf(c->err, sizeof c->err, "store: flush: %s", store_error(c->st));
  c->dirty = false;
  c->last_flush = net_now_ms();
  r->closed = true;
  r->closed_at = net_now_ms();
  if (status == STORE_RUN_COMPLETE)
    c->stats.runs_complete++;
  else
    c->stats.runs_incomplete++;
  if (r->final_known) /* else nothing to answer yet: the board's FINAL, when it comes, is answered then */
    send_final_ack(c, r, r->total_packets);
  if (c->cfg.on_run) {
    net_run_result res = {.run_id = r->id, .status = status, .intervals = r->intervals,
                          .packets = r->received > UINT32_MAX ? UINT32_MAX : (uint32_t)r->received,
                          .duplicates = r->duplicates, .resend_requests = r->resend_requests,
                          .program = r->program, .note = r->note};
    c->cfg.on_run(c->cfg.ctx, &res);
  }
  free_run_data(r);
}

/* With the final packets known and nothing left to wait for, decides. */
static void try_close(net_collector *c, crun *r) {
  if (r->closed || !r->final_known)
    return;
  while (r->low < r->total_packets && (bit(r->have, r->low) || bit(r->gone, r->low)))
    r->low++;
  if (r->low < r->total_packets)   /* still waiting for something */
    return;
  char list[300], note[NOTE_SIZE];
  uint64_t n;
  list_ranges(r, 0, r->total_packets, true, list, sizeof list, &n);
  if (n) {
    char a[32], b[32];
    fmt_count(a, sizeof a, n);
    fmt_count(b, sizeof b, r->total_packets);
    snprintf(note, sizeof note, "missing %s of %s packets (the board no longer held them): seq %s", a, b, list);
    close_run(c, r, STORE_RUN_INCOMPLETE, note);
    return;
  }
  take_sums(r);
  verify(r, note, sizeof note);
  if (r->cut_short) {
    size_t o = strlen(note);
    snprintf(note + o, sizeof note - o, "%sthe board's program did not run to its end: the counts cover only the "
             "cycles simulated", o ? "; " : "");
  }
  close_run(c, r, note[0] ? STORE_RUN_INCOMPLETE : STORE_RUN_COMPLETE, note);
}

/* ---- packets ---- */

/* A DATA_COMPACT packet (docs/protocol.md, "Compact stream") carries every
 * counter of one interval and its number, no cycle stamps: the interval
 * numbered i covers [i * period, (i + 1) * period), the period and the
 * counters' number and width those of the run's RUN_START. Fills in the
 * stamps and returns true, or returns false having counted the packet:
 * before RUN_START it is not held (deferred: the gap is asked for again
 * with RUN_START), and one that disagrees with RUN_START is refused. */
static bool compact_stamps(net_collector *c, crun *r, net_msg *m, uint64_t seq) {
  if (!r->described) {
    c->stats.deferred++;
    if (seq >= r->end)
      r->end = seq + 1;   /* a gap now: asked for again, with the RUN_START it waits for */
    return false;
  }
  const char *bad = NULL;
  if (m->n != r->counters || m->width != r->width)
    bad = "its counters do not match RUN_START's";
  else if (r->period == 0 || m->index >= UINT64_MAX / r->period)
    bad = "its interval's cycles do not fit in 64 bits at RUN_START's period";
  if (bad) {
    c->stats.malformed++;
    warn(c,
         "run %016" PRIx64 ": refused DATA_COMPACT seq %" PRIu64 " (interval %" PRIu64 ", %u counters of %u bits): %s "
         "(%" PRIu32 " counters of %u bits, period %" PRIu64 ")",
         r->id, seq, m->index, m->n, m->width, bad, r->counters, r->width, r->period);
    return false;
  }
  m->cycle_begin = m->index * r->period;
  m->cycle_end = m->cycle_begin + r->period;
  return true;
}

static void on_describe(net_collector *c, crun *r, const net_msg *m) {
  snprintf(r->program, sizeof r->program, "%.*s", (int)m->program_len, m->program);
  char core[NET_MAX_TEXT + 1];
  snprintf(core, sizeof core, "%.*s", (int)m->core_len, m->core);
  store_run_info info = {.run_id = r->id, .program = r->program, .core = core, .counters = m->counters,
                         .width = m->width, .arrs = m->arrs, .period = m->period, .freq_mhz = m->freq_khz / 1000.0};
  if (store_begin_run(c->st, &info) != 0)
    store_failed(c, r, "begin run");
  r->begun = r->described = true;
  r->counters = m->counters;
  r->width = m->width;
  r->period = m->period;
}

static void on_counter_info(net_collector *c, crun *r, const net_msg *m) {
  begin(c, r);
  for (unsigned i = 0; i < m->n; i++) {
    const net_counter_desc *d = &m->descs[i];
    char name[NET_MAX_TEXT + 1], where[NET_MAX_TEXT + 1], label[NET_MAX_TEXT + 1];
    snprintf(name, sizeof name, "%.*s", d->name_len, d->name);
    snprintf(where, sizeof where, "%.*s", d->where_len, d->where);
    snprintf(label, sizeof label, "%.*s", d->label_len, d->label);
    store_counter_info ci = {.index = (uint32_t)m->first + i, .signal = name, .anywhere = d->arr == 0xFFFF,
                             .lo = d->lo, .hi = d->hi, .where = where, .label = label, .enabled = d->enabled};
    if (store_set_counter(c->st, r->id, &ci) != 0) {
      store_failed(c, r, "set counter");
      return;
    }
  }
}

static void on_data(net_collector *c, crun *r, const net_msg *m) {
  begin(c, r);
  if (!grow_sums(r, (uint32_t)m->first + m->n)) {
    snprintf(r->note, sizeof r->note, "out of memory summing counters");
    r->store_failed = true;
    return;
  }
  bool dup = false;
  if (store_add_interval(c->st, r->id, m->h.seq, m->index, m->cycle_begin, m->cycle_end, m->first, m->n, m->values,
                         m->saturated, &dup) != 0) {
    store_failed(c, r, "add interval");
    return;
  }
  if (dup)
    return;
  for (unsigned i = 0; i < m->n; i++)
    r->sums[m->first + i] += m->values[i];
  r->data_packets++;
  if (m->first == 0)
    r->intervals++;
}

static void on_final(net_collector *c, crun *r, const net_msg *m) {
  if (!r->final_known) {
    if (!believable_end(r, m->total_packets)) {
      warn(c, "run %016" PRIx64 ": FINAL claims %" PRIu32 " packets, past any believable count", r->id,
           m->total_packets);
      return;
    }
    free(r->totals);   /* an earlier FINAL that could not be taken */
    r->totals = calloc(m->counters, sizeof *r->totals);
    if (!r->totals || !grow_maps(r, m->total_packets)) {
      snprintf(r->note, sizeof r->note, "out of memory for the final totals");
      r->store_failed = true;
      return;
    }
    r->final_known = true;
    r->total_packets = m->total_packets;
    r->final_counters = m->counters;
    r->data_packets_sent = m->data_packets;
    r->intervals_sent = m->intervals;
    r->cut_short = m->cut_short;
  } else if (m->total_packets != r->total_packets || m->counters != r->final_counters) {
    warn(c, "run %016" PRIx64 ": FINAL packets disagree (%" PRIu32 " vs %" PRIu32 " packets)", r->id, m->total_packets,
         r->total_packets);
    r->store_failed = true;
    snprintf(r->note, sizeof r->note, "the board's FINAL packets disagree with each other");
    return;
  }
  if (m->n && (uint32_t)m->first + m->n <= r->final_counters)   /* the decoder's rule, kept here too */
    memcpy(r->totals + m->first, m->values, m->n * sizeof *r->totals);
  if (m->n == 0)
    r->no_totals = true;
}

static int range_cmp(const void *a, const void *b) {
  uint32_t x = ((const net_range *)a)->first, y = ((const net_range *)b)->first;
  return x < y ? -1 : x > y;
}

/* Marks as gone what the ranges name and the run does not hold, within
 * [low, end). The ranges are sorted and merged first, and whole bytes of
 * the maps done at once, so a packet of 171 overlapping ranges over a
 * 2^20-packet window costs one pass over the window, not 171. */
static void on_gone(net_collector *c, crun *r, const net_msg *m) {
  (void)c;
  uint64_t end = stream_end(r);
  net_range rg[NET_MAX_RANGES];
  unsigned n = m->nranges < NET_MAX_RANGES ? m->nranges : NET_MAX_RANGES;
  memcpy(rg, m->ranges, n * sizeof *rg);
  qsort(rg, n, sizeof *rg, range_cmp);
  uint64_t done = r->low;   /* everything below is held or gone already */
  for (unsigned i = 0; i < n; i++) {
    uint64_t s = rg[i].first > done ? rg[i].first : done;
    uint64_t hi = (uint64_t)rg[i].first + rg[i].count;
    if (hi > end)
      hi = end;
    for (; s < hi && (s & 7); s++)
      if (!bit(r->have, s))
        setbit(r->gone, s);
    for (; s + 8 <= hi; s += 8)
      r->gone[s >> 3] |= (uint8_t)~r->have[s >> 3];
    for (; s < hi; s++)
      if (!bit(r->have, s))
        setbit(r->gone, s);
    if (hi > done)
      done = hi;
  }
}

/* With a key, a packet counts only with a right tag: checked before it can
 * open, claim or touch a run, so a forger who knows a run id can neither
 * store anything under it nor take it from its board. Without a key, a
 * tagged packet (a keyed board) is refused too: it could not be checked,
 * and this collector's answers would carry no tag the board takes. */
static bool authentic(net_collector *c, const uint8_t *buf, size_t len, const net_msg *m, const net_addr *from) {
  bool tagged = m->h.flags & NET_FLAG_AUTH;
  if (c->keyed ? tagged && net_verify(&c->key, buf, len) : !tagged)
    return true;
  c->stats.bad_tags++;
  if (!c->told_bad_tag) { /* once: a flood of forgeries must not become a flood of warnings */
    c->told_bad_tag = true;
    char src[80];
    warn(c, "refused a %s packet from %s: %s (further ones are only counted)", net_type_name(m->h.type),
         net_addr_str(from, src, sizeof src),
         !c->keyed ? "it carries a tag and this collector has no key (--key)"
         : tagged  ? "its tag does not match the key"
                   : "it carries no tag and this collector has a key");
  }
  return false;
}

/* What speaks for an open run being a board's: 0 no RUN_START (and nothing
 * an earlier collector stored), 1 a RUN_START but no DATA, 2 both. */
static int evidence(const crun *r) {
  if (!r->described && !r->taken_up)
    return 0;
  return r->data_packets ? 2 : 1;
}

/* Makes room for a new run among the MAX_RUNS open ones, evicting the one
 * with the least evidence (see EVICT_BARE_MS); false, with a warning now
 * and then, when every open run has shown enough life to be kept. An
 * evicted run that reached the store is closed there incomplete with a
 * note, and forgotten here: if its board is real and comes back, its run
 * is taken up from the store like a collector restarted mid-run. */
static bool make_room(net_collector *c, uint64_t id, uint64_t now) {
  uint32_t open = 0, victim = UINT32_MAX;
  int victim_ev = 3;
  for (uint32_t i = 0; i < c->nruns; i++) {
    crun *r = c->runs[i];
    if (r->closed)
      continue;
    open++;
    int ev = evidence(r);
    uint64_t quiet = now - r->last_heard;
    if ((ev == 1 && quiet < EVICT_BARE_MS) || (ev == 2 && quiet < EVICT_IDLE_MS))
      continue;
    if (ev < victim_ev || (ev == victim_ev && r->last_heard < c->runs[victim]->last_heard)) {
      victim = i;
      victim_ev = ev;
    }
  }
  if (open < MAX_RUNS)
    return true;
  if (victim == UINT32_MAX) {
    c->stats.runs_refused++;
    c->refused_since_warn++;
    if (!c->refused_warned_at || now - c->refused_warned_at >= REFUSE_WARN_MS) {
      warn(c, "refused %" PRIu64 " new run%s (the last %016" PRIx64 "): all %d run slots are held by runs heard "
           "from with a RUN_START and DATA within %d s; without a key anyone can hold them (--key)",
           c->refused_since_warn, c->refused_since_warn == 1 ? "" : "s", id, MAX_RUNS, EVICT_IDLE_MS / 1000);
      c->refused_since_warn = 0;
      c->refused_warned_at = now;
    }
    return false;
  }
  crun *r = c->runs[victim];
  c->stats.runs_evicted++;
  if (r->begun || r->described) {
    char note[NOTE_SIZE];
    snprintf(note, sizeof note, "evicted to make room for another run: %s, nothing heard for %" PRIu64 " ms",
             victim_ev == 0 ? "no RUN_START received" : victim_ev == 1 ? "no DATA received" : "silent",
             now - r->last_heard);
    close_run(c, r, STORE_RUN_INCOMPLETE, note);
  }
  forget_run(c, victim);
  return true;
}

static void handle(net_collector *c, const uint8_t *buf, size_t len, const net_addr *from, uint64_t now) {
  net_msg *m = c->msg;
  char why[200];
  c->stats.received++;
  if (net_decode(buf, len, m, why, sizeof why) != 0) {
    c->stats.malformed++;
    char src[80];
    warn(c, "refused a packet from %s: %s", net_addr_str(from, src, sizeof src), why);
    return;
  }
  unsigned t = m->h.type;
  if (t != NET_RUN_START && t != NET_COUNTER_INFO && t != NET_DATA && t != NET_DATA_COMPACT && t != NET_FINAL &&
      t != NET_GONE) {
    c->stats.malformed++;
    return;
  }
  if (m->h.run_id == 0) {
    /* 0 is the control channel's "no run yet" (its hello): never a run */
    c->stats.malformed++;
    return;
  }
  if (!authentic(c, buf, len, m, from))
    return;
  crun *r = find_run(c, m->h.run_id);
  if (!r) {
    if (t == NET_GONE || !make_room(c, m->h.run_id, now) || !(r = new_run(c, m->h.run_id))) {
      c->stats.malformed++;
      return;
    }
    r->board = *from; /* a run belongs to its first sender */
    r->last_heard = now;
    /* A run the store already holds complete (a replay, or a board still
     * finishing after this collector restarted) is never reopened: its
     * packets are duplicates and its FINAL is acknowledged as complete. */
    store_run_status was;
    int known = store_run_status_of(c->st, r->id, &was);
    if (known == 1 && was == STORE_RUN_COMPLETE) {
      r->begun = r->closed = true;
      r->closed_at = now;
      r->verdict = STORE_RUN_COMPLETE;
    } else if (known == 1) {
      /* evidence only if an earlier process had its RUN_START (else a
       * forger could revive an evicted junk run as "taken up") */
      store_run_view v;
      if (store_get_run(c->st, r->id, &v) == 1) {
        r->taken_up = v.counters != 0;
        store_run_view_clear(&v);
      }
      take_up_stored(c, r);
    }
  } else if (!net_addr_equal(&r->board, from)) {
    /* Another sender using a known run id is forged or confused: it can
     * neither add to the run, nor make us resend to it, nor take the run. */
    c->stats.foreign++;
    return;
  }
  if (r->closed) {
    if (t == NET_FINAL)
      send_final_ack(c, r, m->total_packets);   /* our acknowledgement was lost: the board is still waiting */
    else
      c->stats.duplicates++;
    return;
  }
  r->last_heard = now;
  if (t == NET_GONE) {
    on_gone(c, r, m);
    try_close(c, r);
    return;
  }
  uint64_t seq = m->h.seq;   /* 64-bit: seq + 1 is 2^32 for the last one */
  if ((r->final_known && seq >= r->total_packets) || !believable_end(r, seq + 1) || !grow_maps(r, seq + 1)) {
    c->stats.malformed++;
    warn(c, "run %016" PRIx64 ": sequence number %" PRIu64 " out of range", r->id, seq);
    return;
  }
  if (bit(r->have, seq)) {
    r->duplicates++;
    c->stats.duplicates++;
    return;
  }
  if (t == NET_DATA_COMPACT && !compact_stamps(c, r, m, seq))
    return;
  switch (t) {
  case NET_RUN_START: on_describe(c, r, m); break;
  case NET_COUNTER_INFO: on_counter_info(c, r, m); break;
  case NET_DATA:
  case NET_DATA_COMPACT: on_data(c, r, m); break;
  case NET_FINAL: on_final(c, r, m); break;
  }
  setbit(r->have, seq);
  clearbit(r->gone, seq);
  r->received++;
  c->stats.stored++;
  c->dirty = true;
  if (seq < r->end)
    r->tries = 0;   /* a gap filled: the board is answering */
  if (seq >= r->end)
    r->end = seq + 1;
  try_close(c, r);
}

/* ---- timers ---- */

static void request_resend(net_collector *c, crun *r, uint64_t end) {
  net_msg *m = c->msg;
  uint16_t n = 0;
  net_range *rg = m->range_buf;
  for (uint64_t s = r->low; s < end && n < NET_MAX_RANGES; s++) {
    if (bit(r->have, s) || bit(r->gone, s))
      continue;
    if (n && (uint64_t)rg[n - 1].first + rg[n - 1].count == s)
      rg[n - 1].count++;
    else
      rg[n++] = (net_range){(uint32_t)s, 1};   /* s < end <= 2^32 */
  }
  if (!n)
    return;
  m->h.type = NET_RESEND;
  m->h.run_id = r->id;
  m->h.seq = 0;
  m->nranges = n;
  m->ranges = rg;
  uint8_t buf[NET_MAX_PACKET];
  size_t len = net_encode(m, reply_key(c), buf, NULL, 0);
  if (len && send_to_board(c, &r->board, buf, len) == 0) {
    r->resend_requests++;
    c->stats.resend_requests++;
  }
}

static bool has_missing(crun *r, uint64_t end) {
  while (r->low < end && (bit(r->have, r->low) || bit(r->gone, r->low)))
    r->low++;
  return r->low < end;
}

/* Runs one run's timers; returns when it next wants to be looked at. */
static uint64_t run_timers(net_collector *c, crun *r, uint64_t now) {
  uint64_t end = stream_end(r);
  if (now - r->last_heard >= c->cfg.run_timeout_ms) {
    char note[NOTE_SIZE], list[300];
    uint64_t n;
    list_ranges(r, r->low, end, false, list, sizeof list, &n);
    snprintf(note, sizeof note, "nothing heard from the board for %u s%s%s%s", c->cfg.run_timeout_ms / 1000,
             r->final_known ? "" : "; no final packet", n ? "; missing seq " : "", n ? list : "");
    close_run(c, r, STORE_RUN_INCOMPLETE, note);
    return UINT64_MAX;
  }
  uint64_t wake = r->last_heard + c->cfg.run_timeout_ms;
  if (!has_missing(r, end)) {
    r->gap_since = 0;
    return wake;
  }
  if (!r->gap_since) {
    r->gap_since = now;
    r->next_request = now + c->cfg.resend_delay_ms;
    r->tries = 0;
  }
  if (now >= r->next_request) {
    if (r->final_known && r->tries >= c->cfg.resend_tries) {
      char note[NOTE_SIZE], list[300];
      uint64_t n;
      list_ranges(r, r->low, end, false, list, sizeof list, &n);
      snprintf(note, sizeof note, "missing %" PRIu64 " packets after %u unanswered resend requests: seq %s", n,
               r->tries, list);
      close_run(c, r, STORE_RUN_INCOMPLETE, note);
      return UINT64_MAX;
    }
    request_resend(c, r, end);
    r->tries++;
    uint64_t delay = (uint64_t)c->cfg.resend_delay_ms << (r->tries < 10 ? r->tries : 10);
    r->next_request = now + (delay < 1000 ? delay : 1000);
  }
  return r->next_request < wake ? r->next_request : wake;
}

static uint64_t timers(net_collector *c, uint64_t now) {
  uint64_t wake = UINT64_MAX;
  for (uint32_t i = 0; i < c->nruns;) {
    crun *r = c->runs[i];
    if (r->closed) {
      if (now - r->closed_at >= CLOSED_KEEP_MS) {
        free(r);
        c->runs[i] = c->runs[--c->nruns];
        continue;
      }
      if (r->closed_at + CLOSED_KEEP_MS < wake)
        wake = r->closed_at + CLOSED_KEEP_MS;
    } else {
      uint64_t w = run_timers(c, r, now);
      if (w < wake)
        wake = w;
    }
    i++;
  }
  if (c->dirty) {
    if (now - c->last_flush >= c->cfg.flush_ms) {
      if (store_flush(c->st) != 0)
        snprintf(c->err, sizeof c->err, "store: flush: %s", store_error(c->st));
      c->dirty = false;
      c->last_flush = now;
    } else if (c->last_flush + c->cfg.flush_ms < wake) {
      wake = c->last_flush + c->cfg.flush_ms;
    }
  }
  return wake;
}

/* Reads everything waiting, in batches, up to a budget that keeps timers
 * running under a flood. Returns datagrams read. */
static int receive(net_collector *c) {
  int total = 0;
  if (c->fd < 0)
    return 0;   /* in-process only: no socket */
  while (total < 16 * BATCH) {
    for (int i = 0; i < BATCH; i++) {
      c->mm[i].msg_hdr.msg_name = &c->from[i].sa;
      c->mm[i].msg_hdr.msg_namelen = sizeof c->from[i].sa;
      c->mm[i].msg_hdr.msg_flags = 0;
    }
    int n = recvmmsg(c->fd, c->mm, BATCH, MSG_DONTWAIT, NULL);
    if (n <= 0)
      break;
    uint64_t now = net_now_ms();
    for (int i = 0; i < n; i++) {
      c->from[i].len = c->mm[i].msg_hdr.msg_namelen;
      size_t len = c->mm[i].msg_len;
      if (c->mm[i].msg_hdr.msg_flags & MSG_TRUNC)
        len = NET_RECV_BUF;   /* longer than any packet: the decoder refuses it */
      handle(c, c->bufs[i], len, &c->from[i], now);
    }
    total += n;
    c->last_packet = now;
    if (n < BATCH)
      break;
  }
  return total;
}

/* The same for a board in this process (cfg.pipe). */
static int receive_pipe(net_collector *c) {
  int total = 0;
  size_t len;
  net_addr from;
  net_pipe_addr(&from);
  uint64_t now = net_now_ms();
  while (total < 16 * BATCH && net_pipe_recv(c->cfg.pipe, NET_PIPE_UP, c->bufs[0], NET_RECV_BUF, &len)) {
    handle(c, c->bufs[0], len, &from, now);
    total++;
  }
  if (total)
    c->last_packet = now;
  return total;
}

int net_collector_poll(net_collector *c, int timeout_ms) {
  c->err[0] = '\0';
  uint64_t now = net_now_ms();
  uint64_t wake = timers(c, now);
  if (timeout_ms != 0) {
    uint64_t limit = timeout_ms < 0 ? UINT64_MAX : now + (uint64_t)timeout_ms;
    if (wake < limit)
      limit = wake;
    int wait = limit == UINT64_MAX ? -1 : limit > now ? (int)(limit - now) : 0;
    if (c->fd < 0 && wait < 0)
      wait = 0;   /* no socket to wake us: the pipe is only looked at, never waited on */
    struct pollfd p = {.fd = c->fd, .events = POLLIN};
    poll(&p, 1, wait);
  }
  receive(c);
  if (c->cfg.pipe)
    receive_pipe(c);
  timers(c, net_now_ms());
  return c->err[0] ? -1 : 0;
}

void net_collector_finish_all(net_collector *c, const char *note) {
  for (uint32_t i = 0; i < c->nruns; i++) {
    crun *r = c->runs[i];
    if (r->closed)
      continue;
    char full[NOTE_SIZE], list[300];
    uint64_t n;
    uint64_t end = stream_end(r);
    list_ranges(r, r->low, end, false, list, sizeof list, &n);
    snprintf(full, sizeof full, "%s%s%s%s", note, r->final_known ? "" : "; no final packet", n ? "; missing seq " : "",
             n ? list : "");
    close_run(c, r, STORE_RUN_INCOMPLETE, full);
  }
}

void net_collector_feed(net_collector *c, const void *buf, size_t len, const net_addr *from, uint64_t now_ms) {
  if (len > NET_RECV_BUF)
    len = NET_RECV_BUF;   /* as receive() takes a datagram longer than any packet */
  handle(c, buf, len, from, now_ms);
  c->last_packet = now_ms;
}

void net_collector_tick(net_collector *c, uint64_t now_ms) { timers(c, now_ms); }

/* ---- spool files ---- */

typedef struct import_ctx {
  net_collector *c;
  net_addr from; /* no address: nothing is sent back to a spool file */
} import_ctx;

static int import_one(void *ctx, const uint8_t *buf, size_t len) {
  import_ctx *ic = ctx;
  handle(ic->c, buf, len, &ic->from, net_now_ms());
  return 0;
}

long net_collector_import(net_collector *c, const char *path, bool *truncated, bool *bad_input, char *err,
                          size_t errlen) {
  import_ctx ic = {.c = c};
  long n = net_spool_read(path, import_one, &ic, truncated, bad_input, err, errlen);
  if (c->dirty && store_flush(c->st) != 0)
    snprintf(c->err, sizeof c->err, "store: flush: %s", store_error(c->st));
  c->dirty = false;
  return n;
}
