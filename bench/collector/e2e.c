/*
 * End to end: a sender on loopback blasting DATA packets at a collector
 * that stores them in SQLite. Two processes, as in the paper's two-machine
 * form:
 *
 *   child   the real collector (src/net/collector.c) into a fresh store,
 *           polling until the run is closed; it then reports the verdict
 *           and the moment it was written
 *   parent  the sender, one of:
 *           link   the real board link (src/net/board_link.c), fed N
 *                  intervals of 16 counters as the simulator feeds it: one
 *                  DATA packet per interval, one send call each, answering
 *                  resend requests between intervals
 *           blast  the same stream encoded beforehand (net_encode) and sent
 *                  in batches of 32 with sendmmsg, answering resend
 *                  requests from memory once everything is out: a sender
 *                  that is not the bottleneck, to measure the collector
 *
 * The time is from the first packet sent to the moment the collector has
 * closed the run (everything stored, the verdict written and committed);
 * also reported: the time from the last DATA packet sent to that moment
 * (what a paced run adds to packets / offered rate).
 * Afterwards the store is read back: the run must be complete, hold every
 * interval, and its sums must equal the totals the sender computed itself.
 * "Without loss" is checked two ways: the verdict and sums (nothing missing
 * in the end, resends allowed), and the collector's resend requests (zero:
 * the socket dropped nothing on the way, no packet had to be sent again).
 *
 * Usage: e2e DIR [--packets N] [--runs R] [--rates 0,100000,...] [--senders link,blast]
 * A rate of 0 sends as fast as the sender can; a rate paces the DATA
 * packets at that many per second. One line per (sender, rate).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "net/board_link.h"
#include "net/collector.h"
#include "net/udp.h"
#include "store/store_read.h"

#define NCOUNTERS 16
#define MAXRATES 16
#define MAXRUNS 99

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* What the collector process reports through its pipe. */
typedef struct child_report {
  int ok;                          /* the run was closed */
  double closed_at;                /* CLOCK_MONOTONIC seconds (system-wide) */
  int status;                      /* store_run_status */
  uint64_t intervals, packets, duplicates, resend_requests, malformed;
  int rcvbuf;
  double cpu_s;                    /* the collector's CPU time, user + system */
  char note[300];
} child_report;

typedef struct child_ctx {
  child_report rep;
  bool done;
} child_ctx;

static void on_run(void *ctx, const net_run_result *r) {
  child_ctx *c = ctx;
  c->rep.closed_at = now();
  c->rep.ok = 1;
  c->rep.status = r->status;
  c->rep.intervals = r->intervals;
  c->rep.packets = r->packets;
  c->rep.duplicates = r->duplicates;
  c->rep.resend_requests = r->resend_requests;
  snprintf(c->rep.note, sizeof c->rep.note, "%s", r->note ? r->note : "");
  c->done = true;
}

static void write_all(int fd, const void *p, size_t n) {
  const char *c = p;
  while (n) {
    ssize_t w = write(fd, c, n);
    if (w <= 0)
      _exit(3);
    c += w;
    n -= (size_t)w;
  }
}

static bool read_all(int fd, void *p, size_t n) {
  char *c = p;
  while (n) {
    ssize_t r = read(fd, c, n);
    if (r <= 0)
      return false;
    c += r;
    n -= (size_t)r;
  }
  return true;
}

