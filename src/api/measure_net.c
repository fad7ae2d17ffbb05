/*
 * Where a measured run's intervals go (measure_internal.h): the board link,
 * the embedded collector in its own thread, control packets applied to the
 * module.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../net/auth.h"
#include "../net/board_link.h"
#include "../net/collector.h"
#include "../net/pipe.h"
#include "../net/udp.h"
#include "../store/store.h"
#include "../store/store_read.h"
#include "api_internal.h"
#include "measure_internal.h"

#define RING_PACKETS 4096u        /* DATA packets the board keeps for resends */
#define PACE_LAG (RING_PACKETS / 2)
#define PACE_GIVE_UP_MS 10000u
#define NOTE_MAX 700
#define COLLECT_TICK_NS 5000000L /* the embedded collector's drain period */

struct measure_net {
  tally_measure *mm;
  statmod *m;
  char *db;                     /* embedded store's path, NULL when remote */
  bool control, keyed;
  store *st;
  net_collector *col;
  net_pipe *pipe;               /* between the board link and the embedded collector */
  pthread_t thread;
  bool thread_running;
  atomic_int stop;
  atomic_uint_fast64_t received; /* datagrams the embedded collector has taken */
  bool pace_off;                /* the collector stopped keeping up once: no more waiting */
  /* the embedded collector's verdict (written by its thread in on_run,
   * read after joining it) */
  bool have_result;
  store_run_status status;
  uint64_t result_intervals;
  uint32_t duplicates, resend_requests;
  char note[NOTE_MAX];
  net_key key;
  net_board *b;
  char collector_addr[80], control_addr[80];
  /* the final record, to record a stopped program's run as incomplete */
  bool have_final;
  uint64_t *totals;
  uint32_t ntotals;
  uint64_t intervals;
};

