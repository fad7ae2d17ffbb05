/* A collector in a thread (collector_thread.h). */
#include "collector_thread.h"

#include <stdio.h>
#include <string.h>

static void on_run(void *ctx, const net_run_result *r) {
  collector_thread *ct = ctx;
  if (r->status == STORE_RUN_COMPLETE)
    ct->complete++;
  else
    ct->incomplete++;
  snprintf(ct->last_note, sizeof ct->last_note, "%s", r->note);
}

static void *loop(void *arg) {
  collector_thread *ct = arg;
  /* a pipe wakes no poll(): look at it every millisecond */
  while (!atomic_load(&ct->stop))
    if (net_collector_poll(ct->c, ct->pipe ? 1 : 50) != 0)
      fprintf(stderr, "collector: %s\n", net_collector_error(ct->c));
  return NULL;
}

int collector_thread_start(collector_thread *ct, const char *db, const char *listen, struct net_pipe *pipe) {
  return collector_thread_start_keyed(ct, db, listen, pipe, NULL);
}

int collector_thread_start_keyed(collector_thread *ct, const char *db, const char *listen, struct net_pipe *pipe,
                                 const struct net_key *key) {
  memset(ct, 0, sizeof *ct);
  ct->pipe = pipe;
  char err[300];
  ct->st = store_open(db, err, sizeof err);
  if (!ct->st) {
    fprintf(stderr, "store: %s\n", err);
    return -1;
  }
  net_collector_cfg cfg = {.listen = listen, .on_run = on_run, .ctx = ct, .pipe = pipe, .key = key};
  ct->c = net_collector_open(&cfg, ct->st, err, sizeof err);
  if (!ct->c) {
    fprintf(stderr, "collector: %s\n", err);
    store_close(ct->st);
    return -1;
  }
  net_collector_addr(ct->c, ct->addr, sizeof ct->addr);
  atomic_init(&ct->stop, 0);
  return pthread_create(&ct->thread, NULL, loop, ct);
}

void collector_thread_stop(collector_thread *ct) {
  atomic_store(&ct->stop, 1);
  pthread_join(ct->thread, NULL);
  net_collector_get_stats(ct->c, &ct->stats);
  net_collector_close(ct->c);
  store_close(ct->st);
}
