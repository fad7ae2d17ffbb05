/*
 * Board descriptions (board_desc.h, docs/boards.md): the built-in virt, the
 * INI reader (inih, the core models' reader and style), name lookup in the
 * boards folders, and the checks of a whole memory map.
 *
 * A file is read line by line through our own reader, which also sees the
 * [section] lines: a section is known (and a region or device set up) at
 * its header, so a section without keys, an unknown one or one given twice
 * is named with its own line.
 */
#define _POSIX_C_SOURCE 200809L

#include "board_desc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "../textio/textio.h"
#include "../util/array.h"
#include "../util/search_path.h"

#define BOARD_MAX_BYTES (1u << 20)
#define BOARD_MAX_LINE 4096
#define RAM_MAX (2048ull << 20) /* the core's RAM is at most 2 GiB */

static const struct {
  const char *name;
  uint32_t size;
} devs[BOARD_DEV_COUNT] = {
  [BOARD_DEV_FINISHER] = {"finisher", 0x1000},
  [BOARD_DEV_CONTROL] = {"control", 0x1000},
  [BOARD_DEV_CLINT] = {"clint", 0x10000},
  [BOARD_DEV_UART] = {"uart", 0x100},
  [BOARD_DEV_PLIC] = {"plic", 0x400000},
};

const char *board_dev_name(board_dev_id d) { return devs[d].name; }
uint32_t board_dev_size(board_dev_id d) { return devs[d].size; }

void board_desc_virt(board_desc *d) {
  memset(d, 0, sizeof *d);
  snprintf(d->name, sizeof d->name, "virt");
  snprintf(d->description, sizeof d->description,
           "QEMU's virt machine: RAM at 0x80000000, test finisher, CLINT, PLIC, ns16550 UART, semihosting, HTIF");
  d->regions[0] = (board_region){.name = "ram", .base = 0x80000000u, .size = 128u << 20, .cacheable = true};
  d->nregions = 1;
  static const uint32_t base[BOARD_DEV_COUNT] = {
    [BOARD_DEV_FINISHER] = 0x00100000u, [BOARD_DEV_CONTROL] = 0x00110000u,
    [BOARD_DEV_CLINT] = 0x02000000u, [BOARD_DEV_UART] = 0x10000000u, [BOARD_DEV_PLIC] = 0x0c000000u,
  };
  for (int i = 0; i < BOARD_DEV_COUNT; i++) {
    d->has[i] = true;
    d->dev_base[i] = base[i];
  }
  d->semihosting = true;
  d->htif = true;
}

const board_region *board_desc_region(const board_desc *d, uint32_t addr) {
  for (unsigned i = 0; i < d->nregions; i++)
    if (addr - d->regions[i].base < d->regions[i].size)
      return &d->regions[i];
  return NULL;
}

static void errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void errf(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || !errlen)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

/* ------------------------------------------------------------ values */

/* Decimal or 0x hex; with `sizes`, also a K/M/G (KiB, MiB, GiB) suffix. */
static bool parse_number(const char *s, bool sizes, uint64_t *out) {
  if (!isdigit((unsigned char)*s))
    return false;
  int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
  if (base == 16 && !isxdigit((unsigned char)s[2]))
    return false;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, base);
  if (errno == ERANGE || v > UINT32_MAX * 2ull)
    return false;
  uint64_t scale = 1;
  if (*end && sizes) {
    while (*end == ' ' || *end == '\t')
      end++;
    static const struct { const char *suffix; uint64_t scale; } units[] = {
      {"K", 1u << 10}, {"KiB", 1u << 10}, {"Ki", 1u << 10}, {"M", 1u << 20}, {"MiB", 1u << 20},
      {"Mi", 1u << 20}, {"G", 1u << 30}, {"GiB", 1u << 30}, {"Gi", 1u << 30},
    };
    size_t i;
    for (i = 0; i < sizeof units / sizeof units[0]; i++)
      if (!strcmp(end, units[i].suffix))
        break;
    if (i == sizeof units / sizeof units[0])
      return false;
    scale = units[i].scale;
    end += strlen(end);
  }
  if (*end)
    return false;
  *out = (uint64_t)v * scale;
  return true;
}

