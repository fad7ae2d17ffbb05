/*
 * The server's collector: runs' statistics-module packets arrive over
 * loopback UDP from the workers, and are stored in the server's store as
 * `tally collect` would (gaps re-requested, verdict on the final record).
 * A thread polls it until the server stops.
 */
#include <stdio.h>
#include <sys/random.h>

#include "serve.h"
#include "tally/collector.h"

static void *poll_loop(void *arg) {
  serve_ctx *c = arg;
  tally_error err;
  while (!c->stopping)
    if (tally_collector_poll(c->collector, 100, &err) != 0)
      fprintf(stderr, "tally serve: collector: %s\n", err.msg);
  return NULL;
}

static void warn(void *ctx, const char *msg) {
  (void)ctx;
  fprintf(stderr, "tally serve: collector: %s\n", msg);
}

int serve_collector_start(serve_ctx *c) {
  tally_error err;
  /* Any local user can find a loopback port: only packets tagged with this
   * server's key (serve.h) are stored. */
  size_t got = 0;
  while (got < sizeof c->collector_key) {
    ssize_t n = getrandom(c->collector_key + got, sizeof c->collector_key - got, 0);
    if (n <= 0) {
      fprintf(stderr, "tally serve: cannot make the collector's key: no random bytes from the system\n");
      return -1;
    }
    got += (size_t)n;
  }
  tally_collector_cfg cfg = {.listen = "127.0.0.1:0", .db = c->db, .on_warning = warn, .ctx = c,
                             .key = c->collector_key, .key_len = sizeof c->collector_key};
  c->collector = tally_collector_open(&cfg, &err);
  if (!c->collector) {
    fprintf(stderr, "tally serve: cannot start the collector on %s: %s\n", c->db, err.msg);
    return -1;
  }
  tally_collector_addr(c->collector, c->collector_addr, sizeof c->collector_addr);
  if (pthread_create(&c->collector_thread, NULL, poll_loop, c) != 0) {
    tally_collector_close(c->collector, "server could not start");
    return -1;
  }
  return 0;
}

void serve_collector_stop(serve_ctx *c) {
  c->stopping = 1;
  pthread_join(c->collector_thread, NULL);
  tally_collector_close(c->collector, "tally serve stopped");
}
