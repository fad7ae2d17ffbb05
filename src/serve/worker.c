/*
 * The child a run executes in (`tally serve --worker DIR`, started by
 * jobs.c with its limits set). It reads DIR/job.json (written by the
 * server, already checked), loads the program, sets up the core model, the
 * statistics module and the profile, shuts itself off from host files
 * (sandbox.c), runs, and reports on stdout as JSON lines:
 *   {"t":"start", ...}       the events (plain names) and the run's set-up
 *   {"t":"progress", ...}    instructions, cycles, intervals so far
 *   {"t":"iv","rows":[...]}  intervals: [index, cycle_end, v0, v1, ...]
 *   {"t":"out","s":"..."}    program output (stdout and stderr, in order)
 *   {"t":"end", ...}         why it stopped, exit status, totals
 *   {"t":"error","msg":...}  it could not run (then status 65)
 * Its statistics-module packets go to the server's collector over loopback
 * UDP, which stores the run like `tally collect` does; they carry the tag
 * of the server's key, read from the pipe inherited as SERVE_KEY_FD (the
 * collector takes nothing else).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve.h"
#include "tally/run.h"
#include "tally/tally.h"
#include "worker.h"

#define SLICE_INSNS 2000000ull
#define MAX_ROWS 100000       /* intervals sent to the page; the store keeps them all */
#define ROWS_PER_EVENT 4096
#define BYTES_PER_EVENT (2u << 20) /* an "iv" line's text, about, whatever the number of pairs */

typedef struct worker {
  json_t *job;
  tally_sim *sim;
  tally_measure *m;
  FILE *out;                  /* the program's output, as "out" events */
  size_t out_n, out_max;
  json_t *rows;               /* intervals not sent yet */
  size_t rows_bytes;          /* their text's length, about */
  char utf8[4];               /* the start of a UTF-8 sequence the last write cut */
  size_t utf8_n;
  tally_line_table *lines;    /* the ELF's, read before the sandbox closes files */
  json_t *sources;            /* the source files' text (--source-dir), read then too, or NULL */
  uint64_t rows_sent;
  tally_error err;
  int rc;                     /* go()'s exit status */
  uint8_t key[1024];          /* the server collector's key (SERVE_KEY_FD), key_len 0 if none */
  size_t key_len;
} worker;

/* Takes the key the server handed down (serve.h) and closes its pipe,
 * before anything of the run exists. */
static void take_key(worker *w) {
  struct stat st;
  if (fstat(SERVE_KEY_FD, &st) != 0 || !S_ISFIFO(st.st_mode))
    return;
  while (w->key_len < sizeof w->key) {
    ssize_t n = read(SERVE_KEY_FD, w->key + w->key_len, sizeof w->key - w->key_len);
    if (n <= 0)
      break;
    w->key_len += (size_t)n;
  }
  close(SERVE_KEY_FD);
}

/* Why to stop, from the server (jobs.c: SIGTERM the user, SIGUSR1 the
 * wall-time limit) or the kernel (SIGXCPU: the CPU-time limit's soft
 * part). A signal handler reaches nothing but statics, hence these two. */
static volatile sig_atomic_t stop_signal;
static tally_measure *volatile stop_measure;
static tally_sim *volatile stop_sim;

static void on_stop(int sig) {
  stop_signal = sig;
  if (stop_measure)
    tally_measure_cancel(stop_measure); /* async-signal-safe */
  if (stop_sim)
    tally_request_stop(stop_sim); /* async-signal-safe: ends a wait inside an instruction (input, a device) */
}

static const char *stop_reason(int sig) {
  return sig == SIGTERM ? "stopped by the user" : sig == SIGUSR1 ? "stopped at its wall-time limit"
       : sig == SIGXCPU ? "stopped at its CPU-time limit" : NULL;
}

