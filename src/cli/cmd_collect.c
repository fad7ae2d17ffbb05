/*
 * tally collect: the collection server of the paper. Listens for boards'
 * packet streams, stores them in a SQLite file, and prints one line per run
 * as each run is closed. The work is the library's collector
 * (include/tally/collector.h); this is options, signals and printing.
 */
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tally/collector.h"

static volatile sig_atomic_t stop_requested;
static void on_signal(int sig) { (void)sig; stop_requested = 1; }

static void collect_usage(FILE *f) {
  fprintf(f,
          "usage: tally collect [options]\n"
          "\n"
          "Receives the statistics module's packets from boards (tally run --collector\n"
          "ADDR:PORT, or any board speaking docs/protocol.md), stores every run in a\n"
          "SQLite file, asks boards to resend what the network lost, and checks each\n"
          "run's totals. Prints one line per run as it ends: its id, program, intervals,\n"
          "packets and whether it is complete. Runs until interrupted (Ctrl-C), or as\n"
          "--runs and --idle-timeout say. 'tally report' prints a stored run.\n"
          "\n"
          "options:\n"
          "      --listen ADDR:PORT  where to listen (default 127.0.0.1:%d; 0.0.0.0:PORT\n"
          "                          for every interface, port 0 for any free port)\n"
          "      --db FILE           the store (default: $TALLY_DB, else ./%s)\n"
          "      --runs N            exit after N runs have ended\n"
          "      --idle-timeout S    exit after S seconds without a packet\n"
          "      --run-timeout S     a run silent for S seconds without its final packet\n"
          "                          is closed as incomplete (default 30)\n"
          "      --key FILE          take only packets tagged with this key (the file's\n"
          "                          bytes, 16 to 1,024: the boards' 'tally run --key'); the\n"
          "                          others are refused and counted, and resend requests\n"
          "                          and acknowledgements carry its tag\n"
          "      --key-env VAR       the same, the key being the value of variable VAR\n"
          "      --import SPOOL      store the run kept in a spool file by 'tally run\n"
          "                          --collector' when no collector answered, then exit\n"
          "                          (no listening; docs/protocol.md, \"Spool files\")\n"
          "  -q, --quiet             no warnings about refused packets\n"
          "  -h, --help              show this help\n"
          "\n"
          "A run is complete only when every packet arrived and every counter's sum\n"
          "equals the board's total; otherwise it is stored as incomplete with a note\n"
          "saying what is missing. On exit, runs still open are closed as incomplete.\n"
          "\n"
          "exit status: 0 when every run that ended was complete, 1 when one was\n"
          "incomplete, 64 for usage errors, 65 when a SPOOL is not a spool file, 66\n"
          "when it or the key cannot be read, 70 when it cannot listen or open the\n"
          "store.\n",
          TALLY_DEFAULT_COLLECT_PORT, "tally.db");
}

typedef struct collect_state {
  uint64_t runs, complete, incomplete;
  bool quiet;
} collect_state;

static void on_run(void *ctx, const tally_collected_run *r) {
  collect_state *s = ctx;
  s->runs++;
  bool ok = r->status == TALLY_STORE_COMPLETE;
  if (ok)
    s->complete++;
  else
    s->incomplete++;
  char iv[32], pk[32];
  fmt_count(r->intervals, iv, sizeof iv);
  fmt_count(r->packets, pk, sizeof pk);
  /* the program's file name: the table has no room for its directory (tally report has it) */
  const char *slash = strrchr(r->program, '/');
  const char *prog = slash ? slash + 1 : r->program[0] ? r->program : "(unknown)";
  printf("0x%016" PRIx64 "  %-20s %10s %10s  %s%s%s\n", r->run_id, prog, iv,
         pk, ok ? "complete" : "incomplete", r->note[0] ? ": " : "", r->note);
  fflush(stdout);
}

static void on_warning(void *ctx, const char *msg) {
  if (!((collect_state *)ctx)->quiet)
    fprintf(stderr, "tally collect: warning: %s\n", msg);
}

