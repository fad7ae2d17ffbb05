/*
 * libtally: the collector as a library object.
 *
 * Receives boards' packet streams over UDP (docs/protocol.md) and keeps
 * them in a store: each packet once, gaps asked to be resent, and each run
 * closed complete only when every interval is there and the sums equal the
 * board's totals; otherwise incomplete, with a note saying what is missing.
 * It is what `tally collect` runs.
 *
 *   tally_collector_cfg cfg = {.listen = "0.0.0.0:7400", .db = "runs.db", .on_run = show, .ctx = ui};
 *   tally_collector *c = tally_collector_open(&cfg, &err);
 *   while (!stop)
 *     tally_collector_poll(c, 100, &err);
 *   tally_collector_close(c, "collector shut down");
 *
 * Poll style: one thread at a time calls it; callbacks run inside
 * tally_collector_poll.
 */
#ifndef TALLY_COLLECTOR_H
#define TALLY_COLLECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tally/store.h"
#include "tally/tally.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A run the collector closed. */
typedef struct tally_collected_run {
  uint64_t run_id;
  tally_store_status status;     /* complete or incomplete */
  uint64_t intervals;            /* data intervals stored */
  uint32_t packets, duplicates, resend_requests;
  const char *program;           /* "" if never described */
  const char *note;              /* "" when complete; else what is missing or wrong */
} tally_collected_run;

typedef struct tally_collector_cfg {
  const char *listen;            /* ADDR:PORT (port 0: any free port) */
  const char *db;                /* the store (created if missing); NULL: tally_store_default_path() */
  int rcvbuf;                    /* socket receive buffer bytes; 0: 8 MiB */
  uint32_t resend_delay_ms;      /* 0: 20 */
  uint32_t resend_tries;         /* 0: 10 */
  uint32_t run_timeout_ms;       /* 0: 30000: a silent run is closed incomplete */
  void (*on_run)(void *ctx, const tally_collected_run *r);  /* may be NULL */
  void (*on_warning)(void *ctx, const char *msg);           /* may be NULL */
  void *ctx;
  /* The key boards tag their packets with (docs/protocol.md,
   * "Authentication"): a file whose bytes are the key, or an environment
   * variable whose value's bytes are; at most one. With a key every packet
   * without a right tag is refused (counted in bad_tags) and RESEND and
   * FINAL_ACK carry a tag. NULL, NULL: no key (tagged packets are refused). */
  const char *key_file, *key_env;
  /* Or the key's bytes themselves (16 to 1,024; copied at open), e.g. one
   * made at random for this process alone: not with key_file or key_env. */
  const void *key;
  size_t key_len;
} tally_collector_cfg;

typedef struct tally_collector_stats {
  uint64_t received, stored, duplicates, malformed, resend_requests;
  uint64_t foreign;   /* packets for a known run from another address than its first sender: ignored */
  uint64_t bad_tags;  /* with a key: packets without a right tag; without one: tagged packets (refused) */
  uint32_t runs_open, runs_complete, runs_incomplete;
  uint64_t runs_refused;  /* new runs refused: all 64 run slots held by runs that look alive */
  uint64_t runs_evicted;  /* open runs dropped to make room for a new one (docs/protocol.md) */
  uint64_t deferred;      /* DATA_COMPACT packets before their run's RUN_START: not held, asked for again */
} tally_collector_stats;

#define TALLY_DEFAULT_COLLECT_PORT 7400  /* tally collect's, and the protocol's, default */

typedef struct tally_collector tally_collector;

tally_collector *tally_collector_open(const tally_collector_cfg *cfg, tally_error *err);
/* Closes every open run as incomplete with this note (on_run is called for
 * each), e.g. before reading the final stats on shutdown. */
void tally_collector_finish_all(tally_collector *c, const char *note);
/* tally_collector_finish_all with this note (NULL: "collector closed"),
 * then closes the socket and the store. */
void tally_collector_close(tally_collector *c, const char *note);
/* Waits up to timeout_ms (0: not at all) for packets and handles what has
 * arrived and every timer due. -1 with err when the store failed. */
int tally_collector_poll(tally_collector *c, int timeout_ms, tally_error *err);
/* The address it listens on, port 0 resolved. */
const char *tally_collector_addr(const tally_collector *c, char *buf, size_t size);
/* The receive buffer the kernel granted (bytes). */
int tally_collector_rcvbuf(const tally_collector *c);
uint64_t tally_collector_idle_ms(const tally_collector *c);
void tally_collector_stats_get(const tally_collector *c, tally_collector_stats *st);
/* Checks an ADDR:PORT as the collector, the board link and control take
 * it ("127.0.0.1:7400", "[::1]:7400", "host:7400"); need_port: port 0 is
 * refused. 0, or -1 with err saying what is wrong. */
int tally_addr_check(const char *text, bool need_port, tally_error *err);

/* Stores the run(s) kept in a spool file by a board whose collector never
 * answered (tally run --collector; docs/protocol.md, "Spool files"), as if
 * the packets had arrived now: runs they complete end as complete (on_run
 * is called); finish the others with tally_collector_finish_all. Returns
 * the datagrams read, *truncated when the file ends inside a record (what
 * came before is taken); -1 with TALLY_E_INPUT (unreadable, or not a spool
 * file: see bad_data) or TALLY_E_INTERNAL (the store). */
long tally_collector_import(tally_collector *c, const char *path, bool *truncated, bool *bad_data,
                            tally_error *err);

/* The file descriptor to wait on (poll/epoll) before tally_collector_poll. */
int tally_collector_fd(const tally_collector *c);

#ifdef __cplusplus
}
#endif

#endif
