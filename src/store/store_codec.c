/*
 * Interval values as text: a chunk's values are one JSON array of decimal
 * integers, which SQLite's json_each (and any JSON reader) takes apart, and
 * which this file writes and reads without going through doubles, so that
 * every 64-bit count comes back exact.
 */
#include <stdlib.h>
#include <string.h>

#include "store_internal.h"

static int reserve(store *s, size_t need) {
  if (need <= s->textcap)
    return 0;
  size_t cap = s->textcap ? s->textcap : 256;
  while (cap < need)
    cap *= 2;
  char *t = realloc(s->text, cap);
  if (!t)
    return -1;
  s->text = t;
  s->textcap = cap;
  return 0;
}

/* Decimal digits of v at out, no terminator; returns how many. */
static size_t put_u64(char *out, uint64_t v) {
  char tmp[20];
  size_t n = 0;
  do
    tmp[n++] = (char)('0' + v % 10);
  while ((v /= 10) != 0);
  for (size_t i = 0; i < n; i++)
    out[i] = tmp[n - 1 - i];
  return n;
}

int store_encode_values(store *s, const uint64_t *values, uint32_t n) {
  if (reserve(s, (size_t)n * 21 + 3) < 0)
    return -1;
  char *t = s->text;
  size_t o = 0;
  t[o++] = '[';
  for (uint32_t i = 0; i < n; i++) {
    if (i)
      t[o++] = ',';
    o += put_u64(t + o, values[i]);
  }
  t[o++] = ']';
  t[o] = '\0';
  return (int)o;
}

int store_encode_saturated(store *s, uint32_t first, const uint8_t *saturated, uint32_t n) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    k += saturated[i] != 0;
  if (k == 0)
    return 0;
  if (reserve(s, (size_t)k * 11 + 3) < 0)
    return -1;
  char *t = s->text;
  size_t o = 0;
  t[o++] = '[';
  for (uint32_t i = 0; i < n; i++)
    if (saturated[i]) {
      if (o > 1)
        t[o++] = ',';
      o += put_u64(t + o, (uint64_t)first + i);
    }
  t[o++] = ']';
  t[o] = '\0';
  return (int)o;
}

static void skip_space(const char *t, size_t len, size_t *i) {
  while (*i < len && (t[*i] == ' ' || t[*i] == '\t' || t[*i] == '\n' || t[*i] == '\r'))
    (*i)++;
}

long store_decode_array(const char *text, size_t len, uint64_t *out, size_t cap) {
  size_t i = 0, k = 0;
  skip_space(text, len, &i);
  if (i >= len || text[i++] != '[')
    return -1;
  skip_space(text, len, &i);
  if (i < len && text[i] == ']') {
    i++;
  } else {
    for (;;) {
      skip_space(text, len, &i);
      if (i >= len || text[i] < '0' || text[i] > '9' || k == cap)
        return -1;
      uint64_t v = 0;
      size_t start = i;
      while (i < len && text[i] >= '0' && text[i] <= '9') {
        unsigned d = (unsigned)(text[i++] - '0');
        if (v > (UINT64_MAX - d) / 10)
          return -1; /* more than 64 bits */
        v = v * 10 + d;
      }
      if (text[start] == '0' && i - start > 1)
        return -1; /* JSON has no leading zeros */
      out[k++] = v;
      skip_space(text, len, &i);
      if (i < len && text[i] == ',') {
        i++;
        continue;
      }
      if (i < len && text[i] == ']') {
        i++;
        break;
      }
      return -1;
    }
  }
  skip_space(text, len, &i);
  return i == len ? (long)k : -1;
}
