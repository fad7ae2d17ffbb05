/*
 * Fills a store with three runs of hand-chosen values, for the tests of
 * `tally report` and of the file as other SQLite readers see it
 * (test_report.py holds the expected figures, worked out by hand).
 *
 *   run 1001  complete: 4 counters, 4 intervals (interval 1 in two chunks),
 *             one saturated value, two repeated packets
 *   run 8194  incomplete: interval 2 never arrived
 *   run 18446744069414584321 (0xFFFFFFFF00000001)  still running
 *
 * Usage: fill_store DB
 */
#include <stdio.h>
#include <stdlib.h>

#include "store/store.h"

static store *s;

static void check(int rc, const char *what) {
  if (rc != 0) {
    fprintf(stderr, "fill_store: %s: %s\n", what, store_error(s));
    exit(1);
  }
}

static void add(uint64_t run, uint32_t seq, uint64_t index, uint64_t begin, uint64_t end, uint32_t first, uint32_t n,
                const uint64_t *values, const uint8_t *sat) {
  check(store_add_interval(s, run, seq, index, begin, end, first, n, values, sat, NULL), "add an interval");
}

static void counter(uint64_t run, uint32_t index, const char *signal, int anywhere, uint32_t lo, uint32_t hi,
                    const char *where, const char *label) {
  store_counter_info c = {.index = index, .signal = signal, .anywhere = anywhere, .lo = lo, .hi = hi,
                          .where = where, .label = label, .enabled = true};
  check(store_set_counter(s, run, &c), "set a counter");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: fill_store DB\n");
    return 64;
  }
  char err[600];
  s = store_open(argv[1], err, sizeof err);
  if (!s) {
    fprintf(stderr, "fill_store: %s\n", err);
    return 1;
  }

  /* run 1001 */
  store_run_info a = {.run_id = 1001, .program = "/home/user/aes.elf", .core = "tally5", .counters = 4,
                      .width = 32, .arrs = 16, .period = 100000, .freq_mhz = 100};
  check(store_begin_run(s, &a), "begin run 1001");
  counter(1001, 0, "cycle", 0, 0x80000000, 0x80000040, "main", "cycles in main");
  counter(1001, 1, "dcache.read_miss", 0, 0x80000100, 0x80000180, "MixColumns",
          "data-cache read misses in MixColumns");
  counter(1001, 2, "instret", 1, 0, 0, "anywhere", "instructions retired anywhere");
  counter(1001, 3, "icache.miss", 0, 0x80000100, 0x80000180, "0x80000100-0x80000180",
          "instruction-cache misses in the \"hot\" loop, 0x80000100-0x80000180");
  const uint64_t a0[] = {100000, 1200, 65000, 7};
  const uint64_t a1[] = {100000, 1300, 70000, 0};
  const uint64_t a2[] = {100000, 4294967295u, 80000, 3};
  const uint8_t a2s[] = {0, 1, 0, 0};
  const uint64_t a3[] = {45000, 12, 30000, 0};
  const uint64_t wrong[] = {1, 1, 1, 1};
  add(1001, 0, 0, 0, 100000, 0, 4, a0, NULL);
  add(1001, 1, 1, 100000, 200000, 0, 2, a1, NULL);      /* interval 1, counters 0-1 */
  add(1001, 2, 1, 100000, 200000, 2, 2, a1 + 2, NULL);  /* interval 1, counters 2-3 */
  add(1001, 1, 1, 100000, 200000, 0, 2, wrong, NULL);   /* a repeat of seq 1: ignored */
  add(1001, 3, 2, 200000, 300000, 0, 4, a2, a2s);
  add(1001, 4, 3, 300000, 345000, 0, 4, a3, NULL);
  add(1001, 4, 3, 300000, 345000, 0, 4, a3, NULL);      /* a repeat of seq 4: ignored */
  const uint64_t atot[] = {345000, 4294969807u, 245000, 10};
  check(store_finish_run(s, 1001, STORE_RUN_COMPLETE, atot, 4, 4, NULL), "finish run 1001");

  /* run 8194: interval 2 lost */
  store_run_info b = {.run_id = 8194, .program = "crc32.elf", .core = "tally3", .counters = 2, .width = 32,
                      .arrs = 4, .period = 5000};
  check(store_begin_run(s, &b), "begin run 8194");
  counter(8194, 0, "cycle", 1, 0, 0, "anywhere", "cycles anywhere");
  counter(8194, 1, "dcache.write_miss", 0, 0x80000200, 0x80000280, "crc_update",
          "data-cache write misses in crc_update");
  const uint64_t b0[] = {10, 1}, b1[] = {20, 2}, b3[] = {40, 4}, b4[] = {50, 5};
  add(8194, 0, 0, 0, 5000, 0, 2, b0, NULL);
  add(8194, 1, 1, 5000, 10000, 0, 2, b1, NULL);
  add(8194, 3, 3, 15000, 20000, 0, 2, b3, NULL);
  add(8194, 4, 4, 20000, 25000, 0, 2, b4, NULL);
  const uint64_t btot[] = {150, 15};
  check(store_finish_run(s, 8194, STORE_RUN_INCOMPLETE, btot, 2, 5, "no answer to the resend request for seq 2"),
        "finish run 8194");

  /* run 0xFFFFFFFF00000001: never finished */
  const uint64_t big = 0xFFFFFFFF00000001ull;
  store_run_info c = {.run_id = big, .program = "hanoi.elf", .core = "tally5", .counters = 1, .width = 32,
                      .arrs = 16, .period = 1000};
  check(store_begin_run(s, &c), "begin the running run");
  counter(big, 0, "cycle", 1, 0, 0, "anywhere", "cycles anywhere");
  const uint64_t c0[] = {7}, c1[] = {8};
  add(big, 0, 0, 0, 1000, 0, 1, c0, NULL);
  add(big, 1, 1, 1000, 2000, 0, 1, c1, NULL);
  check(store_flush(s), "flush");
  store_close(s);
  return 0;
}
