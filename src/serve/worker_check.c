/*
 * The worker's other job: checking an upload (`"check": true` in its
 * job.json). It loads the program as a run will and prints one JSON line:
 * {"functions": [{name, lo, hi, size, file, section}]} (source files from
 * the ELF's DWARF lines), or {"msg": why it cannot be run}. Done in a child
 * so that a file crafted to crash the loader only ends the child.
 */
#include <stdio.h>

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

int worker_check(tally_sim *sim, int loaded, const char *elf, tally_error *err) {
  json_t *funcs = loaded == 0 ? functions(sim, elf, err) : NULL;
  json_t *r = funcs ? json_pack("{s:o}", "functions", funcs) : json_pack("{s:s}", "msg", err->msg);
  json_dumpf(r, stdout, JSON_COMPACT);
  fputc('\n', stdout);
  fflush(stdout);
  json_decref(r);
  return funcs ? 0 : 65;
}
