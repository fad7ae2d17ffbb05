/*
 * The authenticated stream (tests/net, "stream_auth"; docs/protocol.md,
 * "Authentication"): a keyed board and a keyed collector on real loopback
 * sockets, into a real SQLite file read back with plain SQL.
 *
 *  1. exact: the same synthetic run (same seed) with a key and without one
 *     stores the same rows, byte for byte, and each counter's sum is the
 *     known total; the run is complete and the board heard so.
 *  2. forged: a forger who knows the run id sends first (RUN_START without a
 *     tag, DATA and FINAL under another key, a GONE, a DATA with a tag of
 *     zeros): every one refused and counted, none claims the run; the real
 *     board's run is then stored complete and exact.
 *  3. replayed: the recorded packets of run 1 (taken off the wire by a
 *     relay) sent again to a restarted collector: nothing stored, the run
 *     still complete and unchanged; one of them with its sequence number or
 *     its run id changed: refused for its tag.
 *  4. forged and replayed acknowledgements: a board whose collector never
 *     answers gets run 1's real FINAL_ACK (recorded) before and after its
 *     final packets, and after them a FINAL_ACK without a tag and one under
 *     another key, all naming its run: it believes none, keeps sending its
 *     final packets and ends unacknowledged.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collector_thread.h"
#include "net/auth.h"
#include "net/board_link.h"
#include "net/proto.h"
#include "net/udp.h"
#include "store/store.h"
#include "synth.h"

#include "check.h"

#define COUNTERS 40
#define WIDTH 20
#define RUN1 0x5eed0000000000a1ull
#define RUN2 0x5eed0000000000b2ull
#define RUN3 0x5eed0000000000c3ull

static net_key key, wrong_key;

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

/* ---- the synthetic board ---- */

typedef struct board_out {
  net_board_stats st;
  uint64_t totals[COUNTERS];
} board_out;

/* Long labels: the description takes several COUNTER_INFO packets packed
 * to the byte limit, which must still hold a tag. */
static void board_run(const char *collector, const net_key *k, uint64_t run_id, uint64_t intervals, uint64_t seed,
                      uint32_t linger_ms, board_out *o) {
  char err[300];
  net_board_cfg cfg = {.collector = collector, .key = k, .run_id = run_id,
                       .params = {.counters = COUNTERS, .width = WIDTH, .arrs = 2}, .linger_ms = linger_ms};
  net_board *b = net_board_open(&cfg, err, sizeof err);
  if (!b) {
    CHECK(0, "board: %s", err);
    return;
  }
  char label[COUNTERS][256];
  net_counter_label labels[COUNTERS];
  for (uint32_t i = 0; i < COUNTERS; i++) {
    /* lengths from 150 to 249 bytes, so that the packing meets the limit at varied places */
    size_t len = 150 + (i * 37) % 100;
    int head = snprintf(label[i], sizeof label[i], "counter %u, a label long enough to fill its packet: ", i);
    memset(label[i] + head, '.', len - (size_t)head);
    label[i][len] = '\0';
    labels[i] = (net_counter_label){.signal = i % 7, .arr = STATMOD_ANYWHERE, .enabled = true, .name = "cycle",
                                    .where = "anywhere", .label = label[i]};
  }
  net_run_desc d = {.period = 1000, .freq_mhz = 100, .program = "stream_auth", .core = "tally5", .counters = labels};
  CHECK(net_board_describe(b, &d) == 0, "describe: %s", net_board_error(b));
  synth s;
  synth_init(&s, COUNTERS, WIDTH, 1000, seed);
  statmod_interval iv;
  for (uint64_t i = 0; i < intervals; i++) {
    synth_next(&s, &iv);
    net_board_sink(b, &iv);
  }
  synth_final(&s, &iv);
  net_board_sink(b, &iv);
  net_board_get_stats(b, &o->st);
  memcpy(o->totals, s.totals, sizeof o->totals);
  synth_free(&s);
  net_board_close(b);
}

/* ---- a relay that records what passes, both ways ---- */

typedef struct rec {
  bool up; /* board -> collector */
  uint16_t len;
  uint8_t b[NET_MAX_PACKET];
} rec;

typedef struct relay {
  int fd;
  net_addr collector, board;
  bool have_board;
  atomic_int stop;
  rec *recs;
  size_t n, cap;
  pthread_t th;
  char addr[80];
} relay;

