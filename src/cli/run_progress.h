/*
 * The progress line of tally run and tally profile: cycles, instructions,
 * MIPS, simulated time (and how much of --max-insns is done) on stderr
 * while the program runs. One implementation, so both commands draw and
 * clear it alike and take the same options.
 *
 * On a terminal the line overwrites itself; with --progress to anything
 * else it is a line per update, for a log. The program's own console
 * output (its stdout and stderr) reaches the board through this module's
 * streams, which take the line off the terminal before any byte of the
 * program's goes out, so the two never mix; the line is drawn again only
 * where the program's output ended a line.
 */
#ifndef TALLY_CLI_RUN_PROGRESS_H
#define TALLY_CLI_RUN_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tally/tally.h"

typedef enum progress_mode {
  PROGRESS_AUTO = 0,  /* on when stderr is a terminal */
  PROGRESS_ON,        /* --progress */
  PROGRESS_OFF,       /* --no-progress, --quiet */
} progress_mode;

#define PROGRESS_EVERY_DEFAULT 1.0 /* seconds of wall time between two updates */

struct run_progress;

/* One of the program's console streams, passed on to `dest`. */
typedef struct progress_stream {
  struct run_progress *p;
  FILE *dest;     /* the real stream: stdout or stderr */
  FILE *wrap;     /* what the board writes to; NULL when not wrapped */
  bool shared;    /* dest is where the progress line goes (the same terminal or file) */
  bool mid_line;  /* the last byte written to dest was not a newline */
} progress_stream;

typedef struct run_progress {
  bool on;               /* drawn at all */
  bool tty;              /* self-overwriting (a terminal) or a line per update */
  bool shown;            /* a self-overwriting line is on the terminal now */
  FILE *term;            /* where the line goes: stderr */
  int width;             /* the terminal's columns: a longer line would wrap and not be cleared */
  double every;          /* seconds between updates */
  double start, last;    /* wall clock of the start and of the last update */
  uint64_t insn0;        /* instructions retired before the run loop */
  uint64_t max_insns;    /* --max-insns, 0 = none: the line then says how much is done */
  uint64_t slice;        /* instructions per tally_run call */
  uint64_t slice_max;    /* the run loop's usual slice */
  progress_stream out, err;
} run_progress;

/* Decides whether the line is drawn (mode, and for PROGRESS_AUTO whether
 * stderr is a terminal); `slice` is the run loop's usual slice. */
void progress_init(run_progress *p, progress_mode mode, double every, uint64_t max_insns, uint64_t slice);

/* Puts the program's console streams through p (*out and *err: the board
 * configuration's, NULL meaning stdout and stderr): before tally_sim_new.
 * Does nothing when the line is off; turns it off when a stream cannot be
 * made. */
void progress_wrap(run_progress *p, FILE **out, FILE **err);

/* The run loop starts now (wall seconds `now`, sim's instructions so far). */
void progress_begin(run_progress *p, const tally_sim *sim, double now);

/* Instructions for the next tally_run call. */
static inline uint64_t progress_slice(const run_progress *p) { return p->slice; }

/* After a slice of `secs` wall seconds ending at `now`: the next slice's
 * size, and the line when an update is due. */
void progress_tick(run_progress *p, tally_sim *sim, double now, double secs);

/* The program's console output all out, and the line off the terminal:
 * before GDB takes over, and before the final report. */
void progress_clear(run_progress *p);

/* Closes the streams: after the board is freed. */
void progress_close(run_progress *p);

#endif
