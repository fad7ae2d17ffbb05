/*
 * tally dvfs --svg FILE: the measured table as a picture, after the
 * paper's Figures 10 and 11. Panel 1: for every chosen region, for
 * "outside the regions" and for the whole run, a time group and an energy
 * group of two bars, the original program's (100%) and the DVFS'd one's,
 * both in percent of the original. Panel 2: the references (original,
 * tally dvfs, each static point, the oracle), time and energy of the whole
 * run in percent of the original.
 *
 * A self-contained SVG written by hand: no scripts, no external fonts or
 * styles (presentation attributes only, so document tools that ignore CSS
 * still draw it). Every bar's height is its percentage times the panel's
 * scale; its rect carries data-panel, data-row (the row of the report's
 * table, in order), data-what (time/energy) and data-which, so a reader
 * (and tests/dvfs/run_dvfs_svg.sh) can match bars to the report. Region
 * names come from the ELF's symbols, which are untrusted: every text is
 * escaped (dvfs_svg_escape).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli/cli.h"
#include "dvfs.h"

/* Layout in pixels. */
enum {
  BAR_W = 36,     /* a bar: wide enough for "104.3%" at 10 px above it */
  BAR_GAP = 4,    /* between the bars of a group */
  GROUP_GAP = 14, /* between a category's groups */
  CAT_GAP = 34,   /* between categories */
  LEFT = 76,      /* the y axis's numbers and title */
  RIGHT = 24,
  PLOT_H = 250,  /* the plot area's height */
  PANEL_TOP = 62, /* panel title, legend and room for the top value labels */
  LABEL_LINES = 3, /* a category label wraps to at most this many lines */
  LINE_H = 13,
};
#define CHAR_W 6.8 /* a character of the 11 px labels, a little wide (Verdana): wrapping */

#define COL_ORIG "#a9b1bc"
#define COL_TIME "#d9782d"
#define COL_ENERGY "#2a8c82"
#define COL_AXIS "#333333"
#define COL_LIMIT "#c0392b"
#define FONT "font-family=\"DejaVu Sans, Verdana, Arial, Helvetica, sans-serif\""

void dvfs_svg_escape(FILE *f, const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&apos;", f); break;
    default:
      /* control characters are not allowed in XML 1.0; bytes above ASCII
       * may not be UTF-8: both become '?' rather than a file no reader
       * parses */
      fputc(*p < 0x20 || *p >= 0x7f ? '?' : *p, f);
    }
  }
}

/* One category of a panel: its label (raw), a second line (the point),
 * and its bars' percentages. */
typedef struct svg_cat {
  char label[160], sub[48];
  double v[4];
} svg_cat;

typedef struct svg_panel {
  const char *id, *title;
  size_t ncat, nbar, per_group; /* bars per category, per group */
  const char *const *what;      /* [nbar]: data-what */
  const char *const *which;     /* [nbar]: data-which */
  const char *const *fill;      /* [nbar] */
  const char *const *group;     /* [nbar / per_group]: the labels under the groups */
  const svg_cat *cats;
  double limit; /* > 0: a line at 100% + this (--max-slowdown), for the whole-run times */
} svg_panel;

static double cat_width(const svg_panel *p) {
  size_t ng = p->nbar / p->per_group;
  return (double)(p->nbar * BAR_W + (p->nbar - ng) * BAR_GAP + (ng - 1) * GROUP_GAP);
}

static double panel_width(const svg_panel *p) {
  return LEFT + RIGHT + (double)p->ncat * (cat_width(p) + CAT_GAP);
}

static double panel_height(void) { return PANEL_TOP + PLOT_H + 18 + LABEL_LINES * LINE_H + LINE_H + 24; }

static bool drawable(double v) { return isfinite(v) && v >= 0; }

/* The axis's top and tick step: a round step giving at most 8 ticks,
 * the top a multiple of it above every bar (at least 100% + a step). */