static void catch_stops(void) {
  struct sigaction sa = {.sa_handler = on_stop};
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGUSR1, &sa, NULL);
  sigaction(SIGXCPU, &sa, NULL);
  sigset_t stops; /* blocked by the server until now (jobs.c) */
  sigemptyset(&stops);
  sigaddset(&stops, SIGTERM);
  sigaddset(&stops, SIGUSR1);
  sigprocmask(SIG_UNBLOCK, &stops, NULL);
}

static void emit(json_t *e) {
  json_dumpf(e, stdout, JSON_COMPACT);
  fputc('\n', stdout);
  fflush(stdout);
  json_decref(e);
}

static int fail(const char *what, const char *msg) {
  emit(json_pack("{s:s,s:s++}", "t", "error", "msg", what, ": ", msg));
  return 65;
}

/* The UTF-8 sequence at s (n bytes there): its length when well-formed
 * (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF);
 * else 0 and in *bad the bytes of its maximal subpart (what one U+FFFD
 * replaces, as Unicode's "best practice" and Python's decoder do), with
 * *cut when that subpart is the start of a sequence n ends. */
static size_t utf8_len(const unsigned char *s, size_t n, size_t *bad, bool *cut) {
  unsigned c = s[0];
  size_t len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */
  if (c == 0xe0) lo = 0xa0;
  if (c == 0xed) hi = 0x9f;
  if (c == 0xf0) lo = 0x90;
  if (c == 0xf4) hi = 0x8f;
  *bad = 1, *cut = false;
  if (!len)
    return 0;
  for (size_t i = 1; i < len; i++) {
    if (i >= n)
      return *bad = i, *cut = true, 0;
    if (s[i] < (i == 1 ? lo : 0x80) || s[i] > (i == 1 ? hi : 0xbf))
      return *bad = i, 0;
  }
  return len;
}

/* The program's bytes as valid UTF-8 (JSON strings are): each maximal
 * subpart of an ill-formed sequence becomes U+FFFD. A sequence cut at the
 * end of buf is kept back in w->utf8 for the next write (at the end of
 * the output it becomes U+FFFD). Returns a malloc'd string of *out_n
 * bytes. */
static char *utf8_clean(worker *w, const char *buf, size_t n, bool last, size_t *out_n) {
  size_t total = w->utf8_n + n;
  unsigned char *in = malloc(total + 1), *out = malloc(total * 3 + 1);
  if (!in || !out)
    return free(in), free(out), NULL;
  memcpy(in, w->utf8, w->utf8_n);
  memcpy(in + w->utf8_n, buf, n);
  w->utf8_n = 0;
  size_t o = 0;
  for (size_t i = 0; i < total;) {
    size_t bad;
    bool cut;
    size_t len = utf8_len(in + i, total - i, &bad, &cut);
    if (!len && cut && !last) { /* wait for the rest */
      w->utf8_n = total - i;
      memcpy(w->utf8, in + i, w->utf8_n);
      break;
    }
    if (!len) {
      memcpy(out + o, "\xef\xbf\xbd", 3), o += 3, i += bad;
      continue;
    }
    memcpy(out + o, in + i, len), o += len, i += len;
  }
  free(in);
  out[o] = 0;
  *out_n = o;
  return (char *)out;
}

static void emit_out(worker *w, const char *buf, size_t n, bool last) {
  size_t m;
  char *s = utf8_clean(w, buf, n, last, &m);
  if (s && m)
    emit(json_pack("{s:s,s:s%}", "t", "out", "s", s, m));
  free(s);
}

/* The program's output: an event per write, up to max_output bytes. */
static ssize_t out_write(void *cookie, const char *buf, size_t n) {
  worker *w = cookie;
  size_t keep = w->out_n >= w->out_max ? 0 : w->out_max - w->out_n;
  if (keep > n)
    keep = n;
  if (keep)
    emit_out(w, buf, keep, w->out_n + keep >= w->out_max);
  if (w->out_n < w->out_max && w->out_n + n >= w->out_max)
    emit(json_pack("{s:s,s:s}", "t", "out", "s", "\n[output cut here: the server keeps the first part only]\n"));
  w->out_n += n;
  return (ssize_t)n;
}

