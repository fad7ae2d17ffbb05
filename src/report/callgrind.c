/*
 * The Callgrind profile format (version 1), read by callgrind_annotate and
 * KCachegrind.
 *
 * Positions are instruction addresses and source lines ("positions: instr
 * line"): with the program's line table (tally_profile_lines_enable before
 * the snapshot) each function's "fl=" is the file of its first instruction
 * that has a line, an instruction from another file (inlined code) is
 * preceded by "fi=" (and "fe=" back), and its line is the line table's;
 * without one, "fl=???" and line 0. Events: Cycles,
 * Instructions, then the misses and stalls with a non-zero total (or every
 * signal with one, or a list: run->events), named as in
 * `tally signals` with '.' turned into '_' (the long names go on "event:"
 * lines); the markers are left out (level signals of the program, with no
 * instruction or calling context to charge: tally.h). For each function,
 * one cost line per instruction that has any cost: its exact self counts.
 * For each caller-to-callee arc and each of its call sites, a "cfn= /
 * calls=N target" pair and a call line at the site carrying the callee's
 * inclusive count of every event when called from there (the profile's
 * per-context counts). A tail call's site is the jump in the function it
 * replaced, so its call line may sit outside the caller's code. A
 * "totals:" line closes the file with the run's totals.
 *
 * Cycles outside any known function go to a function "[unknown]" at
 * position 0, so the self costs add up to the totals.
 */
#include <stdlib.h>
#include <string.h>

#include "export.h"

typedef struct events {
  int sig[64];
  int n;
} events;

static void event_name(FILE *f, int sig) {
  const char *name = tally_signal_name(sig);
  if (!strcmp(name, "cycle")) { fputs("Cycles", f); return; }
  if (!strcmp(name, "instret")) { fputs("Instructions", f); return; }
  for (const char *c = name; *c; c++)
    fputc(*c == '.' ? '_' : *c, f);
}

/* The header both Callgrind writers start with, up to the object line. */
void report_callgrind_header(FILE *f, const report_run *run, const char *note, const int *ev, int nev) {
  fprintf(f, "# callgrind format\nversion: 1\ncreator: tally\ncmd:");
  for (int i = 0; i < run->argc; i++)
    fprintf(f, " %s", run->argv[i]);
  if (run->argc == 0)
    fprintf(f, " %s", run->program);
  fprintf(f, "\ndesc: Core: %s at %.6g MHz\n", run->core, run->clock_hz / 1e6);
  fprintf(f, "desc: Run: %s\n", run->stop_detail ? run->stop_detail : run->stop);
  fprintf(f, "desc: %s\n", note);
  fprintf(f, "positions: instr line\n");
  for (int e = 0; e < nev; e++) {
    fprintf(f, "event: ");
    event_name(f, ev[e]);
    fprintf(f, " : %s\n", tally_signal_meaning(ev[e]));
  }
  fprintf(f, "events:");
  for (int e = 0; e < nev; e++) {
    fputc(' ', f);
    event_name(f, ev[e]);
  }
  fprintf(f, "\n\nob=%s\n", run->program);
}

static bool chosen(const events *ev, int s) {
  for (int i = 0; i < ev->n; i++)
    if (ev->sig[i] == s)
      return true;
  return false;
}

static void add_event(events *ev, int s) {
  if (s >= 0 && ev->n < 64 && !chosen(ev, s) && strncmp(tally_signal_name(s), "marker", 6) != 0)
    ev->sig[ev->n++] = s;
}

/* Cycles and instructions first, then the misses and stalls people look
 * for, each with a count; "all" adds every other signal with a count, and
 * a list names them (callgrind_annotate shows every event of the file:
 * 31 columns are unreadable). */
static void choose_events(const tally_profile *p, const char *want, events *ev) {
  static const char *const main_events[] = {"icache.miss", "dcache.read_miss", "dcache.write_miss",
                                            "branch.mispredict", "stall"};
  ev->n = 0;
  if (want && strcmp(want, "all") != 0) {
    for (const char *c = want; *c;) {
      size_t len = strcspn(c, ",");
      char name[64];
      snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), c);
      add_event(ev, tally_signal_lookup(name));
      c += len + (c[len] == ',');
    }
    if (ev->n)
      return;
  }
  add_event(ev, tally_signal_lookup("cycle"));
  add_event(ev, tally_signal_lookup("instret"));
  for (size_t i = 0; i < sizeof main_events / sizeof main_events[0]; i++) {
    int s = tally_signal_lookup(main_events[i]);
    if (s >= 0 && tally_profile_total(p, s))
      add_event(ev, s);
  }
  if (want && strcmp(want, "all") == 0)
    for (int s = 0; s < tally_signal_count(); s++)
      if (tally_profile_total(p, s))
        add_event(ev, s);
}

/* Where pc's source is: its file and line, or (`fallback`, 0) without one. */
static const char *source_of(const tally_profile *p, uint32_t pc, const char *fallback, uint32_t *line) {
  const char *file;
  if (tally_profile_source_at(p, pc, &file, line))
    return file;
  *line = 0;
  return fallback;
}

/* A function's file: that of its first instruction with a line. */
static const char *function_file(const tally_profile *p, const tally_func_profile *fn) {
  uint32_t line;
  for (uint32_t pc = fn->lo; pc < fn->hi; pc += 2) {
    const char *file = source_of(p, pc, NULL, &line);
    if (file)
      return file;
  }
  return "???";
}

