/*
 * JSON reader (RFC 8259, recursive descent) and string escaping.
 *
 * Strings are decoded to UTF-8 (\uXXXX escapes and surrogate pairs
 * included); a string holding U+0000 is refused, since names here are C
 * strings. Depth is bounded so hostile input cannot exhaust the stack.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define MAX_DEPTH 256

typedef struct parser {
  const char *s, *end;
  unsigned line;
  char *err;
  size_t errsize;
  bool failed;
} parser;

static void fail(parser *p, const char *what) {
  if (!p->failed)
    snprintf(p->err, p->errsize, "line %u: %s", p->line, what);
  p->failed = true;
}

static void skip_ws(parser *p) {
  while (p->s < p->end) {
    char c = *p->s;
    if (c == '\n')
      p->line++;
    else if (c != ' ' && c != '\t' && c != '\r')
      return;
    p->s++;
  }
}

static bool literal(parser *p, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(p->end - p->s) < n || memcmp(p->s, word, n) != 0)
    return false;
  p->s += n;
  return true;
}

static int hex4(const char *s) {
  int v = 0;
  for (int i = 0; i < 4; i++) {
    char c = s[i];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= c - '0';
    else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
    else return -1;
  }
  return v;
}

static size_t put_utf8(char *o, unsigned cp) {
  if (cp < 0x80) { o[0] = (char)cp; return 1; }
  if (cp < 0x800) { o[0] = (char)(0xc0 | cp >> 6); o[1] = (char)(0x80 | (cp & 0x3f)); return 2; }
  if (cp < 0x10000) {
    o[0] = (char)(0xe0 | cp >> 12); o[1] = (char)(0x80 | ((cp >> 6) & 0x3f)); o[2] = (char)(0x80 | (cp & 0x3f));
    return 3;
  }
  o[0] = (char)(0xf0 | cp >> 18); o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
  o[2] = (char)(0x80 | ((cp >> 6) & 0x3f)); o[3] = (char)(0x80 | (cp & 0x3f));
  return 4;
}

/* At the opening quote; returns the decoded string (malloc'd) or NULL. */
static char *string(parser *p) {
  p->s++; /* " */
  const char *start = p->s;
  while (p->s < p->end && *p->s != '"') {
    if (*p->s == '\\')
      p->s++;
    else if ((unsigned char)*p->s < 0x20) {
      fail(p, "control character inside a string");
      return NULL;
    }
    p->s++;
  }
  if (p->s >= p->end) {
    fail(p, "unterminated string");
    return NULL;
  }
  const char *stop = p->s++;
  char *out = malloc((size_t)(stop - start) + 1), *o = out; /* decoding never grows */
  if (!out) {
    fail(p, "out of memory");
    return NULL;
  }
  for (const char *c = start; c < stop; c++) {
    if (*c != '\\') {
      *o++ = *c;
      continue;
    }
    c++;
    switch (*c) {
    case '"': *o++ = '"'; break;
    case '\\': *o++ = '\\'; break;
    case '/': *o++ = '/'; break;
    case 'b': *o++ = '\b'; break;
    case 'f': *o++ = '\f'; break;
    case 'n': *o++ = '\n'; break;
    case 'r': *o++ = '\r'; break;
    case 't': *o++ = '\t'; break;
    case 'u': {
      int cp = stop - c > 4 ? hex4(c + 1) : -1;
      if (cp < 0) goto bad;
      c += 4;
      if (cp >= 0xd800 && cp < 0xdc00) {
        int lo = stop - c > 6 && c[1] == '\\' && c[2] == 'u' ? hex4(c + 3) : -1;
        if (lo < 0xdc00 || lo >= 0xe000) goto bad;
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        c += 6;
      } else if (cp >= 0xdc00 && cp < 0xe000) {
        goto bad;
      }
      if (cp == 0) {
        free(out);
        fail(p, "\\u0000 inside a string");
        return NULL;
      }
      o += put_utf8(o, (unsigned)cp);
      break;
    }
    default: goto bad;
    }
  }
  *o = '\0';
  return out;
bad:
  free(out);
  fail(p, "bad escape in a string");
  return NULL;
}

static bool number(parser *p, json_value *v) {
  const char *start = p->s;
  if (p->s < p->end && *p->s == '-') p->s++;
  if (p->s < p->end && *p->s == '0') p->s++;
  else if (p->s < p->end && *p->s >= '1' && *p->s <= '9')
    while (p->s < p->end && *p->s >= '0' && *p->s <= '9') p->s++;
  else { fail(p, "bad number"); return false; }
  if (p->s < p->end && *p->s == '.') {
    p->s++;
    if (p->s >= p->end || *p->s < '0' || *p->s > '9') { fail(p, "bad number"); return false; }
    while (p->s < p->end && *p->s >= '0' && *p->s <= '9') p->s++;
  }
  if (p->s < p->end && (*p->s == 'e' || *p->s == 'E')) {
    p->s++;
    if (p->s < p->end && (*p->s == '+' || *p->s == '-')) p->s++;
    if (p->s >= p->end || *p->s < '0' || *p->s > '9') { fail(p, "bad number"); return false; }
    while (p->s < p->end && *p->s >= '0' && *p->s <= '9') p->s++;
  }
  v->type = JSON_NUMBER;
  v->text = strndup(start, (size_t)(p->s - start));
  if (!v->text) { fail(p, "out of memory"); return false; }
  return true;
}

