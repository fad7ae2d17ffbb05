/*
 * The exact profile as the page draws it, from a snapshot (public API):
 * the flat table (each function's own counts of a few signals, calls,
 * inclusive cycles), the arcs of the call graph, every distinct call stack
 * with its own cycles (the flame graph), every call at its exact cycles
 * (the timeline, as `tally run --perfetto` has it), and the annotated disassembly of
 * every function that ran, with source lines when the ELF has them.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tally/lines.h"
#include "worker.h"

#define MAX_CODE_ROWS 200000  /* annotated instructions in one profile */

static const char *const shown[] = {"cycle", "instret", "icache.miss", "dcache.read_miss", "dcache.write_miss",
                                    "stall", "branch.mispredict", "call"};
#define NSHOWN (sizeof shown / sizeof shown[0])

static json_t *functions(const tally_profile *p, const int *sig) {
  const tally_func_profile *f;
  size_t n = tally_profile_functions(p, &f);
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++) {
    json_t *self = json_array();
    for (size_t k = 0; k < NSHOWN; k++)
      json_array_append_new(self, json_integer(sig[k] >= 0 ? (json_int_t)f[i].self[sig[k]] : 0));
    json_array_append_new(a, json_pack("{s:s,s:I,s:I,s:I,s:I,s:o,s:b}", "name", f[i].name, "lo",
                                       (json_int_t)f[i].lo, "hi", (json_int_t)f[i].hi, "calls",
                                       (json_int_t)f[i].calls, "incl", (json_int_t)f[i].inclusive_cycles, "self",
                                       self, "handler", f[i].is_handler));
  }
  return a;
}

static json_t *arcs(const tally_profile *p) {
  const tally_arc *a;
  size_t n = tally_profile_arcs(p, &a);
  json_t *j = json_array();
  for (size_t i = 0; i < n; i++)
    json_array_append_new(j, json_pack("[i,i,I,I]", a[i].caller, a[i].callee, (json_int_t)a[i].calls,
                                       (json_int_t)a[i].inclusive_cycles));
  return j;
}

static void one_stack(void *ctx, const char *const *names, size_t depth, uint64_t cycles) {
  json_t *s = json_array();
  for (size_t i = 0; i < depth; i++)
    json_array_append_new(s, json_string(names[i]));
  json_array_append_new(ctx, json_pack("[o,I]", s, (json_int_t)cycles));
}

/* One source file's lines, when its real path lies in root; NULL otherwise. */
static json_t *read_source(const char *file, const char *root) {
  char real[PATH_MAX];
  size_t n = strlen(root);
  if (!realpath(file, real) || strncmp(real, root, n) != 0 || (real[n] != '/' && !(n == 1 && root[0] == '/')))
    return NULL;
  struct stat st;
  FILE *f = fopen(real, "rb");
  if (!f)
    return NULL;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)WORKER_SOURCE_BYTES) {
    fclose(f);
    return NULL;
  }
  char *buf = malloc((size_t)st.st_size + 1);
  size_t got = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
  fclose(f);
  if (!buf)
    return NULL;
  buf[got] = 0;
  json_t *lines = json_array();
  char *line = buf;
  for (size_t i = 0; i <= got; i++) {
    if (i < got && buf[i] != '\n')
      continue;
    buf[i] = 0;
    for (char *c = line; *c; c++)
      if (*c == '\r' || (*c != '\t' && ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)))
        *c = *c == '\r' ? ' ' : '?';
    if (i < got || *line)
      json_array_append_new(lines, json_string(line));
    line = buf + i + 1;
  }
  free(buf);
  return lines;
}

json_t *worker_read_sources(const tally_sim *sim, const tally_line_table *lt, const char *root) {
  json_t *files = json_object();
  size_t read = 0;
  tally_function f;
  for (size_t i = 0; tally_function_at(sim, i, &f) == 0; i++) {
    for (uint32_t pc = f.lo; pc < f.hi; pc += 2) {
      const char *file;
      uint32_t line;
      if (!tally_line_at(lt, pc, &file, &line) || json_object_get(files, file))
        continue;
      json_t *text = read < WORKER_SOURCE_FILES ? read_source(file, root) : NULL;
      read += text != NULL;
      json_object_set_new(files, file, text ? text : json_null());
    }
  }
  return files;
}