static void flush_rows(worker *w) {
  size_t n = json_array_size(w->rows);
  if (!n)
    return;
  emit(json_pack("{s:s,s:O}", "t", "iv", "rows", w->rows));
  w->rows_sent += n;
  w->rows_bytes = 0;
  json_array_clear(w->rows);
}

/* Digits of v, and its comma: an interval row's text is about their sum. */
static size_t text_len(uint64_t v) {
  size_t n = 2;
  while (v >= 10)
    v /= 10, n++;
  return n;
}

static void on_interval(void *ctx, const tally_interval *iv) {
  worker *w = ctx;
  if (iv->final || w->rows_sent + json_array_size(w->rows) >= MAX_ROWS)
    return;
  json_t *r = json_pack("[I,I]", (json_int_t)iv->index, (json_int_t)iv->cycle_end);
  w->rows_bytes += 2 + text_len(iv->index) + text_len(iv->cycle_end);
  for (uint32_t i = 0; i < iv->n; i++) {
    json_array_append_new(r, json_integer((json_int_t)iv->values[i]));
    w->rows_bytes += text_len(iv->values[i]);
  }
  json_array_append_new(w->rows, r);
  /* lines of a bounded size, however many pairs: the server keeps and
   * sends whole lines */
  if (json_array_size(w->rows) >= ROWS_PER_EVENT || w->rows_bytes >= BYTES_PER_EVENT)
    flush_rows(w);
}


static const char *jstr(json_t *o, const char *k, const char *dflt) {
  json_t *v = json_object_get(o, k);
  return json_is_string(v) ? json_string_value(v) : dflt;
}
static uint64_t jnum(json_t *o, const char *k, uint64_t dflt) {
  json_t *v = json_object_get(o, k);
  return json_is_integer(v) ? (uint64_t)json_integer_value(v) : dflt;
}

static int load(worker *w) {
  json_t *j = w->job;
  const char *prog = jstr(j, "program", "");
  if (jstr(j, "map", NULL)) {
    uint32_t addr = (uint32_t)jnum(j, "load_addr", TALLY_RAM_BASE);
    if (tally_load_raw(w->sim, prog, addr, (uint32_t)jnum(j, "entry", addr), &w->err) != 0 ||
        tally_load_map(w->sim, jstr(j, "map", ""), &w->err) != 0)
      return -1;
  } else if (tally_load_elf(w->sim, prog, &w->err) != 0) {
    return -1;
  }
  json_t *args = json_object_get(j, "args");
  char *argv[17] = {"program"};
  int argc = 1;
  for (size_t i = 0; i < json_array_size(args) && argc < 17; i++)
    argv[argc++] = (char *)json_string_value(json_array_get(args, i));
  return tally_set_args(w->sim, argc, argv);
}

static int set_core(worker *w) {
  json_t *sets = json_object_get(w->job, "sets");
  const char *v[64];
  int n = 0;
  for (size_t i = 0; i < json_array_size(sets) && n < 64; i++)
    v[n++] = json_string_value(json_array_get(sets, i));
  return tally_set_core(w->sim, jstr(w->job, "core", "tally5"), v, n, &w->err);
}

