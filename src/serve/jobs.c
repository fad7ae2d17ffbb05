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

struct serve_job {
  unsigned id;
  pid_t pid;
  int fd;                 /* the pipe's read end */
  char dir[PATH_MAX];
  json_t *events;         /* array, appended by the reader thread */
  const char *state;      /* "running", "done", "stopped", "failed" */
  char reason[200];       /* why it stopped, when not by itself */
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
      check_strings(json_object_get(req, "pairs"), "pairs", 256, "._-@$", 200, msg, msgsize) ||
      check_strings(json_object_get(req, "args"), "args", 16, NULL, 256, msg, msgsize) ||
      check_number(req, "interval", 1, UINT32_MAX, msg, msgsize) ||
      check_number(req, "counters", 1, 1024, msg, msgsize) || check_number(req, "width", 1, 64, msg, msgsize) ||
      check_number(req, "arrs", 1, 256, msg, msgsize) ||
      check_number(req, "max_insns", 1, c->lim.max_insns, msg, msgsize))
    return -1;
  const char *keys[] = {"core", "board", "sets", "pairs", "args", "interval", "counters", "width", "arrs",
                        "max_insns", "profile"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (json_object_get(req, keys[i]))
      json_object_set(job, keys[i], json_object_get(req, keys[i]));
  if (!json_object_get(job, "max_insns"))
    json_object_set_new(job, "max_insns", json_integer((json_int_t)c->lim.max_insns));
  json_object_set_new(job, "max_output", json_integer((json_int_t)c->lim.max_output));
  json_object_set_new(job, "collector", json_string(c->collector_addr));
  return 0;
}

/* ---- the child ---- */

/* Between fork and exec: async-signal-safe calls only. */
static void exec_worker(serve_ctx *c, const char *dir, int wfd, const char *errlog) {
  int null = open("/dev/null", O_RDONLY);
  int err = open(errlog, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (null < 0 || err < 0 || dup2(null, 0) < 0 || dup2(wfd, 1) < 0 || dup2(err, 2) < 0 || chdir(dir) != 0)
    _exit(70);
  for (int fd = 3; fd < 1024; fd++) /* the server's sockets and files stay with the server */
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

static void add_event(serve_ctx *c, serve_job *j, json_t *e) {
  pthread_mutex_lock(&c->lock);
  json_array_append_new(j->events, e);
  pthread_mutex_unlock(&c->lock);
}

/* Reads JSON lines; a line that does not parse is a worker bug, shown. */
static int read_lines(serve_ctx *c, serve_job *j, char *buf, size_t *have, size_t cap) {
  ssize_t n = read(j->fd, buf + *have, cap - 1 - *have);
  if (n <= 0)
    return n == 0 || errno != EINTR ? -1 : 0;
  *have += (size_t)n;
  buf[*have] = 0;
  char *start = buf, *nl;
  while ((nl = strchr(start, '\n'))) {
    *nl = 0;
    json_t *e = json_loads(start, 0, NULL);
    add_event(c, j, e ? e : json_pack("{s:s,s:s}", "t", "error", "msg", "the run sent a line that is not JSON"));
    start = nl + 1;
  }
  *have -= (size_t)(start - buf);
  memmove(buf, start, *have);
  if (*have == cap - 1) /* a line longer than the buffer: the worker never writes one */
    *have = 0;
  return 0;
}

/* The reason the worker gave in its end event, when it stopped on a signal. */
static const char *worker_reason(serve_job *j) {
  for (size_t i = json_array_size(j->events); i-- > 0;) {
    json_t *e = json_array_get(j->events, i);
    const char *t = json_string_value(json_object_get(e, "t"));
    if (t && strcmp(t, "end") == 0) {
      const char *r = json_string_value(json_object_get(e, "reason"));
      return r && *r ? r : NULL;
    }
  }
  return NULL;
}

static void finish(serve_ctx *c, serve_job *j, int status, const char *why) {
  pthread_mutex_lock(&c->lock);
  const char *said = worker_reason(j);
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
  pthread_mutex_unlock(&c->lock);
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
  static const size_t cap = 1 << 20;
  char *buf = malloc(cap);
  size_t have = 0;
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
    if (r > 0 && (!buf || read_lines(c, j, buf, &have, cap) != 0))
      break;
  }
  free(buf);
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
  if (pipe2(p, O_CLOEXEC) != 0)
    return -1;
  j->pid = fork();
  if (j->pid == 0)
    exec_worker(c, j->dir, p[1], errlog);
  close(p[1]);
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
    if (strcmp(j->state, "running") != 0 && ++finished > KEEP_EVENTS && json_array_size(j->events))
      json_array_clear(j->events);
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
  j->events = json_array();
  j->state = "running";
  j->deadline = time(NULL) + c->lim.wall_seconds;
  void **arg = malloc(2 * sizeof *arg);
  if (spawn(c, j, job) != 0 || !arg) {
    *status = 500;
    snprintf(msg, msgsize, "cannot start the run: %s", strerror(errno));
    pthread_mutex_lock(&c->lock);
    c->running--;
    pthread_mutex_unlock(&c->lock);
    return free(arg), json_decref(j->events), free(j), json_decref(job), NULL;
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
    exec_worker(c, dir, p[1], errlog);
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

json_t *serve_job_poll(serve_ctx *c, unsigned id, size_t since) {
  pthread_mutex_lock(&c->lock);
  serve_job *j = find(c, id);
  json_t *r = NULL;
  if (j) {
    json_t *ev = json_array();
    size_t n = json_array_size(j->events);
    for (size_t i = since; i < n; i++)
      json_array_append(ev, json_array_get(j->events, i));
    r = json_pack("{s:I,s:s,s:s,s:o,s:I}", "job", (json_int_t)id, "state", j->state, "reason", j->reason,
                  "events", ev, "next", (json_int_t)n);
  }
  pthread_mutex_unlock(&c->lock);
  return r;
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
    return NULL;
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *buf = NULL;
  size_t n = 0, cap = 0;
  char chunk[65536];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (n + got + 1 > cap) {
      cap = (n + got + 1) * 2;
      char *b = realloc(buf, cap);
      if (!b)
        return fclose(f), free(buf), NULL;
      buf = b;
    }
    memcpy(buf + n, chunk, got);
    n += got;
  }
  fclose(f);
  *len = n;
  return buf;
}

void serve_jobs_free(serve_ctx *c) {
  for (serve_job *j = c->jobs; j; j = j->next)
    j->stop = 1;
  while (c->jobs) {
    serve_job *j = c->jobs;
    c->jobs = j->next;
    pthread_join(j->reader, NULL);
    json_decref(j->events);
    free(j);
  }
}