static void warn(const measure_net *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(const measure_net *n, const char *fmt, ...) {
  if (!n->mm->warn_fn)
    return;
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  n->mm->warn_fn(n->mm->warn_ctx, msg);
}

/* ---- the embedded collector, in its own thread ---- */

static void on_run(void *ctx, const net_run_result *r) {
  measure_net *n = ctx;
  if (!n->b || r->run_id != net_board_run_id(n->b))
    return;
  n->have_result = true;
  n->status = r->status;
  n->result_intervals = r->intervals;
  n->duplicates = r->duplicates;
  n->resend_requests = r->resend_requests;
  snprintf(n->note, sizeof n->note, "%s", r->note);
}

static void on_warning(void *ctx, const char *msg) { warn(ctx, "collector: warning: %s", msg); }

/* The thread drains the pipe (and its socket) on a tick: a thread woken
 * for every packet cost the run more CPU (wake-ups and context switches,
 * most of it in the kernel) than storing the packets.
 * A tick of 5 ms leaves at most about a thousand packets in the pipe
 * (4,096), and keep_pace() bounds the lag anyway. */
static void *collector_loop(void *arg) {
  measure_net *n = arg;
  net_collector_stats cs;
  bool told = false;
  while (!atomic_load(&n->stop)) {
    struct timespec tick = {0, COLLECT_TICK_NS};
    nanosleep(&tick, NULL);
    if (net_collector_poll(n->col, 0) != 0 && !told) {   /* once: it repeats every poll */
      warn(n, "collector: %s", net_collector_error(n->col));
      told = true;
    }
    net_collector_get_stats(n->col, &cs);
    atomic_store(&n->received, cs.received);
  }
  return NULL;
}

static void stop_collector(measure_net *n) {
  if (!n->thread_running)
    return;
  atomic_store(&n->stop, 1);
  pthread_join(n->thread, NULL);
  n->thread_running = false;
}

/* ---- the board's sink ---- */

/* Embedded: the simulator can dispatch faster than SQLite stores, and
 * a full pipe drops what the collector has not taken. Waiting (wall time
 * only: not a simulated cycle changes) while the collector is more than
 * half a ring behind keeps every packet repairable. */
static void keep_pace(measure_net *n) {
  net_board_stats bs;
  net_board_get_stats(n->b, &bs);
  uint64_t since = 0;
  while (bs.packets_sent > atomic_load(&n->received) + PACE_LAG) {
    uint64_t now = net_now_ms();
    if (!since) {
      since = now;
    } else if (now - since > PACE_GIVE_UP_MS) {
      /* the collector is stuck: go on at full speed; the verdict says what is lost */
      warn(n, "the embedded collector stopped keeping up; going on without waiting for it");
      n->pace_off = true;
      break;
    }
    net_board_poll(n->b, 2);
  }
}

static void board_sink(void *ctx, const statmod_interval *iv) {
  measure_net *n = ctx;
  if (iv->final && n->totals && iv->n <= n->ntotals) {
    memcpy(n->totals, iv->values, iv->n * sizeof *n->totals);
    n->intervals = iv->intervals;
    n->have_final = true;
  }
  net_board_sink(n->b, iv);
  if (n->col && !iv->final && !n->pace_off)
    keep_pace(n);
}

/* ---- control packets, applied to the module ---- */

static int refuse(const char *why, char *err, size_t errlen) {
  snprintf(err, errlen, "%s", why);
  return NET_E_BAD_VALUE;
}

static int op_timer(void *ctx, uint64_t period, char *err, size_t errlen) {
  measure_net *n = ctx;
  char e[256];
  return statmod_set_period(n->m, period, e, sizeof e) ? refuse(e, err, errlen) : 0;
}

/* The function whose range is exactly [lo, hi), or "". */
static void function_named(const measure_net *n, uint32_t lo, uint32_t hi, char *name, size_t size) {
  char sym[200];
  uint32_t flo, fhi;
  tally_error te;
  name[0] = '\0';
  tally_symbolize(n->mm->sim, lo, sym, sizeof sym);
  if (!strchr(sym, '+') && tally_function_range(n->mm->sim, sym, &flo, &fhi, &te) == 0 && flo == lo && fhi == hi)
    snprintf(name, size, "%s", sym);
}

static int op_arr(void *ctx, unsigned i, uint32_t lo, uint32_t hi, const char *name, char *err, size_t errlen) {
  measure_net *n = ctx;
  char e[256], fn[200];
  if (statmod_set_arr(n->m, i, lo, hi, e, sizeof e) != 0)
    return refuse(e, err, errlen);
  if (!*name)
    function_named(n, lo, hi, fn, sizeof fn);
  measure_set_arr_name(n->mm, i, *name ? name : fn);
  return 0;
}

static int op_counter(void *ctx, unsigned i, unsigned signal, unsigned arr, bool enabled, char *err, size_t errlen) {
  measure_net *n = ctx;
  char e[256];
  if (signal > UINT16_MAX)
    return refuse("signal number out of range", err, errlen);
  statmod_counter_cfg c = {.signal = (uint16_t)signal, .arr = (uint16_t)arr, .enabled = enabled};
  return statmod_set_counter(n->m, i, &c, e, sizeof e) ? refuse(e, err, errlen) : 0;
}

static int op_task_counter(void *ctx, unsigned i, unsigned signal, unsigned arr, bool enabled, unsigned task,
                           char *err, size_t errlen) {
  measure_net *n = ctx;
  char e[256];
  if (signal > UINT16_MAX || task > UINT8_MAX)
    return refuse("signal or task register out of range", err, errlen);
  statmod_counter_cfg c = {.signal = (uint16_t)signal, .arr = (uint16_t)arr, .enabled = enabled, .task = (uint8_t)task};
  return statmod_set_counter(n->m, i, &c, e, sizeof e) ? refuse(e, err, errlen) : 0;
}

static int op_task(void *ctx, unsigned k, const char *name, char *err, size_t errlen) {
  measure_net *n = ctx;
  char e[256];
  tally_error te;
  if (*name && measure_tasks_on(n->mm, &te) != 0) {
    snprintf(err, errlen, "%s", te.msg);
    return NET_E_UNSUPPORTED;
  }
  return statmod_set_task(n->m, k, name, e, sizeof e) ? refuse(e, err, errlen) : 0;
}

static int op_start(void *ctx, char *err, size_t errlen) {
  measure_net *n = ctx;
  char e[256];
  if (statmod_start(n->m, e, sizeof e) != 0) {
    snprintf(err, errlen, "%s", e);
    return NET_E_BAD_STATE;
  }
  return 0;
}

static int op_stop(void *ctx, char *err, size_t errlen) {
  measure_net *n = ctx;
  char e[256];
  if (statmod_stop(n->m, e, sizeof e) != 0) {
    snprintf(err, errlen, "%s", e);
    return NET_E_BAD_STATE;
  }
  return 0;
}

static void op_query(void *ctx, uint64_t *period, uint64_t *intervals, uint64_t *cycle) {
  measure_net *n = ctx;
  statmod_status st;
  statmod_query(n->m, &st);
  *period = st.period;
  *intervals = st.intervals;
  *cycle = st.cycle;
}

static const net_board_ops control_ops = {.set_timer = op_timer, .set_arr = op_arr, .set_counter = op_counter,
                                           .set_task_counter = op_task_counter, .set_task = op_task,
                                          .start = op_start, .stop = op_stop, .query = op_query};

/* ---- opening and closing ---- */

void mnet_free(measure_net *n) {
  if (!n)
    return;
  stop_collector(n);
  if (n->b)
    statmod_remove_sink(n->m, board_sink, n);
  net_board_close(n->b);
  net_collector_close(n->col);
  net_pipe_free(n->pipe);
  store_close(n->st);
  free(n->totals);
  free(n->db);
  free(n);
}

static measure_net *net_of(tally_measure *m, tally_error *err) {
  if (m->net)
    return m->net;
  measure_net *n = calloc(1, sizeof *n);
  if (!n || !(n->totals = calloc(m->p.counters, sizeof *n->totals))) {
    free(n);
    api_error(err, "out of memory");
    return NULL;
  }
  n->mm = m;
  n->m = m->sm;
  n->ntotals = m->p.counters;
  atomic_init(&n->stop, 0);
  atomic_init(&n->received, 0);
  m->net = n;
  return n;
}

/* A store that could not be opened whole leaves nothing behind. */
static int store_failed(measure_net *n) {
  net_collector_close(n->col);
  net_pipe_free(n->pipe);
  store_close(n->st);
  free(n->db);
  n->col = NULL;
  n->pipe = NULL;
  n->st = NULL;
  n->db = NULL;
  n->collector_addr[0] = '\0';
  return -1;
}

int mnet_store(tally_measure *m, const char *db, tally_error *err) {
  char e[400];
  measure_net *n = net_of(m, err);
  if (!n)
    return -1;
  if (n->col || n->collector_addr[0])
    return api_fail(err, TALLY_E_USAGE, "the run already goes to %s", n->db ? n->db : n->collector_addr);
  if (!db)
    db = store_default_path();
  if (!(n->db = strdup(db)))
    return api_error(err, "out of memory");
  n->st = store_open(db, e, sizeof e);
  if (!n->st) {
    api_fail(err, TALLY_E_CREATE, "cannot create the store %s: %s", db, e);
    return store_failed(n);
  }
  /* The board link and the collector speak the protocol as over UDP, but
   * through an in-process pipe: a datagram through the kernel cost more
   * than storing it. */
  n->pipe = net_pipe_new(RING_PACKETS, 256);
  if (!n->pipe) {
    api_error(err, "out of memory");
    return store_failed(n);
  }
  /* No socket at all (listen NULL): nothing outside this process can
   * reach the embedded collector, so nothing can be forged into the run. */
  net_collector_cfg cfg = {.listen = NULL, .run_timeout_ms = UINT32_MAX, .on_run = on_run,
                           .on_warning = on_warning, .ctx = n, .pipe = n->pipe};
  n->col = net_collector_open(&cfg, n->st, e, sizeof e);
  if (!n->col) {
    api_error(err, "the embedded collector: %s", e);
    return store_failed(n);
  }
  net_collector_addr(n->col, n->collector_addr, sizeof n->collector_addr);
  return 0;
}

int mnet_remote(tally_measure *m, const char *addr, tally_error *err) {
  measure_net *n = net_of(m, err);
  if (!n)
    return -1;
  if (n->col || n->collector_addr[0])
    return api_fail(err, TALLY_E_USAGE, "the run already goes to %s", n->db ? n->db : n->collector_addr);
  net_addr a;
  char e[300];
  if (net_addr_parse(addr, &a, e, sizeof e) != 0)
    return api_fail(err, TALLY_E_USAGE, "%s", e);
  if (net_addr_port(&a) == 0)
    return api_fail(err, TALLY_E_USAGE, "'%s' needs a port other than 0 (where the collector listens)", addr);
  snprintf(n->collector_addr, sizeof n->collector_addr, "%s", addr);
  return 0;
}

static int open_link(measure_net *n, const char *control, tally_error *err) {
  char e[400];
  /* a remote run keeps its packets on disk until the collector acknowledges it complete */
  const char *tmp = getenv("TMPDIR");
  const char *spool_dir = n->pipe ? NULL : tmp && *tmp ? tmp : "/tmp";
  net_board_cfg bc = {.collector = n->collector_addr, .pipe = n->pipe, .control = control,
                      .spool_dir = spool_dir,
                      .key = n->keyed ? &n->key : NULL, .params = *statmod_params_of(n->m), .ring = RING_PACKETS,
                      .ops = &control_ops, .ops_ctx = n};
  n->b = net_board_open(&bc, e, sizeof e);
  if (!n->b)
    return api_fail(err, control ? TALLY_E_USAGE : TALLY_E_INTERNAL, "%s%s", control ? "--control: " : "", e);
  if (spool_dir && !net_board_spool_path(n->b)[0])
    warn(n, "no spool for this run (%s): if no collector acknowledges it, nothing is kept",
         net_board_error(n->b));
  if (control)
    net_board_control_addr(n->b, n->control_addr, sizeof n->control_addr);
  if (statmod_add_sink(n->m, board_sink, n, e, sizeof e) != 0) {
    net_board_close(n->b);
    n->b = NULL;
    return api_error(err, "%s", e);
  }
  return 0;
}

/* One key for the whole run: the board link tags its stream and checks
 * control packets and the collector's replies with it, and an embedded
 * collector checks the stream with it too. */
static int load_key(measure_net *n, const char *key_file, const char *key_env, tally_error *err) {
  char e[400];
  int rc = key_file ? net_key_load(key_file, &n->key, e, sizeof e) : net_key_from_env(key_env, &n->key, e, sizeof e);
  if (rc != 0)
    return api_fail(err, TALLY_E_INPUT, "%s %s", key_file ? "--key" : "--key-env", e);
  n->keyed = true;
  if (n->col)
    net_collector_set_key(n->col, &n->key);
  return 0;
}

int mnet_key(tally_measure *m, const char *key_file, const char *key_env, tally_error *err) {
  measure_net *n = m->net;
  if (!n || !n->collector_addr[0])
    return api_fail(err, TALLY_E_USAGE, "a key authenticates the run's stream: a store or a collector first");
  if (n->b)
    return api_fail(err, TALLY_E_USAGE, "the board link is already open: set the key before control or start");
  if (!key_file == !key_env)
    return api_fail(err, TALLY_E_USAGE, "a key comes from a file or an environment variable: exactly one of them");
  return load_key(n, key_file, key_env, err);
}

int mnet_key_bytes(tally_measure *m, const void *key, size_t len, tally_error *err) {
  measure_net *n = m->net;
  char e[200];
  if (!n || !n->collector_addr[0])
    return api_fail(err, TALLY_E_USAGE, "a key authenticates the run's stream: a store or a collector first");
  if (n->b)
    return api_fail(err, TALLY_E_USAGE, "the board link is already open: set the key before control or start");
  if (!key || net_key_set(&n->key, key, len, e, sizeof e) != 0)
    return api_fail(err, TALLY_E_INPUT, "the run's key: %s", key ? e : "none given");
  n->keyed = true;
  if (n->col)
    net_collector_set_key(n->col, &n->key);
  return 0;
}

int mnet_control(tally_measure *m, const char *addr, const char *key, tally_error *err) {
  measure_net *n = m->net;
  if (!n || !n->collector_addr[0])
    return api_fail(err, TALLY_E_USAGE, "control needs somewhere to send the run: a store or a collector first");
  if (n->b)
    return api_fail(err, TALLY_E_USAGE, "the board link is already open");
  if (key && load_key(n, key, NULL, err) != 0)
    return -1;
  n->control = true;
  return open_link(n, addr, err);
}

const char *mnet_control_addr(const measure_net *n) { return n ? n->control_addr : ""; }
uint64_t mnet_run_id(const measure_net *n) { return n && n->b ? net_board_run_id(n->b) : 0; }

static int start_thread(measure_net *n, tally_error *err) {
  if (!n->col || n->thread_running)
    return 0;
  /* The thread takes none of the process's signals: Ctrl-C and timers
   * are the simulating thread's to handle (tally_request_stop). */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  int rc = pthread_create(&n->thread, NULL, collector_loop, n);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc != 0)
    return api_error(err, "cannot start the embedded collector's thread");
  n->thread_running = true;
  return 0;
}