static bool value(parser *p, json_value *v, int depth);

/* Appends one slot to an array/object being built. */
static bool grow(parser *p, json_value *v, size_t *cap, bool with_keys) {
  if (v->n < *cap)
    return true;
  size_t ncap = *cap ? 2 * *cap : 8;
  json_value *items = realloc(v->items, ncap * sizeof *items);
  if (!items) { fail(p, "out of memory"); return false; }
  v->items = items;
  if (with_keys) {
    char **keys = realloc(v->keys, ncap * sizeof *keys);
    if (!keys) { fail(p, "out of memory"); return false; }
    v->keys = keys;
  }
  *cap = ncap;
  return true;
}

static bool array(parser *p, json_value *v, int depth) {
  v->type = JSON_ARRAY;
  p->s++; /* [ */
  size_t cap = 0;
  skip_ws(p);
  if (p->s < p->end && *p->s == ']') { p->s++; return true; }
  for (;;) {
    if (!grow(p, v, &cap, false)) return false;
    memset(&v->items[v->n], 0, sizeof v->items[0]);
    v->n++;
    if (!value(p, &v->items[v->n - 1], depth + 1)) return false;
    skip_ws(p);
    if (p->s < p->end && *p->s == ',') { p->s++; continue; }
    if (p->s < p->end && *p->s == ']') { p->s++; return true; }
    fail(p, "expected ',' or ']' in an array");
    return false;
  }
}

static bool object(parser *p, json_value *v, int depth) {
  v->type = JSON_OBJECT;
  p->s++; /* { */
  size_t cap = 0;
  skip_ws(p);
  if (p->s < p->end && *p->s == '}') { p->s++; return true; }
  for (;;) {
    skip_ws(p);
    if (p->s >= p->end || *p->s != '"') { fail(p, "expected a string key in an object"); return false; }
    if (!grow(p, v, &cap, true)) return false;
    memset(&v->items[v->n], 0, sizeof v->items[0]);
    v->keys[v->n] = NULL;
    v->n++;
    if (!(v->keys[v->n - 1] = string(p))) return false;
    skip_ws(p);
    if (p->s >= p->end || *p->s != ':') { fail(p, "expected ':' after a key"); return false; }
    p->s++;
    if (!value(p, &v->items[v->n - 1], depth + 1)) return false;
    skip_ws(p);
    if (p->s < p->end && *p->s == ',') { p->s++; continue; }
    if (p->s < p->end && *p->s == '}') { p->s++; return true; }
    fail(p, "expected ',' or '}' in an object");
    return false;
  }
}

static bool value(parser *p, json_value *v, int depth) {
  if (depth > MAX_DEPTH) { fail(p, "nested too deeply"); return false; }
  skip_ws(p);
  v->line = p->line;
  if (p->s >= p->end) { fail(p, "unexpected end of file"); return false; }
  switch (*p->s) {
  case '{': return object(p, v, depth);
  case '[': return array(p, v, depth);
  case '"': v->type = JSON_STRING; return (v->text = string(p)) != NULL;
  case 't': if (literal(p, "true")) { v->type = JSON_BOOL; v->boolean = true; return true; } break;
  case 'f': if (literal(p, "false")) { v->type = JSON_BOOL; return true; } break;
  case 'n': if (literal(p, "null")) { v->type = JSON_NULL; return true; } break;
  default:
    if (*p->s == '-' || (*p->s >= '0' && *p->s <= '9')) return number(p, v);
  }
  fail(p, "expected a value");
  return false;
}

static void free_inner(json_value *v) {
  for (size_t i = 0; i < v->n; i++) {
    free_inner(&v->items[i]);
    if (v->keys) free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->text);
}

json_value *json_parse(const char *text, size_t len, char *err, size_t errsize) {
  parser p = {.s = text, .end = text + len, .line = 1, .err = err, .errsize = errsize};
  json_value *v = calloc(1, sizeof *v);
  if (!v) {
    snprintf(err, errsize, "out of memory");
    return NULL;
  }
  if (value(&p, v, 0)) {
    skip_ws(&p);
    if (p.s != p.end) fail(&p, "unexpected text after the end");
  }
  if (p.failed) {
    json_free(v);
    return NULL;
  }
  return v;
}

void json_free(json_value *v) {
  if (!v) return;
  free_inner(v);
  free(v);
}

const json_value *json_get(const json_value *v, const char *key) {
  if (!v || v->type != JSON_OBJECT) return NULL;
  for (size_t i = 0; i < v->n; i++)
    if (strcmp(v->keys[i], key) == 0) return &v->items[i];
  return NULL;
}

bool json_u64(const json_value *v, uint64_t *out) {
  if (!v || v->type != JSON_NUMBER || v->text[0] < '0' || v->text[0] > '9' || strpbrk(v->text, ".eE"))
    return false;
  char *end;
  errno = 0;
  unsigned long long x = strtoull(v->text, &end, 10);
  if (errno || *end) return false;
  *out = x;
  return true;
}

void json_write_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    if (*c == '"' || *c == '\\') fprintf(f, "\\%c", *c);
    else if (*c == '\n') fputs("\\n", f);
    else if (*c == '\t') fputs("\\t", f);
    else if (*c < 0x20) fprintf(f, "\\u%04x", *c);
    else fputc(*c, f);
  }
  fputc('"', f);
}
