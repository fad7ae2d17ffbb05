/* A collector polled in its own thread, as tally run embeds one (tests). */
#ifndef TALLY_TESTS_NET_COLLECTOR_THREAD_H
#define TALLY_TESTS_NET_COLLECTOR_THREAD_H

#include <pthread.h>
#include <stdatomic.h>

#include "net/collector.h"

typedef struct collector_thread {
  store *st;
  net_collector *c;
  pthread_t thread;
  atomic_int stop;
  struct net_pipe *pipe;  /* also a board in this process, or NULL */
  char addr[80];
  /* written by the collector thread, read after collector_thread_stop */
  int complete, incomplete;
  char last_note[600];
  net_collector_stats stats; /* taken by collector_thread_stop, before closing */
} collector_thread;

/* With pipe non-NULL the collector also takes packets from it (pipe.h). */
int collector_thread_start(collector_thread *ct, const char *db, const char *listen, struct net_pipe *pipe);
/* The same with a key (the collector's cfg.key; NULL: none). */
int collector_thread_start_keyed(collector_thread *ct, const char *db, const char *listen, struct net_pipe *pipe,
                                 const struct net_key *key);
/* Stops polling, joins, closes the collector and the store. */
void collector_thread_stop(collector_thread *ct);

#endif
