/*
 * One stored run as a table, CSV or JSON (run_export.h; `tally report RUN`,
 * tally_export_run). Everything written comes from the store's read API;
 * whether the run is whole is the store's judgement (store_get_totals),
 * and a run that is not is never written as if it were.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../store/store_read.h"
#include "csv.h"
#include "json.h"
#include "run_export.h"
#include "tally/tally.h"

typedef struct shown_counter {
  uint32_t index;
  char label[200];                 /* plain words */
  char key[160];                   /* signal @ where */
} shown_counter;

typedef struct run_data {
  store_run_view run;
  store_counter_view *counters;
  size_t ncounters;
  store_totals_view t;
  shown_counter *shown;
  uint32_t nshown;
  char banner[900];                /* "" when the run is whole */
  FILE *out;
  char *err;                       /* [RUN_EXPORT_ERR]: what went wrong */
} run_data;

static void run_data_free(run_data *d) {
  store_run_view_clear(&d->run);
  store_counters_free(d->counters, d->ncounters);
  store_totals_clear(&d->t);
  free(d->shown);
}

static const store_counter_view *configured(const run_data *d, uint32_t index) {
  for (size_t i = 0; i < d->ncounters; i++)
    if (d->counters[i].index == index)
      return &d->counters[i];
  return NULL;
}

static void describe_counter(const run_data *d, uint32_t index, shown_counter *sc) {
  const store_counter_view *c = configured(d, index);
  sc->index = index;
  if (!c) {
    snprintf(sc->label, sizeof sc->label, "counter %u", index);
    snprintf(sc->key, sizeof sc->key, "(not configured)");
    return;
  }
  char range[40] = "";
  if (!c->anywhere)
    snprintf(range, sizeof range, "0x%08" PRIx32 "-0x%08" PRIx32, c->lo, c->hi);
  const char *where = c->where && *c->where ? c->where : c->anywhere ? "anywhere" : range;
  snprintf(sc->key, sizeof sc->key, "%s@%s%s%s%s", c->signal, where, !c->anywhere && strcmp(where, range) ? " (" : "",
           !c->anywhere && strcmp(where, range) ? range : "", !c->anywhere && strcmp(where, range) ? ")" : "");
  if (c->label && *c->label)
    snprintf(sc->label, sizeof sc->label, "%s", c->label);
  else
    snprintf(sc->label, sizeof sc->label, "%s in %s", c->signal, where);
  if (!c->enabled) {
    size_t len = strlen(sc->label);
    snprintf(sc->label + len, sizeof sc->label - len, " (disabled)");
  }
}

/* The counters worth a column: the enabled configured ones, and any other
 * that counted something; all of them if that leaves none. */
static int choose_shown(run_data *d) {
  uint32_t n = d->t.n;
  d->shown = calloc(n ? n : 1, sizeof *d->shown);
  if (!d->shown)
    return -1;
  for (int pass = 0; pass < 2 && d->nshown == 0; pass++)
    for (uint32_t i = 0; i < n; i++) {
      const store_counter_view *c = configured(d, i);
      bool counted = d->t.stored[i] || (d->t.has_board && d->t.board[i]);
      if (pass == 1 || (c && c->enabled) || counted)
        describe_counter(d, i, &d->shown[d->nshown++]);
    }
  return 0;
}

static void add(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t size, const char *fmt, ...) {
  size_t len = strlen(buf);
  if (len + 1 >= size)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + len, size - len, fmt, ap);
  va_end(ap);
}

