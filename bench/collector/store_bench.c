/*
 * Throughput of store_add_interval: intervals of 16 counters written through
 * the store's API into a fresh SQLite file, as the collector writes them
 * (one call per DATA packet, batched transactions, a flush at the end).
 * Each measurement runs for every batch size given, the sizes alternating
 * inside each round so that a slow moment of the machine hits them all.
 *
 * Usage: store_bench DIR [--intervals N] [--runs R] [--batches 256,4096,...]
 * Prints one line per batch size: "batch B: median M intervals/s (min .. max)".
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/store.h"

#define NCOUNTERS 16
#define MAXB 16
#define MAXRUNS 99

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void die(const char *what, store *s) {
  fprintf(stderr, "store_bench: %s: %s\n", what, s ? store_error(s) : "");
  exit(1);
}

static void remove_db(const char *path) {
  char p[4200];
  unlink(path);
  snprintf(p, sizeof p, "%s-wal", path);
  unlink(p);
  snprintf(p, sizeof p, "%s-shm", path);
  unlink(p);
}

/* Intervals per second storing `count` intervals with transactions of `batch` rows. */
static double measure(const char *dir, uint32_t batch, uint32_t count) {
  char path[4096], err[600];
  snprintf(path, sizeof path, "%s/store-bench.db", dir);
  remove_db(path);
  store *s = store_open(path, err, sizeof err);
  if (!s) {
    fprintf(stderr, "store_bench: %s\n", err);
    exit(1);
  }
  if (store_set_batch(s, batch, 200) < 0)
    die("batch", s);
  store_run_info run = {.run_id = 42, .program = "bench.elf", .core = "tally5", .counters = NCOUNTERS,
                        .width = 32, .arrs = 16, .period = 100000, .freq_mhz = 100};
  if (store_begin_run(s, &run) < 0)
    die("begin", s);
  for (uint32_t i = 0; i < NCOUNTERS; i++) {
    char label[64];
    snprintf(label, sizeof label, "data-cache read misses in function%u", i);
    store_counter_info c = {.index = i, .signal = "dcache.read_miss", .lo = 0x80000000 + 0x100 * i,
                            .hi = 0x80000100 + 0x100 * i, .where = "function", .label = label, .enabled = true};
    if (store_set_counter(s, 42, &c) < 0)
      die("counter", s);
  }
  if (store_flush(s) < 0)
    die("flush", s);
  uint64_t values[NCOUNTERS], rng = 0x9E3779B97F4A7C15ull;
  uint8_t sat[NCOUNTERS] = {0};
  double t0 = now();
  for (uint32_t seq = 0; seq < count; seq++) {
    for (int i = 0; i < NCOUNTERS; i++) {
      rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
      /* a mix like real counters: cycles near the period, misses small, some zero */
      values[i] = i == 0 ? 100000 - (rng & 63) : (i % 4 == 3 ? 0 : rng % (i < 4 ? 60000 : 900));
    }
    if (store_add_interval(s, 42, seq + 1, seq, (uint64_t)seq * 100000, (uint64_t)seq * 100000 + 100000, 0,
                           NCOUNTERS, values, sat, NULL) < 0)
      die("add", s);
  }
  if (store_flush(s) < 0)
    die("flush", s);
  double dt = now() - t0;
  store_close(s);
  remove_db(path);
  return count / dt;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  static const struct option longs[] = {
    {"intervals", 1, 0, 'i'}, {"runs", 1, 0, 'r'}, {"batches", 1, 0, 'b'}, {0, 0, 0, 0}};
  uint32_t count = 200000, batches[MAXB] = {4096};
  int runs = 5, nb = 1, c;
  while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
    switch (c) {
    case 'i': count = (uint32_t)strtoul(optarg, NULL, 0); break;
    case 'r': runs = atoi(optarg); break;
    case 'b':
      nb = 0;
      for (char *tok = strtok(optarg, ","); tok && nb < MAXB; tok = strtok(NULL, ","))
        batches[nb++] = (uint32_t)strtoul(tok, NULL, 0);
      break;
    default: return 64;
    }
  }
  if (optind != argc - 1 || count == 0 || runs < 1 || runs > MAXRUNS || nb == 0) {
    fprintf(stderr, "usage: store_bench DIR [--intervals N] [--runs R] [--batches B1,B2,...]\n");
    return 64;
  }
  static double rate[MAXB][MAXRUNS];
  measure(argv[optind], batches[0], count / 10 + 1); /* warm-up: page cache, library */
  for (int r = 0; r < runs; r++)
    for (int b = 0; b < nb; b++)
      rate[b][r] = measure(argv[optind], batches[b], count);
  for (int b = 0; b < nb; b++) {
    qsort(rate[b], (size_t)runs, sizeof rate[b][0], cmp_double);
    printf("batch %u: median %.0f intervals/s (min %.0f, max %.0f)\n", batches[b], rate[b][runs / 2], rate[b][0],
           rate[b][runs - 1]);
  }
  return 0;
}
