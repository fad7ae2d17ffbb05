/*
 * The collector against a second sender (tests/net, "forge"): a run belongs
 * to the address that sent its first packet. Packets for that run id from
 * anywhere else are counted as foreign and change nothing: not the stored
 * packets, not the address resends and acknowledgements go to. Run id 0
 * (the control channel's hello) is never a run. The packets are the
 * document's own vectors (docs/protocol.md), sent over real loopback
 * sockets to a real collector with a real SQLite store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/collector.h"
#include "net/udp.h"
#include "store/store_read.h"
#include "vectors.h"

#include "check.h"

static vector v[VEC_MAX];
static int nv;

static const vector *find(const char *name) {
  for (int i = 0; i < nv; i++)
    if (strcmp(v[i].name, name) == 0)
      return &v[i];
  fprintf(stderr, "no vector named %s in the document\n", name);
  exit(1);
}

static net_collector_stats after_sending(net_collector *c, int fd, const net_addr *to, const uint8_t *b, size_t len) {
  net_udp_send(fd, to, b, len);
  for (int i = 0; i < 20; i++)
    net_collector_poll(c, 10);
  net_collector_stats st;
  net_collector_get_stats(c, &st);
  return st;
}

int main(int argc, char **argv) {
  if (argc != 3 || (nv = vectors_load(argv[1], v, VEC_MAX)) <= 0)
    return 2;
  char db[512], err[256];
  snprintf(db, sizeof db, "%s/forge.db", argv[2]);
  unlink(db);
  store *st = store_open(db, err, sizeof err);
  /* a run already stored complete: the id of the document's vectors + 1 */
  const vector *start0 = find("run-start");
  uint64_t stored_id = 0;
  for (int i = 0; i < 8; i++)
    stored_id |= (uint64_t)start0->bytes[8 + i] << (8 * i);
  stored_id += 1;
  store_run_info done = {.run_id = stored_id, .program = "replayed.elf", .core = "tally5", .counters = 1,
                        .width = 32, .period = 1000};
  store_counter_info ctr = {.index = 0, .signal = "cycle", .anywhere = true, .where = "anywhere",
                            .label = "cycles", .enabled = true};
  uint64_t value = 1000;
  uint8_t sat = 0;
  store_run_status was = 0;
  CHECK(st && store_begin_run(st, &done) == 0 && store_set_counter(st, stored_id, &ctr) == 0 &&
            store_add_interval(st, stored_id, 2, 0, 0, 1000, 0, 1, &value, &sat, NULL) == 0 &&
            store_finish_run(st, stored_id, STORE_RUN_COMPLETE, &value, 1, 1, "") == 0 && store_flush(st) == 0 &&
            store_run_status_of(st, stored_id, &was) == 1 && was == STORE_RUN_COMPLETE,
        "could not store a complete run (%d)", (int)was);
  net_collector_cfg cfg = {.listen = "127.0.0.1:0", .run_timeout_ms = 60000};
  net_collector *c = st ? net_collector_open(&cfg, st, err, sizeof err) : NULL;
  if (!c) {
    fprintf(stderr, "collector: %s\n", err);
    return 1;
  }
  char where[80];
  net_addr to;
  net_collector_addr(c, where, sizeof where);
  net_addr_parse(where, &to, err, sizeof err);
  int board = net_udp_open_for(&to, err, sizeof err), forger = net_udp_open_for(&to, err, sizeof err);

  const vector *start = find("run-start"), *data = find("data");
  net_collector_stats s = after_sending(c, board, &to, start->bytes, start->len);
  CHECK(s.stored == 1 && s.foreign == 0, "RUN_START from the board: stored %llu, foreign %llu",
        (unsigned long long)s.stored, (unsigned long long)s.foreign);
  /* the same run's DATA from another socket: foreign, not stored */
  s = after_sending(c, forger, &to, data->bytes, data->len);
  CHECK(s.stored == 1 && s.foreign == 1, "DATA from a forger: stored %llu, foreign %llu",
        (unsigned long long)s.stored, (unsigned long long)s.foreign);
  /* from the board itself it is taken */
  s = after_sending(c, board, &to, data->bytes, data->len);
  CHECK(s.stored == 2 && s.foreign == 1, "DATA from the board: stored %llu, foreign %llu",
        (unsigned long long)s.stored, (unsigned long long)s.foreign);
  /* run id 0 is refused whoever sends it */
  uint8_t zero[2048];
  memcpy(zero, start->bytes, start->len);
  memset(zero + 8, 0, 8);
  uint64_t malformed = s.malformed;
  s = after_sending(c, forger, &to, zero, start->len);
  CHECK(s.stored == 2 && s.malformed == malformed + 1, "run id 0: stored %llu, malformed %llu",
        (unsigned long long)s.stored, (unsigned long long)s.malformed);
  /* A sequence number 2^21 ahead of 2 received packets is not believed
   * (the gap maps would grow without bound under a flood of such jumps);
   * one 1,000 ahead is. */
  uint8_t far[2048];
  memcpy(far, data->bytes, data->len);
  uint32_t seqs[2] = {1u << 21, 1000};
  for (int i = 0; i < 2; i++) {
    far[16] = (uint8_t)seqs[i], far[17] = (uint8_t)(seqs[i] >> 8), far[18] = (uint8_t)(seqs[i] >> 16),
    far[19] = (uint8_t)(seqs[i] >> 24);
    uint64_t before = s.stored;
    s = after_sending(c, board, &to, far, data->len);
    CHECK(s.stored == before + (i == 1), "DATA at seq %u: stored %llu (was %llu)", seqs[i],
          (unsigned long long)s.stored, (unsigned long long)before);
  }
  /* Replaying that complete run's packets (a restarted collector) leaves
   * it complete: nothing of it is stored again or recomputed. */
  uint8_t replay[2048];
  memcpy(replay, start0->bytes, start0->len);
  for (int i = 0; i < 8; i++)
    replay[8 + i] = (uint8_t)(stored_id >> (8 * i));
  uint64_t before = s.stored;
  s = after_sending(c, board, &to, replay, start0->len);
  CHECK(s.stored == before, "a replayed packet of a complete run was stored");
  close(board);
  close(forger);
  net_collector_finish_all(c, "test over");
  net_collector_close(c);
  store_run_status now = STORE_RUN_INCOMPLETE;
  CHECK(store_run_status_of(st, stored_id, &now) == 1 && now == STORE_RUN_COMPLETE,
        "the complete run became %d after a replay", (int)now);
  store_close(st);
  unlink(db);
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
