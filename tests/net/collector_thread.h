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
} collector_thread;

/* With pipe non-NULL the collector also takes packets from it (pipe.h). */
int collector_thread_start(collector_thread *ct, const char *db, const char *listen, struct net_pipe *pipe);
/* Stops polling, joins, closes the collector and the store. */
void collector_thread_stop(collector_thread *ct);

#endif