static uint64_t at(const tally_profile *p, uint32_t pc, int sig) {
  return sig >= 0 ? tally_profile_at(p, pc, sig) : 0;
}

/* Annotated code of the functions that ran, per instruction: [pc, text,
 * cycles, retired, line, i-cache misses, d-cache misses (read + write),
 * stall cycles], and with the source files' text (sources) the file as
 * the line table names it and the line number. sig: the shown signals'
 * numbers (cycle, instret, icache.miss, dcache.read_miss,
 * dcache.write_miss, stall, ...). */
static json_t *code(tally_sim *sim, const tally_profile *p, const tally_line_table *lt, const int *sig,
                    bool sources) {
  const tally_func_profile *f;
  size_t n = tally_profile_functions(p, &f), rows = 0;
  json_t *all = json_object();
  for (size_t i = 0; i < n && rows < MAX_CODE_ROWS; i++) {
    if (f[i].self[0] == 0 || f[i].hi <= f[i].lo)
      continue;
    json_t *a = json_array();
    char text[96];
    for (uint32_t pc = f[i].lo; pc < f[i].hi && rows < MAX_CODE_ROWS; rows++) {
      int len = tally_disasm_at(sim, pc, text, sizeof text);
      if (len == 0)
        break;
      const char *file = NULL;
      uint32_t line = 0;
      char where[300] = "";
      if (lt && tally_line_at(lt, pc, &file, &line)) {
        const char *base = strrchr(file, '/');
        snprintf(where, sizeof where, "%s:%u", base ? base + 1 : file, line);
      }
      json_array_append_new(a, json_pack("[I,s,I,I,s,I,I,I]", (json_int_t)pc, text,
                                         (json_int_t)tally_profile_at(p, pc, 0), (json_int_t)at(p, pc, sig[1]), where,
                                         (json_int_t)at(p, pc, sig[2]),
                                         (json_int_t)(at(p, pc, sig[3]) + at(p, pc, sig[4])),
                                         (json_int_t)at(p, pc, sig[5])));
      if (sources) {
        json_t *row = json_array_get(a, json_array_size(a) - 1);
        json_array_append_new(row, json_string(file && where[0] ? file : ""));
        json_array_append_new(row, json_integer(where[0] ? line : 0));
      }
      pc += (uint32_t)len;
    }
    json_object_set_new(all, f[i].name, a);
  }
  return all;
}

/* The timeline: [function index, begin cycle, end cycle, depth] per call. */
static json_t *slices(const tally_profile *p, uint64_t *cut) {
  const tally_slice *s;
  size_t n = tally_profile_slices(p, &s, cut);
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++)
    json_array_append_new(a, json_pack("[i,I,I,i]", s[i].func, (json_int_t)s[i].begin, (json_int_t)s[i].end,
                                       (int)s[i].depth));
  return a;
}

int worker_write_profile(tally_sim *sim, const tally_profile *p, const tally_line_table *lt, json_t *sources,
                         FILE *f) {
  int sig[NSHOWN];
  json_t *names = json_array();
  for (size_t k = 0; k < NSHOWN; k++) {
    sig[k] = tally_signal_lookup(shown[k]);
    json_array_append_new(names, json_pack("{s:s,s:s}", "signal", shown[k], "noun",
                                           sig[k] >= 0 ? tally_signal_noun(sig[k]) : shown[k]));
  }
  json_t *stacks = json_array();
  tally_profile_stacks(p, one_stack, stacks);
  json_t *j = json_pack("{s:I,s:o,s:o,s:o,s:o,s:o,s:b}", "total_cycles", (json_int_t)tally_profile_total(p, 0),
                        "signals", names, "functions", functions(p, sig), "arcs", arcs(p), "stacks", stacks,
                        "code", code(sim, p, lt, sig, sources != NULL), "lines",
                        lt && tally_line_table_rows(lt) > 0);
  uint64_t cut = 0;
  json_object_set_new(j, "slices", slices(p, &cut));
  json_object_set_new(j, "slices_cut", json_integer((json_int_t)cut));
  if (sources)
    json_object_set(j, "sources", sources);
  int rc = json_dumpf(j, f, JSON_COMPACT);
  json_decref(j);
  return rc;
}
