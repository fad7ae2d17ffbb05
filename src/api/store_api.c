/*
 * include/tally/store.h: stored runs, over the store's own read API
 * (src/store/store_read.h). The public structs are the store's views with
 * public names; they are moved field by field so that either side can grow.
 */
#include <stdlib.h>
#include <string.h>

#include "../store/store_read.h"
#include "api_internal.h"
#include "tally/store.h"

const char *tally_store_default_path(void) { return store_default_path(); }

const char *tally_store_status_name(tally_store_status s) { return store_status_name((store_run_status)s); }

static int fail(tally_error *err, const tally_store *s, const char *what) {
  api_error(err, "%s%s%s", what ? what : "", what ? ": " : "", s ? store_error(s->st) : "");
  return -1;
}

tally_store *tally_store_open(const char *path, bool create, tally_error *err) {
  char e[512];
  if (!path)
    path = store_default_path();
  tally_store *s = calloc(1, sizeof *s);
  if (!s) {
    api_error(err, "out of memory");
    return NULL;
  }
  s->st = create ? store_open(path, e, sizeof e) : store_open_existing(path, e, sizeof e);
  if (!s->st) {
    api_fail(err, create ? TALLY_E_CREATE : TALLY_E_INPUT, "%s", e);
    free(s);
    return NULL;
  }
  s->owned = true;
  return s;
}

void tally_store_close(tally_store *s) {
  if (!s)
    return;
  if (s->owned)
    store_close(s->st);
  free(s);
}

static void run_from_view(tally_store_run *r, store_run_view *v) {
  *r = (tally_store_run){.run_id = v->run_id, .program = v->program, .core = v->core, .counters = v->counters,
                         .width = v->width, .arrs = v->arrs, .period = v->period, .freq_mhz = v->freq_mhz,
                         .started = v->started, .finished = v->finished, .status = (tally_store_status)v->status,
                         .note = v->note, .has_intervals_sent = v->has_intervals_sent,
                         .intervals_sent = v->intervals_sent, .received = v->received, .duplicates = v->duplicates,
                         .intervals = v->intervals};
  *v = (store_run_view){0}; /* the strings moved */
}

int tally_store_list(tally_store *s, tally_store_run **runs, size_t *n, tally_error *err) {
  store_run_view *v;
  size_t nv;
  *runs = NULL;
  *n = 0;
  if (store_list_runs(s->st, &v, &nv) != 0)
    return fail(err, s, NULL);
  tally_store_run *out = calloc(nv ? nv : 1, sizeof *out);
  if (!out) {
    store_runs_free(v, nv);
    api_error(err, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < nv; i++)
    run_from_view(&out[i], &v[i]);
  store_runs_free(v, nv);
  *runs = out;
  *n = nv;
  return 0;
}

void tally_store_run_clear(tally_store_run *run) {
  if (!run)
    return;
  free(run->program);
  free(run->core);
  free(run->started);
  free(run->finished);
  free(run->note);
  *run = (tally_store_run){0};
}

void tally_store_list_free(tally_store_run *runs, size_t n) {
  for (size_t i = 0; runs && i < n; i++)
    tally_store_run_clear(&runs[i]);
  free(runs);
}

int tally_store_get_run(tally_store *s, uint64_t run_id, tally_store_run *run, tally_error *err) {
  store_run_view v = {0};
  *run = (tally_store_run){0};
  int rc = store_get_run(s->st, run_id, &v);
  if (rc < 0)
    return fail(err, s, NULL);
  if (rc == 1)
    run_from_view(run, &v);
  store_run_view_clear(&v);
  return rc;
}

int tally_store_latest(tally_store *s, uint64_t *run_id, tally_error *err) {
  int rc = store_latest_run(s->st, run_id);
  return rc < 0 ? fail(err, s, NULL) : rc;
}

int tally_store_delete(tally_store *s, uint64_t run_id, tally_error *err) {
  int rc = store_delete_run(s->st, run_id);
  return rc < 0 ? fail(err, s, NULL) : rc;
}

int tally_store_counters(tally_store *s, uint64_t run_id, tally_store_counter **c, size_t *n, tally_error *err) {
  store_counter_view *v;
  size_t nv;
  *c = NULL;
  *n = 0;
  if (store_get_counters(s->st, run_id, &v, &nv) != 0)
    return fail(err, s, NULL);
  tally_store_counter *out = calloc(nv ? nv : 1, sizeof *out);
  if (!out) {
    store_counters_free(v, nv);
    api_error(err, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < nv; i++) {
    out[i] = (tally_store_counter){.index = v[i].index, .signal = v[i].signal, .anywhere = v[i].anywhere,
                                   .lo = v[i].lo, .hi = v[i].hi, .where = v[i].where, .label = v[i].label,
                                   .enabled = v[i].enabled, .task = v[i].task};
    v[i].signal = v[i].where = v[i].label = NULL;
  }
  store_counters_free(v, nv);
  *c = out;
  *n = nv;
  return 0;
}

void tally_store_counters_free(tally_store_counter *c, size_t n) {
  for (size_t i = 0; c && i < n; i++) {
    free(c[i].signal);
    free(c[i].where);
    free(c[i].label);
  }
  free(c);
}

typedef struct walk {
  int (*fn)(void *ctx, const tally_store_interval *iv);
  void *ctx;
} walk;

static int each(void *ctx, const store_interval_view *iv) {
  walk *w = ctx;
  tally_store_interval t = {.index = iv->index, .cycle_begin = iv->cycle_begin, .cycle_end = iv->cycle_end,
                            .n = iv->n, .values = iv->values, .saturated = iv->saturated, .present = iv->present,
                            .whole = iv->whole};
  return w->fn(w->ctx, &t);
}

int tally_store_each_interval(tally_store *s, uint64_t run_id, int (*fn)(void *ctx, const tally_store_interval *iv),
                              void *ctx, tally_error *err) {
  walk w = {fn, ctx};
  int rc = store_each_interval(s->st, run_id, each, &w);
  return rc < 0 ? fail(err, s, NULL) : rc;
}

int tally_store_get_totals(tally_store *s, uint64_t run_id, tally_store_totals *t, tally_error *err) {
  store_totals_view v = {0};
  *t = (tally_store_totals){0};
  if (store_get_totals(s->st, run_id, &v) != 0) {
    store_totals_clear(&v);
    return fail(err, s, NULL);
  }
  *t = (tally_store_totals){.n = v.n, .stored = v.stored, .saturated = v.saturated, .has_board = v.has_board,
                            .nboard = v.nboard, .board = v.board, .intervals_whole = v.intervals_whole,
                            .intervals_partial = v.intervals_partial, .overlaps = v.overlaps, .missing = v.missing,
                            .first_missing = v.first_missing, .beyond = v.beyond, .whole = v.whole};
  return 0;
}

void tally_store_totals_clear(tally_store_totals *t) {
  if (!t)
    return;
  free(t->stored);
  free(t->saturated);
  free(t->board);
  *t = (tally_store_totals){0};
}
