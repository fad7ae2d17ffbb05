/*
 * libFuzzer target for the collector's state machine (src/net/collector.c):
 * what happens to packets after the decoder accepted them, which the
 * decoder's target (fuzz_decode.c) cannot reach. Each input is a script
 * for one fresh collector over an in-memory store left empty by the input
 * before (one store for the process: opening one costs more than a run):
 *
 *   byte 0            bit 0: the collector has the test key (the one of
 *                     docs/protocol.md's vectors), else none
 *   then records      op (1 byte), len (2 bytes, little-endian), and for
 *                     ops that carry one, a datagram of len bytes:
 *     op % 4 == 0     a datagram from board A (127.0.0.1:40000)
 *     op % 4 == 1     a datagram from board B (127.0.0.1:40001), another
 *                     sender, e.g. for A's run ids
 *     op % 4 == 2     no datagram: the clock moves on len × 8 ms and the
 *                     timers run (resend requests, timeouts, forgetting)
 *     op % 4 == 3     a datagram from a board in the process (the pipe's
 *                     address)
 *
 * At the end the clock moves past every timeout and the open runs are
 * closed. Nothing may crash, leak or read outside what it owns (ASan,
 * UBSan, LeakSanitizer); the collector's counts must stay consistent.
 * Replies (RESEND, FINAL_ACK) go nowhere: the collector has no socket and
 * no pipe. fuzz/make_collector_corpus.py writes the seeds (fuzz/corpus/collector).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/auth.h"
#include "net/collector.h"
#include "net/pipe.h"
#include "net/udp.h"
#include "store/store.h"
#include "store/store_read.h"

static int runs_closed;

static void on_run(void *ctx, const net_run_result *r) {
  (void)ctx;
  if (r->status != STORE_RUN_COMPLETE && r->status != STORE_RUN_INCOMPLETE)
    abort();
  if (r->status == STORE_RUN_INCOMPLETE && !r->note[0])
    abort();   /* an incomplete run always says why */
  runs_closed++;
}

static void on_warning(void *ctx, const char *msg) {
  (void)ctx;
  if (!msg[0])
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  static net_addr a, b, in_process;
  static net_key key;
  if (!key.len) {
    char e[100];
    net_addr_parse("127.0.0.1:40000", &a, e, sizeof e);
    net_addr_parse("127.0.0.1:40001", &b, e, sizeof e);
    net_pipe_addr(&in_process);
    net_key_set(&key, "tally protocol test key 0001", 28, e, sizeof e);
  }
  char err[300];
  static store *st;
  if (!st && !(st = store_open(":memory:", err, sizeof err))) {
    fprintf(stderr, "fuzz_collector: store: %s\n", err);
    abort();
  }
  net_collector_cfg cfg = {.listen = NULL, .run_timeout_ms = 30000, .on_run = on_run, .on_warning = on_warning,
                           .key = data[0] & 1 ? &key : NULL};
  net_collector *c = net_collector_open(&cfg, st, err, sizeof err);
  if (!c) {
    fprintf(stderr, "fuzz_collector: collector: %s\n", err);
    abort();
  }
  runs_closed = 0;
  uint64_t now = net_now_ms();
  size_t i = 1;
  while (i + 3 <= size) {
    unsigned op = data[i] % 4, len = (unsigned)data[i + 1] | (unsigned)data[i + 2] << 8;
    i += 3;
    if (op == 2) {
      now += (uint64_t)len * 8;
      net_collector_tick(c, now);
      continue;
    }
    if (len > size - i)
      len = (unsigned)(size - i);
    net_collector_feed(c, data + i, len, op == 0 ? &a : op == 1 ? &b : &in_process, now);
    i += len;
  }
  now += 120000;   /* past the run timeout and the time closed runs are kept */
  net_collector_tick(c, now);
  net_collector_finish_all(c, "fuzz input ended");
  net_collector_stats s;
  net_collector_get_stats(c, &s);
  if (s.runs_open != 0 || s.stored > s.received || s.runs_complete + s.runs_incomplete < (uint32_t)runs_closed)
    abort();
  net_collector_close(c);
  /* empty again, so that every input starts from the same store */
  store_run_view *runs;
  size_t n;
  if (store_list_runs(st, &runs, &n) != 0)
    abort();
  for (size_t k = 0; k < n; k++)
    if (store_delete_run(st, runs[k].run_id) != 1)
      abort();
  store_runs_free(runs, n);
  return 0;
}