static void *relay_loop(void *arg) {
  relay *r = arg;
  uint8_t buf[NET_RECV_BUF];
  while (!atomic_load(&r->stop)) {
    size_t len;
    net_addr from;
    if (net_udp_recv(r->fd, buf, sizeof buf, &len, &from, 20) != 1 || len > NET_MAX_PACKET)
      continue;
    bool up = !net_addr_equal(&from, &r->collector);
    if (up) {
      r->board = from;
      r->have_board = true;
    }
    if (up || r->have_board)
      net_udp_send(r->fd, up ? &r->collector : &r->board, buf, len);
    if (r->n == r->cap) {
      r->cap = r->cap ? 2 * r->cap : 256;
      r->recs = realloc(r->recs, r->cap * sizeof *r->recs);
    }
    r->recs[r->n] = (rec){.up = up, .len = (uint16_t)len};
    memcpy(r->recs[r->n++].b, buf, len);
  }
  return NULL;
}

static int relay_start(relay *r, const char *collector) {
  char err[300];
  net_addr any;
  memset(r, 0, sizeof *r);
  if (net_addr_parse(collector, &r->collector, err, sizeof err) != 0 ||
      net_addr_parse("127.0.0.1:0", &any, err, sizeof err) != 0 || (r->fd = net_udp_bind(&any, 0, err, sizeof err)) < 0)
    return -1;
  net_addr local;
  net_udp_local(r->fd, &local);
  net_addr_str(&local, r->addr, sizeof r->addr);
  atomic_init(&r->stop, 0);
  return pthread_create(&r->th, NULL, relay_loop, r);
}

static void relay_stop(relay *r) {
  atomic_store(&r->stop, 1);
  pthread_join(r->th, NULL);
  close(r->fd);
}

/* ---- what the store holds, by plain SQL ---- */

/* Every stored interval row of the run, in order, as one text (the run id
 * left out, so that two runs can be compared), and the sum of each counter. */
