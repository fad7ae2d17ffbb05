/* Number formatting and parsing for people: separators, units, suffixes
 * (include/tally/tally.h: tally_format_count, tally_parse_number, tally_parse_seconds). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tally/tally.h"

const char *tally_format_count(uint64_t v, char *buf, size_t size) {
  char digits[32];
  int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
  size_t o = 0;
  for (int i = 0; i < n && o + 1 < size; i++) {
    if (i > 0 && (n - i) % 3 == 0 && o + 2 < size)
      buf[o++] = ',';
    buf[o++] = digits[i];
  }
  buf[o] = '\0';
  return buf;
}

bool tally_parse_number(const char *s, uint64_t *out) {
  if (!s || !*s || *s == '-')
    return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || end == s)
    return false;
  static const struct { const char *suffix; unsigned long long mul; } units[] = {
    {"", 1}, {"k", 1000ull}, {"K", 1000ull}, {"M", 1000000ull}, {"G", 1000000000ull},
    {"Ki", 1ull << 10}, {"Mi", 1ull << 20}, {"Gi", 1ull << 30},
  };
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    if (strcmp(end, units[i].suffix) == 0) {
      if (v > UINT64_MAX / units[i].mul)
        return false;
      *out = v * units[i].mul;
      return true;
    }
  }
  return false;
}

bool tally_parse_seconds(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !(v > 0))
    return false;
  *out = v;
  return true;
}
