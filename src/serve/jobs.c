/*
 * Runs: each is a child process, `tally serve --worker DIR`, started with
 * its limits (CPU time, address space, file size) already in place, its
 * stdin empty, its stdout a pipe of JSON lines (events: progress,
 * intervals, output, the end) and no other descriptor of the server. A
 * thread per run reads the pipe, keeps the events for the page's polls and
 * kills the child when the wall-time limit passes or the user stops it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "serve.h"
#include "tally/tally.h"

/* A run's events as the worker wrote them (one JSON object per line,
 * checked), kept as text for the page's polls: events[head, head + count)
 * are those numbered first, first + 1, ...; the oldest go first when the
 * run keeps more than --keep-run bytes or all runs more than --keep-all.
 * The start event (number 0: the counters' names, which the page needs
 * to draw anything) is kept apart and goes last. */
typedef struct event_text {
  char *s;
  size_t n;
} event_text;

typedef struct event_log {
  event_text *v;
  size_t head, count, cap;
  uint64_t first;         /* the number of v[head] */
  uint64_t total;         /* events received: the next one's number */
  event_text start;       /* event 0 when it is the start event, else empty */
  size_t bytes;           /* kept, the start event's included */
  uint64_t received;      /* bytes received in all */
} event_log;

struct serve_job {
  unsigned id;
  pid_t pid;
  int fd;                 /* the pipe's read end */
  char dir[PATH_MAX];
  event_log log;          /* appended by the reader thread, under the lock */
  const char *state;      /* "running", "done", "stopped", "failed" */
  char reason[200];       /* why it stopped, when not by itself */
  char said[200];         /* the reason the worker's end event gave, "" if none */
  json_t *end;            /* the worker's end event, or NULL */
  time_t deadline;
  volatile int stop;      /* the user asked */
  pthread_t reader;
  serve_job *next;
};

/* ---- the request: checked here, so the worker gets only sane values ---- */

static bool safe_word(const char *s, const char *extra, size_t max) {
  size_t n = strlen(s);
  if (n == 0 || n > max)
    return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || strchr(extra, *s)))
      return false;
  return true;
}

static int check_strings(json_t *a, const char *what, size_t maxn, const char *extra, size_t maxlen, char *msg,
                         size_t msgsize) {
  if (!a)
    return 0;
  if (!json_is_array(a) || json_array_size(a) > maxn)
    return snprintf(msg, msgsize, "'%s' must be a list of at most %zu strings", what, maxn), -1;
  size_t i;
  json_t *v;
  json_array_foreach(a, i, v) {
    if (!json_is_string(v) || (extra && !safe_word(json_string_value(v), extra, maxlen)) ||
        strlen(json_string_value(v)) > maxlen)
      return snprintf(msg, msgsize, "'%s' item %zu is not allowed here", what, i + 1), -1;
  }
  return 0;
}

static int check_number(json_t *req, const char *key, uint64_t lo, uint64_t hi, char *msg, size_t msgsize) {
  json_t *v = json_object_get(req, key);
  if (!v)
    return 0;
  if (!json_is_integer(v) || json_integer_value(v) < (json_int_t)lo || (uint64_t)json_integer_value(v) > hi)
    return snprintf(msg, msgsize, "'%s' must be a whole number from %llu to %llu", key, (unsigned long long)lo,
                    (unsigned long long)hi), -1;
  return 0;
}