/* What the stored data lacks, in words ("" if nothing). */
static void what_is_lacking(const run_data *d, char *buf, size_t size) {
  const store_totals_view *t = &d->t;
  char a[32], b[32];
  buf[0] = '\0';
  if (t->missing)
    add(buf, size, "%s%s intervals missing (the first is %s)", *buf ? "; " : "", tally_format_count(t->missing, a, sizeof a),
        tally_format_count(t->first_missing, b, sizeof b));
  if (t->intervals_partial)
    add(buf, size, "%s%s intervals lack some counters", *buf ? "; " : "", tally_format_count(t->intervals_partial, a, sizeof a));
  if (t->overlaps)
    add(buf, size, "%s%s counter values stored twice", *buf ? "; " : "", tally_format_count(t->overlaps, a, sizeof a));
  if (t->beyond)
    add(buf, size, "%s%s intervals past the board's count", *buf ? "; " : "", tally_format_count(t->beyond, a, sizeof a));
  if (t->has_board)
    for (uint32_t i = 0; i < t->n; i++)
      if (t->board[i] != t->stored[i]) {
        add(buf, size, "%scounter %u's stored sum %s differs from the board's total %s", *buf ? "; " : "", i,
            tally_format_count(t->stored[i], a, sizeof a), tally_format_count(t->board[i], b, sizeof b));
        break;
      }
}

static void make_banner(run_data *d) {
  d->banner[0] = '\0';
  if (d->t.whole)
    return;
  char lacking[400];
  what_is_lacking(d, lacking, sizeof lacking);
  switch (d->run.status) {
  case STORE_RUN_INCOMPLETE:
    snprintf(d->banner, sizeof d->banner, "INCOMPLETE: %s", d->run.note ? d->run.note : *lacking ? lacking : "the data could not be completed");
    break;
  case STORE_RUN_RUNNING:
    snprintf(d->banner, sizeof d->banner,
             "INCOMPLETE: not finished (still running, or the collector stopped before the final packet)%s%s",
             *lacking ? "; " : "", lacking);
    break;
  default:
    snprintf(d->banner, sizeof d->banner, "INCOMPLETE: marked complete, but %s",
             *lacking ? lacking : "the board's totals were not stored");
  }
}

static int load(store *s, const char *db, uint64_t run_id, run_data *d) {
  int found = store_get_run(s, run_id, &d->run);
  if (found == 0) {
    snprintf(d->err, RUN_EXPORT_ERR, "%s: no run 0x%016llx (plain 'tally report' lists the runs)", db ? db : "the store",
             (unsigned long long)run_id);
    return -1;
  }
  if (found < 0 || store_get_counters(s, run_id, &d->counters, &d->ncounters) < 0 ||
      store_get_totals(s, run_id, &d->t) < 0) {
    snprintf(d->err, RUN_EXPORT_ERR, "%s", store_error(s));
    return -1;
  }
  if (choose_shown(d) < 0) {
    snprintf(d->err, RUN_EXPORT_ERR, "out of memory");
    return -1;
  }
  make_banner(d);
  return 0;
}

/* ---- table ---- */

typedef struct table_ctx {
  const run_data *d;
  int wi, wc;                      /* widths: interval index, cycle numbers */
  int *wv;                         /* per shown counter */
  uint64_t next;                   /* the index expected next, for gap lines */
  bool any_saturated;
  uint64_t max_index, max_cycle;   /* found by the measuring walk */
} table_ctx;

static int measure_interval(void *ctx, const store_interval_view *iv) {
  table_ctx *tc = ctx;
  if (iv->index > tc->max_index)
    tc->max_index = iv->index;
  if (iv->cycle_end > tc->max_cycle)
    tc->max_cycle = iv->cycle_end;
  return 0;
}

static int width_of(uint64_t v) {
  char buf[32];
  return (int)strlen(tally_format_count(v, buf, sizeof buf));
}

static void gap_line(table_ctx *tc, uint64_t lo, uint64_t hi) {
  FILE *out = tc->d->out;
  char a[32], b[32];
  if (lo + 1 == hi)
    fprintf(out, "%*s  (interval %s missing)\n", tc->wi, "", tally_format_count(lo, a, sizeof a));
  else
    fprintf(out, "%*s  (intervals %s-%s missing)\n", tc->wi, "", tally_format_count(lo, a, sizeof a), tally_format_count(hi - 1, b, sizeof b));
}