/* The collector process: sends its address, then its report. */
static void collector_main(const char *db, int out) {
  char err[600];
  store *st = store_open(db, err, sizeof err);
  if (!st) {
    fprintf(stderr, "e2e collector: %s\n", err);
    _exit(2);
  }
  child_ctx cc = {0};
  net_collector_cfg cfg = {.listen = "127.0.0.1:0", .on_run = on_run, .ctx = &cc};
  net_collector *c = net_collector_open(&cfg, st, err, sizeof err);
  if (!c) {
    fprintf(stderr, "e2e collector: %s\n", err);
    _exit(2);
  }
  char addr[80] = "";
  net_collector_addr(c, addr, sizeof addr);
  write_all(out, addr, sizeof addr);
  while (!cc.done)
    if (net_collector_poll(c, 50) != 0) {
      fprintf(stderr, "e2e collector: %s\n", net_collector_error(c));
      break;
    }
  net_collector_stats cs;
  net_collector_get_stats(c, &cs);
  cc.rep.malformed = cs.malformed;
  cc.rep.rcvbuf = net_collector_rcvbuf(c);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  cc.rep.cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
                 ru.ru_stime.tv_usec * 1e-6;
  write_all(out, &cc.rep, sizeof cc.rep);
  net_collector_close(c);
  store_close(st);
  _exit(0);
}

typedef struct result {
  double rate;                     /* DATA packets stored per second */
  uint64_t resent, gone;           /* the sender's count of packets sent again, and reported gone */
  uint64_t requests;               /* RESEND packets the collector sent: it saw a gap */
  bool complete;                   /* verdict complete and the read-back checks hold */
  int rcvbuf;
  double total_s;                  /* seconds from the first packet to the verdict */
  double cpu_us;                   /* the collector's CPU time per DATA packet, microseconds */
  double tail_ms;                  /* from the last DATA packet sent to the verdict */
  char why[1000];
} result;

static void remove_db(const char *path) {
  char p[4200];
  unlink(path);
  snprintf(p, sizeof p, "%s-wal", path);
  unlink(p);
  snprintf(p, sizeof p, "%s-shm", path);
  unlink(p);
}

/* Reads the run back and compares it with what was sent. */
static void verify(const char *db, uint64_t run_id, uint64_t packets, const uint64_t *totals, result *res) {
  char err[600];
  store *s = store_open_existing(db, err, sizeof err);
  if (!s) {
    snprintf(res->why, sizeof res->why, "read back: %s", err);
    res->complete = false;
    return;
  }
  store_run_view r;
  store_totals_view t;
  if (store_get_run(s, run_id, &r) != 1 || store_get_totals(s, run_id, &t) != 0) {
    snprintf(res->why, sizeof res->why, "read back: %s", store_error(s));
    res->complete = false;
    store_close(s);
    return;
  }
  bool sums = t.n == NCOUNTERS;
  for (uint32_t i = 0; sums && i < NCOUNTERS; i++)
    sums = t.stored[i] == totals[i];
  if (r.status != STORE_RUN_COMPLETE || !t.whole || r.intervals != packets || !sums) {
    snprintf(res->why, sizeof res->why, "stored: status %s, %" PRIu64 " of %" PRIu64 " intervals, sums %s",
             store_status_name(r.status), r.intervals, packets, sums ? "equal" : "differ");
    res->complete = false;
  }
  store_run_view_clear(&r);
  store_totals_clear(&t);
  store_close(s);
}

/* The interval values both senders send: a mix like real counters
 * (cycles near the period, misses small, some zero). */
static void next_values(uint64_t *rng, uint64_t *values, uint64_t *totals) {
  for (int k = 0; k < NCOUNTERS; k++) {
    *rng ^= *rng << 13, *rng ^= *rng >> 7, *rng ^= *rng << 17;
    values[k] = k == 0 ? 100000 - (*rng & 63) : (k % 4 == 3 ? 0 : *rng % (k < 4 ? 60000 : 900));
    totals[k] += values[k];
  }
}

static void label_counters(net_counter_label *labels, char (*names)[64]) {
  for (unsigned i = 0; i < NCOUNTERS; i++) {
    snprintf(names[i], 64, "data-cache read misses in f%u", i);
    labels[i] = (net_counter_label){.signal = 3, .arr = i, .lo = 0x80000000 + 0x100 * i,
                                    .hi = 0x80000100 + 0x100 * i, .enabled = true, .name = "dcache.read_miss",
                                    .where = "function", .label = names[i]};
  }
}

