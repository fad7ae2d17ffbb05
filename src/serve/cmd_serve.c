/*
 * tally serve: options in, a serve_ctx out, the HTTP server until Ctrl-C.
 * `tally serve --worker DIR` is the child a run executes in (worker.c);
 * it is not for people.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve.h"
#include "tally/sweep.h"
#include "tally/tally.h"

int cmd_serve(int argc, char **argv); /* listed in src/cli/main.c */

static void serve_usage(FILE *f) {
  fprintf(f,
          "usage: tally serve [options]\n"
          "\n"
          "Starts the web front end: upload a program (an ELF, or a raw .bin with its\n"
          "linker .map), pick (signal, function) pairs, run it on a core model and watch\n"
          "the statistics module's intervals live; stored runs and exact profiles.\n"
          "Prints the address to open. Ctrl-C stops it. docs/tally-serve.md.\n"
          "\n"
          "options:\n"
          "      --listen ADDR:PORT  where to listen (default 127.0.0.1:8080); any\n"
          "                          address but loopback needs --token\n"
          "      --token TOKEN       every API request must carry it (the page takes it\n"
          "                          from ?token=TOKEN in the address it was opened with)\n"
          "      --db FILE           the store of runs (default $TALLY_DB, else ./tally.db)\n"
          "      --sweep-db FILE     a sweep file of tally sweep --db: its sweeps on the\n"
          "                          page's Sweeps tab (read at every request)\n"
          "      --dir DIR           the server's own folder for uploads and runs\n"
          "                          (default ./tally-serve; created)\n"
          "      --max-upload BYTES  largest request body (default 16Mi)\n"
          "      --max-insns N       instruction budget of a run (default 2G)\n"
          "      --cpu-limit S       CPU seconds of a run (default 120)\n"
          "      --wall-limit S      wall seconds of a run before it is killed (default 300)\n"
          "      --mem-limit BYTES   address space of a run (default 2Gi)\n"
          "      --max-jobs N        runs at once (default 2)\n"
          "  -h, --help              this text\n");
}

/* "127.0.0.1:8080" -> host, port; loopback tells 127/8, ::1 or localhost. */
static int parse_listen(serve_ctx *c, const char *s) {
  const char *colon = strrchr(s, ':');
  uint64_t port;
  if (!colon || colon == s || (size_t)(colon - s) >= sizeof c->host || !tally_parse_number(colon + 1, &port) ||
      port > 65535)
    return -1;
  memcpy(c->host, s, (size_t)(colon - s));
  c->host[colon - s] = 0;
  c->port = (unsigned)port;
  c->loopback = strncmp(c->host, "127.", 4) == 0 || strcmp(c->host, "localhost") == 0 ||
                strcmp(c->host, "[::1]") == 0;
  return 0;
}

static int make_dirs(serve_ctx *c) {
  char sub[PATH_MAX];
  if (mkdir(c->dir, 0700) != 0 && errno != EEXIST)
    return -1;
  snprintf(sub, sizeof sub, "%s/programs", c->dir);
  if (mkdir(sub, 0700) != 0 && errno != EEXIST)
    return -1;
  snprintf(sub, sizeof sub, "%s/jobs", c->dir);
  if (mkdir(sub, 0700) != 0 && errno != EEXIST)
    return -1;
  return 0;
}

static bool opt_u64(const char *name, const char *arg, uint64_t *out) {
  if (tally_parse_number(arg, out))
    return true;
  fprintf(stderr, "tally serve: %s: '%s' is not a number\n", name, arg);
  return false;
}

enum { O_LISTEN = 256, O_TOKEN, O_DB, O_SWEEPDB, O_DIR, O_MAXUP, O_INSNS, O_CPU, O_WALL, O_MEM, O_JOBS, O_WORKER };

