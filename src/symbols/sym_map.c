/*
 * Function ranges from a GNU ld map file (-Wl,-Map=FILE), for programs
 * that are loaded as raw binaries. Only the "Linker script and memory map"
 * part is read; in it, these line shapes matter (addresses are examples):
 *
 *   .text           0x80000000     0x1194          an output section
 *    .text.strlen   0x800009ca       0x12 libc.a(strlen.c.o)   an input section
 *    .text.__i_vfprintf                            (a long name wraps:
 *                   0x80000aa2      0x4bc libc.a(...)           address on the next line)
 *                   0x800009ca                strlen             a global symbol in it
 *                   0x80000aa2                        vfprintf = __i_vfprintf   an assignment
 *
 * Everything else ld writes there (LOAD lines, input patterns " *(.text)",
 * " *fill*", "[!provide]", "(size before relaxing)", data statements) is
 * recognised and skipped; a line that is none of these is an error, as are
 * addresses that do not parse, text input sections that overlap, and a map
 * that stops before its closing OUTPUT(...) line. Errors read NAME:LINE: what.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../textio/textio.h"
#include "symtab.h"
#include "../util/array.h"

/* Bounds far above real GNU ld maps (a big firmware's is tens of MB, with
 * lines of a few hundred bytes), so that /dev/zero or a binary is refused. */
#define MAP_MAX_BYTES (1ull << 30)
#define MAP_MAX_LINE 65536

typedef struct map_isec { /* a text input section */
  uint32_t lo, hi;
  unsigned line;
  char *name, *out;
} map_isec;

typedef struct map_sym {
  uint32_t addr;
  unsigned line;
  unsigned flags;
  char *name;
} map_sym;

typedef struct map_parse {
  const char *file;
  tally_error *err;
  unsigned line;
  bool in_map, saw_output, failed, oom;
  char *out;           /* current output section name */
  long cur;            /* current text input section; -1 = none or not text */
  char *pending;       /* a wrapped section name waiting for its address line */
  unsigned pending_line;
  bool pending_input;  /* ... of an input section (else of an output section) */
  map_isec *isecs;
  size_t nisecs, isecs_cap;
  map_sym *syms;
  size_t nsyms, syms_cap;
} map_parse;