static int set_measure(worker *w, const char *collector) {
  json_t *pairs = json_object_get(w->job, "pairs");
  if (json_array_size(pairs) == 0)
    return 0;
  tally_measure_params p;
  tally_measure_params_default(&p);
  p.counters = (uint32_t)jnum(w->job, "counters", p.counters);
  p.width = (uint32_t)jnum(w->job, "width", p.width);
  p.arrs = (uint32_t)jnum(w->job, "arrs", p.arrs);
  p.interval = jnum(w->job, "interval", SERVE_DEFAULT_INTERVAL);
  w->m = tally_measure_new(w->sim, &p, &w->err);
  if (!w->m)
    return -1;
  for (size_t i = 0; i < json_array_size(pairs); i++)
    if (tally_measure_add(w->m, json_string_value(json_array_get(pairs, i)), &w->err) != 0)
      return -1;
  if (collector && tally_measure_collector(w->m, collector, &w->err) != 0)
    return -1;
  if (collector && !w->key_len) {
    snprintf(w->err.msg, sizeof w->err.msg, "no key from the server for its collector");
    return -1;
  }
  if (collector && tally_measure_key_bytes(w->m, w->key, w->key_len, &w->err) != 0)
    return -1;
  explicit_bzero(w->key, sizeof w->key);   /* the run's measure holds its copy */
  return tally_measure_on_interval(w->m, on_interval, w, &w->err);
}

static void emit_start(worker *w) {
  json_t *ev = json_array();
  for (uint32_t i = 0; w->m && i < tally_measure_events(w->m); i++) {
    const tally_event_info *e = tally_measure_event(w->m, i);
    json_array_append_new(ev, json_pack("{s:s,s:s,s:s,s:I}", "signal", e->signal, "label", e->label, "where",
                                        e->where, "counter", (json_int_t)e->counter));
  }
  emit(json_pack("{s:s,s:s,s:o,s:o,s:I,s:I}", "t", "start", "core", tally_core_name(w->sim), "events", ev,
                 "run_id", serve_run_id(w->m ? tally_measure_run_id(w->m) : 0), "max_insns",
                 (json_int_t)jnum(w->job, "max_insns", 0), "max_cycles", (json_int_t)jnum(w->job, "max_cycles", 0)));
}

static void emit_progress(worker *w) {
  tally_progress p = {tally_instret(w->sim), tally_cycles(w->sim), 0};
  if (w->m)
    tally_measure_progress(w->m, &p);
  flush_rows(w);
  emit(json_pack("{s:s,s:I,s:I,s:I}", "t", "progress", "insns", (json_int_t)p.instret, "cycles",
                 (json_int_t)p.cycles, "intervals", (json_int_t)p.intervals));
}

static const char *stop_name(tally_stop s) {
  switch (s) {
  case TALLY_STOP_EXIT: return "exit";
  case TALLY_STOP_TRAP: return "trap";
  case TALLY_STOP_LIMIT: return "limit";
  case TALLY_STOP_HALT: return "halt";
  case TALLY_STOP_CANCELLED: return "cancelled";
  case TALLY_STOP_CYCLES: return "cycles";
  default: return "error";
  }
}

/* Runs to the end or the instruction budget. */
static tally_stop run(worker *w) {
  uint64_t budget = jnum(w->job, "max_insns", UINT64_MAX), start = tally_instret(w->sim);
  for (;;) {
    uint64_t done = tally_instret(w->sim) - start;
    if (done >= budget)
      return TALLY_STOP_LIMIT;
    uint64_t slice = budget - done < SLICE_INSNS ? budget - done : SLICE_INSNS;
    tally_stop s = w->m ? tally_measure_run(w->m, slice) : tally_run(w->sim, slice);
    emit_progress(w);
    if (stop_signal && (s == TALLY_STOP_LIMIT || s == TALLY_STOP_CANCELLED))
      return TALLY_STOP_CANCELLED;
    if (s != TALLY_STOP_LIMIT)
      return s;
  }
}

static json_t *signal_totals(tally_sim *sim) {
  int n = tally_signal_count();
  uint64_t *t = calloc((size_t)n, sizeof *t);
  json_t *a = json_array();
  if (!t)
    return a;
  tally_signal_totals(sim, t);
  for (int i = 0; i < n; i++)
    if (t[i])
      json_array_append_new(a, json_pack("{s:s,s:s,s:I}", "signal", tally_signal_name(i), "noun",
                                         tally_signal_noun(i), "total", (json_int_t)t[i]));
  free(t);
  return a;
}