static void axis_scale(const svg_panel *p, double *top, double *step) {
  double max = 100;
  for (size_t c = 0; c < p->ncat; c++)
    for (size_t b = 0; b < p->nbar; b++)
      if (drawable(p->cats[c].v[b]) && p->cats[c].v[b] > max)
        max = p->cats[c].v[b];
  static const double steps[] = {10, 20, 25, 50};
  for (double mag = 1;; mag *= 10)
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
      *step = steps[i] * mag;
      *top = (floor(max / *step) + 1) * *step;
      if (*top / *step <= 8)
        return;
    }
}

/* Where to end a line of at most width characters of s (longer). */
static size_t break_at(const char *s, size_t width) {
  static const char *const seps[] = {" ", "+_."}; /* "loop 0x8000 (f+0x20)": before the name */
  for (size_t i = 0; i < 2; i++)
    for (size_t k = width; k > width / 2; k--)
      if (strchr(seps[i], s[k - 1]))
        return k;
  return width;
}

/* Writes s as at most LABEL_LINES lines of at most width characters,
 * broken after a space, else after '+', '_' or '.', when one is in the
 * line's second half, centred on x below y; a label too long ends in "...". The
 * number of lines. */
static int wrapped_text(FILE *f, double x, double y, const char *s, size_t width) {
  char line[160];
  size_t len = strlen(s), at = 0;
  if (width < 4)
    width = 4;
  if (width >= sizeof line)
    width = sizeof line - 1;
  int l;
  for (l = 0; l < LABEL_LINES && at < len; l++) {
    size_t n = len - at;
    if (n > width) {
      n = width;
      if (l == LABEL_LINES - 1) {
        n = width - 3; /* the last line: cut, marked */
      } else {
        n = break_at(s + at, width);
      }
    }
    memcpy(line, s + at, n);
    line[n] = 0;
    if (l == LABEL_LINES - 1 && at + n < len)
      strcat(line, "...");
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\" fill=\"%s\">", x,
            y + l * LINE_H, COL_AXIS);
    dvfs_svg_escape(f, line);
    fputs("</text>\n", f);
    at += n;
  }
  return l;
}

static void y_axis(FILE *f, double y0, double x1, double top, double step, double scale) {
  for (double t = 0; t <= top + step / 2; t += step) {
    double y = y0 + PLOT_H - t * scale;
    fprintf(f, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"%s\"/>\n", LEFT - 4,
            y, x1, y, t == 0 ? COL_AXIS : "#e3e3e3", t == 0 ? "1" : "0.8");
    fprintf(f, "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\" font-size=\"10\" fill=\"%s\">%g%%</text>\n", LEFT - 7,
            y + 3.5, COL_AXIS, t);
  }
  fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%.2f\" stroke=\"%s\"/>\n", LEFT, (int)y0, LEFT,
          y0 + PLOT_H, COL_AXIS);
  double y100 = y0 + PLOT_H - 100 * scale; /* the original's level */
  fprintf(f,
          "<line x1=\"%d\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"%s\" stroke-dasharray=\"4 3\" "
          "stroke-width=\"0.8\"/>\n",
          LEFT, y100, x1, y100, COL_AXIS);
  fprintf(f,
          "<text transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\" font-size=\"11\" "
          "fill=\"%s\">percent of the original</text>\n",
          y0 + PLOT_H / 2.0, COL_AXIS);
}

static void bar(FILE *f, const svg_panel *p, size_t c, size_t b, double x, double y0, double scale) {
  double v = p->cats[c].v[b], h = drawable(v) ? v * scale : 0;
  double base = y0 + PLOT_H;
  fprintf(f,
          "<rect data-panel=\"%s\" data-row=\"%zu\" data-what=\"%s\" data-which=\"%s\" x=\"%.1f\" y=\"%.4f\" "
          "width=\"%d\" height=\"%.4f\" fill=\"%s\"><title>",
          p->id, c, p->what[b], p->which[b], x, base - h, BAR_W, h, p->fill[b]);
  dvfs_svg_escape(f, p->cats[c].label);
  fprintf(f, ", %s, %s: %.2f%%</title></rect>\n", p->what[b], p->which[b], v);
  char val[32];
  if (!drawable(v))
    snprintf(val, sizeof val, "n/a");
  else
    snprintf(val, sizeof val, v == 100 ? "%.0f%%" : v < 1000 ? "%.1f%%" : "%.0f%%", v);
  fprintf(f, "<text x=\"%.1f\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"10\" fill=\"%s\">%s</text>\n",
          x + BAR_W / 2.0, base - h - 3, COL_AXIS, val);
}

