#define _GNU_SOURCE /* memmem */
/*
 * Control packets on a real loopback socket against the real board link:
 * with a key, a packet without a tag, with a wrong tag or with a tampered
 * payload is refused and counted in bad_tags; a stale sequence number or a
 * wrong run id is refused and counted in stale; a retransmission gets the
 * same reply and applies nothing twice; a malformed packet is counted; the
 * board's replies carry tags that verify. Expected counts follow from the
 * sequence of packets sent below, one by one.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/board_link.h"
#include "net/udp.h"

#include "check.h"

typedef struct applied {
  int timers, counters, starts;
  uint64_t period;
} applied;

static int op_timer(void *ctx, uint64_t period, char *err, size_t errlen) {
  (void)err, (void)errlen;
  applied *a = ctx;
  a->timers++;
  a->period = period;
  return 0;
}
static int op_counter(void *ctx, unsigned i, unsigned s, unsigned arr, bool en, char *err, size_t errlen) {
  (void)i, (void)s, (void)arr, (void)en, (void)err, (void)errlen;
  ((applied *)ctx)->counters++;
  return 0;
}
static int op_start(void *ctx, char *err, size_t errlen) {
  (void)err, (void)errlen;
  ((applied *)ctx)->starts++;
  return 0;
}

static net_board *board;
static int client;
static net_addr board_addr;
static net_key key, wrong_key;
static net_msg reply;
static uint8_t last_sent[NET_MAX_PACKET], reply_bytes[NET_RECV_BUF];
static size_t last_len, reply_len;

/* Sends bytes to the board, lets it answer, reads the answer. */
static bool exchange_bytes(const uint8_t *b, size_t len) {
  memcpy(last_sent, b, len);
  last_len = len;
  if (net_udp_send(client, &board_addr, b, len) != 0)
    return false;
  net_board_poll(board, 500);
  if (net_udp_recv(client, reply_bytes, sizeof reply_bytes, &reply_len, NULL, 1000) != 1)
    return false;
  char err[200];
  if (net_decode(reply_bytes, reply_len, &reply, err, sizeof err) != 0) {
    fprintf(stderr, "board reply does not decode: %s\n", err);
    return false;
  }
  if (!(reply.h.flags & NET_FLAG_AUTH) || !net_verify(&key, reply_bytes, reply_len)) {
    fprintf(stderr, "board reply is not tagged with the key\n");
    return false;
  }
  return true;
}

static bool exchange(unsigned type, uint64_t run, uint32_t seq, const net_key *k, uint64_t value) {
  net_msg m = {.h = {.type = (uint8_t)type, .run_id = run, .seq = seq}, .period = value, .index = value % 16,
               .signal = 1, .arr = STATMOD_ANYWHERE, .enabled = true};
  uint8_t b[NET_MAX_PACKET];
  size_t len = net_encode(&m, k, b, NULL, 0);
  return len && exchange_bytes(b, len);
}

static net_board_stats stats(void) {
  net_board_stats s;
  net_board_get_stats(board, &s);
  return s;
}

