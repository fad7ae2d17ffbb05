/*
 * An event's plain spec, "SIGNAL", "SIGNAL@FUNCTION" or "SIGNAL@0xLO-0xHI"
 * (include/tally/run.h: tally_event_parse). Messages name the spec as given
 * so that a front end can put its own option name before them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "tally/run.h"

/* Up to four signal names that look like `name`: the same family (the part
 * before the dot) or containing it. */
static void suggest(const char *name, char *buf, size_t size) {
  size_t fam = strcspn(name, ".");
  int found = 0;
  size_t o = 0;
  buf[0] = '\0';
  for (int i = 0; i < tally_signal_count() && found < 4; i++) {
    const char *s = tally_signal_name(i);
    bool same_family = fam > 0 && strncmp(s, name, fam) == 0 && (s[fam] == '.' || s[fam] == '\0');
    if (same_family || (strlen(name) >= 3 && strstr(s, name))) {
      int n = snprintf(buf + o, size - o, "%s%s", found ? ", " : "; did you mean ", s);
      if (n < 0 || (size_t)n >= size - o)
        break;
      o += (size_t)n;
      found++;
    }
  }
  if (found && o + 2 < size)
    strcat(buf, "?");
}

static int parse_signal(const char *spec, const char *text, int *sig, tally_error *err) {
  int s = tally_signal_lookup(text);
  if (s < 0) {
    char *end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 10);
    if (*text && !*end && !errno && v < (unsigned long)tally_signal_count())
      s = (int)v;
  }
  if (s < 0) {
    char hint[160];
    suggest(text, hint, sizeof hint);
    return api_fail(err, TALLY_E_USAGE, "'%s': unknown signal '%s' ('tally signals' lists them%s)", spec, text,
                    hint);
  }
  *sig = s;
  return 0;
}

/* "0xLO-0xHI": [lo, hi). Returns 1 when it is a range, 0 when it is not
 * one (a function name), -1 for a bad range. */
static int parse_range(const char *spec, const char *where, uint32_t *lo, uint32_t *hi, tally_error *err) {
  const char *dash = strchr(where, '-');
  if (!dash || !(where[0] >= '0' && where[0] <= '9'))
    return 0;
  char a[32];
  size_t n = (size_t)(dash - where);
  uint64_t l, h;
  if (n >= sizeof a)
    return api_fail(err, TALLY_E_USAGE, "'%s': bad address range '%s' (expected 0xLO-0xHI)", spec, where);
  memcpy(a, where, n);
  a[n] = '\0';
  if (!tally_parse_number(a, &l) || !tally_parse_number(dash + 1, &h) || l > UINT32_MAX || h > UINT32_MAX)
    return api_fail(err, TALLY_E_USAGE, "'%s': bad address range '%s' (expected 0xLO-0xHI, 32-bit addresses)",
                    spec, where);
  if (l >= h)
    return api_fail(err, TALLY_E_USAGE, "'%s': the range %s is empty (it is [LO, HI): HI must be above LO)", spec,
                    where);
  *lo = (uint32_t)l;
  *hi = (uint32_t)h;
  return 1;
}

/* "%TASK" at the end of a spec: the task's name, or NULL. */
static int parse_task(const char *spec, const char *pct, tally_error *err) {
  const char *t = pct + 1;
  if (!*t)
    return api_fail(err, TALLY_E_USAGE, "'%s': nothing after '%%' (a task's name: SIGNAL@FUNCTION%%TASK or "
                    "SIGNAL@%%TASK)", spec);
  if (strlen(t) >= 64)
    return api_fail(err, TALLY_E_USAGE, "'%s': the task name '%s' is longer than 63 bytes", spec, t);
  for (const char *c = t; *c; c++)
    if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e || *c == '%' || *c == '@')
      return api_fail(err, TALLY_E_USAGE, "'%s': the task name '%s' has a character a task name cannot have", spec,
                      t);
  return 0;
}

static int parse_plain(const char *spec, const char *text, tally_event *ev, tally_error *err);

int tally_event_parse(const char *spec, tally_event *ev, tally_error *err) {
  const char *at = strchr(spec, '@');
  const char *pct = strchr(spec, '%');
  if (!pct)
    return parse_plain(spec, spec, ev, err);
  if (!at || pct < at)
    return api_fail(err, TALLY_E_USAGE, "'%s': a task goes after '@': SIGNAL@%%TASK (anywhere) or "
                    "SIGNAL@FUNCTION%%TASK", spec);
  if (parse_task(spec, pct, err) != 0)
    return -1;
  tally_event e;
  size_t n = strlen(spec);
  if (n >= sizeof e.text)
    return api_fail(err, TALLY_E_USAGE, "'%s': longer than %zu bytes", spec, sizeof e.text - 1);
  memcpy(e.text, spec, n + 1);
  size_t k = (size_t)(pct - spec);
  e.text[k] = '\0';
  if (pct == at + 1)
    e.text[k - 1] = '\0'; /* SIGNAL@%TASK: anywhere */
  if (parse_plain(spec, e.text, &e, err) != 0)
    return -1;
  e.task = e.text + k + 1;
  *ev = e;
  if (ev->func)
    ev->func = ev->text + (e.func - e.text);
  ev->task = ev->text + k + 1;
  return 0;
}

static int parse_plain(const char *spec, const char *text, tally_event *ev, tally_error *err) {
  tally_event e = {.anywhere = true};
  char sig[64];
  const char *at = strchr(text, '@');
  size_t n = at ? (size_t)(at - text) : strlen(text);
  if (n == 0 || n >= sizeof sig)
    return api_fail(err, TALLY_E_USAGE, "'%s': expected SIGNAL or SIGNAL@WHERE (a function or 0xLO-0xHI)", spec);
  memcpy(sig, text, n);
  sig[n] = '\0';
  if (parse_signal(spec, sig, &e.signal, err) != 0)
    return -1;
  if (at) {
    const char *where = at + 1;
    if (!*where)
      return api_fail(err, TALLY_E_USAGE, "'%s': nothing after '@' (a function name or 0xLO-0xHI)", spec);
    e.anywhere = false;
    int r = parse_range(spec, where, &e.lo, &e.hi, err);
    if (r < 0)
      return -1;
    if (r == 0)
      e.func = where;
  }
  if (text == ev->text) { /* keep the copy the task's spec was cut in */
    memcpy(e.text, ev->text, sizeof e.text);
    if (e.func)
      e.func = ev->text + (e.func - text);
  }
  *ev = e;
  return 0;
}
