/*
 * The report of tally dvfs: the candidate regions and the decisions (the
 * phase profile's counts), then time and energy measured by running both
 * programs, per chosen region and for the whole run (the paper's Figures
 * 10 and 11 as tables), then the static settings and the oracle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/cli.h"
#include "dvfs.h"

static double pct(double now, double before) { return before > 0 ? 100.0 * (now / before - 1) : 0; }

static const char *point_name(const dvfs_opts *o, int p, char *buf, size_t size) {
  snprintf(buf, size, "%.0f/%.2f", o->pts[p].mhz, o->pts[p].volt);
  return buf;
}

/* The width of the region column: the longest name that ran (names are
 * never cut), at least 36. */
static int name_w(const dvfs_region *v, size_t n) {
  size_t w = 36;
  for (size_t i = 0; i < n; i++)
    if (v[i].cycles && strlen(v[i].name) > w)
      w = strlen(v[i].name);
  return (int)w;
}

void dvfs_print_candidates(const dvfs_opts *o, const dvfs_region *v, size_t n) {
  size_t quiet = 0;
  int w = name_w(v, n);
  printf("candidate regions (%s; counts from the phase profile, the program's own: each phase, from a\n"
         "loop entry to the next, is charged to the region it began in, with what it calls and what runs after\n"
         "the loop until the next loop entry, so these cycles are more than the measured table's, which has\n"
         "only the region's own instructions):\n",
         o->kind == DVFS_LOOPS ? "loops: header and natural body, /N: in N address ranges" : "functions");
  printf("  %-*s %-23s %12s %10s %9s %8s  %-9s %s\n", w, "region", "range", "cycles", "misses", "miss/cyc", "entries",
         "MHz/V", "decision");
  for (size_t i = 0; i < n; i++) {
    if (!v[i].cycles)
      continue; /* never ran */
    if (!v[i].point && v[i].misses < o->min_misses / 10 && !v[i].dropped) {
      quiet++;
      continue;
    }
    char range[40], pt[32];
    snprintf(range, sizeof range, v[i].nranges > 1 ? "%08x-%08x/%zu" : "%08x-%08x", v[i].lo, v[i].hi, v[i].nranges);
    printf("  %-*s %-23s %12llu %10llu %9.5f %8llu  %-9s %s\n", w, v[i].name, range,
           (unsigned long long)v[i].cycles, (unsigned long long)v[i].misses,
           v[i].cycles ? (double)v[i].misses / (double)v[i].cycles : 0.0, (unsigned long long)v[i].entries,
           v[i].point ? point_name(o, v[i].point, pt, sizeof pt) : "-", v[i].why);
  }
  if (quiet)
    printf("  (%zu more with fewer than a tenth of --min-misses misses, not chosen: not shown)\n", quiet);
}

static void print_row(int w, const char *name, const char *point, const dvfs_tally *b, const dvfs_tally *a) {
  printf("  %-*s %-9s %12llu %12.3f %12.3f   %12llu %12.3f %12.3f   %+7.2f%% %+7.2f%%\n", w, name, point,
         (unsigned long long)b->cycles, b->seconds * 1e6, b->joules * 1e6, (unsigned long long)a->cycles,
         a->seconds * 1e6, a->joules * 1e6, pct(a->seconds, b->seconds), pct(a->joules, b->joules));
}

void dvfs_print_measured(const dvfs_opts *o, const dvfs_region *v, size_t n, const dvfs_tally *before,
                         const dvfs_tally *after, const dvfs_run *base, const dvfs_run *sw) {
  printf("measured on tally (each instruction's cycles, time and energy charged to the region holding its pc;\n"
         "output and exit status identical):\n");
  int w = name_w(v, n);
  printf("  %-*s %-9s %12s %12s %12s   %12s %12s %12s   %8s %8s\n", w, "", "", "original", "", "", "with switches",
         "", "", "", "");
  printf("  %-*s %-9s %12s %12s %12s   %12s %12s %12s   %8s %8s\n", w, "region", "MHz/V", "cycles", "time us",
         "energy uJ", "cycles", "time us", "energy uJ", "time", "energy");
  size_t row = 0;
  char pt[32];
  for (size_t i = 0; i < n; i++)
    if (v[i].point) {
      print_row(w, v[i].name, point_name(o, v[i].point, pt, sizeof pt), &before[row], &after[row]);
      row++;
    }
  print_row(w, "outside the regions", point_name(o, 0, pt, sizeof pt), &before[row], &after[row]);
  dvfs_tally b = {base->cycles, base->instret, base->e.seconds, base->e.total_j};
  dvfs_tally a = {sw->cycles, sw->instret, sw->e.seconds, sw->e.total_j};
  print_row(w, "whole run", "", &b, &a);
}