static int perr(map_parse *p, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int perr(map_parse *p, unsigned line, const char *fmt, ...) {
  if (p->failed)
    return -1;
  p->failed = true;
  int n = snprintf(p->err->msg, sizeof p->err->msg, "%s:%u: ", p->file, line ? line : 1);
  if (n < 0 || (size_t)n >= sizeof p->err->msg)
    return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->err->msg + n, sizeof p->err->msg - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

static int oom(map_parse *p) {
  p->oom = true;
  return perr(p, p->line, "out of memory");
}

static const char *skip_blanks(const char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  return s;
}

static bool starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* Length of the token at s (up to a blank or the end). */
static size_t token_len(const char *s) {
  size_t n = 0;
  while (s[n] && s[n] != ' ' && s[n] != '\t')
    n++;
  return n;
}

/* A 0x-prefixed hex number of up to 16 digits ending at a blank or the end
 * of the line. Returns 1 and advances *s; 0 when s does not start with
 * "0x"; -1 (with the error set) when it does but is not a number. */
static int hex_field(map_parse *p, const char **s, uint64_t *v, const char *what) {
  const char *q = *s;
  if (q[0] != '0' || (q[1] != 'x' && q[1] != 'X'))
    return 0;
  size_t len = token_len(q);
  uint64_t x = 0;
  size_t digits = 0;
  for (const char *d = q + 2; d < q + len; d++, digits++) {
    int c = tolower((unsigned char)*d);
    if (!isxdigit(c) || digits >= 16)
      return perr(p, p->line, "%s '%.*s' does not parse as a hex number", what, (int)(len > 40 ? 40 : len), q);
    x = x << 4 | (uint64_t)(isdigit(c) ? c - '0' : c - 'a' + 10);
  }
  if (digits == 0)
    return perr(p, p->line, "%s '0x' has no digits", what);
  *v = x;
  *s = skip_blanks(q + len);
  return 1;
}

/* An address or size that must fit the 32-bit address space. */
static int addr_field(map_parse *p, const char **s, uint32_t *out, const char *what) {
  uint64_t v;
  int r = hex_field(p, s, &v, what);
  if (r == 1 && v > UINT32_MAX)
    return perr(p, p->line, "%s 0x%llx does not fit in 32 bits", what, (unsigned long long)v);
  if (r == 1)
    *out = (uint32_t)v;
  return r;
}

/* Code input sections, by name: what ld's default scripts put in .text. */
static bool is_text_section(const char *name) {
  return strcmp(name, ".text") == 0 || starts_with(name, ".text.") || strcmp(name, ".init") == 0 ||
         starts_with(name, ".init.") || strcmp(name, ".fini") == 0 || starts_with(name, ".fini.") ||
         starts_with(name, ".gnu.linkonce.t.");
}

static bool is_ident_char(int c) { return isalnum(c) || c == '_' || c == '$' || c == '.'; }

static int add_isec(map_parse *p, const char *name, uint32_t lo, uint32_t size, unsigned line) {
  p->cur = -1;
  if (!is_text_section(name))
    return 0;
  uint64_t hi = (uint64_t)lo + size;
  if (hi > (uint64_t)UINT32_MAX + 1)
    return perr(p, line, "input section %s at 0x%08x with size 0x%x runs past the end of the address space", name, lo,
                size);
  if (p->nisecs == p->isecs_cap) {
    size_t cap = p->isecs_cap ? p->isecs_cap * 2 : 64;
    map_isec *v = realloc(p->isecs, cap * sizeof *v);
    if (!v)
      return oom(p);
    p->isecs = v;
    p->isecs_cap = cap;
  }
  char *n = strdup(name), *o = strdup(p->out ? p->out : "");
  if (!n || !o) {
    free(n);
    free(o);
    return oom(p);
  }
  p->isecs[p->nisecs] = (map_isec){lo, hi > UINT32_MAX ? UINT32_MAX : (uint32_t)hi, line, n, o};
  p->cur = (long)p->nisecs++;
  return 0;
}

static int add_msym(map_parse *p, uint32_t addr, const char *name, size_t len, unsigned flags) {
  if (p->nsyms == p->syms_cap) {
    size_t cap = p->syms_cap ? p->syms_cap * 2 : 256;
    map_sym *v = realloc(p->syms, cap * sizeof *v);
    if (!v)
      return oom(p);
    p->syms = v;
    p->syms_cap = cap;
  }
  char *n = strndup(name, len);
  if (!n)
    return oom(p);
  p->syms[p->nsyms++] = (map_sym){addr, p->line, flags, n};
  return 0;
}

/* "0xADDR 0xSIZE [file]" after an input section's name (same or next line). */
static int input_section_fields(map_parse *p, const char *name, const char *s, unsigned name_line) {
  uint32_t addr = 0, size = 0;
  int r = addr_field(p, &s, &addr, "address");
  if (r == 1 && !*s)
    return perr(p, p->line, "input section %s: the line ends before its size (truncated?)", name);
  if (r == 1)
    r = addr_field(p, &s, &size, "size");
  if (r < 0)
    return -1;
  if (r == 0)
    return perr(p, p->line, "input section %s: expected its address and size, found '%.40s'", name, s);
  return add_isec(p, name, addr, size, name_line);
}

/* "NAME = EXPR", "PROVIDE (NAME = EXPR)", "PROVIDE_HIDDEN (NAME = EXPR)". */
static int assignment(map_parse *p, uint32_t addr, const char *s) {
  unsigned flags = SYM_ASSIGNED | SYM_GLOBAL;
  if (starts_with(s, "PROVIDE_HIDDEN (") || starts_with(s, "PROVIDE_HIDDEN(")) {
    flags &= ~SYM_GLOBAL;
    s = skip_blanks(strchr(s, '(') + 1);
  } else if (starts_with(s, "PROVIDE (") || starts_with(s, "PROVIDE(")) {
    s = skip_blanks(strchr(s, '(') + 1);
  }
  size_t n = 0;
  while (is_ident_char((unsigned char)s[n]))
    n++;
  const char *after = skip_blanks(s + n);
  if (n == 0 || (n == 1 && s[0] == '.') || after[0] != '=' || after[1] == '=')
    return 0; /* ". = ALIGN(8)", "ASSERT (...)", compound assignments: nothing to name */
  return add_msym(p, addr, s, n, flags);
}

/* A line indented by two or more blanks: addresses, symbols, assignments. */
static int deep_line(map_parse *p, const char *s) {
  if (starts_with(s, "[!provide]"))
    return 0;
  uint32_t addr = 0;
  int r = addr_field(p, &s, &addr, "address");
  if (r < 0)
    return -1;
  if (r == 0)
    return perr(p, p->line, "unrecognised line '%.40s'", s);
  if (!*s)
    return perr(p, p->line, "line ends after the address 0x%08x (truncated?)", addr);
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { /* "0xADDR 0xSIZE LONG 0x0": a data statement */
    uint64_t v;
    return hex_field(p, &s, &v, "size") < 0 ? -1 : 0;
  }
  if (s[0] == '(') /* "(size before relaxing)" */
    return 0;
  size_t len = token_len(s);
  if (!s[len]) { /* one word: a symbol */
    if (p->cur < 0)
      return 0; /* in a section that holds no code */
    const map_isec *in = &p->isecs[p->cur];
    if (addr < in->lo || addr > in->hi)
      return perr(p, p->line, "symbol %.*s at 0x%08x lies outside its input section %s (0x%08x-0x%08x)", (int)len, s,
                  addr, in->name, in->lo, in->hi);
    return add_msym(p, addr, s, len, SYM_GLOBAL);
  }
  return assignment(p, addr, s);
}

static bool is_keyword(const char *s, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (!isupper((unsigned char)s[i]) && s[i] != '_')
      return false;
  return len > 0;
}

static int set_pending(map_parse *p, const char *name, size_t len, bool input) {
  free(p->pending);
  p->pending = strndup(name, len);
  if (!p->pending)
    return oom(p);
  p->pending_line = p->line;
  p->pending_input = input;
  return 0;
}

static int map_line(map_parse *p, const char *s) {
  size_t indent = 0;
  while (s[indent] == ' ' || s[indent] == '\t')
    indent++;
  const char *body = s + indent;

  if (p->pending) { /* the address line of a wrapped section name */
    char *name = p->pending;
    p->pending = NULL;
    bool input = p->pending_input;
    int rc = 0;
    if (indent >= 2 && starts_with(body, "0x")) {
      if (input) {
        rc = input_section_fields(p, name, body, p->pending_line);
      } else {
        uint32_t addr = 0;
        rc = addr_field(p, &body, &addr, "address") < 0 ? -1 : 0;
        p->cur = -1;
      }
      free(name);
      return rc;
    }
    if (input) {
      rc = perr(p, p->pending_line, "input section %s is not followed by its address and size (truncated?)", name);
      free(name);
      return rc;
    }
    free(name); /* an output section printed without an address: go on */
  }

  if (!*body)
    return 0;
  size_t len = token_len(body);
  if (indent == 0) {
    if (starts_with(body, "OUTPUT(") && body[strlen(body) - 1] == ')') {
      p->saw_output = true;
      return 0;
    }
    if (memchr(body, '(', len) || is_keyword(body, len)) /* LOAD x, START GROUP, TARGET(...), ... */
      return 0;
    /* an output section: "NAME [0xADDR 0xSIZE [load address 0xLMA]]" */
    free(p->out);
    p->out = strndup(body, len);
    if (!p->out)
      return oom(p);
    p->cur = -1;
    const char *rest = skip_blanks(body + len);
    if (!*rest)
      return set_pending(p, body, len, false);
    uint32_t addr = 0;
    int r = addr_field(p, &rest, &addr, "address");
    if (r == 0)
      return perr(p, p->line, "output section %.*s: expected its address, found '%.40s'", (int)len, body, rest);
    return r < 0 ? -1 : 0;
  }
  if (indent == 1) {
    if (body[0] == '*' || memchr(body, '(', len) || is_keyword(body, len))
      return 0; /* " *(.text .text.*)", " *fill*", " foo.o(.text)", " FILL mask ...", " COMMON ..." */
    const char *rest = skip_blanks(body + len);
    if (!*rest)
      return set_pending(p, body, len, true);
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), body);
    return input_section_fields(p, name, rest, p->line);
  }
  return deep_line(p, body);
}