/* tally collect --import SPOOL: the spool's runs into the store, then exit. */
static int import_spool(tally_collector *col, const char *spool, const char *db, bool cfg_keyed, collect_state *state) {
  printf("%-18s  %-20s %10s %10s  %s\n", "run", "program", "intervals", "packets", "verdict");
  tally_error err;
  bool truncated = false, bad = false;
  long n = tally_collector_import(col, spool, &truncated, &bad, &err);
  int status = 0;
  if (n < 0) {
    fprintf(stderr, "tally collect: --import %s\n", err.msg);
    status = err.code == TALLY_E_INPUT ? (bad ? EXIT_DATAERR : EXIT_NOINPUT) : EXIT_INTERNAL;
  }
  tally_collector_finish_all(col, truncated ? "the spool file ends inside a packet (its writer was stopped): "
                                              "the run's later packets are not in it"
                                            : "the spool file holds only part of the run (no final packet, or "
                                              "packets missing)");
  tally_collector_stats cs;
  tally_collector_stats_get(col, &cs);
  tally_collector_close(col, NULL);
  if (cs.bad_tags)
    fprintf(stderr, "tally collect: %s: %" PRIu64 " packets refused for their authentication tag (%s)\n", spool,
            cs.bad_tags, cfg_keyed ? "not made with this key" : "a keyed run's spool: give its --key");
  /* every packet a repeat: the runs were stored complete before (an import done twice) */
  bool again = n > 0 && state->runs == 0 && cs.stored == 0 && cs.bad_tags == 0;
  if (again)
    fprintf(stderr, "tally collect: %s: its run is already stored complete in %s; nothing new\n", spool, db);
  else if (n >= 0)
    fprintf(stderr, "tally collect: %s: %ld packets read%s; %" PRIu64 " runs (%" PRIu64 " complete, %" PRIu64
                    " incomplete) stored into %s\n", spool, n, truncated ? " (the last one cut off)" : "",
            state->runs, state->complete, state->incomplete, db);
  if (fflush(stdout) != 0 && !status)
    status = EXIT_INTERNAL;
  return status ? status : again ? 0 : state->incomplete || state->runs == 0 ? 1 : 0;
}

