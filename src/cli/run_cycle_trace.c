/*
 * tally run --cycle-trace FILE [--cycle-trace-window FROM:TO]: the
 * per-cycle trace of include/tally/cycletrace.h written to FILE. It is
 * started after the statistics module (it goes in front of it) and ended
 * before the module's last interval goes out.
 */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "run_cycle_trace.h"

int cycle_trace_window(const char *arg, cycle_trace_opts *o) {
  const char *colon = strchr(arg, ':');
  char from[64];
  if (!colon || (size_t)(colon - arg) >= sizeof from)
    goto bad;
  memcpy(from, arg, (size_t)(colon - arg));
  from[colon - arg] = '\0';
  o->from = 0;
  o->to = UINT64_MAX;
  if (from[0] && !parse_u64(from, &o->from))
    goto bad;
  if (colon[1] && !parse_u64(colon + 1, &o->to))
    goto bad;
  if (o->to <= o->from) {
    fprintf(stderr, "tally run: --cycle-trace-window %s: the window ends before it starts\n", arg);
    return -1;
  }
  return 0;
bad:
  fprintf(stderr, "tally run: --cycle-trace-window wants FROM:TO in cycles (either may be empty), got '%s'\n",
          arg);
  return -1;
}

int cycle_trace_open(tally_sim *sim, const cycle_trace_opts *o, cycle_trace_run *r) {
  r->f = strcmp(o->file, "-") == 0 ? stdout : fopen(o->file, "wb");
  if (!r->f) {
    fprintf(stderr, "tally run: --cycle-trace %s: %s\n", o->file, strerror(errno));
    return EXIT_CANTCREAT;
  }
  tally_error err;
  if (r->f != stdout && tally_protect_host_fd(sim, fileno(r->f), &err) != 0)   /* the program never writes it */
    fprintf(stderr, "tally run: --cycle-trace %s: %s\n", o->file, err.msg);
  if (!(r->t = tally_cycle_trace_start(sim, r->f, o->from, o->to, &err))) {
    fprintf(stderr, "tally run: --cycle-trace %s: %s\n", o->file, err.msg);
    if (r->f != stdout)
      fclose(r->f);
    r->f = NULL;
    return err.code == TALLY_E_USAGE ? EXIT_USAGE : EXIT_INTERNAL;
  }
  return 0;
}

int cycle_trace_close(cycle_trace_run *r, const char *file) {
  if (!r->t)
    return 0;
  tally_error err;
  int status = 0;
  if (tally_cycle_trace_finish(r->t, &err) != 0) {
    fprintf(stderr, "tally run: --cycle-trace %s: %s\n", file, err.msg);
    status = EXIT_INTERNAL;
  }
  r->t = NULL;
  if (r->f != stdout && fclose(r->f) != 0 && status == 0) {
    fprintf(stderr, "tally run: --cycle-trace %s: %s\n", file, strerror(errno));
    status = EXIT_INTERNAL;
  }
  r->f = NULL;
  return status;
}