/* ---- from parsed lines to functions ---- */

static int by_lo(const void *a, const void *b) {
  const map_isec *x = *(map_isec *const *)a, *y = *(map_isec *const *)b;
  if (x->lo != y->lo)
    return x->lo < y->lo ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

/* The function name an input section .text.NAME gives (static functions
 * under -ffunction-sections), or NULL; *cold tells whether it was
 * .text.unlikely.NAME, which holds either a cold function NAME or the cold
 * part NAME.cold that GCC split off a function NAME. */
static const char *section_function_name(const char *sec, bool *cold) {
  static const char *const prefixes[] = {".text.unlikely.", ".text.startup.", ".text.hot.", ".text.exit.", ".text."};
  for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
    if (!starts_with(sec, prefixes[i]))
      continue;
    const char *n = sec + strlen(prefixes[i]);
    if (!*n || strcmp(n, "unlikely") == 0 || strcmp(n, "startup") == 0 || strcmp(n, "hot") == 0 ||
        strcmp(n, "exit") == 0)
      return NULL;
    for (const char *c = n; *c; c++)
      if (!is_ident_char((unsigned char)*c))
        return NULL;
    *cold = i == 0;
    return isdigit((unsigned char)n[0]) ? NULL : n;
  }
  return NULL;
}

static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* Index into the sorted sections of the one that contains addr, or -1. */
static long isec_at(map_isec *const *sorted, size_t n, uint32_t addr) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (sorted[mid]->lo <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0 || addr >= sorted[lo - 1]->hi)
    return -1;
  return (long)(lo - 1);
}