/* Waits until the i-th packet is due at the offered rate (0: at once). */
static void pace(double t0, uint64_t i, double offered) {
  if (offered > 0)
    while (now() - t0 < (double)i / offered)
      ;
}

typedef struct sent {
  uint64_t run_id;
  uint64_t resent, gone;
} sent;

/* The real board link, fed interval by interval. */
static sent send_link(const char *addr, uint64_t packets, double offered, uint64_t *totals, double *t0,
                      double *t_last) {
  char err[300];
  net_board_cfg bc = {.collector = addr, .params = {.counters = NCOUNTERS, .width = 32, .arrs = 16},
                      .linger_ms = 10000};
  net_board *b = net_board_open(&bc, err, sizeof err);
  if (!b) {
    fprintf(stderr, "e2e: %s\n", err);
    exit(1);
  }
  net_counter_label labels[NCOUNTERS];
  char names[NCOUNTERS][64];
  label_counters(labels, names);
  net_run_desc desc = {.period = 100000, .freq_mhz = 100, .program = "bench.elf", .core = "tally5",
                       .counters = labels};
  *t0 = now();
  if (net_board_describe(b, &desc) != 0) {
    fprintf(stderr, "e2e: %s\n", net_board_error(b));
    exit(1);
  }
  uint64_t values[NCOUNTERS], rng = 0x9E3779B97F4A7C15ull;
  uint8_t sat[NCOUNTERS] = {0};
  statmod_interval iv = {.n = NCOUNTERS, .values = values, .saturated = sat};
  for (uint64_t i = 0; i < packets; i++) {
    pace(*t0, i, offered);
    next_values(&rng, values, totals);
    iv.index = i;
    iv.cycle_begin = i * 100000;
    iv.cycle_end = i * 100000 + 100000;
    net_board_sink(b, &iv);
  }
  statmod_interval fin = {.index = packets, .cycle_begin = 0, .cycle_end = packets * 100000, .n = NCOUNTERS,
                          .values = totals, .saturated = sat, .final = true, .intervals = packets};
  *t_last = now();
  net_board_sink(b, &fin); /* the final packet; answers resends until acknowledged */
  net_board_stats bs;
  net_board_get_stats(b, &bs);
  sent out = {.run_id = net_board_run_id(b), .resent = bs.resent, .gone = bs.gone};
  net_board_close(b);
  return out;
}

/* The whole stream, encoded beforehand into one arena. */
typedef struct stream {
  uint8_t *bytes;
  uint32_t *off;
  uint16_t *len;
  uint32_t total;
} stream;

static void stream_add(stream *st, size_t *cap, const net_msg *m) {
  uint8_t buf[NET_MAX_PACKET];
  char err[200];
  size_t n = net_encode(m, NULL, buf, err, sizeof err);
  if (n == 0) {
    fprintf(stderr, "e2e: encode: %s\n", err);
    exit(1);
  }
  size_t at = st->total ? st->off[st->total - 1] + st->len[st->total - 1] : 0;
  if (at + n > *cap) {
    *cap = (*cap + n) * 2;
    st->bytes = realloc(st->bytes, *cap);
  }
  memcpy(st->bytes + at, buf, n);
  st->off[st->total] = (uint32_t)at;
  st->len[st->total] = (uint16_t)n;
  st->total++;
}

