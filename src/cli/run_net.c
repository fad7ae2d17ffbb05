/*
 * tally run's network half (run_net.h): the board link, the embedded
 * collector in its own thread, control packets applied to the module.
 */
#include "run_net.h"

#include <inttypes.h>
#include <pthread.h>
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
#include "cli.h"

#define RING_PACKETS 4096u        /* DATA packets the board keeps for resends */
#define PACE_LAG (RING_PACKETS / 2)
#define PACE_GIVE_UP_MS 10000u
#define NOTE_MAX 700
#define COLLECT_TICK_NS 5000000L /* the embedded collector's drain period */

struct run_net {
  net_opts o;
  count_run *cr;
  statmod *m;
  tally_sim *sim;
  const char *program, *core;
  const char *db;               /* embedded store's path, NULL when remote */
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

/* ---- options ---- */

static int check_addr(const char *opt, const char *text, bool need_port) {
  net_addr a;
  char err[300];
  if (net_addr_parse(text, &a, err, sizeof err) != 0) {
    fprintf(stderr, "tally run: %s %s\n", opt, err);
    return -1;
  }
  if (need_port && net_addr_port(&a) == 0) {
    fprintf(stderr, "tally run: %s '%s' needs a port other than 0 (where 'tally collect --listen' listens)\n", opt,
            text);
    return -1;
  }
  return 0;
}

int run_net_check(const net_opts *o, bool counting) {
  if (o->key && !o->control) {
    fprintf(stderr, "tally run: --key FILE goes with --control ADDR:PORT (it authenticates control packets)\n");
    return -1;
  }
  if (o->no_store && o->db) {
    fprintf(stderr, "tally run: --no-store and --db FILE contradict each other\n");
    return -1;
  }
  if (o->collector && (o->db || o->no_store)) {
    fprintf(stderr, "tally run: --collector sends the run to a remote 'tally collect', which stores it in its own "
                    "--db; --db and --no-store do not go with it\n");
    return -1;
  }
  if (o->no_store && o->control) {
    fprintf(stderr, "tally run: --control needs somewhere to send the run: drop --no-store (store locally) or "
                    "give --collector ADDR:PORT\n");
    return -1;
  }
  if (!counting && !o->control && (o->db || o->no_store || o->collector)) {
    fprintf(stderr, "tally run: --db, --no-store and --collector go with --count or --control (what to count: "
                    "tally run --count cycle@main --interval 100000 PROGRAM)\n");
    return -1;
  }
  if (o->collector && check_addr("--collector", o->collector, true) != 0)
    return -1;
  if (o->control && check_addr("--control", o->control, false) != 0)
    return -1;
  return 0;
}

/* ---- the embedded collector, in its own thread ---- */

static void on_run(void *ctx, const net_run_result *r) {
  run_net *n = ctx;
  if (r->run_id != net_board_run_id(n->b))
    return;
  n->have_result = true;
  n->status = r->status;
  n->result_intervals = r->intervals;
  n->duplicates = r->duplicates;
  n->resend_requests = r->resend_requests;
  snprintf(n->note, sizeof n->note, "%s", r->note);
}

static void on_warning(void *ctx, const char *msg) {
  (void)ctx;
  fprintf(stderr, "tally run: collector: warning: %s\n", msg);
}

/* The thread drains the pipe (and its socket) on a tick: a thread woken
 * for every packet cost the run more CPU (wake-ups and context switches,
 * most of it in the kernel) than storing the packets.
 * A tick of 5 ms leaves at most about a thousand packets in the pipe
 * (4,096), and keep_pace() bounds the lag anyway. */
static void *collector_loop(void *arg) {
  run_net *n = arg;
  net_collector_stats cs;
  bool told = false;
  while (!atomic_load(&n->stop)) {
    struct timespec tick = {0, COLLECT_TICK_NS};
    nanosleep(&tick, NULL);
    if (net_collector_poll(n->col, 0) != 0 && !told) {   /* once: it repeats every poll */
      fprintf(stderr, "tally run: collector: %s\n", net_collector_error(n->col));
      told = true;
    }
    net_collector_get_stats(n->col, &cs);
    atomic_store(&n->received, cs.received);
  }
  return NULL;
}

static void stop_collector(run_net *n) {
  if (!n->thread_running)
    return;
  atomic_store(&n->stop, 1);
  pthread_join(n->thread, NULL);
  n->thread_running = false;
}

/* ---- the board's sink ---- */

/* Embedded: the simulator can dispatch faster than SQLite stores, and
 * loopback drops what the collector's socket cannot hold. Waiting (wall
 * time only: not a simulated cycle changes) while the collector is more
 * than half a ring behind keeps every packet repairable. */
static void keep_pace(run_net *n) {
  net_board_stats bs;
  net_board_get_stats(n->b, &bs);
  uint64_t since = 0;
  while (bs.packets_sent > atomic_load(&n->received) + PACE_LAG) {
    uint64_t now = net_now_ms();
    if (!since) {
      since = now;
    } else if (now - since > PACE_GIVE_UP_MS) {
      /* the collector is stuck: go on at full speed; the verdict says what is lost */
      fprintf(stderr, "tally run: the embedded collector stopped keeping up; going on without waiting for it\n");
      n->pace_off = true;
      break;
    }
    net_board_poll(n->b, 2);
  }
}

static void board_sink(void *ctx, const statmod_interval *iv) {
  run_net *n = ctx;
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
  run_net *n = ctx;
  char e[256];
  return statmod_set_period(n->m, period, e, sizeof e) ? refuse(e, err, errlen) : 0;
}

/* The function whose range is exactly [lo, hi), or "". */
static void function_named(const run_net *n, uint32_t lo, uint32_t hi, char *name, size_t size) {
  char sym[200];
  uint32_t flo, fhi;
  tally_error te;
  name[0] = '\0';
  tally_symbolize(n->sim, lo, sym, sizeof sym);
  if (!strchr(sym, '+') && tally_function_range(n->sim, sym, &flo, &fhi, &te) == 0 && flo == lo && fhi == hi)
    snprintf(name, size, "%s", sym);
}

static int op_arr(void *ctx, unsigned i, uint32_t lo, uint32_t hi, const char *name, char *err, size_t errlen) {
  run_net *n = ctx;
  char e[256], fn[200];
  if (statmod_set_arr(n->m, i, lo, hi, e, sizeof e) != 0)
    return refuse(e, err, errlen);
  if (!*name)
    function_named(n, lo, hi, fn, sizeof fn);
  count_set_arr_name(n->cr, i, *name ? name : fn);
  return 0;
}

static int op_counter(void *ctx, unsigned i, unsigned signal, unsigned arr, bool enabled, char *err, size_t errlen) {
  run_net *n = ctx;
  char e[256];
  if (signal > UINT16_MAX)
    return refuse("signal number out of range", err, errlen);
  statmod_counter_cfg c = {.signal = (uint16_t)signal, .arr = (uint16_t)arr, .enabled = enabled};
  return statmod_set_counter(n->m, i, &c, e, sizeof e) ? refuse(e, err, errlen) : 0;
}

static int op_start(void *ctx, char *err, size_t errlen) {
  run_net *n = ctx;
  char e[256];
  if (statmod_start(n->m, e, sizeof e) != 0) {
    snprintf(err, errlen, "%s", e);
    return NET_E_BAD_STATE;
  }
  return 0;
}

static int op_stop(void *ctx, char *err, size_t errlen) {
  run_net *n = ctx;
  char e[256];
  if (statmod_stop(n->m, e, sizeof e) != 0) {
    snprintf(err, errlen, "%s", e);
    return NET_E_BAD_STATE;
  }
  return 0;
}

static void op_query(void *ctx, uint64_t *period, uint64_t *intervals, uint64_t *cycle) {
  run_net *n = ctx;
  statmod_status st;
  statmod_query(n->m, &st);
  *period = st.period;
  *intervals = st.intervals;
  *cycle = st.cycle;
}

static const net_board_ops control_ops = {.set_timer = op_timer, .set_arr = op_arr, .set_counter = op_counter,
                                          .start = op_start, .stop = op_stop, .query = op_query};

/* ---- opening and closing ---- */

void run_net_free(run_net *n) {
  if (!n)
    return;
  stop_collector(n);
  if (n->b && n->cr)
    statmod_remove_sink(count_module(n->cr), board_sink, n);
  net_board_close(n->b);
  net_collector_close(n->col);
  net_pipe_free(n->pipe);
  store_close(n->st);
  free(n->totals);
  free(n);
}

static int open_embedded(run_net *n, int *status) {
  char err[400];
  n->db = n->o.db ? n->o.db : store_default_path();
  n->st = store_open(n->db, err, sizeof err);
  if (!n->st) {
    fprintf(stderr, "tally run: cannot create the store %s: %s (choose another with --db FILE, or --no-store)\n",
            n->db, err);
    *status = EXIT_CANTCREAT;
    return -1;
  }
  /* The board link and the collector speak the protocol as over UDP, but
   * through an in-process pipe: a datagram through the kernel cost more
   * than storing it. */
  n->pipe = net_pipe_new(RING_PACKETS, 256);
  if (!n->pipe) {
    fprintf(stderr, "tally run: out of memory\n");
    *status = EXIT_INTERNAL;
    return -1;
  }
  net_collector_cfg cfg = {.listen = "127.0.0.1:0", .run_timeout_ms = UINT32_MAX, .on_run = on_run,
                           .on_warning = on_warning, .ctx = n, .pipe = n->pipe};
  n->col = net_collector_open(&cfg, n->st, err, sizeof err);
  if (!n->col) {
    fprintf(stderr, "tally run: the embedded collector: %s\n", err);
    *status = EXIT_INTERNAL;
    return -1;
  }
  net_collector_addr(n->col, n->collector_addr, sizeof n->collector_addr);
  return 0;
}

static int start_thread(run_net *n, int *status) {
  atomic_init(&n->stop, 0);
  atomic_init(&n->received, 0);
  if (pthread_create(&n->thread, NULL, collector_loop, n) != 0) {
    fprintf(stderr, "tally run: cannot start the embedded collector's thread\n");
    *status = EXIT_INTERNAL;
    return -1;
  }
  n->thread_running = true;
  return 0;
}

run_net *run_net_open(const net_opts *o, count_run *counting, tally_sim *sim, const char *program, const char *core,
                      int *status) {
  *status = 0;
  if (o->no_store || !counting)
    return NULL;
  run_net *n = calloc(1, sizeof *n);
  if (!n) {
    fprintf(stderr, "tally run: out of memory\n");
    *status = EXIT_INTERNAL;
    return NULL;
  }
  n->o = *o;
  n->cr = counting;
  n->m = count_module(counting);
  n->sim = sim;
  n->program = program;
  n->core = core;
  const statmod_params *p = statmod_params_of(n->m);
  n->ntotals = p->counters;
  n->totals = calloc(p->counters, sizeof *n->totals);
  *status = EXIT_INTERNAL;
  if (!n->totals) {
    fprintf(stderr, "tally run: out of memory\n");
    goto fail;
  }
  char err[400];
  if (o->key && net_key_load(o->key, &n->key, err, sizeof err) != 0) {
    fprintf(stderr, "tally run: --key %s\n", err);
    *status = EXIT_NOINPUT;
    goto fail;
  }
  if (o->collector)
    snprintf(n->collector_addr, sizeof n->collector_addr, "%s", o->collector);
  else if (open_embedded(n, status) != 0)
    goto fail;
  net_board_cfg bc = {.collector = n->collector_addr, .pipe = n->pipe, .control = o->control,
                      .key = o->key ? &n->key : NULL, .params = *p, .ring = RING_PACKETS, .ops = &control_ops,
                      .ops_ctx = n};
  n->b = net_board_open(&bc, err, sizeof err);
  if (!n->b) {
    fprintf(stderr, "tally run: %s%s\n", o->control ? "--control: " : "", err);
    *status = o->control ? EXIT_USAGE : EXIT_INTERNAL;
    goto fail;
  }
  if (o->control)
    net_board_control_addr(n->b, n->control_addr, sizeof n->control_addr);
  if (statmod_add_sink(n->m, board_sink, n, err, sizeof err) != 0) {
    fprintf(stderr, "tally run: %s\n", err);
    goto fail;
  }
  if (n->col && start_thread(n, status) != 0)
    goto fail;
  *status = 0;
  return n;
fail:
  run_net_free(n);
  return NULL;
}

int run_net_describe(run_net *n) {
  const statmod_params *p = statmod_params_of(n->m);
  net_counter_label *labels = calloc(p->counters, sizeof *labels);
  char(*text)[2][NET_MAX_TEXT + 1] = calloc(p->counters, sizeof *text);
  if (!labels || !text) {
    free(labels);
    free(text);
    fprintf(stderr, "tally run: out of memory\n");
    return -1;
  }
  for (uint32_t i = 0; i < p->counters; i++) {
    statmod_counter_cfg c = statmod_counter(n->m, i);
    bool anywhere = c.arr == STATMOD_ANYWHERE;
    statmod_arr range = anywhere ? (statmod_arr){0, 0} : statmod_arr_of(n->m, c.arr);
    const char *fname = anywhere ? "" : count_arr_name(n->cr, c.arr);
    const char *name =
        statmod_words(&c, &range, *fname ? fname : NULL, text[i][0], sizeof text[i][0], text[i][1], sizeof text[i][1]);
    labels[i] = (net_counter_label){.signal = c.signal, .arr = c.arr, .lo = range.lo, .hi = range.hi,
                                    .enabled = c.enabled, .name = name, .where = text[i][1], .label = text[i][0]};
  }
  statmod_status st;
  statmod_query(n->m, &st);
  net_run_desc d = {.period = st.period, .program = n->program, .core = n->core, .counters = labels};
  int rc = net_board_describe(n->b, &d);
  if (rc != 0)
    fprintf(stderr, "tally run: %s\n", net_board_error(n->b));
  free(labels);
  free(text);
  if (rc == 0) {
    if (n->col)
      fprintf(stderr, "tally run: run 0x%016" PRIx64 ": storing into %s\n", net_board_run_id(n->b), n->db);
    else
      fprintf(stderr, "tally run: run 0x%016" PRIx64 ": sending to the collector at %s\n", net_board_run_id(n->b),
              n->collector_addr);
  }
  return rc;
}

int run_net_wait_start(run_net *n, const volatile sig_atomic_t *cancel) {
  fprintf(stderr, "tally run: waiting for the configuration on %s%s (tally config --board %s%s --timer CYCLES "
                  "--counter 0=SIGNAL ... --start)\n",
          n->control_addr, n->o.key ? ", authenticated" : "", n->control_addr, n->o.key ? " --key FILE" : "");
  int rc = net_board_wait_start(n->b, -1, (const volatile int *)cancel);
  if (rc == 1) {
    fprintf(stderr, "tally run: interrupted while waiting for the configuration; nothing was run\n");
    return EXIT_INTERRUPTED;
  }
  if (rc != 0) {
    fprintf(stderr, "tally run: --control: %s\n", net_board_error(n->b));
    return EXIT_INTERNAL;
  }
  if (count_configured(n->cr) != 0 || run_net_describe(n) != 0)
    return EXIT_INTERNAL;
  return 0;
}

void run_net_cut_short(run_net *n) {
  if (n)
    net_board_set_cut_short(n->b);
}

static const char *status_word(store_run_status s) {
  return s == STORE_RUN_COMPLETE ? "complete" : s == STORE_RUN_INCOMPLETE ? "incomplete" : "still running";
}

/* Embedded: the verdict as the store has it now. */
static int finish_embedded(run_net *n, run_end end, const char *why, uint64_t id) {
  stop_collector(n);
  net_collector_finish_all(n->col, "tally run ended before the collector had the whole run");
  int rc = 0;
  if (end == RUN_END_STOPPED && n->have_final) {
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
        store_flush(n->st) != 0) {
      fprintf(stderr, "tally run: the store %s: %s\n", n->db, store_error(n->st));
      rc = EXIT_INTERNAL;
    }
  }
  store_run_status s = STORE_RUN_RUNNING;
  store_run_view v = {0};
  int found = store_get_run(n->st, id, &v);
  if (found == 1)
    s = v.status;
  char iv[32];
  fprintf(stderr, "tally run: run 0x%016" PRIx64 " stored in %s: %s, %s intervals%s%s\n", id, n->db, status_word(s),
          fmt_count(found == 1 ? v.intervals : 0, iv, sizeof iv), found == 1 && v.note ? ": " : "",
          found == 1 && v.note ? v.note : "");
  fprintf(stderr, "tally run: 'tally report --db %s 0x%016" PRIx64 "' prints it again\n", n->db, id);
  store_run_view_clear(&v);
  if (s != STORE_RUN_COMPLETE && end == RUN_END_EXIT) {
    fprintf(stderr, "tally run: the store did not get the whole run (the table above has every count)\n");
    rc = EXIT_INTERNAL;
  }
  return rc;
}