static int build(map_parse *p, sym_table *t) {
  map_isec **sorted = malloc((p->nisecs ? p->nisecs : 1) * sizeof *sorted);
  int *secidx = malloc((p->nisecs ? p->nisecs : 1) * sizeof *secidx);
  bool *named = calloc(p->nisecs ? p->nisecs : 1, sizeof *named);
  const char **names = NULL;
  int rc = 0;
  if (!sorted || !secidx || !named) {
    rc = oom(p);
    goto out;
  }
  size_t n = 0;
  for (size_t i = 0; i < p->nisecs; i++)
    if (p->isecs[i].hi > p->isecs[i].lo)
      sorted[n++] = &p->isecs[i];
  sort_array(sorted, n, sizeof *sorted, by_lo);
  for (size_t i = 1; i < n; i++)
    if (sorted[i]->lo < sorted[i - 1]->hi) {
      const map_isec *a = sorted[i - 1], *b = sorted[i];
      const map_isec *later = a->line > b->line ? a : b, *earlier = later == a ? b : a;
      rc = perr(p, later->line, "input section %s (0x%08x-0x%08x) overlaps %s (0x%08x-0x%08x) from line %u",
                later->name, later->lo, later->hi, earlier->name, earlier->lo, earlier->hi, earlier->line);
      goto out;
    }
  for (size_t i = 0; i < n; i++) {
    secidx[i] = sym_table_add_section(t, sorted[i]->out, sorted[i]->lo, sorted[i]->hi);
    if (secidx[i] < 0) {
      rc = oom(p);
      goto out;
    }
  }
  for (size_t i = 0; i < p->nsyms; i++) {
    const map_sym *s = &p->syms[i];
    long k = isec_at(sorted, n, s->addr);
    if (k < 0)
      continue; /* at the end of the code, or an assignment outside it */
    if (s->addr == sorted[k]->lo)
      named[k] = true;
    if (sym_table_add_sym(t, s->addr, 0, s->name, s->flags, secidx[k]) != 0) {
      rc = oom(p);
      goto out;
    }
  }
  /* Sections without a symbol at their start are named after themselves;
   * .text.unlikely.NAME is NAME.cold when NAME is a function elsewhere. */
  names = malloc((p->nsyms + n + 1) * sizeof *names);
  if (!names) {
    rc = oom(p);
    goto out;
  }
  size_t nnames = 0;
  for (size_t i = 0; i < p->nsyms; i++)
    names[nnames++] = p->syms[i].name;
  for (size_t k = 0; k < n; k++) {
    bool cold = false;
    const char *fn = named[k] ? NULL : section_function_name(sorted[k]->name, &cold);
    if (fn && !cold)
      names[nnames++] = fn;
  }
  sort_array(names, nnames, sizeof *names, by_name);
  for (size_t k = 0; k < n; k++) {
    bool cold = false;
    const char *fn = named[k] ? NULL : section_function_name(sorted[k]->name, &cold);
    if (!fn)
      continue;
    char buf[512];
    if (cold && search_array(&fn, names, nnames, sizeof *names, by_name)) {
      snprintf(buf, sizeof buf, "%s.cold", fn);
      fn = buf;
    }
    if (sym_table_add_sym(t, sorted[k]->lo, 0, fn, SYM_SECNAME, secidx[k]) != 0) {
      rc = oom(p);
      goto out;
    }
  }
out:
  free(names);
  free(sorted);
  free(secidx);
  free(named);
  return rc;
}