static stream encode_stream(uint64_t run_id, uint64_t packets, uint64_t *totals) {
  stream st = {.off = malloc((packets + 3) * sizeof *st.off), .len = malloc((packets + 3) * sizeof *st.len)};
  size_t cap = 0;
  static net_msg m; /* large: keep it off the stack */
  net_counter_label labels[NCOUNTERS];
  char names[NCOUNTERS][64];
  label_counters(labels, names);
  memset(&m, 0, sizeof m);
  m.h = (net_header){.type = NET_RUN_START, .run_id = run_id, .seq = 0};
  m.counters = NCOUNTERS, m.width = 32, m.arrs = 16, m.info_packets = 1, m.period = 100000, m.freq_khz = 100000;
  m.program = "bench.elf", m.program_len = 9, m.core = "tally5", m.core_len = 6;
  stream_add(&st, &cap, &m);
  memset(&m, 0, sizeof m);
  m.h = (net_header){.type = NET_COUNTER_INFO, .run_id = run_id, .seq = 1};
  m.first = 0, m.n = NCOUNTERS;
  for (unsigned i = 0; i < NCOUNTERS; i++) {
    const net_counter_label *l = &labels[i];
    m.desc_buf[i] = (net_counter_desc){.signal = (uint16_t)l->signal, .arr = (uint16_t)l->arr, .lo = l->lo,
                                       .hi = l->hi, .enabled = true, .name_len = (uint8_t)strlen(l->name),
                                       .where_len = (uint8_t)strlen(l->where),
                                       .label_len = (uint8_t)strlen(l->label), .name = l->name,
                                       .where = l->where, .label = l->label};
  }
  m.descs = m.desc_buf;
  stream_add(&st, &cap, &m);
  uint64_t values[NCOUNTERS], rng = 0x9E3779B97F4A7C15ull;
  uint8_t sat[NCOUNTERS] = {0};
  for (uint64_t i = 0; i < packets; i++) {
    next_values(&rng, values, totals);
    memset(&m.h, 0, sizeof m.h);
    m.h = (net_header){.type = NET_DATA, .run_id = run_id, .seq = (uint32_t)(2 + i)};
    m.index = i, m.cycle_begin = i * 100000, m.cycle_end = i * 100000 + 100000;
    m.first = 0, m.n = NCOUNTERS, m.width = 32, m.values = values, m.saturated = sat;
    stream_add(&st, &cap, &m);
  }
  m.h = (net_header){.type = NET_FINAL, .run_id = run_id, .seq = (uint32_t)(2 + packets)};
  m.intervals = packets, m.cycle_begin = 0, m.cycle_end = packets * 100000;
  m.data_packets = (uint32_t)packets, m.total_packets = (uint32_t)(packets + 3);
  m.counters = NCOUNTERS, m.first = 0, m.n = NCOUNTERS, m.values = totals;
  stream_add(&st, &cap, &m);
  return st;
}

static void stream_free(stream *st) {
  free(st->bytes);
  free(st->off);
  free(st->len);
}

/* Sends packets [from, to) of the stream, 32 to a system call. */
static void send_range(int fd, const net_addr *to, const stream *st, uint32_t from, uint32_t upto) {
  struct mmsghdr msgs[32];
  struct iovec iov[32];
  while (from < upto) {
    unsigned k = 0;
    for (; k < 32 && from + k < upto; k++) {
      iov[k] = (struct iovec){st->bytes + st->off[from + k], st->len[from + k]};
      msgs[k] = (struct mmsghdr){.msg_hdr = {.msg_name = (void *)&to->sa, .msg_namelen = to->len,
                                             .msg_iov = &iov[k], .msg_iovlen = 1}};
    }
    int n = sendmmsg(fd, msgs, k, 0);
    if (n < 0) {
      struct pollfd p = {.fd = fd, .events = POLLOUT};
      poll(&p, 1, 100); /* send buffer full: wait for room */
      continue;
    }
    from += (uint32_t)n;
  }
}