static bool parse_bool(const char *s, bool *out) {
  static const char *const yes[] = {"true", "yes", "1", "on"}, *const no[] = {"false", "no", "0", "off"};
  for (size_t i = 0; i < 4; i++) {
    if (!strcasecmp(s, yes[i]))
      return *out = true, true;
    if (!strcasecmp(s, no[i]))
      return *out = false, true;
  }
  return false;
}

/* ------------------------------------------------------------ reader */

/* What a section is: its kind and, for regions and devices, which one. */
typedef enum sec_kind { SEC_NONE, SEC_BOARD, SEC_REGION, SEC_DEVICE, SEC_SEMIHOST, SEC_HTIF } sec_kind;

enum { KEY_NAME, KEY_DESCRIPTION, KEY_BASE, KEY_SIZE, KEY_WAIT, KEY_CACHEABLE, KEY_ENABLED, KEY_COUNT };
static const char *const key_names[KEY_COUNT] = {"name", "description", "base", "size", "wait_states",
                                                 "cacheable", "enabled"};

typedef struct section {
  char name[64];
  sec_kind kind;
  int index;                /* region or device */
  int line;
  int set_on[KEY_COUNT];    /* line where each key was set, 0 = not yet */
} section;

#define MAX_SECTIONS (BOARD_MAX_REGIONS + BOARD_DEV_COUNT + 3)

typedef struct parse_ctx {
  board_desc *d;
  const char *path;
  FILE *f;
  char *line;
  size_t line_cap;
  int lineno;
  int err_line;
  char err[512];
  section secs[MAX_SECTIONS];
  int nsecs;
  section *cur;
} parse_ctx;

