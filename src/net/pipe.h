/*
 * An in-process datagram channel: what a board link and a collector in one
 * process (tally run's embedded collector) use instead of a UDP socket.
 * The same packets cross it, encoded and decoded as on the wire, so the
 * protocol, gap detection and resends are exercised exactly as over UDP;
 * only the system calls, and the kernel's work per datagram, are gone.
 *
 * Two directions, each a single-producer single-consumer ring of whole
 * datagrams: NET_PIPE_UP carries the board's packets to the collector,
 * NET_PIPE_DOWN the collector's replies (RESEND, FINAL_ACK) back. A full
 * ring drops the datagram, as a full socket buffer would; the protocol
 * repairs that like any loss. One thread sends and one receives on each
 * direction.
 */
#ifndef TALLY_NET_PIPE_H
#define TALLY_NET_PIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "udp.h"

enum { NET_PIPE_UP, NET_PIPE_DOWN };

typedef struct net_pipe net_pipe;

/* Rings of `up` and `down` datagrams (rounded up to powers of two). NULL
 * when out of memory. */
net_pipe *net_pipe_new(uint32_t up, uint32_t down);
void net_pipe_free(net_pipe *p);

/* Queues a datagram of at most NET_RECV_BUF bytes; false when the ring is
 * full (the datagram is lost) or it is too long. */
bool net_pipe_send(net_pipe *p, int dir, const void *buf, size_t len);

/* Takes the oldest datagram into buf (cap bytes; a longer one is cut to
 * cap and its length reported as NET_RECV_BUF, which the decoder refuses);
 * false when there is none. */
bool net_pipe_recv(net_pipe *p, int dir, void *buf, size_t cap, size_t *len);

/* Whether a datagram is waiting. */
bool net_pipe_ready(net_pipe *p, int dir);

/* The address the collector sees the board's packets come from, and sends
 * its replies to: no socket address, so it can never be taken for one. */
void net_pipe_addr(net_addr *a);
bool net_pipe_is_addr(const net_addr *a);

#endif