/* Blasts the encoded stream, then answers resends until FINAL_ACK. */
static sent send_blast(const char *addr, uint64_t packets, double offered, uint64_t *totals, double *t0,
                       double *t_last) {
  sent out = {.run_id = 0xB1A57000ull + (uint64_t)getpid()};
  stream st = encode_stream(out.run_id, packets, totals);
  char err[300];
  net_addr to;
  if (net_addr_parse(addr, &to, err, sizeof err) != 0) {
    fprintf(stderr, "e2e: %s\n", err);
    exit(1);
  }
  int fd = net_udp_open_for(&to, err, sizeof err);
  if (fd < 0) {
    fprintf(stderr, "e2e: %s\n", err);
    exit(1);
  }
  *t0 = now();
  send_range(fd, &to, &st, 0, 2);
  uint32_t step = offered > 0 ? 8 : 32;
  for (uint32_t i = 2; i < st.total; i += step) {
    pace(*t0, i - 2, offered);
    send_range(fd, &to, &st, i, i + step < st.total ? i + step : st.total);
  }
  *t_last = now();
  static net_msg m;
  uint8_t buf[NET_RECV_BUF];
  double deadline = now() + 30;
  while (now() < deadline) {
    size_t len;
    net_addr from;
    int got = net_udp_recv(fd, buf, sizeof buf, &len, &from, 200);
    if (got == 0) { /* quiet: the final packet may have been lost */
      send_range(fd, &to, &st, st.total - 1, st.total);
      continue;
    }
    if (got < 0 || net_decode(buf, len, &m, err, sizeof err) != 0)
      continue;
    if (m.h.type == NET_FINAL_ACK)
      break;
    if (m.h.type == NET_RESEND)
      for (unsigned r = 0; r < m.nranges; r++) {
        uint64_t a = m.ranges[r].first, b = a + m.ranges[r].count;
        b = b > st.total ? st.total : b;
        if (a < b) {
          send_range(fd, &to, &st, (uint32_t)a, (uint32_t)b);
          out.resent += b - a;
        }
      }
  }
  close(fd);
  stream_free(&st);
  return out;
}

typedef enum { SENDER_LINK, SENDER_BLAST } sender_kind;
static const char *const sender_names[] = {"link", "blast"};