static int describe(measure_net *n, const char *program, const char *core, tally_error *err) {
  const statmod_params *p = statmod_params_of(n->m);
  net_counter_label *labels = calloc(p->counters, sizeof *labels);
  char(*text)[2][NET_MAX_TEXT + 1] = calloc(p->counters, sizeof *text);
  if (!labels || !text) {
    free(labels);
    free(text);
    return api_error(err, "out of memory");
  }
  for (uint32_t i = 0; i < p->counters; i++) {
    statmod_counter_cfg c = statmod_counter(n->m, i);
    bool anywhere;
    uint32_t lo, hi;
    const char *name = measure_words(n->mm, i, text[i][0], sizeof text[i][0], text[i][1], sizeof text[i][1],
                                     &anywhere, &lo, &hi);
    labels[i] = (net_counter_label){.signal = c.signal, .arr = c.arr, .lo = lo, .hi = hi, .enabled = c.enabled,
                                    .name = name, .where = text[i][1], .label = text[i][0]};
  }
  statmod_status st;
  statmod_query(n->m, &st);
  /* the clock at the start, for reports in time (tally report --perfetto) */
  double mhz = n->mm->sim ? tally_energy_now(n->mm->sim).frequency_mhz : 0;
  net_run_desc d = {.period = st.period, .freq_mhz = mhz, .program = program, .core = core, .counters = labels};
  int rc = net_board_describe(n->b, &d);
  if (rc != 0)
    api_error(err, "%s", net_board_error(n->b));
  free(labels);
  free(text);
  return rc;
}

