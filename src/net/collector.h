/*
 * The collector: receives boards' packet streams over UDP and keeps them in
 * the store (src/store/store.h).
 *
 * Per run it keeps which sequence numbers it holds, stores each packet once
 * (duplicates are counted and dropped), and asks the board to resend what is
 * missing: a gap is asked for after resend_delay_ms (reordered packets
 * usually arrive by then), then again with doubling delays. When it holds
 * every packet up to the final ones it checks the board's totals against
 * the sums of what it stored, the number of intervals and of DATA packets,
 * and closes the run: complete only if everything is there and adds up;
 * otherwise incomplete, with a note naming what is missing or wrong. Either
 * way it acknowledges the final packet so the board can stop lingering.
 * A run is also closed incomplete when the board says it no longer holds a
 * missing packet (GONE) and the final packets are known, when the resend
 * requests go unanswered resend_tries times after the final is known, or
 * when nothing is heard from it for run_timeout_ms.
 *
 * With a key (cfg.key) every packet must carry a right tag, checked before
 * it can open or touch a run (refusals counted in bad_tags), and RESEND and
 * FINAL_ACK carry one. A FINAL_ACK's sequence number is the stream's packet
 * count from the FINAL packets it answers; a run closed before they came is
 * acknowledged when they do.
 *
 * Poll-style: call net_collector_poll in a loop, from any one thread (the
 * collector is not shared between threads). The receive path drains the
 * socket without blocking (recvmmsg batches) into a large receive buffer,
 * and store writes are committed (store_flush) at most every flush_ms.
 */
#ifndef TALLY_NET_COLLECTOR_H
#define TALLY_NET_COLLECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../store/store.h"
#include "udp.h"

struct net_key;

typedef struct net_run_result {
  uint64_t run_id;
  store_run_status status;       /* STORE_RUN_COMPLETE or STORE_RUN_INCOMPLETE */
  uint64_t intervals;            /* data intervals stored */
  uint32_t packets;              /* distinct packets stored */
  uint32_t duplicates;           /* packets received more than once */
  uint32_t resend_requests;      /* RESEND packets sent for this run */
  const char *program;           /* "" if the run was never described */
  const char *note;              /* "" when complete; else what is missing or wrong */
} net_run_result;

typedef struct net_collector_cfg {
  const char *listen;            /* ADDR:PORT (port 0: any free port); NULL: no socket (the pipe, spool
                                    files and net_collector_feed only) */
  int rcvbuf;                    /* socket receive buffer; 0: 8 MiB */
  uint32_t resend_delay_ms;      /* 0: 20 */
  uint32_t resend_tries;         /* 0: 10 */
  uint32_t run_timeout_ms;       /* 0: 30000 */
  uint32_t flush_ms;             /* 0: 100 */
  void (*on_run)(void *ctx, const net_run_result *r);   /* a run was closed */
  void (*on_warning)(void *ctx, const char *msg);       /* may be NULL */
  void *ctx;
  struct net_pipe *pipe;         /* also takes packets from a board in this process (pipe.h); may be NULL */
  const struct net_key *key;     /* every packet must carry its tag, and RESEND and FINAL_ACK carry one
                                    (copied at open); NULL: no key, and tagged packets are refused */
} net_collector_cfg;

typedef struct net_collector_stats {
  uint64_t received;             /* datagrams */
  uint64_t stored;               /* distinct packets stored */
  uint64_t duplicates;
  uint64_t malformed;            /* refused by the decoder, or for an unknown run */
  uint64_t foreign;              /* for a known run, from another address than its first sender */
  uint64_t deferred;             /* DATA_COMPACT before its run's RUN_START: not held, asked for again */
  uint64_t bad_tags;             /* with a key: no tag or a wrong one; without: a tag (refused, unused) */
  uint64_t resend_requests;
  uint64_t runs_refused;         /* new runs refused: every open run's slot held by a live-looking run */
  uint64_t runs_evicted;         /* open runs dropped to make room for a new one (closed incomplete if stored) */
  uint32_t runs_open, runs_complete, runs_incomplete;
} net_collector_stats;

typedef struct net_collector net_collector;

/* NULL with the reason in err. The store stays the caller's. */
net_collector *net_collector_open(const net_collector_cfg *cfg, store *st, char *err, size_t errlen);
/* Sets or replaces the key (as cfg.key), before any packet has come. */
void net_collector_set_key(net_collector *c, const struct net_key *key);
/* Closes without finishing open runs (net_collector_finish_all first). */
void net_collector_close(net_collector *c);

int net_collector_fd(const net_collector *c);   /* -1 without a socket */
/* The address it listens on (port 0 resolved); "in-process" without a socket. */
const char *net_collector_addr(const net_collector *c, char *buf, size_t size);
int net_collector_rcvbuf(const net_collector *c);

/* Waits up to timeout_ms (0: not at all) for packets, handles everything
 * that has arrived and every timer that is due. Returns 0, or -1 if the
 * store failed (reason in net_collector_error); a store failure ends
 * nothing silently: the run is closed incomplete if it can be. */
int net_collector_poll(net_collector *c, int timeout_ms);

/* Takes one datagram as if it had come from `from` at now_ms (on the
 * clock of net_now_ms), and runs the timers due at now_ms: a test or a
 * fuzzer drives the state machine with no socket and its own clock. */
void net_collector_feed(net_collector *c, const void *buf, size_t len, const net_addr *from, uint64_t now_ms);
void net_collector_tick(net_collector *c, uint64_t now_ms);

/* Closes every open run as incomplete with this note (e.g. on shutdown). */
void net_collector_finish_all(net_collector *c, const char *note);

/* Milliseconds since a packet last arrived (since opening if none). */
uint64_t net_collector_idle_ms(const net_collector *c);
void net_collector_get_stats(const net_collector *c, net_collector_stats *st);
const char *net_collector_error(const net_collector *c);

/* Takes the datagrams of a spool file (spool.h) as if received: runs they
 * complete are closed as from the network (on_run is called); runs still
 * open afterwards are for net_collector_finish_all. Returns the number of
 * datagrams read, or -1 with err (*bad_input: not a spool file, else
 * unreadable); *truncated when the file ends inside a record. */
long net_collector_import(net_collector *c, const char *path, bool *truncated, bool *bad_input, char *err,
                          size_t errlen);

#endif