/* Copies the fields a worker may see into `job`. */
static int check_request(serve_ctx *c, json_t *req, json_t *job, char *msg, size_t msgsize) {
  if (!json_is_object(req))
    return snprintf(msg, msgsize, "the request must be a JSON object"), -1;
  json_t *prog = json_object_get(req, "program");
  if (!json_is_integer(prog) || serve_program_paths(c, (unsigned)json_integer_value(prog), job) != 0)
    return snprintf(msg, msgsize, "no such program: upload one first"), -1;
  json_t *core = json_object_get(req, "core");
  if (core && (!json_is_string(core) || !safe_word(json_string_value(core), "-_.", 40) ||
               strchr(json_string_value(core), '/') || json_string_value(core)[0] == '.'))
    return snprintf(msg, msgsize, "'core' must be the name of a shipped core model"), -1;
  json_t *board = json_object_get(req, "board");
  if (board && (!json_is_string(board) || !safe_word(json_string_value(board), "-_.", 40) ||
                strchr(json_string_value(board), '/') || json_string_value(board)[0] == '.'))
    return snprintf(msg, msgsize, "'board' must be the name of a shipped board"), -1;
  tally_board_info binfo;
  tally_error berr;
  if (board && tally_board_lookup(json_string_value(board), &binfo, &berr) != 0)
    return snprintf(msg, msgsize, "'board': %s", berr.msg), -1;
  if (check_strings(json_object_get(req, "sets"), "sets", 64, "._-=", 80, msg, msgsize) ||
      check_strings(json_object_get(req, "pairs"), "pairs", 256, "._-@$%:", 200, msg, msgsize) ||
      check_strings(json_object_get(req, "args"), "args", 16, NULL, 256, msg, msgsize) ||
      check_number(req, "interval", 1, UINT32_MAX, msg, msgsize) ||
      check_number(req, "counters", 1, 1024, msg, msgsize) || check_number(req, "width", 1, 64, msg, msgsize) ||
      check_number(req, "arrs", 1, 256, msg, msgsize) ||
      check_number(req, "max_insns", 1, c->lim.max_insns, msg, msgsize) ||
      check_number(req, "max_cycles", 1, c->lim.max_cycles, msg, msgsize))
    return -1;
  const char *keys[] = {"core", "board", "sets", "pairs", "args", "interval", "counters", "width", "arrs", "max_insns",
                        "max_cycles", "profile"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (json_object_get(req, keys[i]))
      json_object_set(job, keys[i], json_object_get(req, keys[i]));
  if (!json_object_get(job, "max_insns"))
    json_object_set_new(job, "max_insns", json_integer((json_int_t)c->lim.max_insns));
  /* the cycle budget, and within it at most --max-intervals intervals to store */
  uint64_t cycles = json_is_integer(json_object_get(req, "max_cycles"))
                  ? (uint64_t)json_integer_value(json_object_get(req, "max_cycles")) : c->lim.max_cycles;
  json_t *iv = json_object_get(req, "interval");
  uint64_t interval = json_is_integer(iv) ? (uint64_t)json_integer_value(iv) : SERVE_DEFAULT_INTERVAL;
  if (json_array_size(json_object_get(req, "pairs")) && cycles / interval >= c->lim.max_intervals)
    cycles = interval * c->lim.max_intervals; /* no overflow: the quotient was at least that */
  json_object_set_new(job, "max_cycles", json_integer((json_int_t)(cycles > INT64_MAX ? INT64_MAX : cycles)));
  json_object_set_new(job, "max_output", json_integer((json_int_t)c->lim.max_output));
  json_object_set_new(job, "collector", json_string(c->collector_addr));
  if (c->source_dir) /* the server's option, never the request's */
    json_object_set_new(job, "source_dir", json_string(c->source_dir));
  return 0;
}

/* ---- the child ---- */

/* The collector's key for one worker: the read end of a pipe that already
 * holds it, its write end closed (so the worker reads it to the end), or
 * -1. Close-on-exec until exec_worker hands it down as SERVE_KEY_FD. */
static int key_pipe(serve_ctx *c) {
  int kp[2];
  if (pipe2(kp, O_CLOEXEC) != 0)
    return -1;
  ssize_t n = write(kp[1], c->collector_key, sizeof c->collector_key);
  close(kp[1]);
  if (n != (ssize_t)sizeof c->collector_key) {
    close(kp[0]);
    return -1;
  }
  return kp[0];
}

/* Between fork and exec: async-signal-safe calls only. keyfd: key_pipe()'s
 * end, given to the worker as SERVE_KEY_FD, or -1 (no collector). */
static void exec_worker(serve_ctx *c, const char *dir, int wfd, int keyfd, const char *errlog) {
  int null = open("/dev/null", O_RDONLY);
  int err = open(errlog, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (null < 0 || err < 0 || dup2(null, 0) < 0 || dup2(wfd, 1) < 0 || dup2(err, 2) < 0 || chdir(dir) != 0)
    _exit(70);
  if (keyfd >= 0 && (keyfd == SERVE_KEY_FD ? fcntl(keyfd, F_SETFD, 0) : dup2(keyfd, SERVE_KEY_FD)) < 0)
    _exit(70);
  /* the server's sockets and files stay with the server */
  for (int fd = keyfd >= 0 ? SERVE_KEY_FD + 1 : SERVE_KEY_FD; fd < 1024; fd++)
    close(fd);
  /* A mask and ignored signals survive exec: the server's must not. The
   * stop signals stay blocked until the worker has its handlers (a stop
   * that comes while it starts is then taken, not fatal). */
  sigset_t stops;
  sigemptyset(&stops);
  sigaddset(&stops, SIGTERM);
  sigaddset(&stops, SIGUSR1);
  sigprocmask(SIG_SETMASK, &stops, NULL);
  signal(SIGPIPE, SIG_DFL);
  setpgid(0, 0);
  if (serve_sandbox_limits(&c->lim) != 0)
    _exit(70);
  char *argv[] = {"tally", "serve", "--worker", (char *)dir, NULL};
  execv(c->self_exe, argv);
  _exit(70);
}

/* ---- the events kept: bounded per run and in all ---- */

static void log_drop_oldest(serve_ctx *c, event_log *l) {
  event_text *e = &l->v[l->head];
  l->bytes -= e->n;
  c->kept_bytes -= e->n;
  free(e->s);
  l->head++, l->count--, l->first++;
}

/* Forgets every event of a finished run (its state stays). */
static void log_clear(serve_ctx *c, event_log *l) {
  while (l->count)
    log_drop_oldest(c, l);
  if (l->start.s) {
    l->bytes -= l->start.n;
    c->kept_bytes -= l->start.n;
    free(l->start.s);
    l->start = (event_text){0};
  }
}

static int log_push(event_log *l, char *s, size_t n) {
  if (l->head + l->count == l->cap) {
    if (l->head > l->cap / 2) { /* room at the front: move down */
      memmove(l->v, l->v + l->head, l->count * sizeof *l->v);
      l->head = 0;
    } else {
      size_t cap = l->cap ? l->cap * 2 : 64;
      event_text *v = realloc(l->v, cap * sizeof *v);
      if (!v)
        return -1;
      l->v = v, l->cap = cap;
    }
  }
  l->v[l->head + l->count++] = (event_text){s, n};
  return 0;
}

/* Within --keep-all: a finished run's events go first (the oldest run's),
 * then the oldest of the run with the most kept; the newest event of a
 * run always stays. Called with the lock held. */
static void keep_within_all(serve_ctx *c) {
  while (c->kept_bytes > c->lim.keep_all) {
    serve_job *victim = NULL, *largest = NULL;
    for (serve_job *k = c->jobs; k; k = k->next) { /* newest first: the last finished one found is the oldest */
      if (strcmp(k->state, "running") != 0 && k->log.bytes)
        victim = k;
      if (k->log.count > 1 && (!largest || k->log.bytes > largest->log.bytes))
        largest = k;
    }
    if (victim)
      log_clear(c, &victim->log);
    else if (largest)
      log_drop_oldest(c, &largest->log);
    else
      break;
  }
}

/* Keeps one line (NUL-terminated, n bytes, taken over). */
static void add_event_text(serve_ctx *c, serve_job *j, char *s, size_t n, bool is_start) {
  pthread_mutex_lock(&c->lock);
  event_log *l = &j->log;
  l->received += n;
  if (is_start && l->total == 0 && !l->start.s) {
    l->start = (event_text){s, n};
    l->first = 1;
  } else if (log_push(l, s, n) != 0) { /* out of memory: what is kept goes, numbers stay right */
    free(s), s = NULL;
    while (l->count)
      log_drop_oldest(c, l);
  }
  l->total++;
  if (s) {
    l->bytes += n;
    c->kept_bytes += n;
  } else {
    l->first = l->total;
  }
  while (l->bytes > c->lim.keep_run && l->count > 1)
    log_drop_oldest(c, l);
  keep_within_all(c);
  pthread_mutex_unlock(&c->lock);
}

/* An event the server itself says about the run ("error", msg). */
static void add_error(serve_ctx *c, serve_job *j, const char *msg) {
  json_t *e = json_pack("{s:s,s:s}", "t", "error", "msg", msg);
  char *s = e ? json_dumps(e, JSON_COMPACT) : NULL;
  json_decref(e);
  if (s)
    add_event_text(c, j, s, strlen(s), false);
}

/* One line of the worker: kept as it is when it is a JSON object. */
static void take_line(serve_ctx *c, serve_job *j, const char *line, size_t n) {
  json_t *e = json_loadb(line, n, 0, NULL);
  if (!json_is_object(e)) {
    json_decref(e);
    return add_error(c, j, "the run sent a line that is not JSON");
  }
  const char *t = json_string_value(json_object_get(e, "t"));
  if (t && strcmp(t, "end") == 0) {
    const char *r = json_string_value(json_object_get(e, "reason"));
    pthread_mutex_lock(&c->lock);
    snprintf(j->said, sizeof j->said, "%s", r ? r : "");
    json_decref(j->end);
    j->end = json_incref(e);
    pthread_mutex_unlock(&c->lock);
  }
  bool is_start = t && strcmp(t, "start") == 0;
  json_decref(e);
  char *s = malloc(n + 1);
  if (!s)
    return add_error(c, j, "the server ran out of memory for the run's events");
  memcpy(s, line, n);
  s[n] = 0;
  add_event_text(c, j, s, n, is_start);
}

/* The reader's line buffer: grows with the longest line, up to
 * SERVE_LINE_MAX; a longer line is refused with an error event and
 * skipped to its end. */
typedef struct line_buf {
  char *b;
  size_t have, cap;
  bool skipping;          /* inside a line too long to keep */
} line_buf;

/* Reads what the pipe has and takes its whole lines; -1 at its end. */
static int read_lines(serve_ctx *c, serve_job *j, line_buf *lb) {
  if (lb->cap - lb->have < 65536 && lb->cap < SERVE_LINE_MAX + 65536) {
    size_t cap = lb->cap ? lb->cap * 2 : 1 << 20;
    if (cap > SERVE_LINE_MAX + 65536)
      cap = SERVE_LINE_MAX + 65536;
    char *b = realloc(lb->b, cap);
    if (!b)
      return -1;
    lb->b = b, lb->cap = cap;
  }
  ssize_t n = read(j->fd, lb->b + lb->have, lb->cap - lb->have);
  if (n <= 0)
    return n == 0 || errno != EINTR ? -1 : 0;
  size_t scan = lb->have; /* what came before has no newline */
  lb->have += (size_t)n;
  size_t start = 0;
  char *nl;
  while ((nl = memchr(lb->b + scan, '\n', lb->have - scan))) {
    size_t end = (size_t)(nl - lb->b);
    if (!lb->skipping)
      take_line(c, j, lb->b + start, end - start);
    lb->skipping = false;
    start = scan = end + 1;
  }
  lb->have -= start;
  memmove(lb->b, lb->b + start, lb->have);
  if (lb->have > SERVE_LINE_MAX) {
    if (!lb->skipping) {
      char msg[160];
      snprintf(msg, sizeof msg, "the run sent a line longer than %u MiB: it is left out", SERVE_LINE_MAX >> 20);
      add_error(c, j, msg);
    }
    lb->skipping = true;
    lb->have = 0;
  }
  return 0;
}

static void finish(serve_ctx *c, serve_job *j, int status, const char *why) {
  pthread_mutex_lock(&c->lock);
  const char *said = j->said[0] ? j->said : NULL;
  if (said || (why && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))) {
    j->state = "stopped";
    snprintf(j->reason, sizeof j->reason, "%s", said ? said : why);
  } else if (WIFSIGNALED(status)) {
    int s = WTERMSIG(status);
    j->state = "stopped";
    snprintf(j->reason, sizeof j->reason, "%s", s == SIGXCPU || s == SIGKILL ? "stopped at its CPU-time limit"
             : s == SIGXFSZ ? "stopped: it wrote more than its file-size limit"
             : s == SIGSYS ? "stopped: it made a system call the sandbox forbids"
             : "the run crashed (out of its memory limit, or a fault)");
  } else if (WEXITSTATUS(status) != 0) {
    j->state = "failed";
    snprintf(j->reason, sizeof j->reason, "the run could not be done (status %d)", WEXITSTATUS(status));
  } else {
    j->state = "done";
  }
  c->running--;
  json_t *end = j->end;
  j->end = NULL;
  pthread_mutex_unlock(&c->lock);
  if (end) /* what the page keeps beside the store (stored.c) */
    serve_run_keep(c, j->dir, end);
  json_decref(end);
  malloc_trim(0); /* the run's events that were let go: back to the system, from every thread's arena */
}

/* Asks the worker to stop (it stores what it has, saying why), and kills
 * it if it has not ended GRACE seconds later. */
#define GRACE 10
static void ask_stop(serve_job *j, int sig, const char **why, const char *reason, time_t *kill_at) {
  *why = reason;
  *kill_at = time(NULL) + GRACE;
  kill(j->pid, sig);
}

static void *reader(void *arg) {
  void **a = arg;
  serve_ctx *c = a[0];
  serve_job *j = a[1];
  free(arg);
  line_buf lb = {0};
  const char *why = NULL;
  time_t kill_at = 0;
  for (;;) {
    struct pollfd p = {.fd = j->fd, .events = POLLIN};
    int r = poll(&p, 1, 200);
    if (j->stop && !why)
      ask_stop(j, SIGTERM, &why, "stopped by the user", &kill_at);
    if (!why && time(NULL) > j->deadline)
      ask_stop(j, SIGUSR1, &why, "stopped at its wall-time limit", &kill_at);
    if (why && time(NULL) > kill_at)
      kill(-j->pid, SIGKILL);
    if (r > 0 && read_lines(c, j, &lb) != 0)
      break;
  }
  free(lb.b);
  close(j->fd);
  int status = 0;
  while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
    ;
  finish(c, j, status, why);
  return NULL;
}

static int spawn(serve_ctx *c, serve_job *j, json_t *job) {
  char path[PATH_MAX + 16], errlog[PATH_MAX + 16];
  snprintf(j->dir, sizeof j->dir, "%s/jobs/%u", c->dir, j->id);
  if (mkdir(j->dir, 0700) != 0)
    return -1;
  snprintf(path, sizeof path, "%s/job.json", j->dir);
  snprintf(errlog, sizeof errlog, "%s/stderr.log", j->dir);
  if (json_dump_file(job, path, JSON_COMPACT) != 0)
    return -1;
  int p[2];
  int keyfd = key_pipe(c);
  if (keyfd < 0)
    return -1;
  if (pipe2(p, O_CLOEXEC) != 0)
    return close(keyfd), -1;
  j->pid = fork();
  if (j->pid == 0)
    exec_worker(c, j->dir, p[1], keyfd, errlog);
  close(p[1]);
  close(keyfd);
  if (j->pid < 0)
    return close(p[0]), -1;
  j->fd = p[0];
  return 0;
}

/* A server that runs for weeks keeps the events of its last KEEP_EVENTS
 * finished runs only (newest first in the list); older ones answer with
 * their state and no events. Called with the lock held. */
#define KEEP_EVENTS 32
static void forget_old(serve_ctx *c) {
  unsigned finished = 0;
  for (serve_job *j = c->jobs; j; j = j->next)
    if (strcmp(j->state, "running") != 0 && ++finished > KEEP_EVENTS && j->log.bytes)
      log_clear(c, &j->log);
}

json_t *serve_job_start(serve_ctx *c, json_t *req, int *status, char *msg, size_t msgsize) {
  json_t *job = json_object();
  *status = 400;
  if (check_request(c, req, job, msg, msgsize) != 0)
    return json_decref(job), NULL;
  serve_job *j = calloc(1, sizeof *j);
  pthread_mutex_lock(&c->lock);
  bool busy = c->running >= c->lim.max_jobs;
  if (!busy && j)
    c->running++, j->id = c->next_job++;
  pthread_mutex_unlock(&c->lock);
  if (busy || !j) {
    *status = busy ? 503 : 500;
    snprintf(msg, msgsize, busy ? "the server is running %u programs already: try again when one ends"
                                : "out of memory", c->lim.max_jobs);
    return free(j), json_decref(job), NULL;
  }
  j->state = "running";
  j->deadline = time(NULL) + c->lim.wall_seconds;
  void **arg = malloc(2 * sizeof *arg);
  if (spawn(c, j, job) != 0 || !arg) {
    *status = 500;
    snprintf(msg, msgsize, "cannot start the run: %s", strerror(errno));
    pthread_mutex_lock(&c->lock);
    c->running--;
    pthread_mutex_unlock(&c->lock);
    return free(arg), free(j), json_decref(job), NULL;
  }
  json_decref(job);
  arg[0] = c, arg[1] = j;
  pthread_mutex_lock(&c->lock);
  j->next = c->jobs;
  c->jobs = j;
  forget_old(c);
  pthread_mutex_unlock(&c->lock);
  pthread_create(&j->reader, NULL, reader, arg);
  return json_pack("{s:I}", "job", (json_int_t)j->id);
}

/* A worker run to its end, its output gathered: for checking uploads in a
 * child too (a hostile file must not crash the server). */
char *serve_child_output(serve_ctx *c, const char *dir, unsigned timeout_s, size_t *len) {
  char errlog[PATH_MAX + 16];
  snprintf(errlog, sizeof errlog, "%s/stderr.log", dir);
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0)
    return NULL;
  pid_t pid = fork();
  if (pid == 0)
    exec_worker(c, dir, p[1], -1, errlog);   /* a check stores nothing: no key */
  close(p[1]);
  if (pid < 0)
    return close(p[0]), NULL;
  size_t n = 0, cap = 1 << 16, max = 64u << 20;
  char *buf = malloc(cap);
  time_t deadline = time(NULL) + timeout_s;
  for (;;) {
    struct pollfd pf = {.fd = p[0], .events = POLLIN};
    if (time(NULL) > deadline) {
      kill(-pid, SIGKILL);
      free(buf), buf = NULL;
    }
    if (!buf || poll(&pf, 1, 200) < 0)
      break;
    if (n + 1 >= cap && cap < max) {
      char *b = realloc(buf, cap *= 2);
      if (!b)
        break;
      buf = b;
    }
    ssize_t got = pf.revents ? read(p[0], buf + n, cap - 1 - n) : 1;
    if (got <= 0 || n + 1 >= max)
      break;
    if (pf.revents)
      n += (size_t)got;
  }
  close(p[0]);
  kill(-pid, SIGKILL); /* no-op when it has ended */
  while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
    ;
  if (buf)
    buf[n] = 0, *len = n;
  return buf;
}