static void emit_end(worker *w, tally_stop s, const tally_measure_result *res) {
  json_t *totals = json_array();
  for (uint32_t i = 0; w->m && i < tally_measure_events(w->m); i++) {
    const tally_event_info *e = tally_measure_event(w->m, i);
    json_array_append_new(totals, json_pack("{s:s,s:I,s:b,s:s?}", "label", e->label, "total", (json_int_t)e->total,
                                            "saturated", e->saturated, "task", e->task));
  }
  char trap[160] = "";
  if (s == TALLY_STOP_TRAP) {
    tally_trap t = tally_last_trap(w->sim);
    char where[96];
    tally_symbolize(w->sim, t.pc, where, sizeof where);
    snprintf(trap, sizeof trap, "%s at %s (mtval 0x%08x)", tally_cause_name(t.cause), where, t.tval);
  }
  emit(json_pack("{s:s,s:s,s:i,s:s,s:s,s:I,s:I,s:o,s:o,s:o,s:s,s:s,s:s}", "t", "end", "stop", stop_name(s),
                 "exit_code", tally_exit_code(w->sim), "detail", tally_stop_detail(w->sim), "trap", trap, "insns",
                 (json_int_t)tally_instret(w->sim), "cycles", (json_int_t)tally_cycles(w->sim), "totals", totals,
                 "signals", signal_totals(w->sim), "run_id", serve_run_id(res ? res->run_id : 0), "reason", s == TALLY_STOP_CANCELLED && stop_reason(stop_signal) ? stop_reason(stop_signal) : "", "verdict",
                 !res ? "none" : res->verdict == TALLY_VERDICT_COMPLETE ? "complete"
                 : res->verdict == TALLY_VERDICT_INCOMPLETE ? "incomplete" : res->verdict == TALLY_VERDICT_UNKNOWN
                 ? "unknown" : "none", "note", res && res->note ? res->note : ""));
}

static int set_up(worker *w, FILE **prof) {
  json_t *job = w->job;
  if (load(w) != 0)
    return fail("the program", w->err.msg);
  tally_set_max_cycles(w->sim, jnum(job, "max_cycles", 0));
  if (set_core(w) != 0)
    return fail("the core model", w->err.msg);
  if (json_is_true(json_object_get(job, "profile"))) {
    if (tally_profile_enable(w->sim, 0, &w->err) != 0 ||
        tally_profile_timeline_enable(w->sim, WORKER_TIMELINE_CALLS, &w->err) != 0)
      return fail("the profile", w->err.msg);
    if (!jstr(job, "map", NULL))
      w->lines = tally_line_table_read(jstr(job, "program", ""), &w->err); /* none is fine: the page says so */
    if (w->lines && jstr(job, "source_dir", NULL))
      w->sources = worker_read_sources(w->sim, w->lines, jstr(job, "source_dir", ""));
    *prof = fopen("profile.json", "w");
    if (!*prof)
      return fail("the profile", "cannot write profile.json in the run's folder");
  }
  if (set_measure(w, jstr(job, "collector", NULL)) != 0)
    return fail("the statistics module", w->err.msg);
  return 0;
}

