/*
 * Spool files (spool.h): written with stdio (one buffered append per
 * packet, no system call each), read back with every length checked.
 */
#define _GNU_SOURCE
#include "spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proto.h"

struct net_spool {
  FILE *f;
  bool failed;
};

net_spool *net_spool_create(const char *path, char *err, size_t errlen) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    snprintf(err, errlen, "spool file %s: %s", path, strerror(errno));
    return NULL;
  }
  net_spool *s = calloc(1, sizeof *s);
  if (s)
    s->f = fdopen(fd, "wb");
  if (!s || !s->f) {
    snprintf(err, errlen, "spool file %s: out of memory", path);
    free(s);
    close(fd);
    unlink(path);
    return NULL;
  }
  if (fwrite(NET_SPOOL_MAGIC, 1, 8, s->f) != 8)
    s->failed = true;
  return s;
}

int net_spool_add(net_spool *s, const void *buf, size_t len) {
  if (len == 0 || len > NET_MAX_PACKET) {
    errno = EINVAL;
    return -1;
  }
  uint8_t head[2] = {(uint8_t)len, (uint8_t)(len >> 8)};
  if (fwrite(head, 1, 2, s->f) != 2 || fwrite(buf, 1, len, s->f) != len) {
    s->failed = true;
    return -1;
  }
  return 0;
}

int net_spool_close(net_spool *s) {
  if (!s)
    return 0;
  int saved = errno;
  bool lost = s->failed || fflush(s->f) != 0;
  if (!lost)
    errno = saved;
  if (fclose(s->f) != 0)
    lost = true;
  free(s);
  return lost ? -1 : 0;
}

long net_spool_read(const char *path, net_spool_fn fn, void *ctx, bool *truncated, bool *bad_input, char *err,
                    size_t errlen) {
  *truncated = *bad_input = false;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat sb;
  if (fd < 0 || fstat(fd, &sb) != 0) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    if (fd >= 0)
      close(fd);
    return -1;
  }
  if (!S_ISREG(sb.st_mode)) {
    snprintf(err, errlen, "%s: not a regular file", path);
    close(fd);
    return -1;
  }
  FILE *f = fdopen(fd, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    close(fd);
    return -1;
  }
  char magic[8];
  if (fread(magic, 1, 8, f) != 8 || memcmp(magic, NET_SPOOL_MAGIC, 8) != 0) {
    snprintf(err, errlen, "%s: not a tally spool file (it does not begin with \"TALSPL1\")", path);
    *bad_input = true;
    fclose(f);
    return -1;
  }
  uint8_t buf[NET_MAX_PACKET];
  long count = 0;
  for (;;) {
    uint8_t head[2];
    size_t got = fread(head, 1, 2, f);
    if (got == 0)
      break;
    size_t len = got == 2 ? (size_t)head[0] | (size_t)head[1] << 8 : 0;
    if (got == 2 && (len == 0 || len > NET_MAX_PACKET)) {
      snprintf(err, errlen, "%s: record %ld at byte %ld claims %zu bytes (a datagram has 1 to %d): not a spool file "
                            "or damaged", path, count + 1, ftell(f) - 2, len, NET_MAX_PACKET);
      *bad_input = true;
      fclose(f);
      return -1;
    }
    if (got < 2 || fread(buf, 1, len, f) != len) {
      *truncated = true; /* the writer died inside a record: keep what came before */
      break;
    }
    count++;
    if (fn(ctx, buf, len) != 0)
      break;
  }
  if (ferror(f)) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    fclose(f);
    return -1;
  }
  fclose(f);
  return count;
}