static char *fingerprint(const char *path, uint64_t run_id, uint64_t sums[COUNTERS], char *status, size_t status_len) {
  sqlite3 *db;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    return NULL;
  size_t cap = 1 << 16, len = 0;
  char *out = calloc(1, cap);
  sqlite3_stmt *st;
  sqlite3_prepare_v2(db,
                     "SELECT seq, interval, cycle_begin, cycle_end, first_counter, n, vals, IFNULL(saturated, '') "
                     "FROM intervals WHERE run_id = ?1 ORDER BY seq",
                     -1, &st, NULL);
  sqlite3_bind_int64(st, 1, (int64_t)run_id);
  while (sqlite3_step(st) == SQLITE_ROW) {
    char row[8192];
    int n = snprintf(row, sizeof row, "%lld %lld %lld %lld %lld %lld %s %s\n", sqlite3_column_int64(st, 0),
                     sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3),
                     sqlite3_column_int64(st, 4), sqlite3_column_int64(st, 5), sqlite3_column_text(st, 6),
                     sqlite3_column_text(st, 7));
    while (len + (size_t)n + 1 > cap)
      out = realloc(out, cap *= 2);
    memcpy(out + len, row, (size_t)n + 1);
    len += (size_t)n;
  }
  sqlite3_finalize(st);
  memset(sums, 0, COUNTERS * sizeof *sums);
  sqlite3_prepare_v2(db, "SELECT counter, SUM(value) FROM interval_values WHERE run_id = ?1 GROUP BY counter", -1, &st,
                     NULL);
  sqlite3_bind_int64(st, 1, (int64_t)run_id);
  while (sqlite3_step(st) == SQLITE_ROW) {
    int64_t c = sqlite3_column_int64(st, 0);
    if (c >= 0 && c < COUNTERS)
      sums[c] = (uint64_t)sqlite3_column_int64(st, 1);
  }
  sqlite3_finalize(st);
  snprintf(status, status_len, "(none)");
  sqlite3_prepare_v2(db, "SELECT status FROM runs WHERE run_id = ?1", -1, &st, NULL);
  sqlite3_bind_int64(st, 1, (int64_t)run_id);
  if (sqlite3_step(st) == SQLITE_ROW)
    snprintf(status, status_len, "%s", sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

static int64_t count_runs(const char *path) {
  sqlite3 *db;
  sqlite3_stmt *st;
  int64_t n = -1;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    return -1;
  sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM runs", -1, &st, NULL);
  if (sqlite3_step(st) == SQLITE_ROW)
    n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return n;
}

/* The run is stored complete, and each counter's stored sum is the total
 * the synthetic board handed out. */
static char *check_stored(const char *path, uint64_t run_id, const board_out *o, const char *what) {
  uint64_t sums[COUNTERS];
  char status[32];
  char *fp = fingerprint(path, run_id, sums, status, sizeof status);
  CHECK(fp && strcmp(status, "complete") == 0, "%s: run stored as %s", what, status);
  for (int i = 0; i < COUNTERS; i++)
    CHECK(sums[i] == o->totals[i], "%s: counter %d stored sum %" PRIu64 ", known total %" PRIu64, what, i, sums[i],
          o->totals[i]);
  return fp;
}

/* ---- packets a forger makes ---- */

static size_t forge(net_msg *m, unsigned type, uint64_t run_id, uint32_t seq, const net_key *k, uint8_t *buf) {
  m->h.type = (uint8_t)type;
  m->h.run_id = run_id;
  m->h.seq = seq;
  char err[200];
  size_t n = net_encode(m, k, buf, err, sizeof err);
  CHECK(n > 0, "cannot encode the forged %s: %s", net_type_name(type), err);
  return n;
}

static void set_seq(uint8_t *b, uint32_t seq) {
  for (int i = 0; i < 4; i++)
    b[16 + i] = (uint8_t)(seq >> (8 * i));
}

static void set_run(uint8_t *b, uint64_t id) {
  for (int i = 0; i < 8; i++)
    b[8 + i] = (uint8_t)(id >> (8 * i));
}

/* 2: a forger that knows run 2's id sends before the board does. Returns
 * how many packets it sent. */
static int forge_first(const char *collector) {
  char err[300];
  net_addr to;
  net_addr_parse(collector, &to, err, sizeof err);
  int fd = net_udp_open_for(&to, err, sizeof err);
  net_msg *m = calloc(1, sizeof *m);
  uint8_t buf[NET_MAX_PACKET];
  static uint64_t huge[COUNTERS];
  static uint8_t sat[COUNTERS];
  for (int i = 0; i < COUNTERS; i++)
    huge[i] = (1u << WIDTH) - 1;
  int sent = 0;
  m->counters = COUNTERS, m->width = WIDTH, m->arrs = 2, m->period = 1000, m->program = "forged", m->program_len = 6;
  net_udp_send(fd, &to, buf, forge(m, NET_RUN_START, RUN2, 0, NULL, buf)), sent++;
  m->index = 0, m->cycle_begin = 0, m->cycle_end = 1000, m->first = 0, m->n = COUNTERS, m->values = huge,
  m->saturated = sat;
  net_udp_send(fd, &to, buf, forge(m, NET_DATA, RUN2, 3, &wrong_key, buf)), sent++;
  size_t n = forge(m, NET_DATA, RUN2, 4, NULL, buf);
  memcpy(buf + n, (uint8_t[NET_TAG_SIZE]){0}, NET_TAG_SIZE); /* the AUTH flag and a tag of zeros */
  buf[6] |= NET_FLAG_AUTH;
  net_udp_send(fd, &to, buf, n + NET_TAG_SIZE), sent++;
  m->intervals = 1, m->data_packets = 1, m->total_packets = 6, m->counters = COUNTERS, m->n = COUNTERS;
  net_udp_send(fd, &to, buf, forge(m, NET_FINAL, RUN2, 5, &wrong_key, buf)), sent++;
  static net_range r = {1, 3};
  m->nranges = 1, m->ranges = &r;
  net_udp_send(fd, &to, buf, forge(m, NET_GONE, RUN2, 0, NULL, buf)), sent++;
  free(m);
  close(fd);
  return sent;
}

/* ---- 4: a collector that never answers, and acknowledgements forged ---- */

typedef struct fake {
  int fd;
  char addr[80];
  atomic_int stop;
  pthread_t th;
  const rec *replayed; /* run 1's recorded FINAL_ACK */
  bool sent_early, sent_forged;
  int finals_after; /* FINAL packets heard after the forged acknowledgements */
} fake;

static void *fake_loop(void *arg) {
  fake *f = arg;
  uint8_t buf[NET_RECV_BUF], out[NET_MAX_PACKET];
  net_msg *m = malloc(sizeof *m), *a = calloc(1, sizeof *a);
  while (!atomic_load(&f->stop)) {
    size_t len;
    net_addr from;
    if (net_udp_recv(f->fd, buf, sizeof buf, &len, &from, 20) != 1 || net_decode(buf, len, m, NULL, 0) != 0)
      continue;
    if (!f->sent_early) { /* mid-run: the real acknowledgement of another stream of this run id */
      net_udp_send(f->fd, &from, f->replayed->b, f->replayed->len);
      f->sent_early = true;
    }
    if (m->h.type != NET_FINAL)
      continue;
    if (f->sent_forged) {
      f->finals_after++;
      continue;
    }
    /* Right run id, right sequence number (the stream's length), verdict
     * complete with every packet held: only the tag is missing or wrong. */
    a->verdict = 1;
    a->received = m->total_packets;
    net_udp_send(f->fd, &from, out, forge(a, NET_FINAL_ACK, m->h.run_id, m->total_packets, NULL, out));
    net_udp_send(f->fd, &from, out, forge(a, NET_FINAL_ACK, m->h.run_id, m->total_packets, &wrong_key, out));
    net_udp_send(f->fd, &from, f->replayed->b, f->replayed->len);
    f->sent_forged = true;
  }
  free(m);
  free(a);
  return NULL;
}

static void forged_acks(const rec *ack) {
  fake f = {.replayed = ack};
  char err[300];
  net_addr any, local;
  net_addr_parse("127.0.0.1:0", &any, err, sizeof err);
  f.fd = net_udp_bind(&any, 0, err, sizeof err);
  net_udp_local(f.fd, &local);
  net_addr_str(&local, f.addr, sizeof f.addr);
  atomic_init(&f.stop, 0);
  pthread_create(&f.th, NULL, fake_loop, &f);
  /* run 1's id, and a shorter stream: the recorded ack answers another length */
  board_out o;
  board_run(f.addr, &key, RUN1, 50, 99, 1500, &o);
  sleep_ms(100); /* the last repeat of the final packets reaches the fake collector */
  atomic_store(&f.stop, 1);
  pthread_join(f.th, NULL);
  close(f.fd);
  CHECK(f.sent_early && f.sent_forged, "the fake collector did not get to send its acknowledgements");
  CHECK(!o.st.acked, "a forged or replayed FINAL_ACK made the board believe its run was stored (verdict %u)",
        o.st.verdict);
  CHECK(o.st.refused_replies == 4, "board refused %u acknowledgements, 4 were forged or replayed",
        o.st.refused_replies);
  CHECK(f.finals_after >= 2, "the board sent its FINAL %d times after the forged acknowledgements: it stopped "
        "lingering", f.finals_after);
}

/* ---- the cases ---- */

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  char db1[4096], db0[4096], err[300];
  snprintf(db1, sizeof db1, "%s/stream_auth.db", dir);
  snprintf(db0, sizeof db0, "%s/stream_plain.db", dir);
  unlink(db1);
  unlink(db0);
  net_key_set(&key, "stream test key: 32 bytes long!!", 32, err, sizeof err);
  net_key_set(&wrong_key, "another key, also 32 bytes long.", 32, err, sizeof err);

  /* 1. keyed, through a recording relay, and the same run without a key */
  collector_thread ct;
  relay rl;
  board_out o1, o0;
  CHECK(collector_thread_start_keyed(&ct, db1, "127.0.0.1:0", NULL, &key) == 0 && relay_start(&rl, ct.addr) == 0,
        "cannot start the keyed collector and relay");
  board_run(rl.addr, &key, RUN1, 300, 7, 3000, &o1);
  sleep_ms(100);
  relay_stop(&rl);
  collector_thread_stop(&ct);
  CHECK(o1.st.acked && o1.st.verdict == 1, "keyed run: board acked %d, verdict %u", o1.st.acked, o1.st.verdict);
  CHECK(ct.complete == 1 && ct.stats.bad_tags == 0, "keyed run: %d complete, %" PRIu64 " refused for their tag",
        ct.complete, ct.stats.bad_tags);
  char *fp1 = check_stored(db1, RUN1, &o1, "keyed run");

  CHECK(collector_thread_start(&ct, db0, "127.0.0.1:0", NULL) == 0, "cannot start the plain collector");
  board_run(ct.addr, NULL, RUN1 + 1, 300, 7, 3000, &o0);
  collector_thread_stop(&ct);
  CHECK(o0.st.acked && o0.st.verdict == 1, "plain run: board acked %d, verdict %u", o0.st.acked, o0.st.verdict);
  char *fp0 = check_stored(db0, RUN1 + 1, &o0, "plain run");
  CHECK(fp0 && fp1 && strcmp(fp0, fp1) == 0, "the keyed run's stored rows differ from the same run's without a key");
  CHECK(o0.st.packets_sent == o1.st.packets_sent, "keyed run: %" PRIu64 " packets, without a key %" PRIu64,
        o1.st.packets_sent, o0.st.packets_sent);

  /* 2. a forger first, then the real board, on one keyed collector */
  CHECK(collector_thread_start_keyed(&ct, db1, "127.0.0.1:0", NULL, &key) == 0, "cannot start the collector");
  int forged = forge_first(ct.addr);
  sleep_ms(200);
  board_out o2;
  board_run(ct.addr, &key, RUN2, 120, 11, 3000, &o2);
  collector_thread_stop(&ct);
  CHECK(ct.stats.bad_tags == (uint64_t)forged, "%" PRIu64 " packets refused for their tag, %d were forged",
        ct.stats.bad_tags, forged);
  CHECK(ct.stats.foreign == 0, "the forger took the run: %" PRIu64 " of the board's packets were foreign",
        ct.stats.foreign);
  CHECK(o2.st.acked && o2.st.verdict == 1, "run after the forgeries: board acked %d, verdict %u", o2.st.acked,
        o2.st.verdict);
  free(check_stored(db1, RUN2, &o2, "run after the forgeries"));

  /* 3. run 1's recorded packets again, to a restarted collector (polled
   * here until it has read every one of them) */
  store *st = store_open(db1, err, sizeof err);
  net_collector_cfg cc = {.listen = "127.0.0.1:0", .key = &key};
  net_collector *c = st ? net_collector_open(&cc, st, err, sizeof err) : NULL;
  CHECK(c != NULL, "cannot restart the collector: %s", err);
  if (!c)
    return 1;
  char where[80];
  net_addr to;
  net_addr_parse(net_collector_addr(c, where, sizeof where), &to, err, sizeof err);
  int fd = net_udp_open_for(&to, err, sizeof err);
  const rec *ack = NULL, *data = NULL;
  size_t ups = 0;
  for (size_t i = 0; i < rl.n; i++) {
    const rec *r = &rl.recs[i];
    if (r->up) {
      net_udp_send(fd, &to, r->b, r->len);
      ups++;
      if (r->b[5] == NET_DATA && !data)
        data = r;
    } else if (r->b[5] == NET_FINAL_ACK) {
      ack = r;
    }
  }
  CHECK(data && ack && ups >= o1.st.packets_sent, "the relay recorded %zu of %" PRIu64 " packets, DATA %d, FINAL_ACK %d",
        ups, o1.st.packets_sent, data != NULL, ack != NULL);
  rec moved;
  if (data) {
    moved = *data; /* the same bytes under another sequence number, then another run */
    set_seq(moved.b, 100000);
    net_udp_send(fd, &to, moved.b, moved.len);
    moved = *data;
    set_run(moved.b, RUN3);
    net_udp_send(fd, &to, moved.b, moved.len);
  }
  net_collector_stats cs = {0};
  for (uint64_t until = net_now_ms() + 20000; net_now_ms() < until && cs.received < ups + 2 * (data != NULL);) {
    net_collector_poll(c, 20);
    net_collector_get_stats(c, &cs);
  }
  close(fd);
  net_collector_close(c);
  store_close(st);
  CHECK(cs.received == ups + 2, "the collector read %" PRIu64 " of the %zu packets sent", cs.received, ups + 2);
  CHECK(cs.stored == 0, "the replay stored %" PRIu64 " packets", cs.stored);
  CHECK(cs.bad_tags == 2, "%" PRIu64 " altered packets refused for their tag, 2 sent", cs.bad_tags);
  char *again = check_stored(db1, RUN1, &o1, "run 1 after the replay");
  CHECK(again && fp1 && strcmp(again, fp1) == 0, "run 1's stored rows changed after the replay");
  CHECK(count_runs(db1) == 2, "%" PRId64 " runs in the store, 2 expected (no run for the moved packet)",
        count_runs(db1));
  free(again);

  /* 4. forged and replayed acknowledgements to a board */
  if (ack)
    forged_acks(ack);

  free(fp0);
  free(fp1);
  free(rl.recs);
  unlink(db1);
  unlink(db0);
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