static int table_interval(void *ctx, const store_interval_view *iv) {
  FILE *out = ((table_ctx *)ctx)->d->out;
  table_ctx *tc = ctx;
  char a[32], b[32], e[32], v[40];
  if (iv->index > tc->next)
    gap_line(tc, tc->next, iv->index);
  if (iv->index >= tc->next)
    tc->next = iv->index + 1;
  fprintf(out, "%*s  %*s  %*s", tc->wi, tally_format_count(iv->index, a, sizeof a), tc->wc, tally_format_count(iv->cycle_begin, b, sizeof b),
         tc->wc, tally_format_count(iv->cycle_end, e, sizeof e));
  for (uint32_t k = 0; k < tc->d->nshown; k++) {
    uint32_t c = tc->d->shown[k].index;
    if (!iv->present[c])
      snprintf(v, sizeof v, "-");
    else
      snprintf(v, sizeof v, "%s%s", tally_format_count(iv->values[c], a, sizeof a), iv->saturated[c] ? "*" : "");
    tc->any_saturated |= iv->saturated[c] != 0;
    fprintf(out, "  %*s", tc->wv[k] + 1, v);
  }
  fprintf(out, "%s\n", iv->whole ? "" : "  (partial)");
  return 0;
}

static void table_header(const run_data *d) {
  FILE *out = d->out;
  const store_run_view *r = &d->run;
  char a[32], b[32];
  fprintf(out, "run 0x%016llx: %s on %s\n", (unsigned long long)r->run_id, r->program ? r->program : "(program not known)",
         r->core ? r->core : "(core not known)");
  if (r->counters || r->period) {
    fprintf(out, "  module    %s counter%s x %u bits, %u address range%s", tally_format_count(r->counters, a, sizeof a),
           r->counters == 1 ? "" : "s", r->width, r->arrs, r->arrs == 1 ? "" : "s");
    if (r->period)
      fprintf(out, "; dispatch every %s cycles", tally_format_count(r->period, b, sizeof b));
    if (r->freq_mhz > 0)
      fprintf(out, " at %g MHz", r->freq_mhz);
    fprintf(out, "\n");
  }
  fprintf(out, "  started   %.10s %.12s UTC", r->started ? r->started : "?", r->started && strlen(r->started) > 11 ? r->started + 11 : "");
  if (r->finished)
    fprintf(out, "; finished %.10s %.12s UTC", r->finished, strlen(r->finished) > 11 ? r->finished + 11 : "");
  fprintf(out, "\n  received  %s packets", tally_format_count(r->received, a, sizeof a));
  if (r->duplicates)
    fprintf(out, ", %s repeats ignored", tally_format_count(r->duplicates, b, sizeof b));
  fprintf(out, "\n");
  if (d->banner[0])
    fprintf(out, "\n%s\n", d->banner);
  int wl = 0;
  for (uint32_t k = 0; k < d->nshown; k++) {
    int l = (int)strlen(d->shown[k].label);
    wl = l > wl ? l : wl;
  }
  fprintf(out, "\ncounters\n");
  for (uint32_t k = 0; k < d->nshown; k++)
    fprintf(out, "  #%-4u %-*s  %s\n", d->shown[k].index, wl, d->shown[k].label, d->shown[k].key);
}