static serve_job *find(serve_ctx *c, unsigned id) {
  for (serve_job *j = c->jobs; j; j = j->next)
    if (j->id == id)
      return j;
  return NULL;
}

/* Appends to a growing answer; false when out of memory. */
static bool put(char **b, size_t *len, size_t *cap, const char *s, size_t n) {
  if (*len + n + 1 > *cap) {
    size_t nc = *cap ? *cap : 4096;
    while (nc < *len + n + 1)
      nc *= 2;
    char *nb = realloc(*b, nc);
    if (!nb)
      return false;
    *b = nb, *cap = nc;
  }
  memcpy(*b + *len, s, n);
  *len += n;
  (*b)[*len] = 0;
  return true;
}

int serve_job_poll(serve_ctx *c, unsigned id, uint64_t since, uint64_t limit, char **body, size_t *len) {
  pthread_mutex_lock(&c->lock);
  serve_job *j = find(c, id);
  if (!j)
    return pthread_mutex_unlock(&c->lock), -1;
  const event_log *l = &j->log;
  char *b = NULL;
  size_t n = 0, cap = 0, sent = 0, bytes = 0;
  bool ok = put(&b, &n, &cap, "{\"events\":[", 11);
  uint64_t at = since, dropped = 0;
  if (at == 0 && l->start.s && limit) { /* event 0 */
    ok = ok && put(&b, &n, &cap, l->start.s, l->start.n);
    sent++, bytes += l->start.n, at = 1;
  }
  if (at < l->first && at < l->total) { /* forgotten since */
    uint64_t to = l->first < l->total ? l->first : l->total;
    dropped = to - at;
    at = to;
  }
  for (; ok && at < l->first + l->count && sent < limit && (sent == 0 || bytes < SERVE_POLL_BYTES); at++, sent++) {
    const event_text *e = &l->v[l->head + (at - l->first)];
    ok = (!sent || put(&b, &n, &cap, ",", 1)) && put(&b, &n, &cap, e->s, e->n);
    bytes += e->n;
  }
  if (at > l->total)
    at = l->total;
  json_t *tail = json_pack("{s:I,s:s,s:s,s:I,s:b,s:I,s:I,s:I}", "job", (json_int_t)id, "state", j->state, "reason",
                           j->reason, "next", (json_int_t)at, "more", at < l->total,
                           "dropped", (json_int_t)dropped, "total", (json_int_t)l->total, "received",
                           (json_int_t)l->received);
  pthread_mutex_unlock(&c->lock);
  char *t = tail ? json_dumps(tail, JSON_COMPACT) : NULL;
  json_decref(tail);
  ok = ok && t && put(&b, &n, &cap, "],", 2) && put(&b, &n, &cap, t + 1, strlen(t + 1));
  free(t);
  if (!ok)
    return free(b), -2;
  *body = b;
  *len = n;
  return 0;
}