/* Switches the current file to pc's ("fi=" / "fe=") when they differ, and
 * returns pc's line. */
static uint32_t position(FILE *f, const tally_profile *p, uint32_t pc, const char *fn_file, const char **cur) {
  uint32_t line;
  const char *file = source_of(p, pc, *cur, &line);
  if (strcmp(file, *cur) != 0) {
    fprintf(f, "%s=%s\n", strcmp(file, fn_file) ? "fi" : "fe", file);
    *cur = file;
  }
  return line;
}

/* "(id) name" the first time a function is named, "(id)" after. */
static void fn_ref(FILE *f, const char *key, int id, const char *name, unsigned char *named) {
  if (named[id])
    fprintf(f, "%s=(%d)\n", key, id + 1);
  else
    fprintf(f, "%s=(%d) %s\n", key, id + 1, name);
  named[id] = 1;
}

int report_write_callgrind(const tally_profile *p, const report_run *run, FILE *f) {
  const tally_task_profile *tasks;
  if (tally_profile_tasks(p, &tasks))
    return report_write_callgrind_tasks(p, run, f);
  events ev;
  choose_events(p, run->events, &ev);
  const tally_func_profile *fn;
  size_t n = tally_profile_functions(p, &fn);
  const tally_arc *arcs;
  size_t narcs = tally_profile_arcs(p, &arcs);
  /* one extra id for "[unknown]" when the profile has no such bucket */
  unsigned char *named = calloc(n + 1, 1);
  if (!named)
    return -1;
  int unknown = (int)n;
  for (size_t k = 0; k < n; k++)
    if (fn[k].hi <= fn[k].lo)
      unknown = (int)k;

  report_callgrind_header(f, run, "Inclusive: call lines carry every event, counted exactly per calling context",
                          ev.sig, ev.n);

  for (size_t k = 0; k <= n; k++) {
    int id = (int)k;
    bool is_unknown = id == unknown;
    if (k == n && unknown != (int)n)
      break; /* "[unknown]" was one of the functions */
    bool has_arcs = false;
    for (size_t a = 0; a < narcs; a++)
      if (arcs[a].caller == id || (is_unknown && arcs[a].caller < 0))
        has_arcs = true;
    bool has_self = false;
    if (k < n)
      for (int s = 0; s < tally_signal_count(); s++)
        has_self |= fn[k].self[s] != 0;
    if (!has_self && !has_arcs)
      continue;
    const char *fn_file = is_unknown ? "???" : function_file(p, &fn[k]), *cur = fn_file;
    fprintf(f, "\nfl=%s\n", fn_file);
    fn_ref(f, "fn", id, k < n ? fn[k].name : "[unknown]", named);
    if (is_unknown) {
      if (k < n) {
        fprintf(f, "0 0");
        for (int e = 0; e < ev.n; e++)
          fprintf(f, " %llu", (unsigned long long)fn[k].self[ev.sig[e]]);
        fprintf(f, "\n");
      }
    } else {
      for (uint32_t pc = fn[k].lo; pc < fn[k].hi; pc += 2) {
        uint64_t v[64];
        bool any = false;
        for (int e = 0; e < ev.n; e++)
          any |= (v[e] = report_at(p, pc, ev.sig[e])) != 0;
        if (!any)
          continue;
        uint32_t line = position(f, p, pc, fn_file, &cur);
        fprintf(f, "0x%x %u", pc, line);
        for (int e = 0; e < ev.n; e++)
          fprintf(f, " %llu", (unsigned long long)v[e]);
        fprintf(f, "\n");
      }
    }
    for (size_t a = 0; a < narcs; a++) {
      if (!(arcs[a].caller == id || (is_unknown && arcs[a].caller < 0)) || !arcs[a].calls)
        continue;
      int callee = arcs[a].callee >= 0 ? arcs[a].callee : unknown;
      uint32_t target = callee < (int)n ? fn[callee].lo : 0;
      /* one call line per site; an arc without sites at the caller's entry */
      tally_call_site whole = {is_unknown ? 0 : fn[k].lo, arcs[a].calls, arcs[a].inclusive_cycles,
                               arcs[a].inclusive};
      const tally_call_site *sites = arcs[a].nsites ? arcs[a].sites : &whole;
      for (size_t i = 0; i < (arcs[a].nsites ? arcs[a].nsites : 1); i++) {
        uint32_t line = is_unknown ? 0 : position(f, p, sites[i].pc, fn_file, &cur);
        fprintf(f, "cfi=%s\n", callee < (int)n && fn[callee].hi > fn[callee].lo ? function_file(p, &fn[callee]) : "???");
        fn_ref(f, "cfn", callee, callee < (int)n ? fn[callee].name : "[unknown]", named);
        uint32_t target_line = 0;
        if (callee < (int)n)
          source_of(p, target, NULL, &target_line);
        fprintf(f, "calls=%llu 0x%x %u\n", (unsigned long long)sites[i].calls, target, target_line);
        fprintf(f, "0x%x %u", sites[i].pc, line);
        for (int e = 0; e < ev.n; e++)
          fprintf(f, " %llu", (unsigned long long)sites[i].inclusive[ev.sig[e]]);
        fprintf(f, "\n");
      }
    }
  }
  fprintf(f, "\ntotals:");
  for (int e = 0; e < ev.n; e++)
    fprintf(f, " %llu", (unsigned long long)tally_profile_total(p, ev.sig[e]));
  fprintf(f, "\n");
  free(named);
  return ferror(f) ? -1 : 0;
}
