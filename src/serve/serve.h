/*
 * tally serve: the web front end's server. One serve_ctx holds everything
 * (no globals): options, the uploaded programs, the runs in progress. HTTP
 * comes from libmicrohttpd (http.c); each run is a child process (jobs.c)
 * that executes `tally serve --worker DIR` (worker.c) in a sandbox
 * (sandbox.c). The server is a client of include/tally/ only.
 */
#ifndef TALLY_SERVE_H
#define TALLY_SERVE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

/* Exit statuses of tally serve, as the CLI's (src/cli/cli.h). */
enum { SERVE_EXIT_USAGE = 64, SERVE_EXIT_NOINPUT = 66, SERVE_EXIT_INTERNAL = 70, SERVE_EXIT_CANTCREAT = 73 };

/* Limits a run and an upload get; set by tally serve's options. */
typedef struct serve_limits {
  size_t max_upload;        /* bytes in one request body */
  uint64_t max_insns;       /* instruction budget of a run (and its default) */
  uint64_t max_cycles;      /* cycle budget of a run (and its default): ends a wfi sleep too */
  uint64_t max_intervals;   /* intervals one run may store: its cycle budget is at most this many intervals */
  unsigned cpu_seconds;     /* RLIMIT_CPU of a run's child */
  unsigned wall_seconds;    /* the child is killed after this long */
  uint64_t mem_bytes;       /* RLIMIT_AS of a run's child (not in sanitizer builds) */
  unsigned max_jobs;        /* runs at once; more are refused with 503 */
  size_t max_output;        /* bytes of program output kept */
  size_t keep_run;          /* bytes of one run's events kept for the page's polls */
  size_t keep_all;          /* bytes of every run's events kept, in all */
} serve_limits;

typedef struct serve_program serve_program;
typedef struct serve_job serve_job;

typedef struct serve_ctx {
  char *dir;                /* the server's own folder: programs/ and jobs/ under it */
  char *db;                 /* the SQLite store of runs */
  char *sweep_db;           /* --sweep-db: the sweep file the page shows, or NULL */
  char *source_dir;         /* --source-dir: source files the page may show lie in it (a real path), or NULL */
  char *token;              /* required on /api when not NULL */
  char *self_exe;           /* this binary, for the workers */
  char host[64];            /* the listen address as Host headers must name it */
  unsigned port;
  bool loopback;
  serve_limits lim;
  pthread_mutex_t lock;     /* guards the lists and counters below */
  serve_program *programs;
  unsigned next_program;
  serve_job *jobs;
  unsigned next_job;
  unsigned running;
  size_t kept_bytes;        /* events kept, every run's (jobs.c; <= lim.keep_all + one event) */
  struct tally_collector *collector; /* collector.c: where the runs' packets go */
  char collector_addr[80];
  /* The collector takes only packets tagged with this key, made at random
   * when the server starts. It never leaves the server's process but
   * through a pipe each worker inherits as SERVE_KEY_FD (jobs.c), read and
   * closed before the run starts (worker.c): no file, no argv, no
   * environment holds it. */
  uint8_t collector_key[32];
  pthread_t collector_thread;
  volatile int stopping;
} serve_ctx;

#define SERVE_KEY_FD 3

/* ---- collector.c ---- */
int serve_collector_start(serve_ctx *c);
void serve_collector_stop(serve_ctx *c);
/* "0x" + 16 hex digits, as tally prints run ids (stored.c). */
json_t *serve_run_id(uint64_t id);

/* ---- programs.c: uploads ---- */

/* An upload's parts, as the multipart form gave them. */
typedef struct serve_upload {
  char *elf, *bin, *map;    /* file contents (NULL if absent) */
  size_t elf_n, bin_n, map_n;
  char load_addr[32], entry[32];
  char kind[8];             /* "elf" or "bin" */
  char board[48];           /* the board it is linked for ("": virt; docs/boards.md) */
  char name[72];            /* the program's name: the uploaded file's, shown only (never a path) */
} serve_upload;

/* Stores and checks an upload; returns the program as JSON (id, kind,
 * functions, ...) or NULL with `msg` saying what is wrong with it. */
json_t *serve_program_add(serve_ctx *c, const serve_upload *u, char *msg, size_t msgsize);
/* The program's name from an uploaded file's name: its last path part
 * without .elf/.bin, control and non-ASCII bytes as '_'; "program" when
 * nothing is left. Shown and stored with the runs, never a path. */
void serve_program_name(const char *filename, char *out, size_t size);
/* The program's JSON description, or NULL. */
json_t *serve_program_json(serve_ctx *c, unsigned id);
/* Fills paths of a stored program for a worker's job; -1 if unknown. */
int serve_program_paths(serve_ctx *c, unsigned id, json_t *job);
void serve_programs_free(serve_ctx *c);

/* ---- jobs.c: runs in child processes ---- */

/* Starts a run from the page's request; returns {"job": N} or NULL with
 * msg and *status (400 bad request, 503 busy, 500). */
json_t *serve_job_start(serve_ctx *c, json_t *req, int *status, char *msg, size_t msgsize);
/* The dispatch interval of a run whose request names none (worker.c). */
#define SERVE_DEFAULT_INTERVAL 100000
/* Events a poll answers with at most, by count (also the default of
 * ?limit=) and by bytes (at least one event is sent, whatever its size). */
