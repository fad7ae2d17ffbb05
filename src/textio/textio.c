/*
 * Bounded reading of user-named text files: getline() on a file with no
 * newline (/dev/zero) grows its buffer until memory runs out, and returns
 * -1 for that as for the end of the file. Here every line and every file
 * has a limit, and each way of failing has its own result.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "textio.h"

FILE *textio_open(const char *path, uint64_t max_bytes, const char *what, char *err, size_t errsize) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(err, errsize, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  const char *bad = NULL;
  char why[128];
  if (fstat(fd, &st) != 0) {
    bad = strerror(errno);
  } else if (S_ISDIR(st.st_mode)) {
    snprintf(why, sizeof why, "is a directory, not %s", what);
    bad = why;
  } else if (!S_ISREG(st.st_mode)) {
    snprintf(why, sizeof why, "not a regular file (a device, FIFO or socket), so not %s", what);
    bad = why;
  } else if ((uint64_t)st.st_size > max_bytes) {
    snprintf(why, sizeof why, "too large for %s (%llu bytes; at most %llu)", what,
             (unsigned long long)st.st_size, (unsigned long long)max_bytes);
    bad = why;
  }
  FILE *f = NULL;
  if (!bad && (fcntl(fd, F_SETFL, 0) != 0 || !(f = fdopen(fd, "r"))))
    bad = strerror(errno);
  if (bad) {
    snprintf(err, errsize, "%s: %s", path, bad);
    close(fd);
    return NULL;
  }
  return f;
}

ssize_t textio_getline(char **buf, size_t *cap, FILE *f, size_t max_line) {
  size_t len = 0;
  for (;;) {
    if (len + 2 > *cap) {
      size_t want = *cap ? *cap * 2 : 256;
      if (want > max_line + 2)
        want = max_line + 2;
      if (want <= len + 1)
        return TEXTIO_TOO_LONG;
      char *nb = realloc(*buf, want);
      if (!nb)
        return TEXTIO_NOMEM;
      *buf = nb;
      *cap = want;
    }
    int c = getc_unlocked(f); /* one reader per FILE here */
    if (c == EOF) {
      if (ferror(f))
        return TEXTIO_ERROR;
      if (len == 0)
        return TEXTIO_EOF;
      break;
    }
    (*buf)[len++] = (char)c;
    if (c == '\n')
      break;
  }
  (*buf)[len] = '\0';
  return (ssize_t)len;
}

ssize_t textio_next_line(char **buf, size_t *cap, FILE *f, size_t max_line, const char *what, char **line,
                         char *msg, size_t msgsize) {
  ssize_t got = textio_getline(buf, cap, f, max_line);
  if (got == TEXTIO_TOO_LONG)
    snprintf(msg, msgsize, "line too long (more than %zu bytes): not a %s file", max_line, what);
  else if (got == TEXTIO_NOMEM)
    snprintf(msg, msgsize, "out of memory");
  else if (got == TEXTIO_ERROR)
    snprintf(msg, msgsize, "read error: %s", strerror(errno));
  if (got < 0)
    return got;
  char *s = *buf;
  while (*s == ' ' || *s == '\t')
    s++;
  size_t len = strlen(s);
  while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
    s[--len] = '\0';
  *line = s;
  return (ssize_t)len;
}

bool textio_fit_line(char *dst, size_t size, const char *line, size_t len) {
  if (size == 0)
    return false;
  bool fits = len < size;
  if (!fits) {
    if (*line != ';' && *line != '#') {
      dst[0] = '\0';
      return false;
    }
    len = size - 1;
  }
  memcpy(dst, line, len);
  dst[len] = '\0';
  return true;
}