int cmd_collect(int argc, char **argv) {
  const char *listen = "127.0.0.1:7400", *db = tally_store_default_path();
  uint64_t max_runs = 0;
  double idle = 0, run_timeout = 30;
  collect_state state = {0};
  static const struct option longs[] = {
    {"listen", required_argument, 0, 'l'}, {"db", required_argument, 0, 'd'},
    {"runs", required_argument, 0, 'r'},   {"idle-timeout", required_argument, 0, 'i'},
    {"run-timeout", required_argument, 0, 't'}, {"quiet", no_argument, 0, 'q'},
    {"import", required_argument, 0, 'I'}, {"help", no_argument, 0, 'h'},
    {"key", required_argument, 0, 'k'},    {"key-env", required_argument, 0, 'K'},
    {0, 0, 0, 0}};
  const char *spool = NULL, *key_file = NULL, *key_env = NULL;
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "+qh", longs, NULL)) != -1) {
    switch (c) {
    case 'l': listen = optarg; break;
    case 'd': db = optarg; break;
    case 'r':
      if (!parse_u64(optarg, &max_runs) || max_runs == 0) {
        fprintf(stderr, "tally collect: --runs '%s' is not a positive number\n", optarg);
        return EXIT_USAGE;
      }
      break;
    case 'i':
      if (!parse_seconds(optarg, &idle)) {
        fprintf(stderr, "tally collect: --idle-timeout '%s' is not a positive number of seconds\n", optarg);
        return EXIT_USAGE;
      }
      break;
    case 't':
      if (!parse_seconds(optarg, &run_timeout) || run_timeout > 86400) {
        fprintf(stderr, "tally collect: --run-timeout '%s' is not a number of seconds up to 86400\n", optarg);
        return EXIT_USAGE;
      }
      break;
    case 'q': state.quiet = true; break;
    case 'I': spool = optarg; break;
    case 'k': key_file = optarg; break;
    case 'K': key_env = optarg; break;
    case 'h': collect_usage(stdout); return 0;
    default:
      fprintf(stderr, "tally collect: unknown option or missing value '%s'\n\n", argv[optind - 1]);
      collect_usage(stderr);
      return EXIT_USAGE;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "tally collect: unexpected argument '%s'\n", argv[optind]);
    return EXIT_USAGE;
  }
  if (key_file && key_env) {
    fprintf(stderr, "tally collect: --key FILE and --key-env VAR both name a key: give one\n");
    return EXIT_USAGE;
  }
  tally_error err;
  if (tally_addr_check(listen, false, &err) != 0) {
    fprintf(stderr, "tally collect: --listen %s\n", err.msg);
    return EXIT_USAGE;
  }
  if (spool)
    listen = "127.0.0.1:0"; /* an import answers nobody: any free port, never a live collector's */
  tally_collector_cfg cfg = {.listen = listen, .db = db, .run_timeout_ms = (uint32_t)(run_timeout * 1000),
                             .on_run = on_run, .on_warning = on_warning, .ctx = &state,
                             .key_file = key_file, .key_env = key_env};
  tally_collector *col = tally_collector_open(&cfg, &err);
  if (!col) {
    fprintf(stderr, "tally collect: %s\n", err.msg);
    return err.code == TALLY_E_INPUT ? EXIT_NOINPUT : EXIT_INTERNAL;
  }
  if (spool)
    return import_spool(col, spool, db, key_file || key_env, &state);
  char where[80];
  fprintf(stderr, "tally collect: listening on %s (receive buffer %d KiB), storing into %s\n",
          tally_collector_addr(col, where, sizeof where), tally_collector_rcvbuf(col) / 1024, db);
  printf("%-18s  %-20s %10s %10s  %s\n", "run", "program", "intervals", "packets", "verdict");
  fflush(stdout);

  struct sigaction sa = {.sa_handler = on_signal};
  sigemptyset(&sa.sa_mask);
  struct sigaction old_int, old_term;
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  int status = 0;
  while (!stop_requested && (!max_runs || state.runs < max_runs)) {
    if (tally_collector_poll(col, 200, &err) != 0) {
      fprintf(stderr, "tally collect: %s\n", err.msg);
      status = EXIT_INTERNAL;
    }
    if (idle > 0 && tally_collector_idle_ms(col) >= (uint64_t)(idle * 1000)) {
      fprintf(stderr, "tally collect: no packet for %g s; stopping\n", idle);
      break;
    }
  }
  tally_collector_finish_all(col, "the collector stopped before the run ended");
  tally_collector_stats cs;
  tally_collector_stats_get(col, &cs);
  char a[32], b[32], d[32], tags[256] = "";
  if (key_file || key_env || cs.bad_tags) /* with a key, say so even when nothing was forged */
    snprintf(tags, sizeof tags, ", %" PRIu64 " refused for their authentication tag%s", cs.bad_tags,
             key_file || key_env ? "" : " (tagged, and this collector has no --key)");
  if (cs.deferred) { /* compact DATA before its RUN_START: asked for again, not lost */
    size_t o = strlen(tags);
    snprintf(tags + o, sizeof tags - o, "; %" PRIu64 " compact DATA packet%s before their run's RUN_START (asked for again)",
             cs.deferred, cs.deferred == 1 ? "" : "s");
  }
  if (cs.runs_refused || cs.runs_evicted) { /* said even with --quiet: runs were turned away or cut off */
    size_t o = strlen(tags);
    snprintf(tags + o, sizeof tags - o, "; %" PRIu64 " new runs refused (every run slot held), %" PRIu64
             " runs evicted to make room", cs.runs_refused, cs.runs_evicted);
  }
  fprintf(stderr, "tally collect: %" PRIu64 " runs (%" PRIu64 " complete, %" PRIu64 " incomplete); %s packets "
          "stored, %s duplicates, %s resend requests, %" PRIu64 " refused, %" PRIu64 " from a sender not the run's%s\n",
          state.runs, state.complete, state.incomplete, fmt_count(cs.stored, a, sizeof a),
          fmt_count(cs.duplicates, b, sizeof b), fmt_count(cs.resend_requests, d, sizeof d), cs.malformed,
          cs.foreign, tags);
  tally_collector_close(col, "the collector stopped before the run ended");
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  if (status)
    return status;
  return state.incomplete ? 1 : 0;
}