static int table_intervals(store *s, const run_data *d) {
  FILE *out = d->out;
  table_ctx tc = {.d = d};
  tc.wv = calloc(d->nshown ? d->nshown : 1, sizeof *tc.wv);
  if (!tc.wv) {
    snprintf(d->err, RUN_EXPORT_ERR, "out of memory");
    return -1;
  }
  if (store_each_interval(s, d->run.run_id, measure_interval, &tc) < 0)
    goto fail;
  tc.wi = width_of(tc.max_index);
  tc.wi = tc.wi < 8 ? 8 : tc.wi;
  tc.wc = width_of(tc.max_cycle);
  tc.wc = tc.wc < 5 ? 5 : tc.wc;
  for (uint32_t k = 0; k < d->nshown; k++) {
    char h[16];
    int wh = snprintf(h, sizeof h, "#%u", d->shown[k].index);
    int w = width_of(d->t.stored[d->shown[k].index]);
    tc.wv[k] = w > wh ? w : wh;
  }
  fprintf(out, "\n%*s  %*s  %*s", tc.wi, "interval", tc.wc, "from", tc.wc, "to");
  for (uint32_t k = 0; k < d->nshown; k++) {
    char h[16];
    snprintf(h, sizeof h, "#%u", d->shown[k].index);
    fprintf(out, "  %*s", tc.wv[k] + 1, h);
  }
  fprintf(out, "\n");
  if (store_each_interval(s, d->run.run_id, table_interval, &tc) < 0)
    goto fail;
  if (d->run.has_intervals_sent && d->run.intervals_sent > tc.next)
    gap_line(&tc, tc.next, d->run.intervals_sent);
  if (tc.any_saturated)
    fprintf(out, "  * saturated: the counter reached 2^%u - 1 in that interval; the count is a floor\n", d->run.width);
  free(tc.wv);
  return 0;
fail:
  snprintf(d->err, RUN_EXPORT_ERR, "%s", store_error(s));
  free(tc.wv);
  return -1;
}

static void table_totals(const run_data *d) {
  FILE *out = d->out;
  const store_totals_view *t = &d->t;
  int wl = 5;
  for (uint32_t k = 0; k < d->nshown; k++) {
    int l = (int)strlen(d->shown[k].label);
    wl = l > wl ? l : wl;
  }
  int wb = 11, ws = 10;
  for (uint32_t k = 0; k < d->nshown; k++) {
    uint32_t c = d->shown[k].index;
    int l = width_of(t->board[c]);
    wb = l > wb ? l : wb;
    l = width_of(t->stored[c]);
    ws = l > ws ? l : ws;
  }
  fprintf(out, "\n  %-5s %-*s  %*s  %*s\n", "", wl, "totals", wb, "board total", ws, d->t.whole ? "stored sum" : "stored sum*");
  for (uint32_t k = 0; k < d->nshown; k++) {
    uint32_t c = d->shown[k].index;
    char a[32], b[32], h[16];
    snprintf(h, sizeof h, "#%u", c);
    bool known = t->has_board && c < t->nboard;
    fprintf(out, "  %-5s %-*s  %*s  %*s%s\n", h, wl, d->shown[k].label, wb, known ? tally_format_count(t->board[c], a, sizeof a) : "-",
           ws, tally_format_count(t->stored[c], b, sizeof b), known && t->board[c] != t->stored[c] ? "  (differs)" : "");
  }
  char a[32];
  if (d->t.whole) {
    fprintf(out, "\ncomplete: %s intervals, every one stored; the sums equal the board's totals\n",
           tally_format_count(d->t.intervals_whole, a, sizeof a));
  } else {
    fprintf(out, "\n* the sums of the %s intervals stored; they are not the run's totals.\n",
           tally_format_count(d->run.intervals, a, sizeof a));
    fprintf(out, "%s\n", d->banner);
  }
}

/* Task counters (SIGNAL@WHERE%TASK), grouped by task: their totals, and
 * each one's share of the run's own anywhere counter of its signal (the
 * same signal, no task) when the run has one. */
