/*
 * The board's side of the network: turns statistics-module intervals into
 * packets for a collector, keeps the most recent packets to answer resend
 * requests, and (in control mode) takes its configuration from control
 * packets, the way the paper's board did.
 *
 * It knows nothing of the simulator: configuration reaches the module
 * through a small table of callbacks (net_board_ops), and intervals arrive
 * through net_board_sink, a statmod_sink.
 *
 * Sequence of a run: seq 0 RUN_START, seq 1..k COUNTER_INFO (names and
 * labels), then DATA packets (each interval split into chunks of counters),
 * then FINAL packets (the totals). The describe and final packets are kept
 * for the whole run; DATA packets in a ring of `ring` packets. At every
 * dispatch the link reads its sockets without waiting: resend requests are
 * answered (what the ring no longer holds is reported GONE), control packets
 * applied. After the final packet it lingers, answering resends and
 * repeating the final packets with back-off, until the collector
 * acknowledges (FINAL_ACK) or linger_ms passes.
 *
 * Control packets (docs/protocol.md, "Control"): with a key, each must carry
 * a valid tag; each must carry the board's run id and a sequence number
 * above the last accepted one (a QUERY for run 0 is a "hello" that changes
 * nothing and is answered whatever its sequence number). Bad tags, stale
 * sequence numbers and malformed packets are refused with an ERROR reply
 * and counted.
 *
 * With a key, every packet to the collector carries a tag too, and RESEND
 * and FINAL_ACK are taken only with a right one. A FINAL_ACK ends the
 * lingering only as the answer to this run's final packets (its sequence
 * number is the stream's length); others are counted in refused_replies.
 *
 * Not thread-safe: one thread drives a link.
 */
#ifndef TALLY_NET_BOARD_LINK_H
#define TALLY_NET_BOARD_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../statmod/statmod.h"
#include "auth.h"
#include "proto.h"

/* Configuration callbacks. Each returns 0 when applied, or a net_err code
 * (NET_E_BAD_VALUE, NET_E_BAD_STATE, ...) with a one-line reason in err,
 * which goes back to the sender in the ERROR reply. A NULL set_* callback
 * makes its request answer NET_E_UNSUPPORTED; without start or stop
 * callbacks START and STOP only change the link's state (which
 * net_board_wait_start watches). stop should freeze the counters and let
 * the module dispatch its last interval and final record, as when the
 * program ends. */
typedef struct net_board_ops {
  int (*set_timer)(void *ctx, uint64_t period, char *err, size_t errlen);
  /* name: NUL-terminated, "" if the sender gave none (e.g. a function name) */
  int (*set_arr)(void *ctx, unsigned index, uint32_t lo, uint32_t hi, const char *name, char *err, size_t errlen);
  /* arr: ARR index or STATMOD_ANYWHERE */
  int (*set_counter)(void *ctx, unsigned index, unsigned signal, unsigned arr, bool enabled, char *err,
                     size_t errlen);
  /* A task counter (task register 1..16; SET_COUNTER's task byte), and
   * a task register's name (SET_TASK; "" empties it). NULL: the board has
   * no task counters (ERROR 7, not supported). */
  int (*set_task_counter)(void *ctx, unsigned index, unsigned signal, unsigned arr, bool enabled, unsigned task,
                          char *err, size_t errlen);
  int (*set_task)(void *ctx, unsigned index, const char *name, char *err, size_t errlen);
  int (*start)(void *ctx, char *err, size_t errlen);
  int (*stop)(void *ctx, char *err, size_t errlen);
  /* Fills what the module knows now (may be NULL: zeros are reported). */
  void (*query)(void *ctx, uint64_t *period, uint64_t *intervals, uint64_t *cycle);
} net_board_ops;

typedef struct net_board_cfg {
  const char *collector;       /* ADDR:PORT packets go to (required unless pipe is set) */
  struct net_pipe *pipe;       /* a collector in this process (pipe.h): packets go through it, not a socket */
  const char *control;         /* ADDR:PORT to take control packets on; NULL: none */
  const net_key *key;          /* control packets, and the collector's RESEND and FINAL_ACK, must carry its
                                  tag, and every packet sent carries one; NULL: no key */
  statmod_params params;       /* counters, width, arrs of the module */
  uint32_t ring;               /* DATA packets kept for resends; 0: 4096 */
  uint32_t linger_ms;          /* after the final packet; 0: 5000 */
  uint64_t run_id;             /* 0: a random one */
  const char *spool_dir;       /* keep every stream packet in DIR/tally-RUNID.spool (spool.h); NULL: none.
                                  A spool that cannot be created leaves net_board_spool_path "" and
                                  net_board_error saying why; the link works without it */
  const net_board_ops *ops;    /* control mode only */
  void *ops_ctx;
} net_board_cfg;

