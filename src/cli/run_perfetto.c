/*
 * tally run --perfetto FILE: the run as a timeline for ui.perfetto.dev or
 * chrome://tracing (tally_perfetto_*, include/tally/export.h). The exact
 * profile's timeline gives every call as a slice at its exact cycles; the
 * statistics module's intervals (--count) become counter tracks as they
 * are dispatched. Neither changes a cycle. docs/tally-trace.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "run_perfetto.h"
#include "tally/export.h"

struct perfetto_run {
  tally_sim *sim;
  const char *path;
  FILE *f;
  tally_perfetto *w;
  tally_measure *m;
  const char **labels;   /* the module's events, in its order */
  uint32_t nlabels;
};

/* The module's event labels (with --control they are known only once its
 * configuration came: looked up again when there are more). */
static void load_labels(perfetto_run *r, uint32_t n) {
  const char **v = realloc(r->labels, (n ? n : 1) * sizeof *v);
  if (!v)
    return;
  r->labels = v;
  r->nlabels = n;
  for (uint32_t i = 0; i < n; i++)
    r->labels[i] = tally_measure_event(r->m, i)->label;
}

static void on_interval(void *ctx, const tally_interval *iv) {
  perfetto_run *r = ctx;
  if (iv->n > r->nlabels)
    load_labels(r, tally_measure_events(r->m));
  if (!iv->final)
    tally_perfetto_interval(r->w, iv->cycle_begin, iv->n < r->nlabels ? iv->n : r->nlabels, iv->values, r->labels);
}

static void discard(perfetto_run *r) {
  if (r->f)
    fclose(r->f);
  free(r->labels);
  free(r);
}

/* The module's intervals from now on. */
static int follow_module(perfetto_run *r, tally_measure *m) {
  r->m = m;
  load_labels(r, tally_measure_events(m));
  if (!r->labels)
    return -1;
  tally_error err;
  return tally_measure_on_interval(m, on_interval, r, &err);
}

perfetto_run *perfetto_start(tally_sim *sim, const char *path, uint64_t max_calls, tally_measure *m,
                             const char *program, int *status) {
  tally_error err;
  *status = EXIT_INTERNAL;
  if (tally_profile_timeline_enable(sim, max_calls, &err) != 0) {
    fprintf(stderr, "tally run: --perfetto: %s\n", err.msg);
    return NULL;
  }
  perfetto_run *r = calloc(1, sizeof *r);
  if (!r) {
    fprintf(stderr, "tally run: --perfetto: out of memory\n");
    return NULL;
  }
  r->sim = sim;
  r->path = path;
  if (!(r->f = fopen(path, "w"))) {
    fprintf(stderr, "tally run: --perfetto %s: cannot create: %s\n", path, strerror(errno));
    *status = EXIT_CANTCREAT;
    discard(r);
    return NULL;
  }
  tally_run_info info;
  tally_run_info_from(sim, TALLY_STOP_LIMIT, 0, &info);
  info.program = program;
  if (!(r->w = tally_perfetto_begin(r->f, &info, &err)) || (m && follow_module(r, m) != 0)) {
    fprintf(stderr, "tally run: --perfetto: out of memory\n");
    tally_perfetto_end(r->w, &err);
    discard(r);
    return NULL;
  }
  return r;
}

int perfetto_finish(perfetto_run *r) {
  if (!r)
    return 0;
  int status = 0;
  tally_error err;
  tally_profile *p = tally_profile_take(r->sim);
  if (p) {
    uint64_t cut;
    const tally_slice *s;
    tally_profile_slices(p, &s, &cut);
    if (cut)
      fprintf(stderr, "tally run: --perfetto: the calls after cycle %llu are not in %s (--perfetto-calls bounds them)\n",
              (unsigned long long)cut, r->path);
    tally_perfetto_slices(r->w, p);
    tally_profile_free(p);
  } else {
    fprintf(stderr, "tally run: --perfetto: out of memory for the call slices\n");
    status = EXIT_INTERNAL;
  }
  if (tally_perfetto_end(r->w, &err) != 0) {
    fprintf(stderr, "tally run: --perfetto %s: %s\n", r->path, err.msg);
    status = EXIT_INTERNAL;
  }
  if (fclose(r->f) != 0 && !status) {
    fprintf(stderr, "tally run: --perfetto %s: cannot write: %s\n", r->path, strerror(errno));
    status = EXIT_INTERNAL;
  }
  r->f = NULL;
  discard(r);
  return status;
}