static int go(worker *w) {
  FILE *prof = NULL;
  int rc = set_up(w, &prof);
  if (rc)
    return rc;
  if (serve_sandbox_no_files() != 0)
    return fail("the sandbox", "cannot shut the run off from host files on this machine");
  if (w->m && tally_measure_start(w->m, jstr(w->job, "name", "program"), tally_core_name(w->sim), &w->err) != 0)
    return fail("the statistics module", w->err.msg);
  stop_measure = w->m;
  if (stop_signal)
    tally_measure_cancel(w->m);
  emit_start(w);
  tally_stop s = run(w);
  fflush(w->out);
  if (w->utf8_n) /* a sequence the program never finished */
    emit_out(w, "", 0, true);
  tally_measure_result res;
  if (w->m) {
    const char *why = s == TALLY_STOP_EXIT ? NULL : s == TALLY_STOP_LIMIT ? "instruction budget used up"
                    : s == TALLY_STOP_CYCLES ? "cycle budget used up"
                    : s == TALLY_STOP_CANCELLED && stop_reason(stop_signal) ? stop_reason(stop_signal) : stop_name(s);
    if (tally_measure_finish(w->m, why, &res, &w->err) != 0)
      emit(json_pack("{s:s,s:s}", "t", "warning", "msg", w->err.msg));
    flush_rows(w);
  }
  emit_end(w, s, w->m ? &res : NULL);
  if (prof) {
    tally_profile *p = tally_profile_take(w->sim);
    if (p)
      worker_write_profile(w->sim, p, w->lines, w->sources, prof);
    tally_profile_free(p);
    fclose(prof);
  }
  return 0;
}

static void *go_thread(void *arg) {
  worker *w = arg;
  w->rc = go(w);
  return NULL;
}

/* The simulation gets a thread of its own, which shuts itself off from
 * files (sandbox.c says why a thread). */
static int go_in_thread(worker *w) {
  pthread_t t;
  if (pthread_create(&t, NULL, go_thread, w) != 0)
    return fail("the run", "cannot start its thread");
  pthread_join(t, NULL);
  return w->rc;
}

int serve_worker_main(const char *jobdir) {
  worker w = {.rows = json_array()};
  take_key(&w);
  json_error_t je;
  if (chdir(jobdir) != 0 || !(w.job = json_load_file("job.json", 0, &je)))
    return fail("the run", "cannot read its job file");
  catch_stops();
  w.out_max = jnum(w.job, "max_output", 256 << 10);
  w.out = fopencookie(&w, "w", (cookie_io_functions_t){.write = out_write});
  setvbuf(w.out, NULL, _IOLBF, 0);
  tally_config cfg;
  tally_config_default(&cfg);
  cfg.out = cfg.err = w.out;
  cfg.in_fd = -1;
  cfg.board = jstr(w.job, "board", NULL); /* a shipped board's name (jobs.c checked it) */
  tally_error berr;
  w.sim = tally_sim_open(&cfg, &berr);
  stop_sim = w.sim;
  if (w.sim && stop_signal)
    tally_request_stop(w.sim);
  int rc;
  if (!w.sim && berr.code != TALLY_E_INTERNAL)
    rc = fail("the run", berr.msg);
  else if (!w.sim)
    rc = fail("the run", "out of memory for the simulated board (the server's --mem-limit)");
  /* an uploaded program gets no host file at all: the library refuses
   * every open but the console, below the seccomp filter that backs it */
  else if (tally_set_host_files(w.sim, TALLY_HOST_FILES_NONE, NULL, &w.err) != 0)
    rc = fail("the run", w.err.msg);
  else if (json_is_true(json_object_get(w.job, "check"))) {
    bool raw = jstr(w.job, "map", NULL) != NULL;
    struct stat st;
    uint32_t lo = (uint32_t)json_integer_value(json_object_get(w.job, "load_addr"));
    uint64_t hi = raw && stat(jstr(w.job, "program", ""), &st) == 0 ? lo + (uint64_t)st.st_size : lo;
    rc = worker_check(w.sim, load(&w), raw ? NULL : jstr(w.job, "program", NULL), raw, lo, hi, &w.err);
  }
  else
    rc = go_in_thread(&w);
  stop_measure = NULL;
  stop_sim = NULL;
  tally_measure_free(w.m);
  tally_line_table_free(w.lines);
  json_decref(w.sources);
  tally_sim_free(w.sim);
  fclose(w.out);
  json_decref(w.rows);
  json_decref(w.job);
  return rc;
}
