/*
 * The in-process datagram channel (src/net/pipe.h) on its own: datagrams
 * come out whole and in order, a full ring refuses (loses) the next one
 * without touching those it holds, an overlong datagram is refused, and
 * the two directions are independent. Then a producer thread and a
 * consumer thread pass 200,000 numbered datagrams through a small ring:
 * every one that was accepted arrives once, in order, intact, and none
 * that was refused does.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "net/pipe.h"

#include "check.h"

static void basics(void) {
  net_pipe *p = net_pipe_new(4, 3); /* rounded up to 4 and 4 */
  uint8_t buf[NET_RECV_BUF + 16];
  size_t len = 0;
  CHECK(!net_pipe_recv(p, NET_PIPE_UP, buf, sizeof buf, &len), "an empty pipe gave a datagram");
  CHECK(!net_pipe_ready(p, NET_PIPE_UP), "an empty pipe says it is ready");
  for (uint8_t i = 0; i < 4; i++) {
    uint8_t d[3] = {i, (uint8_t)(i * 7), 0xAB};
    CHECK(net_pipe_send(p, NET_PIPE_UP, d, 1u + i % 3), "datagram %u refused with room left", i);
  }
  uint8_t extra = 99;
  CHECK(!net_pipe_send(p, NET_PIPE_UP, &extra, 1), "a full ring took a fifth datagram");
  CHECK(!net_pipe_ready(p, NET_PIPE_DOWN), "the other direction got something");
  for (uint8_t i = 0; i < 4; i++) {
    CHECK(net_pipe_recv(p, NET_PIPE_UP, buf, sizeof buf, &len), "datagram %u missing", i);
    CHECK(len == 1u + i % 3 && buf[0] == i && (len < 2 || buf[1] == (uint8_t)(i * 7)),
          "datagram %u came out as %zu bytes starting %u", i, len, buf[0]);
  }
  CHECK(!net_pipe_recv(p, NET_PIPE_UP, buf, sizeof buf, &len), "a drained pipe gave a datagram");
  uint8_t big[NET_RECV_BUF + 1] = {0};
  CHECK(!net_pipe_send(p, NET_PIPE_DOWN, big, sizeof big), "an overlong datagram was taken");
  CHECK(net_pipe_send(p, NET_PIPE_DOWN, big, NET_RECV_BUF), "a datagram of NET_RECV_BUF bytes was refused");
  /* a reader with less room sees a length no packet has: the decoder refuses it */
  CHECK(net_pipe_recv(p, NET_PIPE_DOWN, buf, 10, &len) && len == NET_RECV_BUF, "cut datagram reported as %zu", len);
  net_addr a, other;
  net_pipe_addr(&a);
  memset(&other, 0, sizeof other);
  CHECK(net_pipe_is_addr(&a) && !net_pipe_is_addr(&other), "the pipe's address is not told apart");
  net_pipe_free(p);
}

enum { TOTAL = 200000 };

typedef struct flow {
  net_pipe *p;
  uint32_t accepted[TOTAL / 32 + 1]; /* bit per datagram number: sent */
  uint32_t received[TOTAL / 32 + 1]; /* ... and came out */
} flow;

static void *producer(void *arg) {
  flow *f = arg;
  for (uint32_t i = 0; i < TOTAL; i++) {
    uint32_t d[4] = {i, ~i, i * 2654435761u, 0x5A5A5A5Au};
    /* two in three must get through (retried until the consumer makes
     * room), so both threads are at the ring at once; the third may be lost */
    bool sent = net_pipe_send(f->p, NET_PIPE_UP, d, 4 + (i % 4) * 4);
    while (!sent && i % 3 != 0)
      sent = net_pipe_send(f->p, NET_PIPE_UP, d, 4 + (i % 4) * 4);
    if (sent)
      f->accepted[i / 32] |= 1u << (i % 32);
  }
  uint32_t end = UINT32_MAX;
  while (!net_pipe_send(f->p, NET_PIPE_UP, &end, sizeof end)) {
  }
  return NULL;
}

static void threads(void) {
  static flow f;
  f.p = net_pipe_new(64, 1);
  pthread_t t;
  pthread_create(&t, NULL, producer, &f);
  uint32_t d[NET_RECV_BUF / 4], last = 0, got = 0, bad = 0;
  bool first = true;
  for (;;) {
    size_t len;
    if (!net_pipe_recv(f.p, NET_PIPE_UP, d, sizeof d, &len))
      continue;
    if (len == 4 && d[0] == UINT32_MAX)
      break;
    uint32_t i = d[0];
    bool ok = len == 4 + (i % 4) * 4 && (len < 8 || d[1] == ~i) && (len < 12 || d[2] == i * 2654435761u) &&
              (first || i > last);
    bad += !ok;
    if (i < TOTAL)
      f.received[i / 32] |= 1u << (i % 32);
    last = i;
    first = false;
    got++;
  }
  pthread_join(t, NULL);
  uint32_t accepted = 0, differ = 0;
  for (uint32_t i = 0; i < TOTAL; i++) {
    accepted += f.accepted[i / 32] >> (i % 32) & 1u;
    differ += (f.accepted[i / 32] ^ f.received[i / 32]) >> (i % 32) & 1u;
  }
  CHECK(differ == 0, "%u datagrams lost after being accepted, or received after being refused", differ);
  CHECK(bad == 0, "%u datagrams out of order or damaged", bad);
  CHECK(got == accepted, "%u datagrams arrived, %u were accepted", got, accepted);
  CHECK(accepted >= TOTAL / 3 * 2, "only %u datagrams accepted", accepted);
  net_pipe_free(f.p);
  printf("pipe: %u of %u datagrams accepted and received in order\n", accepted, (unsigned)TOTAL);
}

int main(void) {
  basics();
  threads();
  printf("pipe: %d failures\n", failures);
  return failures ? 1 : 0;
}