/* The legend's swatches from x on; where it ends. */
static double legend(FILE *f, double x, double y, const char *const *names, const char *const *fills, size_t n) {
  for (size_t i = 0; i < n; i++) {
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", x, y - 10, fills[i]);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"%s\">%s</text>\n", x + 16, y, COL_AXIS,
            names[i]);
    x += 16 + 6.8 * (double)strlen(names[i]) + 18;
  }
  return x;
}

/* One panel with its top at y; the legend names legend_n fills. */
static void panel(FILE *f, const svg_panel *p, double y, const char *const *lnames, const char *const *lfills,
                  size_t ln) {
  double top, step;
  axis_scale(p, &top, &step);
  double scale = PLOT_H / top, y0 = y + PANEL_TOP, x1 = panel_width(p) - RIGHT, cw = cat_width(p);
  fprintf(f, "<g id=\"%s\">\n", p->id);
  fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"13\" font-weight=\"bold\" fill=\"%s\">%s</text>\n", LEFT, y + 18,
          COL_AXIS, p->title);
  double lx = legend(f, LEFT, y + 38, lnames, lfills, ln);
  y_axis(f, y0, x1, top, step, scale);
  if (p->limit > 0 && 100 + p->limit <= top) { /* the line, and its name in the legend (not over a bar) */
    double yl = y0 + PLOT_H - (100 + p->limit) * scale;
    fprintf(f,
            "<line x1=\"%d\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"%s\" stroke-dasharray=\"2 3\" "
            "stroke-width=\"1.2\"/>\n",
            LEFT, yl, x1, yl, COL_LIMIT);
    fprintf(f,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"2 3\" "
            "stroke-width=\"1.2\"/>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"%s\">100%% + "
            "--max-slowdown (%g%%)</text>\n",
            lx, y + 34, lx + 20, y + 34, COL_LIMIT, lx + 26, y + 38, COL_AXIS, p->limit);
  }
  for (size_t c = 0; c < p->ncat; c++) {
    double cx = LEFT + CAT_GAP / 2.0 + (double)c * (cw + CAT_GAP), x = cx;
    for (size_t b = 0; b < p->nbar; b++) {
      bar(f, p, c, b, x, y0, scale);
      bool group_end = (b + 1) % p->per_group == 0;
      if (group_end && p->group)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\" fill=\"#666666\">%s</text>\n",
                x + BAR_W - (p->per_group * BAR_W + (p->per_group - 1) * BAR_GAP) / 2.0, y0 + PLOT_H + 13,
                p->group[b / p->per_group]);
      x += BAR_W + (group_end ? GROUP_GAP : BAR_GAP);
    }
    double ly = y0 + PLOT_H + (p->group ? 30 : 16);
    int lines = wrapped_text(f, cx + cw / 2, ly, p->cats[c].label, (size_t)((cw + CAT_GAP - 6) / CHAR_W));
    if (p->cats[c].sub[0]) {
      fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\" fill=\"#666666\">", cx + cw / 2,
              ly + lines * LINE_H);
      dvfs_svg_escape(f, p->cats[c].sub);
      fputs("</text>\n", f);
    }
  }
  fputs("</g>\n", f);
}

static double pct_of(double now, double before) { return before > 0 ? 100.0 * now / before : (now > 0 ? NAN : 100); }

static void point_text(const dvfs_opts *o, int p, char *buf, size_t size) {
  snprintf(buf, size, "%.0f MHz / %.2f V", o->pts[p].mhz, o->pts[p].volt);
}

