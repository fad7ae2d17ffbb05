/*
 * speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * one "sampled" profile whose samples are the distinct call stacks of the
 * run (root first, as frame indexes) and whose weights are their exact self
 * cycles, unit "none" (cycles). The weights add up to the total cycles, so
 * speedscope's left-heavy and sandwich views show exact inclusive and self
 * cycles per function.
 */
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "json.h"

typedef struct frames {
  const char **names;
  size_t n, cap;
  FILE *f;
  bool first, failed;
} frames;

static long frame_of(frames *fr, const char *name) {
  for (size_t i = 0; i < fr->n; i++)
    if (fr->names[i] == name || !strcmp(fr->names[i], name))
      return (long)i;
  if (fr->n == fr->cap) {
    size_t cap = fr->cap ? 2 * fr->cap : 64;
    const char **v = realloc(fr->names, cap * sizeof *v);
    if (!v) {
      fr->failed = true;
      return -1;
    }
    fr->names = v;
    fr->cap = cap;
  }
  fr->names[fr->n] = name;
  return (long)fr->n++;
}

/* First pass: collect the frames. */
static void collect(void *ctx, const char *const *names, size_t depth, uint64_t cycles) {
  (void)cycles;
  for (size_t i = 0; i < depth; i++)
    frame_of(ctx, names[i]);
}

static void sample(void *ctx, const char *const *names, size_t depth, uint64_t cycles) {
  frames *fr = ctx;
  (void)cycles;
  fprintf(fr->f, "%s[", fr->first ? "" : ", ");
  fr->first = false;
  for (size_t i = 0; i < depth; i++)
    fprintf(fr->f, "%s%ld", i ? "," : "", frame_of(fr, names[i]));
  fputc(']', fr->f);
}

static void weight(void *ctx, const char *const *names, size_t depth, uint64_t cycles) {
  frames *fr = ctx;
  (void)names;
  (void)depth;
  fprintf(fr->f, "%s%llu", fr->first ? "" : ", ", (unsigned long long)cycles);
  fr->first = false;
}

int report_write_speedscope(const tally_profile *p, const report_run *run, FILE *f) {
  frames fr = {.f = f};
  tally_profile_stacks(p, collect, &fr);
  if (fr.failed) {
    free(fr.names);
    return -1;
  }
  uint64_t total = tally_profile_total(p, tally_signal_lookup("cycle"));
  fprintf(f, "{\n  \"$schema\": \"https://www.speedscope.app/file-format-schema.json\",\n  \"exporter\": \"tally\",\n"
             "  \"name\": ");
  json_write_string(f, run->program);
  fprintf(f, ",\n  \"activeProfileIndex\": 0,\n  \"shared\": {\"frames\": [");
  for (size_t i = 0; i < fr.n; i++) {
    fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
    json_write_string(f, fr.names[i]);
    fputc('}', f);
  }
  fprintf(f, "\n  ]},\n  \"profiles\": [{\n    \"type\": \"sampled\",\n    \"name\": ");
  char title[512];
  snprintf(title, sizeof title, "%s on %s: cycles", run->program, run->core);
  json_write_string(f, title);
  fprintf(f, ",\n    \"unit\": \"none\",\n    \"startValue\": 0,\n    \"endValue\": %llu,\n    \"samples\": [",
          (unsigned long long)total);
  fr.first = true;
  tally_profile_stacks(p, sample, &fr);
  fprintf(f, "],\n    \"weights\": [");
  fr.first = true;
  tally_profile_stacks(p, weight, &fr);
  fprintf(f, "]\n  }]\n}\n");
  free(fr.names);
  return ferror(f) || fr.failed ? -1 : 0;
}
