/*
 * The progress line of tally run and tally profile (run_progress.h).
 *
 * The program's console streams are stdio streams of their own
 * (fopencookie) whose writes go to the real stdout or stderr: each write
 * first takes the progress line off the terminal, so the program's bytes
 * always start where the line was and nothing of the line is left among
 * them. Each stream is buffered as its real one is (by lines on a
 * terminal, in blocks otherwise, not at all for stderr), and every write
 * is flushed through at once, so the program's output leaves tally at the
 * moments it did without the line.
 *
 * Everything is checked between the run loop's slices, never per
 * instruction: the clock once a slice (which the loop reads anyway) and
 * the line at most once an update period.
 */
#define _GNU_SOURCE
#include "run_progress.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define CLEAR_LINE "\r\033[K"       /* to the line's start, and erase to its end */
#define SLICE_MIN 1000000ull         /* a slow run (a cycle trace) still gets updates */
#define WIDTH_DEFAULT 80

/* Takes a self-overwriting line off the terminal. */
static void take_down(run_progress *p) {
  if (!p->shown)
    return;
  fputs(CLEAR_LINE, p->term);
  fflush(p->term);
  p->shown = false;
}

/* A write of the program's: the line goes first, then the bytes. */
static ssize_t stream_write(void *cookie, const char *buf, size_t n) {
  progress_stream *s = cookie;
  if (n == 0)
    return 0;
  if (s->shared)
    take_down(s->p);
  size_t put = fwrite(buf, 1, n, s->dest);
  int e = put < n ? errno : 0;
  /* the program's own flushes (a prompt before input) reach the real stream */
  if (fflush(s->dest) != 0 && !e)
    e = errno;
  if (put > 0)
    s->mid_line = buf[put - 1] != '\n';
  if (e) {
    clearerr(s->dest);   /* the error is the wrapper's now (tally_output_error) */
    errno = e;
    return -1;
  }
  return (ssize_t)n;
}

/* Whether two streams end in the same file or terminal. */
static bool same_place(FILE *a, FILE *b) {
  struct stat sa, sb;
  if (a == b)
    return true;
  if (fstat(fileno(a), &sa) != 0 || fstat(fileno(b), &sb) != 0)
    return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* dest's stream of the program's, buffered as dest is; false when it
 * cannot be made. */
static bool open_stream(run_progress *p, progress_stream *s, FILE *dest) {
  *s = (progress_stream){.p = p, .dest = dest, .shared = same_place(dest, p->term)};
  cookie_io_functions_t io = {.write = stream_write};
  if (!(s->wrap = fopencookie(s, "w", io)))
    return false;
  int mode = dest == stderr ? _IONBF : isatty(fileno(dest)) ? _IOLBF : _IOFBF;
  setvbuf(s->wrap, NULL, mode, BUFSIZ);
  return true;
}

static int terminal_width(FILE *f) {
  struct winsize ws;
  if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
    return ws.ws_col;
  return WIDTH_DEFAULT;
}

void progress_init(run_progress *p, progress_mode mode, double every, uint64_t max_insns, uint64_t slice) {
  *p = (run_progress){.term = stderr, .every = every, .max_insns = max_insns, .slice = slice,
                      .slice_max = slice};
  p->tty = isatty(fileno(stderr));
  p->on = mode == PROGRESS_ON || (mode == PROGRESS_AUTO && p->tty);
  if (p->on && p->tty)
    p->width = terminal_width(stderr);
}

void progress_wrap(run_progress *p, FILE **out, FILE **err) {
  if (!p->on)
    return;
  if (!open_stream(p, &p->out, *out ? *out : stdout) || !open_stream(p, &p->err, *err ? *err : stderr)) {
    progress_close(p);
    p->on = false; /* the run goes on without the line */
    return;
  }
  *out = p->out.wrap;
  *err = p->err.wrap;
}

void progress_begin(run_progress *p, const tally_sim *sim, double now) {
  p->start = p->last = now;
  p->insn0 = tally_instret(sim);
}

/* "12.35 ms" */
static void fmt_sim_time(double s, char *buf, size_t size) {
  if (s < 1e-3)
    snprintf(buf, size, "%.1f us", s * 1e6);
  else if (s < 1)
    snprintf(buf, size, "%.2f ms", s * 1e3);
  else
    snprintf(buf, size, "%.3f s", s);
}

/* The line's text, without the terminal's controls. */
static void compose(const run_progress *p, tally_sim *sim, double now, char *line, size_t size) {
  char cyc[32], ins[32], simt[32];
  uint64_t insns = tally_instret(sim);
  double wall = now - p->start;
  double mips = wall > 0 ? (double)(insns - p->insn0) / wall / 1e6 : 0;
  fmt_sim_time(tally_sim_seconds(sim), simt, sizeof simt);
  int n = snprintf(line, size, "tally: %s cycles, %s insns, %.1f MIPS, %s simulated",
                   fmt_count(tally_cycles(sim), cyc, sizeof cyc), fmt_count(insns, ins, sizeof ins), mips, simt);
  if (p->max_insns && n > 0 && (size_t)n < size)
    snprintf(line + n, size - (size_t)n, ", %.1f%% of --max-insns",
             100.0 * (double)(insns - p->insn0) / (double)p->max_insns);
}

/* Whether the program left a line unfinished where the progress line
 * would go: drawing there would tear it. */
static bool program_mid_line(const run_progress *p) {
  return (p->out.shared && p->out.mid_line) || (p->err.shared && p->err.mid_line);
}

/* Everything of the program's out (its buffers; a --trace to the same
 * terminal, which writes to stdout itself): it goes before the line. */
static void flush_program(run_progress *p) {
  progress_stream *ss[] = {&p->out, &p->err};
  for (size_t i = 0; i < 2; i++) {
    fflush(ss[i]->wrap);
    if (ss[i]->shared)
      fflush(ss[i]->dest);
  }
}

/* The program's output first, then the line. */
static void draw(run_progress *p, tally_sim *sim, double now) {
  flush_program(p);
  if (program_mid_line(p))
    return;
  char line[256];
  compose(p, sim, now, line, sizeof line);
  if (p->tty) {
    /* one column short of the width: a line that wraps cannot be taken back */
    int room = p->width - 1;
    fprintf(p->term, "\r%.*s\033[K", room, line);
    p->shown = true;
  } else {
    fprintf(p->term, "%s\n", line);
  }
  fflush(p->term);
}

void progress_tick(run_progress *p, tally_sim *sim, double now, double secs) {
  if (!p->on)
    return;
  /* slices short enough for the updates to come on time, long enough to cost nothing */
  if (secs > p->every / 4 && p->slice / 2 >= SLICE_MIN)
    p->slice /= 2;
  else if (secs < p->every / 16 && p->slice * 2 <= p->slice_max)
    p->slice *= 2;
  if (now - p->last < p->every)
    return;
  p->last = now;
  draw(p, sim, now);
}

void progress_clear(run_progress *p) {
  if (!p->on)
    return;
  flush_program(p);
  take_down(p);
}

void progress_close(run_progress *p) {
  progress_stream *ss[] = {&p->out, &p->err};
  for (size_t i = 0; i < 2; i++) {
    if (ss[i]->wrap)
      fclose(ss[i]->wrap);
    ss[i]->wrap = NULL;
  }
}
