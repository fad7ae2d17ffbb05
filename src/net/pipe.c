/*
 * The in-process datagram channel of pipe.h: per direction a ring of
 * fixed-size slots with a producer index and a consumer index. Only the
 * producer writes `head` and only the consumer writes `tail`; the release
 * store of an index publishes the slot it covers, so no lock is needed.
 */
#include "pipe.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct pipe_slot {
  uint16_t len;
  uint8_t bytes[NET_RECV_BUF];
} pipe_slot;

typedef struct pipe_ring {
  _Alignas(64) atomic_uint_fast32_t head;   /* next slot to fill (producer) */
  _Alignas(64) atomic_uint_fast32_t tail;   /* next slot to take (consumer) */
  uint32_t mask;
  pipe_slot *slots;
} pipe_ring;

struct net_pipe {
  pipe_ring ring[2];
};

#define PIPE_MAGIC 'P'

static uint32_t pow2_at_least(uint32_t n) {
  uint32_t p = 1;
  while (p < n && p < (1u << 30))
    p <<= 1;
  return p;
}

static int ring_init(pipe_ring *r, uint32_t n) {
  n = pow2_at_least(n ? n : 1);
  r->slots = malloc((size_t)n * sizeof *r->slots);
  r->mask = n - 1;
  atomic_init(&r->head, 0);
  atomic_init(&r->tail, 0);
  return r->slots ? 0 : -1;
}

net_pipe *net_pipe_new(uint32_t up, uint32_t down) {
  net_pipe *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  if (ring_init(&p->ring[NET_PIPE_UP], up) != 0 || ring_init(&p->ring[NET_PIPE_DOWN], down) != 0) {
    net_pipe_free(p);
    return NULL;
  }
  return p;
}

void net_pipe_free(net_pipe *p) {
  if (!p)
    return;
  free(p->ring[NET_PIPE_UP].slots);
  free(p->ring[NET_PIPE_DOWN].slots);
  free(p);
}

bool net_pipe_send(net_pipe *p, int dir, const void *buf, size_t len) {
  pipe_ring *r = &p->ring[dir];
  if (len > NET_RECV_BUF)
    return false;
  uint32_t head = (uint32_t)atomic_load_explicit(&r->head, memory_order_relaxed);
  uint32_t tail = (uint32_t)atomic_load_explicit(&r->tail, memory_order_acquire);
  if (head - tail > r->mask)
    return false;                  /* full: lost, as from a full socket buffer */
  pipe_slot *s = &r->slots[head & r->mask];
  s->len = (uint16_t)len;
  memcpy(s->bytes, buf, len);
  atomic_store_explicit(&r->head, head + 1, memory_order_release);
  return true;
}

bool net_pipe_recv(net_pipe *p, int dir, void *buf, size_t cap, size_t *len) {
  pipe_ring *r = &p->ring[dir];
  uint32_t tail = (uint32_t)atomic_load_explicit(&r->tail, memory_order_relaxed);
  uint32_t head = (uint32_t)atomic_load_explicit(&r->head, memory_order_acquire);
  if (tail == head)
    return false;
  const pipe_slot *s = &r->slots[tail & r->mask];
  size_t n = s->len;
  memcpy(buf, s->bytes, n < cap ? n : cap);
  *len = n <= cap ? n : NET_RECV_BUF;
  atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
  return true;
}

bool net_pipe_ready(net_pipe *p, int dir) {
  pipe_ring *r = &p->ring[dir];
  return atomic_load_explicit(&r->tail, memory_order_relaxed) != atomic_load_explicit(&r->head, memory_order_acquire);
}

void net_pipe_addr(net_addr *a) {
  memset(a, 0, sizeof *a);
  a->sa.ss_family = AF_UNSPEC;
  ((unsigned char *)&a->sa)[sizeof(sa_family_t)] = PIPE_MAGIC;
  a->len = sizeof(sa_family_t) + 1;
}

bool net_pipe_is_addr(const net_addr *a) {
  return a->sa.ss_family == AF_UNSPEC && a->len == sizeof(sa_family_t) + 1 &&
         ((const unsigned char *)&a->sa)[sizeof(sa_family_t)] == PIPE_MAGIC;
}
