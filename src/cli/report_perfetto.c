/*
 * tally report RUN --perfetto FILE: a stored run's intervals as counter
 * tracks for Perfetto or chrome://tracing (tally_perfetto_*,
 * include/tally/export.h), one track per counter, named with its plain
 * words as `tally report` prints them. A stored run has no profile: the
 * call slices come only from `tally run --perfetto`.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report_perfetto.h"
#include "tally/export.h"

typedef struct walk {
  tally_perfetto *w;
  const char **labels;
  size_t n;
} walk;

/* The counters present in the interval (a run that is not whole may lack
 * some): a sample each. */
static int one_interval(void *ctx, const tally_store_interval *iv) {
  walk *k = ctx;
  for (uint32_t i = 0; i < iv->n && i < k->n; i++)
    if (iv->present[i] && k->labels[i])
      tally_perfetto_interval(k->w, iv->cycle_begin, 1, &iv->values[i], &k->labels[i]);
  return 0;
}

static int write_run(tally_store *s, uint64_t run_id, FILE *f, tally_error *err) {
  tally_store_run run;
  int found = tally_store_get_run(s, run_id, &run, err);
  if (found <= 0) {
    if (found == 0)
      snprintf(err->msg, sizeof err->msg, "no run %llu in the store", (unsigned long long)run_id);
    return -1;
  }
  tally_store_counter *c = NULL;
  size_t n = 0;
  walk k = {0};
  int rc = tally_store_counters(s, run_id, &c, &n, err);
  size_t slots = 0;
  for (size_t i = 0; rc == 0 && i < n; i++)
    if (c[i].index + 1 > slots)
      slots = c[i].index + 1;
  k.labels = rc == 0 ? calloc(slots ? slots : 1, sizeof *k.labels) : NULL;
  if (rc == 0 && k.labels) {
    k.n = slots;
    for (size_t i = 0; i < n; i++) /* the enabled counters: those the run counted with */
      if (c[i].enabled)
        k.labels[c[i].index] = c[i].label ? c[i].label : c[i].signal;
    tally_run_info info = {.program = run.program, .core = run.core, .clock_hz = run.freq_mhz * 1e6};
    k.w = tally_perfetto_begin(f, &info, err);
    rc = k.w ? tally_store_each_interval(s, run_id, one_interval, &k, err) : -1;
    if (k.w && tally_perfetto_end(k.w, err) != 0)
      rc = -1;
  } else if (rc == 0) {
    snprintf(err->msg, sizeof err->msg, "out of memory");
    rc = -1;
  }
  free(k.labels);
  tally_store_counters_free(c, n);
  tally_store_run_clear(&run);
  return rc;
}

int report_perfetto(tally_store *s, uint64_t run_id, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "tally report: --perfetto %s: cannot create: %s\n", path, strerror(errno));
    return EXIT_CANTCREAT;
  }
  tally_error err;
  int rc = write_run(s, run_id, f, &err);
  if (fclose(f) != 0 && rc == 0) {
    fprintf(stderr, "tally report: --perfetto %s: cannot write: %s\n", path, strerror(errno));
    return EXIT_INTERNAL;
  }
  if (rc != 0) {
    fprintf(stderr, "tally report: --perfetto %s: %s\n", path, err.msg);
    return EXIT_NOINPUT;
  }
  tally_store_totals t = {0};
  if (tally_store_get_totals(s, run_id, &t, &err) == 0 && !t.whole) {
    fprintf(stderr, "tally report: run %llu is not whole: %s holds the intervals stored\n",
            (unsigned long long)run_id, path);
    rc = 2;
  }
  tally_store_totals_clear(&t);
  return rc;
}