int serve_job_stop(serve_ctx *c, unsigned id) {
  pthread_mutex_lock(&c->lock);
  serve_job *j = find(c, id);
  if (j)
    j->stop = 1;
  pthread_mutex_unlock(&c->lock);
  return j ? 0 : -1;
}

char *serve_job_file(serve_ctx *c, unsigned id, const char *name, size_t *len) {
  char path[PATH_MAX + 64];
  pthread_mutex_lock(&c->lock);
  serve_job *j = find(c, id);
  bool ok = j && strcmp(j->state, "running") != 0;
  if (ok)
    snprintf(path, sizeof path, "%s/%s", j->dir, name);
  pthread_mutex_unlock(&c->lock);
  if (!ok)
    return errno = ENOENT, NULL;
  return serve_read_file(path, SERVE_MAX_FILE, len);
}

void serve_jobs_free(serve_ctx *c) {
  for (serve_job *j = c->jobs; j; j = j->next)
    j->stop = 1;
  while (c->jobs) {
    serve_job *j = c->jobs;
    c->jobs = j->next;
    pthread_join(j->reader, NULL);
    pthread_mutex_lock(&c->lock);
    log_clear(c, &j->log);
    pthread_mutex_unlock(&c->lock);
    free(j->log.v);
    json_decref(j->end);
    free(j);
  }
}