int main(void) {
  char err[300];
  CHECK(net_key_set(&key, "0123456789abcdef0123456789abcdef", 32, err, sizeof err) == 0, "%s", err);
  CHECK(net_key_set(&wrong_key, "0123456789abcdef0123456789abcdeF", 32, err, sizeof err) == 0, "%s", err);
  CHECK(net_key_set(&wrong_key, "short", 5, err, sizeof err) != 0 && strstr(err, "16"), "a 5-byte key accepted");
  net_key_set(&wrong_key, "0123456789abcdef0123456789abcdeF", 32, err, sizeof err);

  /* Somewhere for the data stream to go (nothing is sent there here). */
  net_addr any;
  net_addr_parse("127.0.0.1:0", &any, err, sizeof err);
  int sink = net_udp_bind(&any, 0, err, sizeof err);
  net_addr sink_addr;
  net_udp_local(sink, &sink_addr);
  char collector[80];
  net_addr_str(&sink_addr, collector, sizeof collector);

  applied a = {0};
  net_board_ops ops = {.set_timer = op_timer, .set_counter = op_counter, .start = op_start};
  net_board_cfg cfg = {.collector = collector, .control = "127.0.0.1:0", .key = &key,
                       .params = {.counters = 16, .width = 32, .arrs = 4}, .ops = &ops, .ops_ctx = &a};
  board = net_board_open(&cfg, err, sizeof err);
  if (!board) {
    fprintf(stderr, "board: %s\n", err);
    return 1;
  }
  char where[80];
  net_board_control_addr(board, where, sizeof where);
  net_addr_parse(where, &board_addr, err, sizeof err);
  client = net_udp_open_for(&board_addr, err, sizeof err);
  uint64_t run = net_board_run_id(board);

  /* 1. hello with the key: STATUS, the run id, next_seq 1 */
  CHECK(exchange(NET_QUERY, 0, 99, &key, 0), "no answer to hello");
  CHECK(reply.h.type == NET_STATUS && reply.h.run_id == run && reply.next_seq == 1 && reply.h.seq == 99,
        "hello: %s run %016" PRIx64 " next %u", net_type_name(reply.h.type), reply.h.run_id, reply.next_seq);
  CHECK(reply.state == NET_STATE_CONFIGURING && reply.counters == 16 && reply.width == 32 && reply.arrs == 4,
        "hello: state %u, %u counters of %u bits, %u ARRs", reply.state, reply.counters, reply.width, reply.arrs);
  /* 2. no tag: refused, bad_tags 1 */
  CHECK(exchange(NET_SET_TIMER, run, 1, NULL, 1000), "no answer");
  CHECK(reply.h.type == NET_ERROR && reply.code == NET_E_BAD_TAG, "untagged SET_TIMER: %s", net_type_name(reply.h.type));
  CHECK(reply.h.run_id == 0 && reply.next_seq == 0, "the refusal told an unauthenticated peer run %016" PRIx64
        " and next_seq %u", reply.h.run_id, reply.next_seq);
  /* an unauthenticated hello learns nothing either */
  CHECK(exchange(NET_QUERY, 0, 98, NULL, 0), "no answer to an untagged hello");
  CHECK(reply.h.type == NET_ERROR && reply.code == NET_E_BAD_TAG && reply.h.run_id == 0,
        "untagged hello: %s run %016" PRIx64, net_type_name(reply.h.type), reply.h.run_id);
  /* 3. the wrong key: refused, bad_tags 2 */
  CHECK(exchange(NET_SET_TIMER, run, 1, &wrong_key, 1000), "no answer");
  CHECK(reply.h.type == NET_ERROR && reply.code == NET_E_BAD_TAG, "wrong key: %s", net_type_name(reply.h.type));
  /* 4. tampered after tagging: refused, bad_tags 3 */
  {
    net_msg m = {.h = {.type = NET_SET_TIMER, .run_id = run, .seq = 1}, .period = 1000};
    uint8_t b[NET_MAX_PACKET];
    size_t len = net_encode(&m, &key, b, NULL, 0);
    b[24] ^= 1;   /* period 1001 */
    CHECK(exchange_bytes(b, len), "no answer");
    CHECK(reply.h.type == NET_ERROR && reply.code == NET_E_BAD_TAG, "tampered: %s", net_type_name(reply.h.type));
  }
  CHECK(a.timers == 0, "a refused SET_TIMER was applied");
  CHECK(stats().bad_tags == 4 && stats().stale == 0, "bad_tags %u stale %u, expected 4 and 0", stats().bad_tags,
        stats().stale);
  /* 5. right: applied once */
  CHECK(exchange(NET_SET_TIMER, run, 1, &key, 1000), "no answer");
  CHECK(reply.h.type == NET_ACK && reply.req_type == NET_SET_TIMER && reply.next_seq == 2 && reply.h.seq == 1,
        "SET_TIMER: %s next %u", net_type_name(reply.h.type), reply.next_seq);
  CHECK(a.timers == 1 && a.period == 1000, "timer applied %d times, period %" PRIu64, a.timers, a.period);
  /* 6. the same bytes again (a lost ACK): the same reply, nothing applied */
  uint8_t first_reply[NET_RECV_BUF];
  size_t first_len = reply_len;
  memcpy(first_reply, reply_bytes, reply_len);
  uint8_t again[NET_MAX_PACKET];
  memcpy(again, last_sent, last_len);
  CHECK(exchange_bytes(again, last_len), "no answer to the retransmission");
  CHECK(reply_len == first_len && memcmp(reply_bytes, first_reply, first_len) == 0, "retransmission: another reply");
  CHECK(a.timers == 1, "retransmission applied again (%d)", a.timers);
  /* 7. another packet with the used seq 1: stale 1; with seq 0: stale 2 */
  CHECK(exchange(NET_SET_COUNTER, run, 1, &key, 3), "no answer");
  CHECK(reply.h.type == NET_ERROR && reply.code == NET_E_STALE, "reused seq: %s", net_type_name(reply.h.type));
  CHECK(exchange(NET_SET_COUNTER, run, 0, &key, 3), "no answer");
  CHECK(reply.h.type == NET_ERROR && reply.code == NET_E_STALE, "seq 0: %s", net_type_name(reply.h.type));
  /* 8. another run's id: stale 3 */
  CHECK(exchange(NET_SET_COUNTER, run ^ 1, 5, &key, 3), "no answer");
  CHECK(reply.h.type == NET_ERROR && reply.code == NET_E_WRONG_RUN, "wrong run: %s", net_type_name(reply.h.type));
  CHECK(a.counters == 0, "a refused SET_COUNTER was applied");
  /* 9. malformed (cut short): malformed 1 */
  {
    net_msg m = {.h = {.type = NET_SET_TIMER, .run_id = run, .seq = 7}, .period = 5};
    uint8_t b[NET_MAX_PACKET];
    size_t len = net_encode(&m, &key, b, NULL, 0);
    CHECK(exchange_bytes(b, len - 3), "no answer");
    CHECK(reply.h.type == NET_ERROR && reply.code == NET_E_MALFORMED, "malformed: %s", net_type_name(reply.h.type));
  }
  /* 10. a value out of range: refused by the board, seq 2 used up */
  CHECK(exchange(NET_SET_COUNTER, run, 2, &key, 16 + 3), "no answer");   /* index 19 % 16 = 3: in range */
  CHECK(reply.h.type == NET_ACK && a.counters == 1, "SET_COUNTER 3: %s", net_type_name(reply.h.type));
  {
    net_msg m = {.h = {.type = NET_SET_COUNTER, .run_id = run, .seq = 3}, .index = 20, .arr = STATMOD_ANYWHERE};
    uint8_t b[NET_MAX_PACKET];
    size_t len = net_encode(&m, &key, b, NULL, 0);
    CHECK(exchange_bytes(b, len), "no answer");
    CHECK(reply.h.type == NET_ERROR && reply.code == NET_E_BAD_VALUE && memmem(reply.name, reply.name_len, "counter 20", 10),
          "SET_COUNTER 20: %s", net_type_name(reply.h.type));
  }
  /* 11. QUERY reports the counts: bad_tags 4, stale 3, malformed 1 */
  CHECK(exchange(NET_QUERY, run, 4, &key, 0), "no answer");
  CHECK(reply.h.type == NET_STATUS && reply.bad_tags == 4 && reply.stale == 3 && reply.malformed == 1 &&
            reply.next_seq == 5 && reply.period == 0,
        "STATUS: bad_tags %u stale %u malformed %u next %u", reply.bad_tags, reply.stale, reply.malformed,
        reply.next_seq);
  /* 11b. a sequence number far ahead (2^32 - 1) is stale: accepting it would
   * leave no number above it, locking the channel; stale 4 */
  CHECK(exchange(NET_SET_TIMER, run, UINT32_MAX, &key, 500), "no answer");
  CHECK(reply.h.type == NET_ERROR && reply.code == NET_E_STALE, "seq 2^32-1: %s", net_type_name(reply.h.type));
  CHECK(a.timers == 1, "the far-ahead SET_TIMER was applied");
  /* 12. START, then START again */
  CHECK(exchange(NET_START, run, 5, &key, 0), "no answer");
  CHECK(reply.h.type == NET_ACK && a.starts == 1 && stats().state == NET_STATE_RUNNING, "START: %s",
        net_type_name(reply.h.type));
  CHECK(net_board_wait_start(board, 0, NULL) == 0, "wait_start after START");
  CHECK(exchange(NET_START, run, 6, &key, 0), "no answer");
  CHECK(reply.h.type == NET_ERROR && reply.code == NET_E_BAD_STATE && a.starts == 1, "second START: %s",
        net_type_name(reply.h.type));
  net_board_stats s = stats();
  CHECK(s.bad_tags == 4 && s.stale == 4 && s.malformed == 1, "final counts: bad_tags %u stale %u malformed %u",
        s.bad_tags, s.stale, s.malformed);

  net_board_close(board);
  close(client);
  close(sink);
  printf("auth: %d failures\n", failures);
  return failures ? 1 : 0;
}