static void table_tasks(const run_data *d) {
  FILE *out = d->out;
  const store_totals_view *t = &d->t;
  int wt = 4, wl = 6, wv = 5;
  bool any = false;
  for (uint32_t k = 0; k < d->nshown; k++) {
    const store_counter_view *c = configured(d, d->shown[k].index);
    if (!c || !c->task || d->shown[k].index >= t->n)
      continue;
    any = true;
    int l = (int)strlen(c->task);
    wt = l > wt ? l : wt;
    l = (int)strlen(c->where) - (int)strlen(c->task) - 1;
    l += (int)strlen(c->signal) + (l > 0 ? 1 : 0);
    wl = l > wl ? l : wl;
    l = width_of(t->stored[d->shown[k].index]);
    wv = l > wv ? l : wv;
  }
  if (!any)
    return;
  fprintf(out, "\nper task (a %%TASK counter counts only while that task runs)\n");
  fprintf(out, "  %-*s  %-5s %-*s  %*s  %s\n", wt, "task", "", wl, "counts", wv, "total", "of the run's");
  for (uint32_t k = 0; k < d->nshown; k++) {
    const store_counter_view *c = configured(d, d->shown[k].index);
    if (!c || !c->task || d->shown[k].index >= t->n)
      continue;
    bool first = true; /* the task's first row: its rows follow */
    for (uint32_t j = 0; j < k && first; j++) {
      const store_counter_view *o = configured(d, d->shown[j].index);
      first = !(o && o->task && strcmp(o->task, c->task) == 0);
    }
    if (!first)
      continue;
    for (uint32_t j = k; j < d->nshown; j++) {
      uint32_t i = d->shown[j].index;
      const store_counter_view *o = configured(d, i);
      if (!o || !o->task || strcmp(o->task, c->task) != 0 || i >= t->n)
        continue;
      char what[200], h[16], a[32], share[64] = "";
      int wl2 = (int)(strlen(o->where) - strlen(o->task) - 1);
      if (wl2 > 0)
        snprintf(what, sizeof what, "%s@%.*s", o->signal, wl2, o->where);
      else
        snprintf(what, sizeof what, "%s", o->signal);
      snprintf(h, sizeof h, "#%u", i);
      for (size_t r = 0; r < d->ncounters; r++) {
        const store_counter_view *w = &d->counters[r];
        if (w->enabled && w->anywhere && !w->task && strcmp(w->signal, o->signal) == 0 && w->index < t->n) {
          if (t->stored[w->index])
            snprintf(share, sizeof share, "%5.1f%% of #%u", 100.0 * (double)t->stored[i] / (double)t->stored[w->index],
                     w->index);
          break;
        }
      }
      fprintf(out, "  %-*s  %-5s %-*s  %*s%s%s\n", wt, j == k ? o->task : "", h, wl, what, wv,
              tally_format_count(t->stored[i], a, sizeof a), share[0] ? "  " : "", share);
    }
  }
}

/* ---- CSV ---- */

static int csv_interval(void *ctx, const store_interval_view *iv) {
  FILE *out = ((const run_data *)ctx)->out;
  const run_data *d = ctx;
  fprintf(out, "%llu,%llu,%llu", (unsigned long long)iv->index, (unsigned long long)iv->cycle_begin,
         (unsigned long long)iv->cycle_end);
  for (uint32_t k = 0; k < d->nshown; k++) {
    uint32_t c = d->shown[k].index;
    if (iv->present[c])
      fprintf(out, ",%llu", (unsigned long long)iv->values[c]);
    else
      fprintf(out, ",");
  }
  fprintf(out, ",");
  bool first = true;
  for (uint32_t c = 0; c < iv->n; c++)
    if (iv->saturated[c]) {
      fprintf(out, "%s%u", first ? "" : " ", c);
      first = false;
    }
  fprintf(out, "\n");
  return 0;
}