static svg_cat measured_cat(const char *label, const char *sub, const dvfs_tally *b, const dvfs_tally *a) {
  svg_cat c = {.v = {100, pct_of(a->seconds, b->seconds), 100, pct_of(a->joules, b->joules)}};
  snprintf(c.label, sizeof c.label, "%s", label);
  snprintf(c.sub, sizeof c.sub, "%s", sub);
  return c;
}

/* Panel 1's categories, in the order of the report's measured table. */
static size_t measured_cats(const dvfs_opts *o, const dvfs_region *v, size_t n, const dvfs_tally *before,
                            const dvfs_tally *after, const dvfs_run *base, const dvfs_run *sw, svg_cat *cats) {
  size_t row = 0;
  char pt[48];
  for (size_t i = 0; i < n; i++)
    if (v[i].point) {
      point_text(o, v[i].point, pt, sizeof pt);
      cats[row] = measured_cat(v[i].name, pt, &before[row], &after[row]);
      row++;
    }
  point_text(o, 0, pt, sizeof pt);
  cats[row] = measured_cat("outside the regions", pt, &before[row], &after[row]);
  dvfs_tally b = {base->cycles, base->instret, base->e.seconds, base->e.total_j};
  dvfs_tally a = {sw->cycles, sw->instret, sw->e.seconds, sw->e.total_j};
  cats[row + 1] = measured_cat("whole run", "", &b, &a);
  return row + 2;
}

static svg_cat ref_cat(const char *label, const char *sub, double s, double j, const dvfs_run *base) {
  svg_cat c = {.v = {pct_of(s, base->e.seconds), pct_of(j, base->e.total_j)}};
  snprintf(c.label, sizeof c.label, "%s", label);
  snprintf(c.sub, sizeof c.sub, "%s", sub);
  return c;
}

/* Panel 2's categories, in the order of the report's references. */
static size_t ref_cats(const dvfs_opts *o, const dvfs_run *base, const dvfs_run *sw, const dvfs_run *statics,
                       const dvfs_oracle *orc, svg_cat *cats) {
  size_t k = 0;
  char pt[48], sub[48];
  cats[k++] = ref_cat("original", "", base->e.seconds, base->e.total_j, base);
  cats[k++] = ref_cat("tally dvfs", "", sw->e.seconds, sw->e.total_j, base);
  for (size_t p = 1; p < o->npts; p++) {
    point_text(o, (int)p, pt, sizeof pt);
    cats[k++] = ref_cat("static", pt, statics[p].e.seconds, statics[p].e.total_j, base);
  }
  if (o->oracle) {
    snprintf(sub, sizeof sub, "%s, %u runs", orc->exhaustive ? "exhaustive" : "greedy", orc->runs);
    cats[k++] = ref_cat("oracle", sub, orc->seconds, orc->joules, base);
  }
  return k;
}

static const char *prog_name(const dvfs_opts *o) { return strrchr(o->in, '/') ? strrchr(o->in, '/') + 1 : o->in; }

/* The line under the title: the operating points and the limit. */
static void subtitle_text(const dvfs_opts *o, char *buf, size_t size) {
  size_t n = (size_t)snprintf(buf, size, "operating points ");
  char pt[48];
  for (size_t p = 0; p < o->npts && n < size; p++) {
    point_text(o, (int)p, pt, sizeof pt);
    n += (size_t)snprintf(buf + n, size - n, "%s%s%s", p ? ", " : "", pt, p ? "" : " (start)");
  }
  if (n < size)
    snprintf(buf + n, size - n, "; --max-slowdown %g%%; time and energy measured on tally", o->max_slowdown);
}

static void title(FILE *f, const dvfs_opts *o, double width) {
  fprintf(f, "<text x=\"%.1f\" y=\"24\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\" fill=\"%s\">",
          width / 2, COL_AXIS);
  fputs("tally dvfs: ", f);
  dvfs_svg_escape(f, prog_name(o));
  fputs(" on ", f);
  dvfs_svg_escape(f, o->core);
  fputs("</text>\n", f);
  char sub[1024];
  subtitle_text(o, sub, sizeof sub);
  fprintf(f, "<text x=\"%.1f\" y=\"42\" text-anchor=\"middle\" font-size=\"11\" fill=\"%s\">%s</text>\n", width / 2,
          COL_AXIS, sub);
}