int mnet_begin(tally_measure *m, const char *program, const char *core, tally_error *err) {
  measure_net *n = m->net;
  if (!n)
    return 0;
  if (!n->b && open_link(n, NULL, err) != 0)
    return -1;
  if (start_thread(n, err) != 0)
    return -1;
  return describe(n, program, core, err);
}

int mnet_wait_start(tally_measure *m, const char *program, const char *core, const volatile int *cancel,
                    tally_error *err) {
  measure_net *n = m->net;
  if (!n || !n->b || !n->control)
    return api_fail(err, TALLY_E_USAGE, "no control address: tally_measure_control first");
  if (start_thread(n, err) != 0)
    return -1;
  int rc = net_board_wait_start(n->b, -1, cancel);
  if (rc == 1)
    return 1;
  if (rc != 0)
    return api_error(err, "--control: %s", net_board_error(n->b));
  measure_configured(m);
  return describe(n, program, core, err);
}

void mnet_cut_short(measure_net *n) {
  if (n && n->b)
    net_board_set_cut_short(n->b);
}

/* Embedded: the verdict as the store has it now. */
static int finish_embedded(measure_net *n, const char *why, uint64_t id, tally_measure_result *res,
                           tally_error *err) {
  stop_collector(n);
  net_collector_finish_all(n->col, "tally run ended before the collector had the whole run");
  int rc = 0;
  if (why && n->have_final) {
    /* The counts are those of the cycles simulated, but the program did
     * not run to its end: never to be taken for a whole run. */
    char note[NOTE_MAX + 200];
    /* the collector's own words for it (from the final packets' cut_short)
     * give way to ours, which say why */
    char *generic = strstr(n->note, "the board's program did not run to its end");
    if (generic) {
      *generic = '\0';
      size_t len = strlen(n->note);
      if (len >= 2 && strcmp(n->note + len - 2, "; ") == 0)
        n->note[len - 2] = '\0';
    }
    snprintf(note, sizeof note, "the program did not run to its end (%s): the counts cover only the cycles "
                                "simulated%s%s", why, n->note[0] ? "; " : "", n->note);
    if (store_finish_run(n->st, id, STORE_RUN_INCOMPLETE, n->totals, n->ntotals, n->intervals, note) != 0 ||
        store_flush(n->st) != 0)
      rc = api_error(err, "the store %s: %s", n->db, store_error(n->st));
  }
  store_run_view v = {0};
  if (store_get_run(n->st, id, &v) == 1) {
    res->verdict = v.status == STORE_RUN_COMPLETE     ? TALLY_VERDICT_COMPLETE
                   : v.status == STORE_RUN_INCOMPLETE ? TALLY_VERDICT_INCOMPLETE
                                                      : TALLY_VERDICT_UNKNOWN;
    res->stored_intervals = v.intervals;
    snprintf(n->mm->note, sizeof n->mm->note, "%s", v.note ? v.note : "");
  } else {
    res->verdict = TALLY_VERDICT_UNKNOWN;
  }
  store_run_view_clear(&v);
  res->db = n->db;
  return rc;
}