static void ctx_error(parse_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ctx_error(parse_ctx *c, const char *fmt, ...) {
  if (c->err_line)
    return;
  c->err_line = c->lineno;
  int n = snprintf(c->err, sizeof c->err, "%s:%d: ", c->path, c->lineno);
  va_list ap;
  va_start(ap, fmt);
  if (n > 0 && (size_t)n < sizeof c->err)
    vsnprintf(c->err + n, sizeof c->err - (size_t)n, fmt, ap);
  va_end(ap);
}

static const char SECTIONS_EXPECTED[] =
    "[board], [ram], [region.NAME], [uart], [finisher], [clint], [plic], [control], [semihosting] or [htif]";

/* A [header] line: which section it opens. */
static void open_section(parse_ctx *c, const char *name) {
  c->cur = NULL;
  for (int i = 0; i < c->nsecs; i++)
    if (!strcmp(c->secs[i].name, name)) {
      ctx_error(c, "[%s]: section given twice (first on line %d)", name, c->secs[i].line);
      return;
    }
  section s = {.line = c->lineno};
  snprintf(s.name, sizeof s.name, "%.63s", name);
  if (!strcmp(name, "board")) {
    s.kind = SEC_BOARD;
  } else if (!strcmp(name, "ram")) {
    s.kind = SEC_REGION;
    s.index = 0;
  } else if (!strncmp(name, "region.", 7)) {
    const char *rn = name + 7;
    bool ok = *rn && strlen(rn) < sizeof c->d->regions[0].name;
    for (const char *p = rn; *p && ok; p++)
      ok = isalnum((unsigned char)*p) || *p == '_' || *p == '-';
    if (!ok || !strcmp(rn, "ram")) {
      ctx_error(c, "[%s]: a region's name is 1-31 letters, digits, '_' or '-', and not 'ram'", name);
      return;
    }
    if (c->d->nregions == BOARD_MAX_REGIONS) {
      ctx_error(c, "[%s]: too many regions (at most %d besides [ram])", name, BOARD_MAX_REGIONS - 1);
      return;
    }
    s.kind = SEC_REGION;
    s.index = (int)c->d->nregions++;
    board_region *r = &c->d->regions[s.index];
    *r = (board_region){.cacheable = false, .line = c->lineno};
    snprintf(r->name, sizeof r->name, "%s", rn);
  } else if (!strcmp(name, "semihosting")) {
    s.kind = SEC_SEMIHOST;
  } else if (!strcmp(name, "htif")) {
    s.kind = SEC_HTIF;
  } else {
    for (int i = 0; i < BOARD_DEV_COUNT; i++)
      if (!strcmp(name, devs[i].name)) {
        s.kind = SEC_DEVICE;
        s.index = i;
        c->d->has[i] = true;
        c->d->dev_line[i] = c->lineno;
      }
    if (s.kind == SEC_NONE) {
      ctx_error(c, "[%s]: unknown section (expected %s)", name, SECTIONS_EXPECTED);
      return;
    }
  }
  if (s.kind == SEC_REGION && s.index == 0)
    c->d->regions[0].line = c->lineno;
  if (c->nsecs == MAX_SECTIONS) {
    ctx_error(c, "[%s]: too many sections", name);
    return;
  }
  c->secs[c->nsecs] = s;
  c->cur = &c->secs[c->nsecs++];
}

static char *read_line(char *str, int num, void *stream) {
  parse_ctx *c = stream;
  char msg[128], *s;
  ssize_t len = textio_next_line(&c->line, &c->line_cap, c->f, BOARD_MAX_LINE, "board", &s, msg, sizeof msg);
  if (len < 0) {
    if (len != TEXTIO_EOF) {
      c->lineno++;
      ctx_error(c, "%s", msg);
    }
    return NULL;
  }
  c->lineno++;
  if (*s == '[') {
    char *close = strchr(s, ']');
    if (close) {
      char name[128];
      const char *p = s + 1;
      while (*p == ' ' || *p == '\t')
        p++;
      size_t n = (size_t)(close - p);
      while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
        n--;
      snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
      open_section(c, name);
    }
  }
  if (num <= 1)
    return NULL;
  if (!textio_fit_line(str, (size_t)num, s, (size_t)len))
    ctx_error(c, "line too long (%zd characters; at most %d)", len, num - 1);
  return str;
}

/* The keys each kind of section takes. */
static bool key_allowed(sec_kind k, int key) {
  switch (k) {
  case SEC_BOARD: return key == KEY_NAME || key == KEY_DESCRIPTION;
  case SEC_REGION: return key == KEY_BASE || key == KEY_SIZE || key == KEY_WAIT || key == KEY_CACHEABLE;
  case SEC_DEVICE: return key == KEY_BASE;
  case SEC_SEMIHOST: case SEC_HTIF: return key == KEY_ENABLED;
  default: return false;
  }
}

static void list_keys(sec_kind k, char *out, size_t n) {
  size_t len = 0;
  out[0] = '\0';
  for (int i = 0; i < KEY_COUNT; i++)
    if (key_allowed(k, i) && len < n)
      len += (size_t)snprintf(out + len, n - len, "%s%s", len ? ", " : "", key_names[i]);
}

static bool text_ok(const char *v, size_t max) {
  if (strlen(v) > max)
    return false;
  for (const char *p = v; *p; p++)
    if (iscntrl((unsigned char)*p))
      return false;
  return true;
}

static int on_key(void *user, const char *secname, const char *name, const char *value) {
  parse_ctx *c = user;
  section *s = c->cur;
  if (!*secname) {
    ctx_error(c, "%s: key outside any section (expected a [section] line first: %s)", name, SECTIONS_EXPECTED);
    return 0;
  }
  if (!s || strcmp(s->name, secname)) { /* the header's own error is already told */
    ctx_error(c, "[%s] %s: not in a known section", secname, name);
    return 0;
  }
  int key = -1;
  for (int i = 0; i < KEY_COUNT; i++)
    if (!strcmp(name, key_names[i]) && key_allowed(s->kind, i))
      key = i;
  if (key < 0) {
    char expect[200];
    list_keys(s->kind, expect, sizeof expect);
    ctx_error(c, "[%s] %s: unknown key (expected one of: %s)", secname, name, expect);
    return 0;
  }
  if (s->set_on[key]) {
    ctx_error(c, "[%s] %s: set twice (first on line %d)", secname, name, s->set_on[key]);
    return 0;
  }
  s->set_on[key] = c->lineno;
  board_desc *d = c->d;
  uint64_t v;
  bool b;
  switch (key) {
  case KEY_NAME:
    if (!*value || !text_ok(value, sizeof d->name - 1) || strchr(value, '/')) {
      ctx_error(c, "[board] name: '%s' is not a name (expected 1-63 characters, no '/')", value);
      return 0;
    }
    snprintf(d->name, sizeof d->name, "%s", value);
    return 1;
  case KEY_DESCRIPTION:
    if (!text_ok(value, sizeof d->description - 1)) {
      ctx_error(c, "[board] description: too long or with control characters (expected at most %zu characters)",
                sizeof d->description - 1);
      return 0;
    }
    snprintf(d->description, sizeof d->description, "%s", value);
    return 1;
  case KEY_BASE:
    if (!parse_number(value, false, &v) || v > UINT32_MAX) {
      ctx_error(c, "[%s] base: '%s' is not an address (expected a 32-bit number, e.g. 0x80000000)", secname, value);
      return 0;
    }
    if (s->kind == SEC_DEVICE)
      d->dev_base[s->index] = (uint32_t)v;
    else
      d->regions[s->index].base = (uint32_t)v;
    return 1;
  case KEY_SIZE:
    if (!parse_number(value, true, &v) || v == 0 || v > (1ull << 32)) {
      ctx_error(c, "[%s] size: '%s' is not a size (expected bytes from 1 to 4G; 4096, 0x1000, 4K and 4KiB are the same)",
                secname, value);
      return 0;
    }
    d->regions[s->index].size = v;
    return 1;
  case KEY_WAIT:
    if (!parse_number(value, false, &v) || v > BOARD_WAIT_STATES_MAX) {
      ctx_error(c, "[%s] wait_states: '%s' is not a count of cycles (expected an integer from 0 to %d)", secname,
                value, BOARD_WAIT_STATES_MAX);
      return 0;
    }
    d->regions[s->index].wait_states = (uint32_t)v;
    return 1;
  case KEY_CACHEABLE:
  case KEY_ENABLED:
    if (!parse_bool(value, &b)) {
      ctx_error(c, "[%s] %s: '%s' is not a boolean (expected true, false, yes, no, 1 or 0)", secname, name, value);
      return 0;
    }
    if (key == KEY_CACHEABLE)
      d->regions[s->index].cacheable = b;
    else if (s->kind == SEC_SEMIHOST)
      d->semihosting = b;
    else
      d->htif = b;
    return 1;
  }
  return 0;
}

static void quote_line(FILE *f, int n, char *out, size_t size) {
  out[0] = '\0';
  if (fseek(f, 0, SEEK_SET) != 0)
    return;
  char *line = NULL;
  size_t cap = 0;
  for (int i = 1; getline(&line, &cap, f) >= 0; i++)
    if (i == n) {
      size_t len = strcspn(line, "\r\n");
      line[len] = '\0';
      snprintf(out, size, "%.60s%s", line, len > 60 ? "..." : "");
      break;
    }
  free(line);
}

/* ------------------------------------------------------------ checks */

typedef struct span {
  char what[48];
  uint64_t lo, hi; /* [lo, hi) */
  int line;
} span;

static void region_span(const board_region *r, span *s) {
  if (!strcmp(r->name, "ram"))
    snprintf(s->what, sizeof s->what, "[ram]");
  else
    snprintf(s->what, sizeof s->what, "[region.%s]", r->name);
  s->lo = r->base;
  s->hi = (uint64_t)r->base + r->size;
  s->line = r->line;
}

static void dev_span(const board_desc *d, int i, span *s) {
  snprintf(s->what, sizeof s->what, "[%s]", devs[i].name);
  s->lo = d->dev_base[i];
  s->hi = (uint64_t)d->dev_base[i] + devs[i].size;
  s->line = d->dev_line[i];
}

static bool overlap(const span *a, const span *b) { return a->lo < b->hi && b->lo < a->hi; }

/* "FILE:LINE: " for a file's thing, or "board NAME: " */
static void where(const board_desc *d, int line, char *out, size_t n) {
  if (d->path[0] && line)
    snprintf(out, n, "%s:%d: ", d->path, line);
  else if (d->path[0])
    snprintf(out, n, "%s: ", d->path);
  else
    snprintf(out, n, "board %s: ", d->name);
}

/* Every span against those before it. */
static int check_spans(const board_desc *d, const span *s, int n, bool devices_in_regions, int first_dev,
                       char *err, size_t errlen) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) {
      /* a device may sit inside an IO region (not the RAM) */
      bool dev_i = i >= first_dev, dev_j = j >= first_dev;
      if (devices_in_regions && dev_i != dev_j) {
        const span *r = dev_i ? &s[j] : &s[i];
        if (strcmp(r->what, "[ram]") != 0)
          continue;
      }
      if (overlap(&s[i], &s[j])) {
        const span *later = s[i].line >= s[j].line ? &s[i] : &s[j], *earlier = later == &s[i] ? &s[j] : &s[i];
        char at[1100];
        where(d, later->line, at, sizeof at);
        errf(err, errlen, "%s%s 0x%08llx-0x%08llx overlaps %s 0x%08llx-0x%08llx%s%.0d%s", at, later->what,
             (unsigned long long)later->lo, (unsigned long long)later->hi - 1, earlier->what,
             (unsigned long long)earlier->lo, (unsigned long long)earlier->hi - 1, earlier->line ? " (line " : "",
             earlier->line, earlier->line ? ")" : "");
        return -1;
      }
    }
  return 0;
}

