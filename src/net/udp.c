/* UDP helpers: address parsing, sockets, send and receive with timeouts. */
#define _GNU_SOURCE
#include "udp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t net_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static int parse_port(const char *s, unsigned *port) {
  if (!*s || strlen(s) > 5)
    return -1;
  unsigned v = 0;
  for (const char *p = s; *p; p++) {
    if (*p < '0' || *p > '9')
      return -1;
    v = v * 10 + (unsigned)(*p - '0');
  }
  if (v > 65535)
    return -1;
  *port = v;
  return 0;
}

int net_addr_parse(const char *text, net_addr *a, char *err, size_t errlen) {
  char host[256];
  const char *port_s;
  if (!text || !*text) {
    snprintf(err, errlen, "empty address: expected ADDR:PORT, e.g. 127.0.0.1:%d", NET_DEFAULT_COLLECT_PORT);
    return -1;
  }
  unsigned bare;
  if (parse_port(text, &bare) == 0) {   /* "7401": this machine only */
    snprintf(host, sizeof host, "127.0.0.1");
    port_s = text;
  } else if (text[0] == '[') {
    const char *close = strchr(text, ']');
    if (!close || close[1] != ':') {
      snprintf(err, errlen, "'%s': an IPv6 address is written [ADDR]:PORT, e.g. [::1]:%d", text,
               NET_DEFAULT_COLLECT_PORT);
      return -1;
    }
    size_t n = (size_t)(close - text - 1);
    if (n == 0 || n >= sizeof host) {
      snprintf(err, errlen, "'%s': empty or overlong address in brackets", text);
      return -1;
    }
    memcpy(host, text + 1, n);
    host[n] = '\0';
    port_s = close + 2;
  } else {
    const char *colon = strrchr(text, ':');
    if (!colon) {
      snprintf(err, errlen, "'%s' has no port: expected ADDR:PORT, e.g. 127.0.0.1:%d", text, NET_DEFAULT_COLLECT_PORT);
      return -1;
    }
    if (strchr(text, ':') != colon) {
      snprintf(err, errlen, "'%s': an IPv6 address is written [ADDR]:PORT, e.g. [::1]:%d", text,
               NET_DEFAULT_COLLECT_PORT);
      return -1;
    }
    size_t n = (size_t)(colon - text);
    if (n == 0) {
      snprintf(err, errlen, "'%s' has no address before the ':' (127.0.0.1 for this machine only, 0.0.0.0 for every "
               "interface)", text);
      return -1;
    }
    if (n >= sizeof host) {
      snprintf(err, errlen, "'%.40s...': host name too long", text);
      return -1;
    }
    memcpy(host, text, n);
    host[n] = '\0';
    port_s = colon + 1;
  }
  unsigned port;
  if (parse_port(port_s, &port) != 0) {
    snprintf(err, errlen, "'%s': port '%s' is not a number from 0 to 65535", text, port_s);
    return -1;
  }
  struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_DGRAM, .ai_flags = AI_NUMERICSERV};
  struct addrinfo *res = NULL;
  char serv[8];
  snprintf(serv, sizeof serv, "%u", port);
  int rc = getaddrinfo(host, serv, &hints, &res);
  if (rc != 0 || !res) {
    snprintf(err, errlen, "'%s': cannot resolve '%s': %s", text, host, rc ? gai_strerror(rc) : "no address");
    if (res)
      freeaddrinfo(res);
    return -1;
  }
  /* Prefer IPv4 when a name has both: the peer most likely listens there. */
  struct addrinfo *pick = res;
  for (struct addrinfo *r = res; r; r = r->ai_next)
    if (r->ai_family == AF_INET) {
      pick = r;
      break;
    }
  memset(a, 0, sizeof *a);
  memcpy(&a->sa, pick->ai_addr, pick->ai_addrlen);
  a->len = pick->ai_addrlen;
  freeaddrinfo(res);
  return 0;
}

unsigned net_addr_port(const net_addr *a) {
  if (a->sa.ss_family == AF_INET)
    return ntohs(((const struct sockaddr_in *)&a->sa)->sin_port);
  if (a->sa.ss_family == AF_INET6)
    return ntohs(((const struct sockaddr_in6 *)&a->sa)->sin6_port);
  return 0;
}