static void parse_free(map_parse *p) {
  for (size_t i = 0; i < p->nisecs; i++) {
    free(p->isecs[i].name);
    free(p->isecs[i].out);
  }
  for (size_t i = 0; i < p->nsyms; i++)
    free(p->syms[i].name);
  free(p->isecs);
  free(p->syms);
  free(p->out);
  free(p->pending);
}

int sym_table_read_map(sym_table *t, FILE *f, const char *name, tally_error *err) {
  map_parse p = {.file = name, .err = err, .cur = -1};
  char *buf = NULL;
  size_t cap = 0;
  ssize_t len = 0;
  bool done = false;
  while (!p.failed && !done && (len = textio_getline(&buf, &cap, f, MAP_MAX_LINE)) >= 0) {
    p.line++;
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
      buf[--len] = '\0';
    for (ssize_t i = 0; i < len; i++) {
      unsigned char c = (unsigned char)buf[i];
      if (c < 0x20 && c != '\t') {
        perr(&p, p.line, "binary data (byte 0x%02x): not a text map file", c);
        break;
      }
    }
    if (p.failed)
      break;
    if (!p.in_map) {
      if (p.line == 1 && strstr(buf, "VMA") && strstr(buf, "LMA") && strstr(buf, "Symbol"))
        perr(&p, p.line, "an LLVM lld map file; tally reads GNU ld map files");
      else if (strcmp(buf, "Linker script and memory map") == 0)
        p.in_map = true;
      continue;
    }
    if (starts_with(buf, "Cross Reference Table")) {
      done = true;
      break;
    }
    map_line(&p, buf);
  }
  free(buf);
  if (!p.failed && len == TEXTIO_TOO_LONG)
    perr(&p, p.line + 1, "line too long (more than %d bytes): not a linker map", MAP_MAX_LINE);
  if (!p.failed && len == TEXTIO_NOMEM)
    perr(&p, p.line + 1, "out of memory");
  if (!p.failed && (len == TEXTIO_ERROR || ferror(f)))
    perr(&p, p.line, "read error: %s", strerror(errno));
  if (!p.failed && p.line == 0)
    perr(&p, 1, "empty file, not a linker map");
  if (!p.failed && !p.in_map)
    perr(&p, p.line, "no 'Linker script and memory map' section: not a GNU ld map file (link with -Wl,-Map=FILE)");
  if (!p.failed && p.pending && p.pending_input)
    perr(&p, p.pending_line, "input section %s is not followed by its address and size (truncated?)", p.pending);
  if (!p.failed && !p.saw_output)
    perr(&p, p.line, "the memory map ends before its OUTPUT(...) line: the file is truncated");
  if (!p.failed)
    build(&p, t);
  parse_free(&p);
  return p.failed ? -1 : 0;
}

int sym_table_read_map_file(sym_table *t, const char *path, tally_error *err) {
  FILE *f = textio_open(path, MAP_MAX_BYTES, "a linker map", err->msg, sizeof err->msg);
  if (!f)
    return -1;
  int rc = sym_table_read_map(t, f, path, err);
  fclose(f);
  if (rc == 0 && sym_table_finish(t) != 0) {
    snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
    rc = -1;
  }
  return rc;
}
