/*
 * The worker's other job: checking an upload (`"check": true` in its
 * job.json). It loads the program as a run will and prints one JSON line:
 * {"functions": [{name, lo, hi, size, file, section}], "warnings": [...]}
 * (source files from the ELF's DWARF lines; for a .bin, what its .map says
 * that the .bin contradicts: a symbol past the .bin's end, a function whose
 * bytes do not decode as instructions), or {"msg": why it cannot be run}.
 * Done in a child
 * so that a file crafted to crash the loader only ends the child.
 */
#include <stdio.h>
#include <string.h>

#include "tally/lines.h"
#include "worker.h"

static json_t *functions(tally_sim *sim, const char *elf, tally_error *err) {
  tally_line_table *lt = elf ? tally_line_table_read(elf, err) : NULL;
  if (elf && !lt)
    return NULL;
  json_t *a = json_array();
  tally_function f;
  for (size_t i = 0; tally_function_at(sim, i, &f) == 0; i++) {
    const char *file = lt ? tally_line_file_in(lt, f.lo, f.hi) : NULL;
    json_array_append_new(a, json_pack("{s:s,s:I,s:I,s:I,s:s?,s:s?}", "name", f.name, "lo", (json_int_t)f.lo,
                                       "hi", (json_int_t)f.hi, "size", (json_int_t)(f.hi - f.lo), "file", file,
                                       "section", f.section));
  }
  tally_line_table_free(lt);
  return a;
}

#define MAX_WARNINGS 8 /* named one by one; then how many more */

/* A .bin at [lo, hi) against the functions its .map names. */
static json_t *map_warnings(tally_sim *sim, uint32_t lo, uint64_t hi) {
  json_t *w = json_array();
  size_t past = 0, notcode = 0;
  char msg[300], text[96];
  tally_function f;
  for (size_t i = 0; tally_function_at(sim, i, &f) == 0; i++) {
    if (f.lo < lo || f.hi > hi) {
      if (past++ < MAX_WARNINGS)
        snprintf(msg, sizeof msg, "%s (0x%08x-0x%08x) lies %s the .bin (0x%08x-0x%08llx)", f.name, f.lo, f.hi,
                 f.lo < lo ? "before the start of" : "past the end of", lo, (unsigned long long)hi),
            json_array_append_new(w, json_string(msg));
      continue;
    }
    if (f.section && !strstr(f.section, "text"))
      continue;
    uint32_t bad = 0, n = 0;
    for (uint32_t pc = f.lo; pc < f.hi; n++) {
      int len = tally_disasm_at(sim, pc, text, sizeof text);
      if (len == 0)
        break;
      if (text[0] == '.')  /* .word / .half: no instruction */
        bad++;
      pc += (uint32_t)len;
    }
    if (2 * bad > n && notcode++ < MAX_WARNINGS) /* most of it: data, not code (a hint or two is fine) */
      snprintf(msg, sizeof msg, "%s (0x%08x-0x%08x): %u of its %u instructions do not decode: not code", f.name, f.lo, f.hi,
               bad, n), json_array_append_new(w, json_string(msg));
  }
  if (past > MAX_WARNINGS)
    snprintf(msg, sizeof msg, "%zu more symbols outside the .bin", past - MAX_WARNINGS),
        json_array_append_new(w, json_string(msg));
  if (notcode > MAX_WARNINGS)
    snprintf(msg, sizeof msg, "%zu more functions whose bytes do not decode", notcode - MAX_WARNINGS),
        json_array_append_new(w, json_string(msg));
  return w;
}

int worker_check(tally_sim *sim, int loaded, const char *elf, bool raw, uint32_t bin_lo, uint64_t bin_hi,
                 tally_error *err) {
  json_t *funcs = loaded == 0 ? functions(sim, elf, err) : NULL;
  json_t *r = funcs ? json_pack("{s:o}", "functions", funcs) : json_pack("{s:s}", "msg", err->msg);
  if (funcs && raw)
    json_object_set_new(r, "warnings", map_warnings(sim, bin_lo, bin_hi));
  json_dumpf(r, stdout, JSON_COMPACT);
  fputc('\n', stdout);
  fflush(stdout);
  json_decref(r);
  return funcs ? 0 : 65;
}