const char *net_addr_str(const net_addr *a, char *buf, size_t size) {
  char host[INET6_ADDRSTRLEN] = "?";
  if (a->sa.ss_family == AF_INET) {
    inet_ntop(AF_INET, &((const struct sockaddr_in *)&a->sa)->sin_addr, host, sizeof host);
    snprintf(buf, size, "%s:%u", host, net_addr_port(a));
  } else if (a->sa.ss_family == AF_INET6) {
    inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)&a->sa)->sin6_addr, host, sizeof host);
    snprintf(buf, size, "[%s]:%u", host, net_addr_port(a));
  } else {
    snprintf(buf, size, "(no address)");
  }
  return buf;
}

bool net_addr_equal(const net_addr *a, const net_addr *b) {
  if (a->sa.ss_family != b->sa.ss_family)
    return false;
  if (a->sa.ss_family == AF_INET) {
    const struct sockaddr_in *x = (const void *)&a->sa, *y = (const void *)&b->sa;
    return x->sin_port == y->sin_port && x->sin_addr.s_addr == y->sin_addr.s_addr;
  }
  if (a->sa.ss_family == AF_INET6) {
    const struct sockaddr_in6 *x = (const void *)&a->sa, *y = (const void *)&b->sa;
    return x->sin6_port == y->sin6_port && memcmp(&x->sin6_addr, &y->sin6_addr, sizeof x->sin6_addr) == 0;
  }
  /* any other kind (the in-process pipe's address): the same bytes */
  return a->len == b->len && a->len <= sizeof a->sa && memcmp(&a->sa, &b->sa, a->len) == 0;
}

static int new_socket(int family, char *err, size_t errlen) {
  int fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0)
    snprintf(err, errlen, "cannot create a UDP socket: %s", strerror(errno));
  return fd;
}

int net_udp_bind(const net_addr *a, int rcvbuf, char *err, size_t errlen) {
  int fd = new_socket(a->sa.ss_family, err, errlen);
  if (fd < 0)
    return -1;
  if (rcvbuf > 0) {
    /* Past net.core.rmem_max only with privilege; try that first, quietly. */
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof rcvbuf) != 0)
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
  }
  if (bind(fd, (const struct sockaddr *)&a->sa, a->len) != 0) {
    char where[80];
    int e = errno;
    snprintf(err, errlen, "cannot listen on %s: %s", net_addr_str(a, where, sizeof where), strerror(e));
    close(fd);
    return -1;
  }
  return fd;
}

int net_udp_open_for(const net_addr *peer, char *err, size_t errlen) {
  return new_socket(peer->sa.ss_family, err, errlen);
}

int net_udp_local(int fd, net_addr *out) {
  memset(out, 0, sizeof *out);
  out->len = sizeof out->sa;
  return getsockname(fd, (struct sockaddr *)&out->sa, &out->len);
}

int net_udp_rcvbuf(int fd) {
  int v = 0;
  socklen_t n = sizeof v;
  getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &n);
  return v;
}

int net_udp_send(int fd, const net_addr *to, const void *buf, size_t len) {
  for (int tries = 0; tries < 10; tries++) {
    if (sendto(fd, buf, len, 0, (const struct sockaddr *)&to->sa, to->len) == (ssize_t)len)
      return 0;
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOBUFS && errno != EINTR)
      return -1;
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    poll(&p, 1, 100);
  }
  errno = EAGAIN;
  return -1;
}

int net_udp_recv(int fd, void *buf, size_t cap, size_t *len, net_addr *from, int timeout_ms) {
  for (;;) {
    net_addr src;
    memset(&src, 0, sizeof src);
    src.len = sizeof src.sa;
    ssize_t n = recvfrom(fd, buf, cap, MSG_TRUNC, (struct sockaddr *)&src.sa, &src.len);
    if (n >= 0) {
      *len = (size_t)n < cap ? (size_t)n : cap;
      if (from)
        *from = src;
      return 1;
    }
    if (errno == EINTR)
      continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK)
      return -1;
    if (timeout_ms == 0)
      return 0;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int r = poll(&p, 1, timeout_ms);
    if (r < 0 && errno != EINTR)
      return -1;
    if (r == 0)
      return 0;
    timeout_ms = 0;   /* readable now: one more try, no second wait */
  }
}
