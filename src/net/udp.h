/*
 * UDP sockets for the board link and the collector: ADDR:PORT parsing with
 * errors a person can act on, bind, send, receive with a timeout. Sockets
 * are non-blocking; waiting is done with poll() here, never by blocking
 * inside a call that could hang.
 */
#ifndef TALLY_NET_UDP_H
#define TALLY_NET_UDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define NET_DEFAULT_COLLECT_PORT 7400
#define NET_DEFAULT_CONTROL_PORT 7401
/* Receive buffers are this large: anything longer than a packet is seen
 * as longer (and refused by the decoder) rather than silently cut. */
#define NET_RECV_BUF 2048

typedef struct net_addr {
  struct sockaddr_storage sa;
  socklen_t len;
} net_addr;

/* "HOST:PORT", "[IPV6]:PORT", or "PORT" alone for 127.0.0.1:PORT (so that
 * listening stays on this machine unless an address is given); HOST may be
 * a name (localhost). Port 0 is accepted (bind to any free port). 0, or -1
 * with a reason naming the text in err. */
int net_addr_parse(const char *text, net_addr *a, char *err, size_t errlen);
/* "127.0.0.1:7400", "[::1]:7400" */
const char *net_addr_str(const net_addr *a, char *buf, size_t size);
unsigned net_addr_port(const net_addr *a);
bool net_addr_equal(const net_addr *a, const net_addr *b);

/* A socket bound to a (port 0: any free port; net_udp_local tells which).
 * rcvbuf > 0 asks for that receive buffer size. Returns the descriptor or
 * -1 with the reason in err. */
int net_udp_bind(const net_addr *a, int rcvbuf, char *err, size_t errlen);
/* An unbound socket of the family of `peer`, for sending to it. */
int net_udp_open_for(const net_addr *peer, char *err, size_t errlen);
int net_udp_local(int fd, net_addr *out);
/* The receive buffer the kernel granted, in bytes. */
int net_udp_rcvbuf(int fd);

/* Sends one datagram; waits up to 1 s for room in the send buffer.
 * 0, or -1 with errno set. */
int net_udp_send(int fd, const net_addr *to, const void *buf, size_t len);

/* Receives one datagram, waiting up to timeout_ms (0: do not wait; -1:
 * forever). 1 with *len and *from set (a datagram longer than cap reports
 * cap bytes, which no decoder accepts when cap > NET_MAX_PACKET); 0 when
 * nothing came; -1 on error (errno). */
int net_udp_recv(int fd, void *buf, size_t cap, size_t *len, net_addr *from, int timeout_ms);

/* Monotonic milliseconds, for timers. */
uint64_t net_now_ms(void);

#endif
