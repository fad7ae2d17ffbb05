/*
 * Interrupt sources a user drives, exactly and deterministically
 * (docs/tally-run.md, "External interrupts"):
 *
 *   --irq SRC@CYCLE[,CYCLE...]                     lines that rise at those cycles
 *   --irq SRC@every=N[,first=F][,jitter=J][,seed=S][,count=K]
 *                                                  every N cycles, each late by a
 *                                                  SplitMix64 draw in [0, J]
 *   --uart-rx FILE                                 "CYCLE TEXT" lines: TEXT's bytes
 *                                                  reach the UART at CYCLE
 *
 * A cycle is the core model's; a functional run's is its count of one per
 * instruction plus wfi sleep (the instructions retired, for a program that
 * never sleeps). Each event happens at the first instruction boundary at or
 * past its cycle (its cycle is a horizon of the run loop, cpu->ext_due),
 * and the rise is dated by its cycle, not the boundary.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../textio/textio.h"
#include "board.h"

#define IRQ_MAX_EVENTS (1u << 24)      /* scripted rises in all --irq options */
#define IRQ_MAX_PERIODIC 64
#define UART_RX_MAX_BYTES (64u << 20)  /* a --uart-rx file */
#define UART_RX_MAX_LINE 65536

static void errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void errf(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* A decimal or 0x number, with an optional k/M/G suffix (10^3, 10^6,
 * 10^9), of exactly `len` characters. */
static bool parse_count(const char *s, size_t len, uint64_t *out) {
  char buf[32];
  if (len == 0 || len >= sizeof buf || !isdigit((unsigned char)s[0]))
    return false;
  memcpy(buf, s, len);
  buf[len] = '\0';
  int base = buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X') ? 16 : 10;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(buf, &end, base);
  if (errno == ERANGE || end == buf + (base == 16 ? 2 : 0))
    return false;
  uint64_t scale = 1;
  if (base == 10 && *end && !end[1]) {
    scale = *end == 'k' ? 1000ull : *end == 'M' ? 1000000ull : *end == 'G' ? 1000000000ull : 0;
    if (scale)
      end++;
  }
  if (*end || !scale || v > UINT64_MAX / 2 / scale)
    return false;
  *out = v * scale;
  return true;
}

static int cmp_event(const void *a, const void *b) {
  const irq_event *x = a, *y = b;
  if (x->cycle != y->cycle)
    return x->cycle < y->cycle ? -1 : 1;
  return (x->src > y->src) - (x->src < y->src);
}

static uint64_t periodic_next(irq_periodic *p) {
  uint64_t late = p->jitter ? splitmix64(&p->rng) % (p->jitter + 1) : 0;
  return p->first + p->k * p->period + late;
}

/* every=N,first=F,jitter=J,seed=S,count=K */
static int add_periodic(board *b, const char *spec, unsigned src, const char *list, char *err, size_t errlen) {
  irq_periodic p = {.src = src};
  bool have_first = false, seen[5] = {false};
  static const char *const keys[5] = {"every", "first", "jitter", "seed", "count"};
  const char *s = list;
  for (unsigned item = 1;; item++) {
    size_t len = strcspn(s, ",");
    const char *eq = memchr(s, '=', len);
    int key = -1;
    for (int i = 0; eq && i < 5; i++)
      if ((size_t)(eq - s) == strlen(keys[i]) && !strncmp(s, keys[i], (size_t)(eq - s)))
        key = i;
    if (key < 0) {
      errf(err, errlen, "--irq %s: '%.*s' (item %u): expected KEY=VALUE with KEY every, first, jitter, seed or count",
           spec, (int)len, s, item);
      return -1;
    }
    if (seen[key]) {
      errf(err, errlen, "--irq %s: %s given twice", spec, keys[key]);
      return -1;
    }
    seen[key] = true;
    uint64_t v;
    if (!parse_count(eq + 1, len - (size_t)(eq + 1 - s), &v)) {
      errf(err, errlen, "--irq %s: %s='%.*s': not a number (expected e.g. 1000, 0x400, 10k)", spec, keys[key],
           (int)(len - (size_t)(eq + 1 - s)), eq + 1);
      return -1;
    }
    switch (key) {
    case 0: p.period = v; break;
    case 1: p.first = v; have_first = true; break;
    case 2: p.jitter = v; break;
    case 3: p.rng = v; break;
    default: p.count = v; break;
    }
    if (!s[len])
      break;
    s += len + 1;
  }
  if (p.period == 0) {
    errf(err, errlen, "--irq %s: every=N is required, N at least 1 (cycles between rises)", spec);
    return -1;
  }
  if (p.jitter >= p.period) {
    errf(err, errlen, "--irq %s: jitter=%llu must be less than every=%llu (the rises keep their order)", spec,
         (unsigned long long)p.jitter, (unsigned long long)p.period);
    return -1;
  }
  if (seen[4] && p.count == 0) {
    errf(err, errlen, "--irq %s: count=0 raises nothing (expected at least 1, or no count: no end)", spec);
    return -1;
  }
  if (!have_first)
    p.first = p.period;
  if (b->irq.nper == IRQ_MAX_PERIODIC) {
    errf(err, errlen, "--irq %s: too many periodic sources (at most %d)", spec, IRQ_MAX_PERIODIC);
    return -1;
  }
  irq_periodic *n = realloc(b->irq.per, (b->irq.nper + 1) * sizeof *n);
  if (!n) {
    errf(err, errlen, "--irq %s: out of memory", spec);
    return -1;
  }
  b->irq.per = n;
  p.next = periodic_next(&p);
  b->irq.per[b->irq.nper++] = p;
  return 0;
}

int board_irq_add(core_cpu *cpu, const char *spec, char *err, size_t errlen) {
  board *b = cpu->board;
  if (!b->desc.has[BOARD_DEV_PLIC]) {
    errf(err, errlen, "--irq %s: board '%s' has no PLIC (no [plic] section): no interrupt source to raise", spec,
         b->desc.name);
    return -1;
  }
  const char *at = strchr(spec, '@');
  uint64_t src;
  if (!at || !parse_count(spec, (size_t)(at - spec), &src)) {
    errf(err, errlen, "--irq %s: expected SRC@CYCLE[,CYCLE...] or SRC@every=N[,first=F][,jitter=J][,seed=S][,count=K], "
         "SRC a PLIC source number", spec);
    return -1;
  }
  if (src == 0 || src >= PLIC_SOURCES) {
    errf(err, errlen, "--irq %s: source %llu: board '%s' has PLIC sources 1 to %d", spec, (unsigned long long)src,
         b->desc.name, PLIC_SOURCES - 1);
    return -1;
  }
  if (src == UART_IRQ && b->desc.has[BOARD_DEV_UART]) {
    errf(err, errlen, "--irq %s: source %d is the UART's line on board '%s' (feed it with --uart-rx)", spec, UART_IRQ,
         b->desc.name);
    return -1;
  }
  const char *list = at + 1;
  if (!*list) {
    errf(err, errlen, "--irq %s: no cycle after '@' (expected SRC@CYCLE[,CYCLE...] or SRC@every=N...)", spec);
    return -1;
  }
  if (strchr(list, '=')) {
    if (add_periodic(b, spec, (unsigned)src, list, err, errlen) != 0)
      return -1;
    board_irq_schedule(cpu);
    return 0;
  }
  size_t n = 1;
  for (const char *p = list; *p; p++)
    n += *p == ',';
  if (b->irq.nscript + n > IRQ_MAX_EVENTS) {
    errf(err, errlen, "--irq %s: too many rises (at most %u in all)", spec, IRQ_MAX_EVENTS);
    return -1;
  }
  irq_event *ev = realloc(b->irq.script, (b->irq.nscript + n) * sizeof *ev);
  if (!ev) {
    errf(err, errlen, "--irq %s: out of memory", spec);
    return -1;
  }
  b->irq.script = ev;
  const char *s = list;
  for (unsigned item = 1;; item++) {
    size_t len = strcspn(s, ",");
    uint64_t c;
    if (!parse_count(s, len, &c)) {
      errf(err, errlen, "--irq %s: '%.*s' (item %u) is not a cycle (expected a count such as 1000, 0x400 or 10k)",
           spec, (int)len, s, item);
      return -1;
    }
    ev[b->irq.nscript + item - 1] = (irq_event){c, (unsigned)src};
    if (!s[len])
      break;
    s += len + 1;
  }
  b->irq.nscript += n;
  /* only rises still to come are sorted in: those before the boundary
   * reached are behind script_next already */
  qsort(ev + b->irq.script_next, b->irq.nscript - b->irq.script_next, sizeof *ev, cmp_event);
  board_irq_schedule(cpu);
  return 0;
}

/* ------------------------------------------------------------ --uart-rx */

static int hexval(int c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* TEXT with C escapes (\n \r \t \0 \\ \xHH) appended to the bytes. */
/* col0: where the text starts in its line, for the column of a bad escape */
static int add_text(irq_sources *q, const char *t, int col0, const char *path, int line, char *err, size_t errlen) {
  for (const char *p = t; *p; p++) {
    int c = (unsigned char)*p;
    if (c == '\\') {
      p++;
      switch (*p) {
      case 'n': c = '\n'; break;
      case 'r': c = '\r'; break;
      case 't': c = '\t'; break;
      case '0': c = 0; break;
      case '\\': c = '\\'; break;
      case 's': c = ' '; break;
      case 'x': {
        int col = col0 + (int)(p - t); /* the backslash's column, from 1 */
        int h = hexval(p[1]), l = h >= 0 ? hexval(p[2]) : -1;
        if (l < 0) {
          errf(err, errlen, "%s:%d: column %d: \\x needs two hex digits", path, line, col);
          return -1;
        }
        c = h * 16 + l;
        p += 2;
        break;
      }
      default:
        errf(err, errlen, "%s:%d: column %d: unknown escape '\\%c' (expected \\n \\r \\t \\s \\0 \\\\ or \\xHH)", path,
             line, col0 + (int)(p - t), *p ? *p : ' ');
        return -1;
      }
    }
    if (q->rx_len == UART_RX_MAX_BYTES) {
      errf(err, errlen, "%s:%d: more than %u bytes of input", path, line, UART_RX_MAX_BYTES);
      return -1;
    }
    if (q->rx_len % 4096 == 0) {
      unsigned char *n = realloc(q->rx_bytes, q->rx_len + 4096);
      if (!n) {
        errf(err, errlen, "%s: out of memory", path);
        return -1;
      }
      q->rx_bytes = n;
    }
    q->rx_bytes[q->rx_len++] = (unsigned char)c;
  }
  return 0;
}

/* A regular file or a pipe (a FIFO, or '-': stdin), read to its end;
 * never a directory or a device. */
static FILE *open_stream(const char *path, char *err, size_t errlen) {
  int fd = !strcmp(path, "-") ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    errf(err, errlen, "--uart-rx %s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
    errf(err, errlen, "--uart-rx %s: not a regular file or a pipe", path);
    close(fd);
    return NULL;
  }
  FILE *f = fdopen(fd, "r");
  if (!f) {
    errf(err, errlen, "--uart-rx %s: %s", path, strerror(errno));
    close(fd);
  }
  return f;
}

int board_uart_rx_load(core_cpu *cpu, const char *path, char *err, size_t errlen) {
  board *b = cpu->board;
  irq_sources *q = &b->irq;
  if (!b->desc.has[BOARD_DEV_UART]) {
    errf(err, errlen, "--uart-rx %s: board '%s' has no UART", path, b->desc.name);
    return -1;
  }
  if (q->uart_script) {
    errf(err, errlen, "--uart-rx %s: given twice (one file feeds the UART)", path);
    return -1;
  }
  FILE *f = open_stream(path, err, errlen);
  if (!f)
    return -1;
  uint64_t total = 0;
  char *buf = NULL;
  size_t cap = 0;
  int line = 0, rc = 0;
  uint64_t last = 0;
  for (;;) {
    ssize_t got = textio_getline(&buf, &cap, f, UART_RX_MAX_LINE);
    if (got == TEXTIO_EOF)
      break;
    line++;
    if (got >= 0 && (total += (uint64_t)got) > UART_RX_MAX_BYTES * 4ull) {
      errf(err, errlen, "%s:%d: more than %u bytes of text: not a --uart-rx file", path, line, UART_RX_MAX_BYTES * 4u);
      rc = -1;
      break;
    }
    if (got < 0) {
      errf(err, errlen, "%s:%d: %s", path, line,
           got == TEXTIO_TOO_LONG ? "line too long (more than 65536 bytes)" : got == TEXTIO_NOMEM ? "out of memory"
                                                                                           : "read error");
      rc = -1;
      break;
    }
    size_t len = strlen(buf);
    if (len != (size_t)got) {
      errf(err, errlen, "%s:%d: a NUL byte in the line (write it as \\0)", path, line);
      rc = -1;
      break;
    }
    if (len && buf[len - 1] == '\n')
      buf[--len] = '\0';
    if (len && buf[len - 1] == '\r')
      buf[--len] = '\0';
    if (!len || buf[0] == '#')
      continue;
    size_t nlen = strcspn(buf, " \t");
    uint64_t c;
    if (!parse_count(buf, nlen, &c)) {
      errf(err, errlen, "%s:%d: '%.*s' is not a cycle (expected CYCLE TEXT, e.g. '1000 hello\\n')", path, line,
           (int)(nlen > 40 ? 40 : nlen), buf);
      rc = -1;
      break;
    }
    if (c < last) {
      errf(err, errlen, "%s:%d: cycle %llu is before the previous line's %llu (lines go in time order)", path, line,
           (unsigned long long)c, (unsigned long long)last);
      rc = -1;
      break;
    }
    last = c;
    const char *text = buf + nlen;
    if (*text)
      text++; /* one blank separates the cycle from the text */
    if (!*text) {
      errf(err, errlen, "%s:%d: no bytes after the cycle (expected CYCLE TEXT; a blank is \\s)", path, line);
      rc = -1;
      break;
    }
    if (add_text(q, text, (int)(text - buf), path, line, err, errlen) != 0) {
      rc = -1;
      break;
    }
    uart_chunk *n = realloc(q->chunks, (q->nchunks + 1) * sizeof *n);
    if (!n) {
      errf(err, errlen, "%s: out of memory", path);
      rc = -1;
      break;
    }
    q->chunks = n;
    q->chunks[q->nchunks++] = (uart_chunk){c, q->rx_len};
  }
  if (rc == 0 && ferror(f)) {
    errf(err, errlen, "%s: read error", path);
    rc = -1;
  }
  free(buf);
  fclose(f);
  if (rc != 0) {
    free(q->rx_bytes);
    free(q->chunks);
    q->rx_bytes = NULL;
    q->chunks = NULL;
    q->rx_len = q->nchunks = 0;
    return -1;
  }
  q->uart_script = true;
  b->uart_rx = -1;
  board_irq_schedule(cpu);
  return 0;
}

/* ------------------------------------------------------------ events */

void board_irq_schedule(core_cpu *cpu) {
  const irq_sources *q = &((board *)cpu->board)->irq;
  uint64_t due = UINT64_MAX;
  if (q->script_next < q->nscript)
    due = q->script[q->script_next].cycle;
  for (size_t i = 0; i < q->nper; i++)
    if ((!q->per[i].count || q->per[i].k < q->per[i].count) && q->per[i].next < due)
      due = q->per[i].next;
  if (q->chunk_next < q->nchunks && q->chunks[q->chunk_next].cycle < due)
    due = q->chunks[q->chunk_next].cycle;
  cpu->ext_due = due;
}

/* Everything due by now, in cycle order (sources in the order above at
 * the same cycle). */
void board_events(core_cpu *cpu, uint64_t now) {
  board *b = cpu->board;
  irq_sources *q = &b->irq;
  while (cpu->ext_due <= now) {
    uint64_t c = cpu->ext_due;
    while (q->script_next < q->nscript && q->script[q->script_next].cycle == c) {
      plic_edge(cpu, q->script[q->script_next].src, c);
      q->script_next++;
    }
    for (size_t i = 0; i < q->nper; i++) {
      irq_periodic *p = &q->per[i];
      if ((!p->count || p->k < p->count) && p->next == c) {
        plic_edge(cpu, p->src, c);
        p->k++;
        p->next = periodic_next(p);
      }
    }
    bool arrived = false;
    while (q->chunk_next < q->nchunks && q->chunks[q->chunk_next].cycle == c) {
      q->rx_arrived = q->chunks[q->chunk_next++].end;
      arrived = true;
    }
    if (arrived)
      uart_update_line(cpu, c);
    board_irq_schedule(cpu);
  }
}