static int csv_run(store *s, const run_data *d, unsigned parts) {
  FILE *out = d->out;
  if (parts & REPORT_INTERVALS) {
    fprintf(out, "interval,cycle_begin,cycle_end");
    for (uint32_t k = 0; k < d->nshown; k++) {
      fprintf(out, ",");
      report_csv_field(out, d->shown[k].label);
    }
    fprintf(out, ",saturated\n");
    if (store_each_interval(s, d->run.run_id, csv_interval, (void *)d) < 0) {
      snprintf(d->err, RUN_EXPORT_ERR, "%s", store_error(s));
      return -1;
    }
  } else {
    fprintf(out, "counter,signal,where,label,board_total,stored_sum,saturated_intervals\n");
    for (uint32_t k = 0; k < d->nshown; k++) {
      uint32_t c = d->shown[k].index;
      const store_counter_view *cv = configured(d, c);
      fprintf(out, "%u,", c);
      report_csv_field(out, cv ? cv->signal : NULL);
      fprintf(out, ",");
      report_csv_field(out, cv ? cv->where : NULL);
      fprintf(out, ",");
      report_csv_field(out, d->shown[k].label);
      fprintf(out, ",");
      if (d->t.has_board && c < d->t.nboard)
        fprintf(out, "%llu", (unsigned long long)d->t.board[c]);
      fprintf(out, ",%llu,%llu\n", (unsigned long long)d->t.stored[c], (unsigned long long)d->t.saturated[c]);
    }
  }
  return 0;
}

/* ---- JSON ---- */

static void json_str(FILE *f, const char *s) {
  if (s)
    json_write_string(f, s);
  else
    fputs("null", f);
}

void json_run_fields(FILE *f, const store_run_view *r) {
  /* a string, as every format prints it: JSON readers keep numbers as doubles (53 bits) */
  fprintf(f, "{\"run_id\": \"0x%016llx\", \"program\": ", (unsigned long long)r->run_id);
  json_str(f, r->program);
  fprintf(f, ", \"core\": ");
  json_str(f, r->core);
  fprintf(f, ", \"module\": {\"counters\": %u, \"width\": %u, \"arrs\": %u}, \"period\": %llu", r->counters, r->width,
          r->arrs, (unsigned long long)r->period);
  if (r->freq_mhz > 0)
    fprintf(f, ", \"freq_mhz\": %.17g", r->freq_mhz);
  else
    fprintf(f, ", \"freq_mhz\": null");
  fprintf(f, ", \"started\": ");
  json_str(f, r->started);
  fprintf(f, ", \"finished\": ");
  json_str(f, r->finished);
  fprintf(f, ", \"status\": \"%s\", \"note\": ", store_status_name(r->status));
  json_str(f, r->note);
  fprintf(f, ", \"intervals_stored\": %llu, \"intervals_sent\": ", (unsigned long long)r->intervals);
  if (r->has_intervals_sent)
    fprintf(f, "%llu", (unsigned long long)r->intervals_sent);
  else
    fprintf(f, "null");
  fprintf(f, ", \"received\": %llu, \"duplicates\": %llu}", (unsigned long long)r->received,
          (unsigned long long)r->duplicates);
}

typedef struct json_ctx {
  bool first;
  FILE *out;
} json_ctx;

static int json_interval(void *ctx, const store_interval_view *iv) {
  FILE *out = ((json_ctx *)ctx)->out;
  json_ctx *jc = ctx;
  fprintf(out, "%s\n    {\"index\": %llu, \"cycle_begin\": %llu, \"cycle_end\": %llu, \"whole\": %s, \"values\": [",
         jc->first ? "" : ",", (unsigned long long)iv->index, (unsigned long long)iv->cycle_begin,
         (unsigned long long)iv->cycle_end, iv->whole ? "true" : "false");
  jc->first = false;
  for (uint32_t c = 0; c < iv->n; c++) {
    if (iv->present[c])
      fprintf(out, "%s%llu", c ? ", " : "", (unsigned long long)iv->values[c]);
    else
      fprintf(out, "%snull", c ? ", " : "");
  }
  fprintf(out, "], \"saturated\": [");
  bool first = true;
  for (uint32_t c = 0; c < iv->n; c++)
    if (iv->saturated[c]) {
      fprintf(out, "%s%u", first ? "" : ", ", c);
      first = false;
    }
  fprintf(out, "]}");
  return 0;
}

