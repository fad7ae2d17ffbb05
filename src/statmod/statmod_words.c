/*
 * Plain words for counters that say exactly what is counted: a counter
 * with a function's range counts while the pc is in that function's own
 * code, not in the functions it calls, so "cycles in main's own code" (its
 * self cycles), and a call signal there counts the calls made from that
 * code ("calls made from main's own code"), not the calls into main (what
 * tally profile's "calls" counts). A raw range: "... at 0x...-0x...".
 */
#include <stdio.h>
#include <string.h>

#include "../symbols/symtab.h"
#include "statmod_impl.h"

const char *statmod_words(const statmod_counter_cfg *c, const statmod_arr *range, const char *fname, char *label,
                          size_t label_size, char *where, size_t where_size) {
  char w[64];
  const char *wh;
  if (c->arr == STATMOD_ANYWHERE) {
    wh = "anywhere";
  } else if (fname && *fname) {
    wh = fname;
  } else {
    snprintf(w, sizeof w, "0x%08x-0x%08x", range ? range->lo : 0, range ? range->hi : 0);
    wh = w;
  }
  if (where && where_size)
    snprintf(where, where_size, "%s", wh);
  if (c->signal >= SIG_COUNT) {
    if (label && label_size)
      snprintf(label, label_size, "unknown signal %u in %s", c->signal, wh);
    return NULL;
  }
  const signal_info *s = &signal_catalog[c->signal];
  if (label && label_size) {
    if (c->arr == STATMOD_ANYWHERE)
      snprintf(label, label_size, "%s", s->noun);
    else if (wh == w)
      snprintf(label, label_size, "%s at %s", s->noun, wh);
    else if (c->signal == SIG_CALL || c->signal == SIG_RET)
      snprintf(label, label_size, "%s made from %s's own code", s->noun, wh);
    else
      snprintf(label, label_size, "%s in %s's own code", s->noun, wh);
  }
  return s->name;
}

const char *statmod_range_name(const sym_table *syms, uint32_t lo, uint32_t hi) {
  if (!syms || lo >= hi)
    return NULL;
  const sym_entry *e = sym_table_lookup(syms, lo);
  return e && e->lo == lo && e->hi == hi ? e->name : NULL;
}

void statmod_task_words(const char *task, bool anywhere, char *label, size_t label_size, char *where,
                        size_t where_size) {
  if (!task || !*task)
    return;
  if (label && label_size) {
    size_t n = strlen(label);
    if (n < label_size)
      snprintf(label + n, label_size - n, " while %s runs", task);
  }
  if (where && where_size) {
    if (anywhere)
      where[0] = '\0';
    size_t n = strlen(where);
    if (n < where_size)
      snprintf(where + n, where_size - n, "%%%s", task);
  }
}
