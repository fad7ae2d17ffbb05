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
#include <sys/random.h>
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
          "      --listen ADDR:PORT  where to listen (default 127.0.0.1:8080); on any\n"
          "                          address but loopback a token is always required\n"
          "      --token TOKEN       every API request must carry it (the page takes it\n"
          "                          from ?token=TOKEN in the address it was opened with):\n"
          "                          at least 16 characters of A-Z a-z 0-9 . _ ~ -; 'auto'\n"
          "                          makes a random one (also made, when --token is not\n"
          "                          given, for an address that is not loopback); it is\n"
          "                          printed once, in the address to open\n"
          "      --db FILE           the store of runs (default $TALLY_DB, else ./tally.db)\n"
          "      --sweep-db FILE     a sweep file of tally sweep --db: its sweeps on the\n"
          "                          page's Sweeps tab (read at every request)\n"
          "      --source-dir DIR    the profile's annotated code shows the source text of\n"
          "                          the program's files that lie in DIR (default: none;\n"
          "                          the server opens no other file an upload names)\n"
          "      --dir DIR           the server's own folder for uploads and runs\n"
          "                          (default ./tally-serve; created)\n"
          "      --max-upload BYTES  largest request body (default 16Mi)\n"
          "      --max-insns N       instruction budget of a run (default 2G)\n"
          "      --max-cycles N      cycle budget of a run (default 10G): it also ends a\n"
          "                          program that sleeps in wfi, where no instruction\n"
          "                          retires\n"
          "      --max-intervals N   intervals one run may store (default 1M): a run's\n"
          "                          cycle budget is at most N times its interval\n"
          "      --cpu-limit S       CPU seconds of a run (default 120)\n"
          "      --wall-limit S      wall seconds of a run before it is killed (default 300)\n"
          "      --mem-limit BYTES   address space of a run (default 2Gi)\n"
          "      --max-jobs N        runs at once (default 2)\n"
          "      --keep-run BYTES    a run's events (intervals, output) kept for the page\n"
          "                          to fetch (default 64Mi; the oldest go first)\n"
          "      --keep-all BYTES    every run's events kept, in all (default 256Mi; a\n"
          "                          finished run's go first)\n"
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
  snprintf(sub, sizeof sub, "%s/runs", c->dir);
  if (mkdir(sub, 0700) != 0 && errno != EEXIST)
    return -1;
  return 0;
}

/* A token travels in ?token= and a header: URL-safe characters only, and
 * long enough not to be guessed (16 characters of 66 are 96 bits). */
#define TOKEN_MIN 16
#define TOKEN_MAX 128

static bool token_valid(const char *t) {
  size_t n = strlen(t);
  if (n < TOKEN_MIN || n > TOKEN_MAX) {
    fprintf(stderr, "tally serve: --token: %zu characters; a token needs %d to %d (or --token auto for a "
            "random one)\n", n, TOKEN_MIN, TOKEN_MAX);
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    char ch = t[i];
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || strchr("._~-", ch))) {
      fprintf(stderr, "tally serve: --token: character %zu is not one of A-Z a-z 0-9 . _ ~ - (the token goes in "
              "the address as ?token=)\n", i + 1);
      return false;
    }
  }
  return true;
}