static result measure(const char *dir, sender_kind kind, uint64_t packets, double offered) {
  result res = {.complete = true};
  char db[4096];
  snprintf(db, sizeof db, "%s/e2e.db", dir);
  remove_db(db);
  int fds[2];
  if (pipe(fds) != 0) {
    perror("e2e: pipe");
    exit(1);
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    perror("e2e: fork");
    exit(1);
  }
  if (pid == 0) {
    close(fds[0]);
    collector_main(db, fds[1]);
  }
  close(fds[1]);
  char addr[80];
  if (!read_all(fds[0], addr, sizeof addr)) {
    fprintf(stderr, "e2e: the collector did not start\n");
    exit(1);
  }
  uint64_t totals[NCOUNTERS] = {0};
  double t0, t_last;
  sent snt = kind == SENDER_LINK ? send_link(addr, packets, offered, totals, &t0, &t_last)
                                 : send_blast(addr, packets, offered, totals, &t0, &t_last);
  child_report rep;
  bool got = read_all(fds[0], &rep, sizeof rep);
  close(fds[0]);
  if (!got)
    kill(pid, SIGTERM); /* our own child, stuck */
  waitpid(pid, NULL, 0);
  res.resent = snt.resent;
  res.gone = snt.gone;
  res.rcvbuf = got ? rep.rcvbuf : 0;
  res.requests = got ? rep.resend_requests : 0;
  res.total_s = got && rep.ok ? rep.closed_at - t0 : now() - t0;
  res.rate = (double)packets / res.total_s;
  res.tail_ms = got && rep.ok ? (rep.closed_at - t_last) * 1e3 : 0;
  res.cpu_us = got ? rep.cpu_s * 1e6 / (double)packets : 0;
  if (!got || !rep.ok || rep.status != STORE_RUN_COMPLETE) {
    res.complete = false;
    snprintf(res.why, sizeof res.why, "collector: %s%s", !got || !rep.ok ? "no verdict" : "incomplete: ",
             got && rep.ok ? rep.note : "");
  } else {
    verify(db, snt.run_id, packets, totals, &res);
  }
  remove_db(db);
  return res;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  static const struct option longs[] = {{"packets", 1, 0, 'p'},
                                        {"runs", 1, 0, 'r'},
                                        {"rates", 1, 0, 'R'},
                                        {"senders", 1, 0, 's'},
                                        {0, 0, 0, 0}};
  uint64_t packets = 200000;
  double rates[MAXRATES] = {0};
  sender_kind senders[2] = {SENDER_LINK, SENDER_BLAST};
  int runs = 5, nrates = 1, nsenders = 2, c;
  while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
    switch (c) {
    case 'p': packets = strtoull(optarg, NULL, 0); break;
    case 'r': runs = atoi(optarg); break;
    case 'R':
      nrates = 0;
      for (char *tok = strtok(optarg, ","); tok && nrates < MAXRATES; tok = strtok(NULL, ","))
        rates[nrates++] = strtod(tok, NULL);
      break;
    case 's':
      nsenders = 0;
      for (char *tok = strtok(optarg, ","); tok && nsenders < 2; tok = strtok(NULL, ","))
        if (!strcmp(tok, "link") || !strcmp(tok, "blast"))
          senders[nsenders++] = !strcmp(tok, "link") ? SENDER_LINK : SENDER_BLAST;
      break;
    default: return 64;
    }
  }
  if (optind != argc - 1 || packets == 0 || packets > UINT32_MAX - 8 || runs < 1 || runs > MAXRUNS || nrates == 0 ||
      nsenders == 0) {
    fprintf(stderr, "usage: e2e DIR [--packets N] [--runs R] [--rates R1,R2,...] [--senders link,blast]\n"
                    "  (rate 0: as fast as the sender can)\n");
    return 64;
  }
  signal(SIGPIPE, SIG_IGN);
  static result res[2][MAXRATES][MAXRUNS];
  for (int k = 0; k < nsenders; k++)
    measure(argv[optind], senders[k], packets / 10 + 1, 0); /* warm-up */
  for (int r = 0; r < runs; r++)
    for (int q = 0; q < nrates; q++)
      for (int k = 0; k < nsenders; k++)
        res[k][q][r] = measure(argv[optind], senders[k], packets, rates[q]);
  for (int k = 0; k < nsenders; k++)
    for (int q = 0; q < nrates; q++) {
      double rate[MAXRUNS], cpu[MAXRUNS], tail[MAXRUNS];
      uint64_t resent = 0, gone = 0, requests = 0;
      int complete = 0;
      for (int r = 0; r < runs; r++) {
        result *x = &res[k][q][r];
        rate[r] = x->rate;
        cpu[r] = x->cpu_us;
        tail[r] = x->tail_ms;
        resent += x->resent;
        requests += x->requests;
        gone += x->gone;
        complete += x->complete;
        if (!x->complete)
          fprintf(stderr, "e2e: %s rate %.0f run %d: %s\n", sender_names[senders[k]], rates[q], r, x->why);
      }
      qsort(rate, (size_t)runs, sizeof rate[0], cmp_double);
      qsort(cpu, (size_t)runs, sizeof cpu[0], cmp_double);
      qsort(tail, (size_t)runs, sizeof tail[0], cmp_double);
      printf("sender %s rate %.0f: median %.0f packets/s stored (min %.0f, max %.0f); collector CPU %.2f us/packet; verdict %.0f ms after the last packet;"
             " resend requests %" PRIu64 " resent %" PRIu64 " gone %" PRIu64 " over %d runs; complete %d/%d; rcvbuf %d\n",
             sender_names[senders[k]], rates[q], rate[runs / 2], rate[0], rate[runs - 1], cpu[runs / 2], tail[runs / 2], requests,
             resent, gone, runs, complete, runs, res[k][q][0].rcvbuf);
    }
  return 0;
}