static int check_map(const board_desc *d, uint64_t ram_size, char *err, size_t errlen) {
  span s[BOARD_MAX_REGIONS + BOARD_DEV_COUNT];
  int n = 0;
  for (unsigned i = 0; i < d->nregions; i++) {
    region_span(&d->regions[i], &s[n]);
    if (i == 0)
      s[n].hi = s[n].lo + ram_size;
    n++;
  }
  int first_dev = n;
  for (int i = 0; i < BOARD_DEV_COUNT; i++)
    if (d->has[i])
      dev_span(d, i, &s[n++]);
  return check_spans(d, s, n, true, first_dev, err, errlen);
}

int board_desc_check_ram(const board_desc *d, uint64_t ram_size, char *err, size_t errlen) {
  const board_region *r = &d->regions[0];
  char at[1100];
  where(d, r->line, at, sizeof at);
  if (ram_size == 0 || ram_size % 4096 || ram_size > RAM_MAX) {
    errf(err, errlen, "%sRAM of %llu bytes: expected a multiple of 4 KiB up to 2 GiB", at,
         (unsigned long long)ram_size);
    return -1;
  }
  if ((uint64_t)r->base + ram_size > (1ull << 32)) {
    errf(err, errlen, "%sRAM of %llu bytes at 0x%08x reaches past the 32-bit address space", at,
         (unsigned long long)ram_size, r->base);
    return -1;
  }
  return check_map(d, ram_size, err, errlen);
}