static int parse_opts(serve_ctx *c, const char **listen, int argc, char **argv) {
  static const struct option opts[] = {
      {"listen", required_argument, 0, O_LISTEN}, {"token", required_argument, 0, O_TOKEN},
      {"db", required_argument, 0, O_DB},         {"dir", required_argument, 0, O_DIR},
      {"sweep-db", required_argument, 0, O_SWEEPDB},
      {"max-upload", required_argument, 0, O_MAXUP}, {"max-insns", required_argument, 0, O_INSNS},
      {"cpu-limit", required_argument, 0, O_CPU}, {"wall-limit", required_argument, 0, O_WALL},
      {"mem-limit", required_argument, 0, O_MEM}, {"max-jobs", required_argument, 0, O_JOBS},
      {"help", no_argument, 0, 'h'},             {0, 0, 0, 0}};
  int o;
  uint64_t v;
  optind = 1;
  while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    switch (o) {
    case O_LISTEN: *listen = optarg; break;
    case O_TOKEN: c->token = optarg; break;
    case O_DB: c->db = optarg; break;
    case O_SWEEPDB: c->sweep_db = optarg; break;
    case O_DIR: c->dir = optarg; break;
    case O_MAXUP: if (!opt_u64("--max-upload", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.max_upload = v; break;
    case O_INSNS: if (!opt_u64("--max-insns", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.max_insns = v; break;
    case O_CPU: if (!opt_u64("--cpu-limit", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.cpu_seconds = (unsigned)v; break;
    case O_WALL: if (!opt_u64("--wall-limit", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.wall_seconds = (unsigned)v; break;
    case O_MEM: if (!opt_u64("--mem-limit", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.mem_bytes = v; break;
    case O_JOBS: if (!opt_u64("--max-jobs", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.max_jobs = (unsigned)v; break;
    case 'h': serve_usage(stdout); return 0;
    default: serve_usage(stderr); return SERVE_EXIT_USAGE;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "tally serve: unexpected argument '%s'\n", argv[optind]);
    return SERVE_EXIT_USAGE;
  }
  return -1;
}

static void defaults(serve_ctx *c) {
  *c = (serve_ctx){0};
  c->dir = "tally-serve";
  c->db = getenv("TALLY_DB") ? getenv("TALLY_DB") : "tally.db";
  c->lim = (serve_limits){.max_upload = 16u << 20, .max_insns = 2000000000ull, .cpu_seconds = 120,
                          .wall_seconds = 300, .mem_bytes = 2ull << 30, .max_jobs = 2,
                          .max_output = 256u << 10};
  c->next_program = c->next_job = 1;
  pthread_mutex_init(&c->lock, NULL);
}

/* Absolute paths: workers run in their own folder. */
static int absolutize(char **p) {
  char *r = realpath(*p, NULL);
  if (!r)
    return -1;
  *p = r;
  return 0;
}

/* --sweep-db must name a sweep file now, not at the first request. */
static bool sweep_db_readable(const char *db) {
  tally_sweep_entry *v;
  size_t n;
  tally_error err;
  if (tally_sweep_list(db, &v, &n, &err) != 0) {
    fprintf(stderr, "tally serve: --sweep-db %s\n", err.msg);
    return false;
  }
  tally_sweep_list_free(v, n);
  return true;
}

int cmd_serve(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--worker") == 0)
    return serve_worker_main(argv[2]);
  serve_ctx c;
  const char *listen = "127.0.0.1:8080";
  defaults(&c);
  int rc = parse_opts(&c, &listen, argc, argv);
  if (rc >= 0)
    return rc;
  if (parse_listen(&c, listen) != 0) {
    fprintf(stderr, "tally serve: --listen '%s': expected ADDRESS:PORT, e.g. 127.0.0.1:8080\n", listen);
    return SERVE_EXIT_USAGE;
  }
  if (!c.loopback && !c.token) {
    fprintf(stderr, "tally serve: --listen %s is not loopback: give --token TOKEN so that only people "
            "who have it can run programs\n", listen);
    return SERVE_EXIT_USAGE;
  }
  if (c.lim.max_jobs == 0 || c.lim.wall_seconds == 0 || c.lim.cpu_seconds == 0) {
    fprintf(stderr, "tally serve: --max-jobs, --wall-limit and --cpu-limit must be at least 1\n");
    return SERVE_EXIT_USAGE;
  }
  if (c.sweep_db && !sweep_db_readable(c.sweep_db))
    return SERVE_EXIT_NOINPUT;
  if (make_dirs(&c) != 0 || absolutize(&c.dir) != 0) {
    fprintf(stderr, "tally serve: --dir %s: cannot create it: %s\n", c.dir, strerror(errno));
    return SERVE_EXIT_CANTCREAT;
  }
  c.self_exe = realpath("/proc/self/exe", NULL);
  if (!c.self_exe) {
    fprintf(stderr, "tally serve: cannot find its own executable: %s\n", strerror(errno));
    return SERVE_EXIT_INTERNAL;
  }
  serve_block_stop_signals();
  if (serve_collector_start(&c) != 0) {
    free(c.self_exe);
    free(c.dir);
    return SERVE_EXIT_CANTCREAT;
  }
  rc = serve_http_run(&c, listen);
  serve_collector_stop(&c);
  serve_jobs_free(&c);
  serve_programs_free(&c);
  free(c.self_exe);
  free(c.dir);
  return rc;
}