void dvfs_print_refs(const dvfs_opts *o, const dvfs_region *v, size_t n, const dvfs_run *base, const dvfs_run *sw,
                     const dvfs_run *statics, const dvfs_oracle *orc) {
  char pt[32];
  printf("references (whole run):\n");
  printf("  %-46s %12llu cycles %12.3f us %12.3f uJ\n", "original", (unsigned long long)base->cycles,
         base->e.seconds * 1e6, base->e.total_j * 1e6);
  printf("  %-46s %12llu cycles %12.3f us %12.3f uJ   time %+7.2f%%  energy %+7.2f%%\n", "tally dvfs",
         (unsigned long long)sw->cycles, sw->e.seconds * 1e6, sw->e.total_j * 1e6, pct(sw->e.seconds, base->e.seconds),
         pct(sw->e.total_j, base->e.total_j));
  for (size_t p = 1; p < o->npts; p++) {
    char label[64];
    snprintf(label, sizeof label, "static %s (whole program)", point_name(o, (int)p, pt, sizeof pt));
    const dvfs_run *r = &statics[p];
    printf("  %-46s %12llu cycles %12.3f us %12.3f uJ   time %+7.2f%%  energy %+7.2f%%%s\n", label,
           (unsigned long long)r->cycles, r->e.seconds * 1e6, r->e.total_j * 1e6, pct(r->e.seconds, base->e.seconds),
           pct(r->e.total_j, base->e.total_j),
           dvfs_slowdown(r, base) > o->max_slowdown ? "  (over --max-slowdown)" : "");
  }
  if (!o->oracle) {
    printf("  oracle: not run (--no-oracle)\n");
    return;
  }
  char label[64];
  snprintf(label, sizeof label, "oracle (%s, %u runs)", orc->exhaustive ? "exhaustive" : "greedy", orc->runs);
  printf("  %-46s %12llu cycles %12.3f us %12.3f uJ   time %+7.2f%%  energy %+7.2f%%\n", label,
         (unsigned long long)orc->cycles, orc->seconds * 1e6, orc->joules * 1e6, pct(orc->seconds, base->e.seconds),
         pct(orc->joules, base->e.total_j));
  printf("  oracle's points:");
  size_t shown = 0;
  for (size_t i = 0; i < n; i++)
    if (orc->points[i]) {
      printf("%s %s at %s", shown++ ? "," : "", v[i].name, point_name(o, orc->points[i], pt, sizeof pt));
    }
  printf("%s\n", shown ? "" : orc->selected ? " none (no selected region helps within --max-slowdown)"
                                            : " none (no region passed the thresholds)");
  double tool = base->e.total_j - sw->e.total_j, best = base->e.total_j - orc->joules;
  if (best > 0)
    printf("  tally dvfs saves %.2f%% of the energy, the oracle %.2f%%: %.1f%% of the oracle's saving\n",
           100.0 * tool / base->e.total_j, 100.0 * best / base->e.total_j, 100.0 * tool / best);
  else
    printf("  the oracle saves nothing within --max-slowdown either\n");
}

/* The names of the picked regions, "name@MHz" joined by "; ". */
static void picked_names(const dvfs_opts *o, const dvfs_region *v, const dvfs_fitlog *f, const int *pick, char *buf,
                         size_t size) {
  size_t len = 0;
  buf[0] = 0;
  for (size_t a = 0; a < f->m && len < size; a++)
    if (pick[a])
      len += (size_t)snprintf(buf + len, size - len, "%s%s@%.0f", len ? "; " : "", v[f->region[a]].name,
                              o->pts[pick[a]].mhz);
}