/* The whole file: what must be there, alignment, sizes, overlaps. */
static int check_desc(parse_ctx *c) {
  board_desc *d = c->d;
  const section *ram = NULL;
  for (int i = 0; i < c->nsecs; i++)
    if (!strcmp(c->secs[i].name, "ram"))
      ram = &c->secs[i];
  if (!ram) {
    errf(c->err, sizeof c->err, "%s: no [ram] section (expected [ram] with base = ADDRESS and size = BYTES)",
         c->path);
    return -1;
  }
  for (int i = 0; i < c->nsecs; i++) {
    const section *s = &c->secs[i];
    bool region = s->kind == SEC_REGION, dev = s->kind == SEC_DEVICE;
    if ((region || dev) && !s->set_on[KEY_BASE]) {
      errf(c->err, sizeof c->err, "%s:%d: [%s]: no base (expected base = ADDRESS, e.g. base = 0x%08x)", c->path,
           s->line, s->name, region ? 0x80000000u : 0x10000000u);
      return -1;
    }
    if (region && !s->set_on[KEY_SIZE]) {
      errf(c->err, sizeof c->err, "%s:%d: [%s]: no size (expected size = BYTES, e.g. size = 128M)", c->path,
           s->line, s->name);
      return -1;
    }
    if (region) {
      const board_region *r = &d->regions[s->index];
      if ((uint64_t)r->base + r->size > (1ull << 32)) {
        errf(c->err, sizeof c->err, "%s:%d: [%s]: base 0x%08x + size 0x%llx reaches past the 32-bit address space",
             c->path, s->set_on[KEY_SIZE], s->name, r->base, (unsigned long long)r->size);
        return -1;
      }
      if (s->index == 0 && (r->base % 4096 || r->size % 4096 || r->size > RAM_MAX)) {
        errf(c->err, sizeof c->err,
             "%s:%d: [ram]: base 0x%08x, size 0x%llx: expected a base and a size that are multiples of 4 KiB, "
             "the size at most 2 GiB",
             c->path, r->base % 4096 ? s->set_on[KEY_BASE] : s->set_on[KEY_SIZE], r->base,
             (unsigned long long)r->size);
        return -1;
      }
    }
    if (dev) {
      uint32_t size = devs[s->index].size, base = d->dev_base[s->index];
      if (base % size) {
        errf(c->err, sizeof c->err, "%s:%d: [%s] base: 0x%08x is not a multiple of the device's window (0x%x bytes)",
             c->path, s->set_on[KEY_BASE], s->name, base, size);
        return -1;
      }
    }
  }
  return check_map(d, d->regions[0].size, c->err, sizeof c->err);
}