int run_net_finish(run_net *n, run_end end, const char *why) {
  if (!n)
    return 0;
  uint64_t id = net_board_run_id(n->b);
  net_board_stats bs;
  net_board_get_stats(n->b, &bs);
  int rc = 0;
  if (n->col) {
    rc = finish_embedded(n, end, why, id);
  } else if (bs.acked) {
    char sent[32], again[32];
    fprintf(stderr, "tally run: run 0x%016" PRIx64 " sent to the collector at %s (%s packets, %s sent again on "
                    "request): it has it %s\n", id, n->collector_addr, fmt_count(bs.packets_sent, sent, sizeof sent),
            fmt_count(bs.resent, again, sizeof again),
            bs.verdict == 1 ? "complete" : "incomplete ('tally report' there says what is missing)");
  } else {
    fprintf(stderr, "tally run: run 0x%016" PRIx64 " sent to the collector at %s, which did not acknowledge its end "
                    "(is 'tally collect --listen %s' running?): the run is NOT known to be stored\n",
            id, n->collector_addr, n->collector_addr);
    rc = EXIT_UNAVAILABLE;
  }
  if (n->o.control) {
    fprintf(stderr, "tally run: control: %u packets refused (%u bad tags, %u stale, %u malformed)\n",
            bs.bad_tags + bs.stale + bs.malformed, bs.bad_tags, bs.stale, bs.malformed);
  }
  run_net_free(n);
  return rc;
}