int mnet_finish(tally_measure *m, const char *why, tally_measure_result *res, tally_error *err) {
  measure_net *n = m->net;
  if (!n || !n->b)
    return 0;
  uint64_t id = net_board_run_id(n->b);
  net_board_stats bs;
  net_board_get_stats(n->b, &bs);
  res->run_id = id;
  res->packets_sent = bs.packets_sent;
  res->resent = bs.resent;
  res->control_bad_tags = bs.bad_tags;
  res->replies_refused = bs.refused_replies;
  res->control_stale = bs.stale;
  res->control_malformed = bs.malformed;
  if (n->col)
    return finish_embedded(n, why, id, res, err);
  res->collector = n->collector_addr;
  res->verdict = !bs.acked ? TALLY_VERDICT_UNKNOWN
                 : bs.verdict == 1 ? TALLY_VERDICT_COMPLETE : TALLY_VERDICT_INCOMPLETE;
  bool stored = res->verdict != TALLY_VERDICT_UNKNOWN; /* the collector has it, and its verdict stands */
  if (net_board_spool_end(n->b, stored) != 0 && !stored)
    return api_fail(err, TALLY_E_CREATE, "%s", net_board_error(n->b));
  if (!stored && net_board_spool_path(n->b)[0])
    res->spool = net_board_spool_path(n->b);
  return 0;
}
