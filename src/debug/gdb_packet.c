/*
 * The GDB remote serial protocol's packets (gdb_impl.h): "$data#cs" with
 * a two-digit checksum, acknowledged with '+' or refused with '-', and the
 * hex encodings of values. The client is untrusted input: every packet is
 * bounded (PACKET_MAX, what qSupported announces) and checked.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "gdb_impl.h"

int gdb_hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Whether the session must end at once (Ctrl-C, SIGTERM, --timeout). */
static bool stop_asked(const gdb_session *s) { return s->interrupted && *s->interrupted; }

/* Waits until the client's socket is ready for `events`, looking at the
 * stop request every 100 ms: a signal that lands between two looks (no
 * EINTR to see, as while malformed packets are being read) is seen within
 * that, never missed while a client holds the line. */
static bool wait_ready(gdb_session *s, short events) {
  for (;;) {
    if (stop_asked(s))
      return false;
    struct pollfd pf = {.fd = s->fd, .events = events};
    int r = poll(&pf, 1, 100);
    if (r > 0)
      return true;
    if (r < 0 && errno != EINTR)
      return false;
  }
}

bool gdb_send_all(gdb_session *s, const void *buf, size_t n) {
  const char *p = buf;
  while (n) {
    if (!wait_ready(s, POLLOUT)) {
      s->gone = true;
      return false;
    }
    ssize_t w = send(s->fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
      continue;
    if (w <= 0) {
      s->gone = true;
      return false;
    }
    p += w;
    n -= (size_t)w;
  }
  return true;
}

/* One byte from the client, -1 when it is gone or a stop is asked. */
static int read_byte(gdb_session *s) {
  unsigned char c;
  for (;;) {
    if (!wait_ready(s, POLLIN)) {
      if (!stop_asked(s))
        s->gone = true;
      return -1;
    }
    ssize_t r = recv(s->fd, &c, 1, MSG_DONTWAIT);
    if (r == 1)
      return c;
    if (r < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
      continue;
    s->gone = true;
    return -1;
  }
}

/* Sends "$data#cs" in one piece (acknowledgements are read as packets
 * come in). */
bool gdb_put_packet(gdb_session *s, const char *data) {
  size_t n = strlen(data);
  if (n > PACKET_MAX)
    n = PACKET_MAX;
  char out[PACKET_MAX + 4];
  unsigned sum = 0;
  out[0] = '$';
  for (size_t i = 0; i < n; i++) {
    out[1 + i] = data[i];
    sum += (unsigned char)data[i];
  }
  snprintf(out + 1 + n, 4, "#%02x", sum & 0xffu);
  return gdb_send_all(s, out, n + 4);
}

/* Acks and a Ctrl-C outside a run are skipped; a packet too long or with
 * a bad checksum is refused with '-'. */
bool gdb_get_packet(gdb_session *s) {
  for (;;) {
    int c = read_byte(s);
    if (c < 0)
      return false;
    if (c != '$')
      continue;   /* '+', '-', 0x03 while stopped, noise */
    size_t n = 0;
    unsigned sum = 0;
    bool too_long = false;
    while ((c = read_byte(s)) >= 0 && c != '#') {
      sum += (unsigned)c;
      if (n < PACKET_MAX)
        s->in[n++] = (char)c;
      else
        too_long = true;
    }
    if (c < 0)
      return false;
    int h = read_byte(s), l = read_byte(s);
    if (h < 0 || l < 0)
      return false;
    s->in[n] = '\0';
    if (too_long || gdb_hexval(h) < 0 || gdb_hexval(l) < 0 ||
        (unsigned)(gdb_hexval(h) << 4 | gdb_hexval(l)) != (sum & 0xffu)) {
      if (!gdb_send_all(s, "-", 1))
        return false;
      continue;
    }
    if (!gdb_send_all(s, "+", 1))
      return false;
    return true;
  }
}

void gdb_console(gdb_session *s, const char *text) {
  size_t n = strlen(text);
  for (size_t at = 0; at < n;) {
    char out[PACKET_MAX];
    size_t k = 0;
    out[k++] = 'O';
    while (at < n && k + 2 < sizeof out - 1) {
      snprintf(out + k, 3, "%02x", (unsigned char)text[at++]);
      k += 2;
    }
    out[k] = '\0';
    gdb_put_packet(s, out);
  }
}

void gdb_put_le32(char *out, uint32_t v) {
  for (int i = 0; i < 4; i++)
    snprintf(out + 2 * i, 3, "%02x", (v >> (8 * i)) & 0xffu);
}

bool gdb_get_le32(const char *in, uint32_t *v) {
  uint32_t r = 0;
  for (int i = 0; i < 4; i++) {
    int h = gdb_hexval((unsigned char)in[2 * i]), l = h < 0 ? -1 : gdb_hexval((unsigned char)in[2 * i + 1]);
    if (h < 0 || l < 0)
      return false;
    r |= (uint32_t)(h << 4 | l) << (8 * i);
  }
  *v = r;
  return true;
}

/* false if empty, not hex, or over 32 bits. */
bool gdb_parse_hex(const char **p, uint32_t *v) {
  uint64_t r = 0;
  const char *q = *p;
  int d, n = 0;
  while ((d = gdb_hexval((unsigned char)*q)) >= 0) {
    r = r << 4 | (uint64_t)d;
    if (r > 0xffffffffu)
      return false;
    q++;
    n++;
  }
  if (!n)
    return false;
  *p = q;
  *v = (uint32_t)r;
  return true;
}

bool gdb_parse_range(const char *p, uint32_t *addr, uint32_t *len, const char **end) {
  if (!gdb_parse_hex(&p, addr) || *p++ != ',' || !gdb_parse_hex(&p, len))
    return false;
  if (end)
    *end = p;
  return true;
}