void dvfs_print_alone(const dvfs_opts *o, const dvfs_region *v, const dvfs_fitlog *f) {
  if (!o->readd)
    return;
  printf("each region alone (whole run against the original: one real run with only that region switched;\n"
         "its switch code and relocks included):\n");
  int w = 36;
  for (size_t a = 0; a < f->m; a++)
    if ((int)strlen(v[f->region[a]].name) > w)
      w = (int)strlen(v[f->region[a]].name);
  printf("  %-*s %-9s %9s %9s %13s\n", w, "region", "MHz/V", "time", "energy", "saved/added");
  char pt[32];
  for (size_t a = 0; a < f->m; a++)
    for (size_t p = 1; p < o->npts; p++) {
      double c = f->cost[a * o->npts + p], g = f->gain[a * o->npts + p];
      char ratio[32];
      if (c > 0)
        snprintf(ratio, sizeof ratio, "%.2f", g / c);
      else
        snprintf(ratio, sizeof ratio, "%s", g > 0 ? "(no time)" : "-");
      printf("  %-*s %-9s %+8.2f%% %+8.2f%% %13s\n", w, v[f->region[a]].name, point_name(o, (int)p, pt, sizeof pt), c,
             -g, ratio);
    }
  if (!f->m)
    printf("  (none: no region passed the thresholds)\n");
  printf("  trial runs: descent %u; alone %u (and %u taken from the descent's); knapsack %u (%u %s tried)%s\n",
         f->descent_runs, f->alone_runs, f->alone_reused, f->verify_runs, f->rounds,
         f->rounds == 1 ? "solution" : "solutions",
         f->accepted ? "; its choice replaced the descent's" : "; the descent's choice stands");
  if (f->incomplete)
    printf("  the knapsack search stopped after %lu nodes: its choice is the best found, maybe not the best\n",
           DVFS_KNAP_MAX_NODES);
}

int dvfs_print_tradeoff(const dvfs_opts *o, const dvfs_region *v, const dvfs_fitlog *f) {
  if (!o->readd || !f->m)
    return 0;
  int *pick = calloc(f->m, sizeof *pick);
  if (!pick)
    return -1;
  static const double limits[] = {1, 2, 3, 4, 5};
  size_t nl = sizeof limits / sizeof limits[0];
  printf("trade-off for --max-slowdown (PREDICTED: sums of the single-region runs above, the best combination\n"
         "within each limit; not runs of the combinations):\n");
  int rc = 0;
  bool mine_shown = false;
  for (size_t i = 0; !rc && i <= nl; i++) {
    double lim = i < nl ? limits[i] : o->max_slowdown;
    if (i == nl && mine_shown)
      break;
    bool mine = lim == o->max_slowdown;
    mine_shown = mine_shown || mine;
    dvfs_knap_sol sol = {.pick = pick};
    if ((rc = dvfs_fitlog_predict(f, o->npts, lim, &sol)) != 0)
      break;
    char names[512];
    picked_names(o, v, f, pick, names, sizeof names);
    printf("  limit %5.2f%%%s: time %+6.2f%%  energy %+7.2f%%  %s\n", lim, mine ? " (yours)" : "        ", sol.cost,
           sol.gain > 0 ? -sol.gain : 0.0, sol.gain > 0 ? names : "(no region)");
  }
  free(pick);
  return rc;
}

int dvfs_write_tradeoff(const dvfs_opts *o, const dvfs_region *v, const dvfs_fitlog *f, tally_error *err) {
  FILE *csv = fopen(o->tradeoff_csv, "w");
  if (!csv) {
    snprintf(err->msg, sizeof err->msg, "--tradeoff-csv %.400s: cannot write", o->tradeoff_csv);
    return EXIT_CANTCREAT;
  }
  int *pick = calloc(f->m ? f->m : 1, sizeof *pick);
  int rc = pick ? 0 : EXIT_INTERNAL;
  double top = o->max_slowdown > 5 ? o->max_slowdown : 5;
  fprintf(csv, "limit_pct,time_pct,energy_pct,regions\n");
  for (unsigned k = 1; !rc && k <= (unsigned)(top * 4 + 1e-9); k++) {
    dvfs_knap_sol sol = {.pick = pick};
    if (dvfs_fitlog_predict(f, o->npts, k / 4.0, &sol)) {
      rc = EXIT_INTERNAL;
      break;
    }
    char names[2048];
    picked_names(o, v, f, pick, names, sizeof names);
    fprintf(csv, "%.2f,%.4f,%.4f,\"%s\"\n", k / 4.0, sol.cost, sol.gain > 0 ? -sol.gain : 0.0, names);
  }
  free(pick);
  if (fclose(csv) && !rc)
    rc = EXIT_CANTCREAT;
  if (rc)
    snprintf(err->msg, sizeof err->msg, "--tradeoff-csv %.400s: %s", o->tradeoff_csv,
             rc == EXIT_CANTCREAT ? "cannot write" : "out of memory");
  return rc;
}