#define SERVE_POLL_EVENTS 10000
#define SERVE_POLL_BYTES (4u << 20)
/* A line of a worker longer than this is refused with an error event. */
#define SERVE_LINE_MAX (16u << 20)
/* The job's state and its events from index `since` on, at most `limit`
 * of them and about SERVE_POLL_BYTES, as JSON text (malloc'd, *len
 * bytes); -1 if the job is unknown. */
int serve_job_poll(serve_ctx *c, unsigned id, uint64_t since, uint64_t limit, char **body, size_t *len);
int serve_job_stop(serve_ctx *c, unsigned id);
/* Runs a worker on the job.json in dir to its end (killed after timeout_s)
 * and returns its stdout (malloc'd, NUL-terminated), or NULL. */
char *serve_child_output(serve_ctx *c, const char *dir, unsigned timeout_s, size_t *len);
/* A file the worker wrote in its folder ("profile.json"); malloc'd, or NULL. */
char *serve_job_file(serve_ctx *c, unsigned id, const char *name, size_t *len);
void serve_jobs_free(serve_ctx *c);

/* ---- http.c ---- */
/* Blocks SIGINT and SIGTERM in the calling thread, and so in every thread
 * it starts afterwards: called before the first thread, so that only
 * serve_http_run's sigwait takes them. A thread started with them unblocked
 * would take a stop that comes early as its default action, killing the
 * server without its cleanup. */
void serve_block_stop_signals(void);
int serve_http_run(serve_ctx *c, const char *addr);

/* ---- api.c: the JSON endpoints ---- */

/* One API request: method, path under /api, query lookup, body. Fills a
 * JSON answer or a raw one (content type + bytes) and an HTTP status. */
typedef struct serve_reply {
  int status;
  json_t *json;             /* answer, if JSON */
  char *body;               /* answer, if raw (malloc'd) */
  size_t len;
  const char *type;
  char disposition[128];    /* Content-Disposition, "" = none */
} serve_reply;

typedef const char *(*serve_query_fn)(void *conn, const char *key);
void serve_api(serve_ctx *c, const char *method, const char *path, serve_query_fn q, void *conn,
               const char *body, size_t len, serve_reply *r);
/* POST /api/programs: the upload form's parts. */
void serve_api_upload(serve_ctx *c, const char *path, const serve_upload *u, serve_reply *r);
/* Numbers in the API (ids in paths, ?since=, ?limit=) are parsed
 * strictly: decimal digits only, or with `hex` also "0x" and 1 to 16 hex
 * digits; no sign, space or suffix, and at most `max`. `n` bytes of s are
 * the number (a path segment). */
bool serve_parse_u64(const char *s, size_t n, bool hex, uint64_t max, uint64_t *out);
/* The id that starts `path` ("12/stop" -> 12, rest "/stop"): the segment
 * up to the next '/' must be such a number, else a 400 answer naming
 * `what` and false. */
bool serve_path_id(const char *path, const char *what, bool hex, uint64_t max, uint64_t *id, const char **rest,
                   serve_reply *r);
/* A query argument that must be such a number when given: false (and a
 * 400 answer) when it is not; *out keeps its default when absent. */
bool serve_query_u64(serve_query_fn q, void *conn, const char *key, uint64_t max, uint64_t *out, serve_reply *r);
/* A JSON error answer: {"error": msg}. */
void serve_error(serve_reply *r, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- stored.c: the store of runs (tally report's) ---- */
/* The files the server sends whole (a run's profile.json): at most this. */
#define SERVE_MAX_FILE ((size_t)256 << 20)
/* Reads a regular file of at most max_bytes whole (malloc'd,
 * NUL-terminated, its length in *len); NULL with errno set otherwise
 * (EINVAL: not a regular file; EFBIG: larger than max_bytes, or grew
 * while read). Never blocks on a FIFO. */
char *serve_read_file(const char *path, size_t max_bytes, size_t *len);
/* What the page keeps of a stored run beside the store, in DIR/runs/:
 * ID.json (the request: name, core, board, overrides, pairs; the end:
 * cycles, instructions, exit; the user's note) and ID.profile.json (its
 * exact profile). Called when a run of the page ends (jobs.c). */
void serve_run_keep(serve_ctx *c, const char *jobdir, json_t *end);
void serve_stored(serve_ctx *c, const char *method, const char *rest, serve_query_fn q, void *conn,
                  const char *body, serve_reply *r);

/* ---- sweeps.c: `tally sweep`'s results (--sweep-db) ---- */
void serve_sweeps(serve_ctx *c, const char *method, const char *path, serve_reply *r);

/* ---- assets.c: the page, embedded at build time ---- */
typedef struct serve_asset {
  const char *path, *type;
  const unsigned char *data;
  size_t len;
} serve_asset;
const serve_asset *serve_asset_find(const char *path);

/* ---- worker.c / sandbox.c: the child's side ---- */
int serve_worker_main(const char *jobdir);
/* Limits and the syscall filter; 0 or -1 with errno. */
int serve_sandbox_limits(const serve_limits *lim);
int serve_sandbox_no_files(void);

#endif