static int parse_file(board_desc *d, const char *path, char *err, size_t errlen) {
  parse_ctx *c = calloc(1, sizeof *c);
  if (!c) {
    errf(err, errlen, "%s: out of memory", path);
    return -1;
  }
  c->d = d;
  c->path = path;
  c->f = textio_open(path, BOARD_MAX_BYTES, "a board file", err, errlen);
  if (!c->f) {
    free(c);
    return -1;
  }
  int rc = ini_parse_stream(read_line, c, on_key, c);
  int status = 0;
  if (c->err_line && (rc <= 0 || rc >= c->err_line)) {
    errf(err, errlen, "%s", c->err);
    status = -1;
  } else if (rc > 0) {
    char shown[80];
    quote_line(c->f, rc, shown, sizeof shown);
    errf(err, errlen, "%s:%d: cannot read '%s' (expected [section], key = value, or a ; comment)", path, rc, shown);
    status = -1;
  } else if (rc < 0) {
    errf(err, errlen, "%s: cannot read the file (out of memory)", path);
    status = -1;
  } else if (ferror(c->f)) {
    errf(err, errlen, "%s: read error", path);
    status = -1;
  } else if (check_desc(c) != 0) {
    errf(err, errlen, "%s", c->err);
    status = -1;
  }
  fclose(c->f);
  free(c->line);
  free(c);
  return status;
}

/* ------------------------------------------------------------ lookup */

size_t board_desc_list(const char *dirs, char names[][64], size_t max) { return search_path_list(dirs, names, max); }

static int find_board(const char *name, const char *dirs, char *path, size_t pathlen, char *err, size_t errlen) {
  if (search_path_find(name, dirs, path, pathlen) == 0)
    return 0;
  char names[64][64];
  size_t n = board_desc_list(dirs, names, 64);
  size_t len = 0;
  char list[1024] = "";
  for (size_t i = 0; i < n && len < sizeof list; i++)
    len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", names[i]);
  if (n)
    errf(err, errlen, "unknown board '%s' (shipped boards: %s; or give a path to an .ini file)", name, list);
  else
    errf(err, errlen, "unknown board '%s' (no boards found in '%s'; give a path to an .ini file)", name,
         dirs ? dirs : "");
  return -1;
}

int board_desc_load(board_desc *d, const char *name, const char *dirs, bool *is_file_out, char *err, size_t errlen) {
  *is_file_out = false;
  if (!name || !*name) {
    errf(err, errlen, "no board named (expected a board name or a path to an .ini file)");
    return -1;
  }
  char path[sizeof d->path];
  if (strchr(name, '/') || search_path_ends_with(name, ".ini")) {
    *is_file_out = true;
    if (strlen(name) >= sizeof path) {
      errf(err, errlen, "%.60s...: path too long (at most %zu characters)", name, sizeof path - 1);
      return -1;
    }
    snprintf(path, sizeof path, "%s", name);
  } else {
    if (strlen(name) >= 64 || find_board(name, dirs, path, sizeof path, err, errlen) != 0) {
      if (strlen(name) >= 64)
        errf(err, errlen, "unknown board '%.60s...' (a board name is at most 63 characters)", name);
      return -1;
    }
    *is_file_out = true; /* a shipped file that is damaged is bad input */
  }
  board_desc *tmp = calloc(1, sizeof *tmp);
  if (!tmp) {
    errf(err, errlen, "%s: out of memory", path);
    return -1;
  }
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  size_t stem = search_path_ends_with(base, ".ini") ? strlen(base) - 4 : strlen(base);
  snprintf(tmp->name, sizeof tmp->name, "%.*s", (int)(stem < 63 ? stem : 63), base);
  snprintf(tmp->path, sizeof tmp->path, "%s", path);
  snprintf(tmp->regions[0].name, sizeof tmp->regions[0].name, "ram");
  tmp->regions[0].cacheable = true;
  tmp->nregions = 1;
  int rc = parse_file(tmp, path, err, errlen);
  if (rc == 0)
    *d = *tmp;
  free(tmp);
  return rc;
}