/* What the collector is told about the run (RUN_START, COUNTER_INFO).
 * Strings are NUL-terminated and may be NULL; names and labels longer than
 * 255 bytes are refused, not cut. */
typedef struct net_counter_label {
  unsigned signal, arr;        /* arr: ARR index or STATMOD_ANYWHERE */
  uint32_t lo, hi;             /* the ARR's range when arr != STATMOD_ANYWHERE */
  bool enabled;
  const char *name;            /* signal name, e.g. "dcache.read_miss" */
  const char *where;           /* e.g. "MixColumns", "anywhere" */
  const char *label;           /* e.g. "data-cache read misses in MixColumns" */
} net_counter_label;

typedef struct net_run_desc {
  uint64_t period;
  double freq_mhz;             /* 0 if unknown */
  const char *program, *core;  /* program longer than 512 bytes: its base name is sent */
  const net_counter_label *counters;   /* params.counters entries */
} net_run_desc;

typedef struct net_board_stats {
  uint64_t packets_sent;       /* first transmissions */
  uint64_t resent;             /* packets sent again on request or while lingering */
  uint64_t gone;               /* sequence numbers asked for but no longer held */
  uint64_t intervals;
  uint32_t bad_tags, stale, malformed;   /* refused control packets */
  uint32_t refused_replies;    /* RESEND or FINAL_ACK refused: no or a wrong tag (keyed), or an
                                  acknowledgement that does not answer this run's final packets */
  uint32_t send_errors;
  bool acked;                  /* the collector acknowledged the final packet */
  uint8_t verdict;             /* its verdict: 1 complete, 2 incomplete (0: none) */
  net_state state;
} net_board_stats;

typedef struct net_board net_board;

/* NULL on failure with the reason in err (bad address, cannot bind...). */
net_board *net_board_open(const net_board_cfg *cfg, char *err, size_t errlen);
void net_board_close(net_board *b);

uint64_t net_board_run_id(const net_board *b);
/* The spool file's path ("" without one). */
const char *net_board_spool_path(const net_board *b);
/* Closes the spool file: removes it (remove: the collector has the run),
 * or keeps it. -1 when it was not written whole (net_board_error says why). */
int net_board_spool_end(net_board *b, bool remove);
/* The address control packets are taken on (useful with port 0). */
int net_board_control_addr(const net_board *b, char *buf, size_t size);

/* Sends the run's description; must come before the first interval (if it
 * does not, a description without names is sent). -1 with the reason in
 * net_board_error if called late or given an overlong string. */
int net_board_describe(net_board *b, const net_run_desc *d);

/* The statmod_sink: ctx is the net_board. Sends the interval's packets,
 * then answers whatever has arrived. A final record sends the FINAL
 * packets and lingers (see above) before returning. */
void net_board_sink(void *ctx, const statmod_interval *iv);

/* Control mode: applies control packets until START is accepted. 0 when
 * started; 1 after timeout_ms (-1: no limit) or when *cancel becomes true
 * (cancel may be NULL); -1 on a socket error. */
int net_board_wait_start(net_board *b, int timeout_ms, const volatile int *cancel);

/* Answers whatever has arrived (resends, control), waiting up to
 * timeout_ms for the first packet. Returns the number of packets handled. */
int net_board_poll(net_board *b, int timeout_ms);

/* Says in the final packets that the program did not run to its end
 * (trapped, stopped by a bound, interrupted): the collector then stores the
 * run as incomplete. Call before the final record reaches the sink. */
void net_board_set_cut_short(net_board *b);

/* Marks the run as stopping (the program ended or STOP was applied). */
void net_board_set_state(net_board *b, net_state s);

void net_board_get_stats(const net_board *b, net_board_stats *st);
/* The last error (send failure, bad description), "" if none. */
const char *net_board_error(const net_board *b);

#endif
