/*
 * Running a sweep: a pool of threads, each taking the next point the file
 * does not hold yet, simulating it on its own board and storing it at
 * once. The file is written by one thread at a time (a mutex), so the
 * points finished before a kill are always whole and kept.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sweep_int.h"

typedef struct pool {
  const tally_sweep *s;
  sw_db *db;
  size_t *todo;              /* point indexes to run */
  size_t ntodo;
  atomic_size_t next;
  const volatile int *cancel;
  pthread_mutex_t lock;      /* the file, the status, the progress callback, the first error */
  tally_sweep_status st;
  struct timespec t0;
  tally_sweep_progress_fn progress;
  void *ctx;
  int failed;
  tally_error err;
} pool;

static double since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Keeps a finished point and reports progress; under the pool's lock. */
static void finished(pool *p, const sw_point *pt, const sw_result *r, int rc, const tally_error *e) {
  pthread_mutex_lock(&p->lock);
  tally_error werr;
  if (rc == 0 && sw_db_put(p->db, pt, r, &werr) != 0)
    rc = -1, e = &werr;
  if (rc != 0 && !p->failed) {
    p->failed = 1;
    p->err = *e;
  }
  if (rc == 0) {
    p->st.done++;
    p->st.failed += r->exit_code != 0;
  }
  p->st.elapsed = since(&p->t0);
  size_t left = p->st.total - p->st.skipped - p->st.done;
  p->st.eta = p->st.done ? p->st.elapsed / (double)p->st.done * (double)left : -1;
  if (p->progress)
    p->progress(p->ctx, &p->st);
  pthread_mutex_unlock(&p->lock);
}

static void *worker(void *arg) {
  pool *p = arg;
  uint64_t *signals = calloc((size_t)tally_signal_count(), sizeof *signals);
  for (;;) {
    size_t i = atomic_fetch_add(&p->next, 1);
    if (i >= p->ntodo || !signals || (p->cancel && *p->cancel))
      break;
    pthread_mutex_lock(&p->lock);
    int stop = p->failed;
    pthread_mutex_unlock(&p->lock);
    if (stop)
      break;
    sw_point pt;
    sw_result r;
    tally_error e = {{0}, TALLY_E_INTERNAL};
    int rc = sw_point_make(p->s, p->todo[i], &pt);
    if (rc != 0)
      sw_err(&e, TALLY_E_INTERNAL, "out of memory");
    else
      rc = sw_point_run(p->s, &pt, &r, signals, &e);
    finished(p, &pt, &r, rc, &e);
    sw_point_free(&pt);
  }
  free(signals);
  return NULL;
}

/* The indexes of [first, first+count) the file does not hold. */
static int pending(pool *p, size_t first, size_t count, tally_error *err) {
  p->todo = malloc((count ? count : 1) * sizeof *p->todo);
  if (!p->todo)
    return sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1;
  for (size_t i = first; i < first + count; i++) {
    sw_point pt;
    if (sw_point_make(p->s, i, &pt) != 0) {
      sw_point_free(&pt);
      return sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1;
    }
    int has = sw_db_has(p->db, pt.key);
    sw_point_free(&pt);
    if (has < 0)
      return sw_err(err, TALLY_E_INPUT, "cannot read the sweep file"), -1;
    if (has)
      p->st.skipped++;
    else
      p->todo[p->ntodo++] = i;
  }
  return 0;
}

/* A point the one pass stored: the status and progress as the pool's. */
static void onepass_done(void *ctx, const sw_result *r) {
  pool *p = ctx;
  p->st.done++;
  p->st.failed += r->exit_code != 0;
  p->st.elapsed = since(&p->t0);
  size_t left = p->st.total - p->st.skipped - p->st.done;
  p->st.eta = p->st.elapsed / (double)p->st.done * (double)left;
  if (p->progress)
    p->progress(p->ctx, &p->st);
}

static int start_threads(pool *p, unsigned jobs, tally_error *err) {
  pthread_t *t = calloc(jobs, sizeof *t);
  if (!t)
    return sw_err(err, TALLY_E_INTERNAL, "out of memory"), -1;
  unsigned started = 0;
  while (started < jobs && pthread_create(&t[started], NULL, worker, p) == 0)
    started++;
  if (started == 0)
    worker(p);             /* no thread could be made: run here */
  for (unsigned i = 0; i < started; i++)
    pthread_join(t[i], NULL);
  free(t);
  return 0;
}

int tally_sweep_run(tally_sweep *s, const char *db, unsigned jobs, size_t first, size_t count,
                    tally_sweep_progress_fn progress, void *ctx, const volatile int *cancel, tally_error *err) {
  size_t total = tally_sweep_points(s);
  if (s->nprogs == 0)
    return sw_err(err, TALLY_E_USAGE, "the sweep names no program"), -1;
  if (sw_check_size(s, err) != 0 || sw_counters_check(s, err) != 0)
    return -1;
  if (first > total)
    first = total;
  if (count == 0 || count > total - first)
    count = total - first;
  if (jobs == 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    jobs = n > 0 ? (unsigned)n : 1;
  }
  pool p = {.s = s, .cancel = cancel, .progress = progress, .ctx = ctx};
  s->cancel = cancel;   /* a point that never ends stops too, between two slices */
  p.st.total = count;
  p.st.eta = -1;
  if (!(p.db = sw_db_open(db, err)))
    return -1;
  int rc = sw_db_note(p.db, s, err);
  if (rc == 0)
    rc = pending(&p, first, count, err);
  if (rc == 0) {
    pthread_mutex_init(&p.lock, NULL);
    clock_gettime(CLOCK_MONOTONIC, &p.t0);
    if (progress)
      progress(ctx, &p.st);
    if (jobs > p.ntodo)
      jobs = p.ntodo ? (unsigned)p.ntodo : 1;
    rc = s->one_pass ? sw_onepass(s, p.db, p.todo, p.ntodo, jobs, cancel, onepass_done, &p, err) : start_threads(&p, jobs, err);
    pthread_mutex_destroy(&p.lock);
    if (rc == 0 && p.failed) {
      if (err)
        *err = p.err;
      rc = -1;
    }
  }
  s->cancel = NULL;
  free(p.todo);
  sw_db_close(p.db);
  return rc;
}

long tally_sweep_merge(const char *db, const char *src, tally_error *err) {
  sw_db *d = sw_db_open(db, err);
  if (!d)
    return -1;
  long n = sw_db_merge(d, src, err);
  sw_db_close(d);
  return n;
}