/* A text's width at a font size, a little wide (DejaVu Sans averages
 * about 0.6 em a character, bold a little more): the picture is made at
 * least this wide so that no title is clipped when there are few bars. */
static double text_width(const char *s, double px, bool bold) { return (double)strlen(s) * px * (bold ? 0.66 : 0.6); }

static double max2(double a, double b) { return a > b ? a : b; }

static int write_svg(FILE *f, const dvfs_opts *o, const svg_panel *m, const svg_panel *r) {
  double w = max2(panel_width(m), panel_width(r));
  w = max2(w, LEFT + RIGHT + max2(text_width(m->title, 13, true), text_width(r->title, 13, true)));
  char sub[1024];
  subtitle_text(o, sub, sizeof sub);
  w = max2(w, 2 * RIGHT + text_width(sub, 11, false));
  w = max2(w, 2 * RIGHT + text_width("tally dvfs:  on ", 15, true) +
                  text_width(prog_name(o), 15, true) + text_width(o->core, 15, true));
  double ph = panel_height(), h = 54 + 2 * ph;
  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" %s>\n"
          "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
          w, h, w, h, FONT);
  title(f, o, w);
  static const char *const ln1[] = {"original (100%)", "time with switches", "energy with switches"};
  static const char *const lf1[] = {COL_ORIG, COL_TIME, COL_ENERGY};
  panel(f, m, 54, ln1, lf1, 3);
  static const char *const ln2[] = {"time", "energy"};
  static const char *const lf2[] = {COL_TIME, COL_ENERGY};
  panel(f, r, 54 + ph, ln2, lf2, 2);
  fputs("</svg>\n", f);
  return ferror(f) ? -1 : 0;
}

int dvfs_write_svg(const dvfs_opts *o, const dvfs_region *v, size_t n, const dvfs_tally *before,
                   const dvfs_tally *after, const dvfs_run *base, const dvfs_run *sw, const dvfs_run *statics,
                   const dvfs_oracle *orc, tally_error *err) {
  svg_cat *mc = calloc(n + 2, sizeof *mc), *rc_ = calloc(DVFS_MAX_POINTS + 2, sizeof *rc_);
  if (!mc || !rc_) {
    free(mc), free(rc_);
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return EXIT_INTERNAL;
  }
  static const char *const m_what[] = {"time", "time", "energy", "energy"};
  static const char *const m_which[] = {"original", "dvfs", "original", "dvfs"};
  static const char *const m_fill[] = {COL_ORIG, COL_TIME, COL_ORIG, COL_ENERGY};
  static const char *const m_group[] = {"time", "energy"};
  svg_panel m = {"measured",
                 "Measured per region: time and energy, percent of the original (the paper's Figures 10, 11)",
                 measured_cats(o, v, n, before, after, base, sw, mc), 4, 2, m_what, m_which, m_fill, m_group, mc, 0};
  static const char *const r_what[] = {"time", "energy"};
  static const char *const r_which[] = {"ref", "ref"};
  static const char *const r_fill[] = {COL_TIME, COL_ENERGY};
  svg_panel r = {"refs",
                 o->oracle ? "References, whole run: time and energy, percent of the original"
                           : "References, whole run: time and energy, percent of the original (no oracle: --no-oracle)",
                 ref_cats(o, base, sw, statics, orc, rc_), 2, 2, r_what, r_which, r_fill, NULL, rc_, o->max_slowdown};
  int rc = 0;
  FILE *f = fopen(o->svg, "w");
  if (!f || write_svg(f, o, &m, &r) != 0)
    rc = EXIT_CANTCREAT;
  if (f && fclose(f) != 0)
    rc = EXIT_CANTCREAT;
  if (rc) {
    if (f)
      unlink(o->svg); /* no half-written picture left behind */
    snprintf(err->msg, sizeof err->msg, "--svg %.400s: cannot write", o->svg);
  }
  free(mc), free(rc_);
  return rc;
}