/* 128 random bits as 32 hex digits, from the kernel's generator. */
static int token_make(char out[33]) {
  unsigned char b[16];
  size_t got = 0;
  while (got < sizeof b) {
    ssize_t n = getrandom(b + got, sizeof b - got, 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return -1;
    got += (size_t)n;
  }
  for (size_t i = 0; i < sizeof b; i++)
    snprintf(out + 2 * i, 3, "%02x", b[i]);
  return 0;
}

static bool opt_u64(const char *name, const char *arg, uint64_t *out) {
  if (tally_parse_number(arg, out))
    return true;
  fprintf(stderr, "tally serve: %s: '%s' is not a number\n", name, arg);
  return false;
}

enum { O_LISTEN = 256, O_TOKEN, O_DB, O_SWEEPDB, O_SRCDIR, O_DIR, O_MAXUP, O_INSNS, O_CPU, O_WALL, O_MEM, O_JOBS, O_KEEPRUN, O_KEEPALL, O_CYCLES, O_INTERVALS, O_WORKER };

static int parse_opts(serve_ctx *c, const char **listen, int argc, char **argv) {
  static const struct option opts[] = {
      {"listen", required_argument, 0, O_LISTEN}, {"token", required_argument, 0, O_TOKEN},
      {"db", required_argument, 0, O_DB},         {"dir", required_argument, 0, O_DIR},
      {"sweep-db", required_argument, 0, O_SWEEPDB}, {"source-dir", required_argument, 0, O_SRCDIR},
      {"max-upload", required_argument, 0, O_MAXUP}, {"max-insns", required_argument, 0, O_INSNS},
      {"cpu-limit", required_argument, 0, O_CPU}, {"wall-limit", required_argument, 0, O_WALL},
      {"mem-limit", required_argument, 0, O_MEM}, {"max-jobs", required_argument, 0, O_JOBS},
      {"max-cycles", required_argument, 0, O_CYCLES}, {"max-intervals", required_argument, 0, O_INTERVALS},
      {"keep-run", required_argument, 0, O_KEEPRUN}, {"keep-all", required_argument, 0, O_KEEPALL},
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
    case O_SRCDIR: c->source_dir = optarg; break;
    case O_DIR: c->dir = optarg; break;
    case O_MAXUP: if (!opt_u64("--max-upload", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.max_upload = v; break;
    case O_INSNS: if (!opt_u64("--max-insns", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.max_insns = v; break;
    case O_CPU: if (!opt_u64("--cpu-limit", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.cpu_seconds = (unsigned)v; break;
    case O_WALL: if (!opt_u64("--wall-limit", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.wall_seconds = (unsigned)v; break;
    case O_MEM: if (!opt_u64("--mem-limit", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.mem_bytes = v; break;
    case O_JOBS: if (!opt_u64("--max-jobs", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.max_jobs = (unsigned)v; break;
    case O_CYCLES: if (!opt_u64("--max-cycles", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.max_cycles = v; break;
    case O_INTERVALS: if (!opt_u64("--max-intervals", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.max_intervals = v; break;
    case O_KEEPRUN: if (!opt_u64("--keep-run", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.keep_run = v; break;
    case O_KEEPALL: if (!opt_u64("--keep-all", optarg, &v)) return SERVE_EXIT_USAGE; c->lim.keep_all = v; break;
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
  c->lim = (serve_limits){.max_upload = 16u << 20, .max_insns = 2000000000ull, .max_cycles = 10000000000ull,
                          .max_intervals = 1000000, .cpu_seconds = 120,
                          .wall_seconds = 300, .mem_bytes = 2ull << 30, .max_jobs = 2,
                          .max_output = 256u << 10, .keep_run = 64u << 20, .keep_all = 256u << 20};
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
  char made[33];
  if ((c.token && strcmp(c.token, "auto") == 0) || (!c.loopback && !c.token)) {
    if (token_make(made) != 0) {
      fprintf(stderr, "tally serve: cannot make a random token: %s\n", strerror(errno));
      return SERVE_EXIT_INTERNAL;
    }
    c.token = made;
  } else if (c.token && !token_valid(c.token)) {
    return SERVE_EXIT_USAGE;
  }
  if (c.lim.max_jobs == 0 || c.lim.wall_seconds == 0 || c.lim.cpu_seconds == 0 || c.lim.max_insns == 0 ||
      c.lim.max_cycles == 0 || c.lim.max_intervals == 0) {
    fprintf(stderr, "tally serve: --max-jobs, --wall-limit, --cpu-limit, --max-insns, --max-cycles and "
            "--max-intervals must be at least 1\n");
    return SERVE_EXIT_USAGE;
  }
  if (c.lim.keep_run < (1u << 20) || c.lim.keep_all < c.lim.keep_run) {
    fprintf(stderr, "tally serve: --keep-run must be at least 1Mi and --keep-all at least --keep-run "
            "(now %zu and %zu bytes)\n", c.lim.keep_run, c.lim.keep_all);
    return SERVE_EXIT_USAGE;
  }
  if (c.sweep_db && !sweep_db_readable(c.sweep_db))
    return SERVE_EXIT_NOINPUT;
  if (c.source_dir) { /* a real path: the worker compares the sources' real paths with it */
    struct stat st;
    char *real = realpath(c.source_dir, NULL);
    if (!real || stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
      fprintf(stderr, "tally serve: --source-dir %s: %s\n", c.source_dir, real ? "not a folder" : strerror(errno));
      free(real);
      return SERVE_EXIT_NOINPUT;
    }
    c.source_dir = real;
  }
  if (make_dirs(&c) != 0 || absolutize(&c.dir) != 0) {
    fprintf(stderr, "tally serve: --dir %s: cannot create it: %s\n", c.dir, strerror(errno));
    free(c.source_dir);
    return SERVE_EXIT_CANTCREAT;
  }
  c.self_exe = realpath("/proc/self/exe", NULL);
  if (!c.self_exe) {
    fprintf(stderr, "tally serve: cannot find its own executable: %s\n", strerror(errno));
    free(c.source_dir);
    free(c.dir);
    return SERVE_EXIT_INTERNAL;
  }
  serve_block_stop_signals();
  if (serve_collector_start(&c) != 0) {
    free(c.self_exe);
    free(c.dir);
    free(c.source_dir);
    return SERVE_EXIT_CANTCREAT;
  }
  rc = serve_http_run(&c, listen);
  serve_collector_stop(&c);
  serve_jobs_free(&c);
  serve_programs_free(&c);
  free(c.self_exe);
  free(c.dir);
  free(c.source_dir);
  return rc;
}
