/*
 * Where GDB connects (include/tally/gdb.h): a TCP listener on loopback
 * unless an IPv4 address is given, polled between slices of a running
 * program (GDB attaching to it) or waited on before its first instruction.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gdb_impl.h"

struct tally_gdb {
  int fd;
  char where[80];
};

/* "PORT" or "ADDR:PORT" into a socket address. */
static bool parse_where(const char *where, struct sockaddr_in *sa) {
  char host[64] = "127.0.0.1";
  const char *colon = strrchr(where, ':');
  const char *port_text = where;
  if (colon) {
    size_t n = (size_t)(colon - where);
    if (n == 0 || n >= sizeof host)
      return false;
    memcpy(host, where, n);
    host[n] = '\0';
    port_text = colon + 1;
  }
  char *end;
  long port = strtol(port_text, &end, 10);
  *sa = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  return *port_text && !*end && port >= 1 && port <= 65535 && inet_pton(AF_INET, host, &sa->sin_addr) == 1;
}

tally_gdb *tally_gdb_listen(const char *where, tally_error *err) {
  struct sockaddr_in sa;
  err->code = TALLY_E_USAGE;
  if (!parse_where(where, &sa)) {
    snprintf(err->msg, sizeof err->msg, "--gdb '%s': expected PORT (1-65535) or IPv4-ADDR:PORT", where);
    return NULL;
  }
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
      bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 1) != 0) {
    snprintf(err->msg, sizeof err->msg, "--gdb %s: cannot listen: %s", where, strerror(errno));
    if (fd >= 0)
      close(fd);
    return NULL;
  }
  tally_gdb *g = calloc(1, sizeof *g);
  if (!g) {
    close(fd);
    err->code = TALLY_E_INTERNAL;
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return NULL;
  }
  g->fd = fd;
  snprintf(g->where, sizeof g->where, "%s", where);
  return g;
}

bool tally_gdb_pending(const tally_gdb *g) {
  struct pollfd pf = {.fd = g->fd, .events = POLLIN};
  return poll(&pf, 1, 0) > 0 && (pf.revents & POLLIN);
}

int gdb_accept(tally_gdb *g, volatile sig_atomic_t *interrupted, tally_error *err) {
  /* a poll that looks at the stop request every 100 ms, then an accept
   * that cannot block (a connection gone from the queue meanwhile): a
   * Ctrl-C or --timeout is never missed while no GDB comes */
  int fl = fcntl(g->fd, F_GETFL);
  if (fl >= 0 && !(fl & O_NONBLOCK))
    fcntl(g->fd, F_SETFL, fl | O_NONBLOCK);
  int fd = -1;
  errno = 0;
  while (!(interrupted && *interrupted)) {
    struct pollfd pf = {.fd = g->fd, .events = POLLIN};
    int r = poll(&pf, 1, 100);
    if (r < 0 && errno != EINTR)
      break;
    if (r <= 0)
      continue;
    fd = accept(g->fd, NULL, NULL);
    if (fd >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED))
      break;
  }
  if (fd >= 0) {
    int afl = fcntl(fd, F_GETFL);   /* the session's socket blocks (with a poll before each use) */
    if (afl >= 0)
      fcntl(fd, F_SETFL, afl & ~O_NONBLOCK);
    return fd;
  }
  err->code = TALLY_E_INTERNAL;
  snprintf(err->msg, sizeof err->msg, "--gdb %s: no connection: %s", g->where,
           interrupted && *interrupted ? "stopped while waiting" : strerror(errno));
  return -1;
}

void tally_gdb_close(tally_gdb *g) {
  if (!g)
    return;
  close(g->fd);
  free(g);
}