static int json_run(store *s, const run_data *d, unsigned parts) {
  FILE *out = d->out;
  fprintf(out, "{\"run\": ");
  json_run_fields(out, &d->run);
  fprintf(out, ",\n \"whole\": %s, \"banner\": ", d->t.whole ? "true" : "false");
  json_str(out, d->banner[0] ? d->banner : NULL);
  fprintf(out, ",\n \"counters\": [");
  for (size_t i = 0; i < d->ncounters; i++) {
    const store_counter_view *c = &d->counters[i];
    fprintf(out, "%s\n    {\"index\": %u, \"signal\": ", i ? "," : "", c->index);
    json_str(out, c->signal);
    fprintf(out, ", \"where\": ");
    json_str(out, c->where);
    fprintf(out, ", \"task\": ");
    json_str(out, c->task);
    if (c->anywhere)
      fprintf(out, ", \"anywhere\": true, \"lo\": null, \"hi\": null");
    else
      fprintf(out, ", \"anywhere\": false, \"lo\": %u, \"hi\": %u", c->lo, c->hi);
    fprintf(out, ", \"label\": ");
    json_str(out, c->label);
    fprintf(out, ", \"enabled\": %s}", c->enabled ? "true" : "false");
  }
  fprintf(out, "]");
  if (parts & REPORT_INTERVALS) {
    fprintf(out, ",\n \"intervals\": [");
    json_ctx jc = {.first = true, .out = out};
    if (store_each_interval(s, d->run.run_id, json_interval, &jc) < 0) {
      snprintf(d->err, RUN_EXPORT_ERR, "%s", store_error(s));
      return -1;
    }
    fprintf(out, "]");
  }
  if (parts & REPORT_TOTALS) {
    const store_totals_view *t = &d->t;
    fprintf(out, ",\n \"totals\": {\"board_known\": %s, \"intervals_whole\": %llu, \"intervals_partial\": %llu, "
           "\"missing\": %llu, \"overlaps\": %llu, \"beyond\": %llu, \"counters\": [",
           t->has_board ? "true" : "false", (unsigned long long)t->intervals_whole,
           (unsigned long long)t->intervals_partial, (unsigned long long)t->missing, (unsigned long long)t->overlaps,
           (unsigned long long)t->beyond);
    for (uint32_t c = 0; c < t->n; c++) {
      fprintf(out, "%s\n    {\"counter\": %u, \"board\": ", c ? "," : "", c);
      if (t->has_board && c < t->nboard)
        fprintf(out, "%llu", (unsigned long long)t->board[c]);
      else
        fprintf(out, "null");
      fprintf(out, ", \"stored\": %llu, \"saturated_intervals\": %llu}", (unsigned long long)t->stored[c],
             (unsigned long long)t->saturated[c]);
    }
    fprintf(out, "]}");
  }
  fprintf(out, "}\n");
  return 0;
}

int run_export(store *s, const char *db, uint64_t run_id, const run_export_opts *o, FILE *out, char *err) {
  run_data d = {.out = out, .err = err};
  err[0] = '\0';
  int rc = load(s, db, run_id, &d);
  if (rc == 0) {
    switch (o->format) {
    case REPORT_TABLE:
      table_header(&d);
      if (o->parts & REPORT_INTERVALS)
        rc = table_intervals(s, &d);
      if (rc == 0 && (o->parts & REPORT_TOTALS)) {
        table_totals(&d);
        table_tasks(&d);
      }
      else if (rc == 0 && d.banner[0])
        fprintf(out, "\n%s\n", d.banner);
      break;
    case REPORT_CSV:
      rc = csv_run(s, &d, o->parts);
      break;
    case REPORT_JSON:
      rc = json_run(s, &d, o->parts);
      break;
    }
  }
  bool whole = d.t.whole;
  if (rc == 0 && !whole)
    snprintf(err, RUN_EXPORT_ERR, "%s", d.banner);
  if (rc == 0 && ferror(out)) {
    snprintf(err, RUN_EXPORT_ERR, "could not write the run out");
    rc = -1;
  }
  run_data_free(&d);
  return rc < 0 ? -1 : whole ? 0 : RUN_EXPORT_NOT_WHOLE;
}
