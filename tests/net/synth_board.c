/*
 * synth_board: a board without a simulator. Feeds known statmod_interval
 * records (tests/net/synth.c, from a seed) through the real board link to a
 * collector, optionally after taking its configuration as control packets.
 * Prints what the collector must end up with:
 *
 *   run_id=0x...                      (after the run is described)
 *   totals=T0,T1,...                  (each counter's total)
 *   intervals=N acked=0|1 verdict=V resent=R gone=G
 *
 * and in control mode, first "control=ADDR:PORT", then, after START, the
 * configuration it was given ("timer=...", "arr=...", "counter=...").
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/board_link.h"
#include "synth.h"

typedef struct cfg_state {
  uint32_t counters, arrs;
  uint64_t period;
  uint64_t intervals;
  bool *enabled;
  unsigned *signal, *arr;
  statmod_arr *ranges;
  char (*arr_name)[256];
} cfg_state;

static int op_timer(void *ctx, uint64_t period, char *err, size_t errlen) {
  (void)err, (void)errlen;
  ((cfg_state *)ctx)->period = period;
  return 0;
}
static int op_arr(void *ctx, unsigned i, uint32_t lo, uint32_t hi, const char *name, char *err, size_t errlen) {
  (void)err, (void)errlen;
  cfg_state *c = ctx;
  c->ranges[i] = (statmod_arr){lo, hi};
  snprintf(c->arr_name[i], sizeof c->arr_name[i], "%s", name);
  return 0;
}
static int op_counter(void *ctx, unsigned i, unsigned signal, unsigned arr, bool en, char *err, size_t errlen) {
  cfg_state *c = ctx;
  if (signal >= 200) {
    snprintf(err, errlen, "signal %u is not in the catalog", signal);
    return NET_E_BAD_VALUE;
  }
  c->signal[i] = signal;
  c->arr[i] = arr;
  c->enabled[i] = en;
  return 0;
}
static void op_query(void *ctx, uint64_t *period, uint64_t *intervals, uint64_t *cycle) {
  cfg_state *c = ctx;
  *period = c->period;
  *intervals = c->intervals;
  *cycle = c->intervals * c->period;
}

static void usage(void) {
  fprintf(stderr, "usage: synth_board --collector ADDR:PORT [--counters N] [--width W] [--intervals N]\n"
                  "       [--period CYCLES] [--seed S] [--ring PACKETS] [--linger-ms MS] [--pace-us US]\n"
                  "       [--control ADDR:PORT [--key FILE] [--wait-ms MS]]\n");
  exit(64);
}

int main(int argc, char **argv) {
  const char *collector = NULL, *control = NULL, *keyfile = NULL;
  uint32_t counters = 16, width = 32, ring = 0, linger = 5000, pace = 0;
  uint64_t intervals = 100, period = 100000, seed = 1;
  int wait_ms = 10000;
  static const struct option longs[] = {
    {"collector", 1, 0, 'c'}, {"counters", 1, 0, 'n'}, {"width", 1, 0, 'w'}, {"intervals", 1, 0, 'i'},
    {"period", 1, 0, 'p'}, {"seed", 1, 0, 's'}, {"ring", 1, 0, 'r'}, {"linger-ms", 1, 0, 'l'},
    {"pace-us", 1, 0, 'u'}, {"control", 1, 0, 'C'}, {"key", 1, 0, 'k'}, {"wait-ms", 1, 0, 'W'}, {0, 0, 0, 0}};
  int opt;
  while ((opt = getopt_long(argc, argv, "", longs, NULL)) != -1) {
    switch (opt) {
    case 'c': collector = optarg; break;
    case 'n': counters = (uint32_t)strtoul(optarg, NULL, 0); break;
    case 'w': width = (uint32_t)strtoul(optarg, NULL, 0); break;
    case 'i': intervals = strtoull(optarg, NULL, 0); break;
    case 'p': period = strtoull(optarg, NULL, 0); break;
    case 's': seed = strtoull(optarg, NULL, 0); break;
    case 'r': ring = (uint32_t)strtoul(optarg, NULL, 0); break;
    case 'l': linger = (uint32_t)strtoul(optarg, NULL, 0); break;
    case 'u': pace = (uint32_t)strtoul(optarg, NULL, 0); break;
    case 'C': control = optarg; break;
    case 'k': keyfile = optarg; break;
    case 'W': wait_ms = atoi(optarg); break;
    default: usage();
    }
  }
  if (!collector)
    usage();
  char err[300];
  net_key key;
  if (keyfile && net_key_load(keyfile, &key, err, sizeof err) != 0) {
    fprintf(stderr, "synth_board: %s\n", err);
    return 66;
  }
  uint32_t arrs = 16;
  cfg_state cs = {.counters = counters, .arrs = arrs, .period = period, .enabled = calloc(counters, sizeof(bool)),
                  .signal = calloc(counters, sizeof(unsigned)), .arr = calloc(counters, sizeof(unsigned)),
                  .ranges = calloc(arrs, sizeof(statmod_arr)), .arr_name = calloc(arrs, 256)};
  for (uint32_t i = 0; i < counters; i++) {
    cs.enabled[i] = !control;   /* configured boards count only what they are told to */
    cs.arr[i] = STATMOD_ANYWHERE;
  }
  net_board_ops ops = {.set_timer = op_timer, .set_arr = op_arr, .set_counter = op_counter, .query = op_query};
  net_board_cfg bc = {.collector = collector, .control = control, .key = keyfile ? &key : NULL,
                      .params = {.counters = counters, .width = width, .arrs = arrs}, .ring = ring,
                      .linger_ms = linger, .ops = &ops, .ops_ctx = &cs};
  net_board *b = net_board_open(&bc, err, sizeof err);
  if (!b) {
    fprintf(stderr, "synth_board: %s\n", err);
    return 69;
  }
  if (control) {
    char where[80];
    net_board_control_addr(b, where, sizeof where);
    printf("control=%s\n", where);
    fflush(stdout);
    if (net_board_wait_start(b, wait_ms, NULL) != 0) {
      fprintf(stderr, "synth_board: no START within %d ms\n", wait_ms);
      return 69;
    }
    printf("timer=%" PRIu64 "\n", cs.period);
    for (uint32_t i = 0; i < arrs; i++)
      if (cs.ranges[i].lo || cs.ranges[i].hi)
        printf("arr=%u 0x%08x-0x%08x %s\n", i, cs.ranges[i].lo, cs.ranges[i].hi, cs.arr_name[i]);
    for (uint32_t i = 0; i < counters; i++)
      if (cs.enabled[i])
        printf("counter=%u signal %u arr 0x%x\n", i, cs.signal[i], cs.arr[i]);
  }
  /* Names and labels, as a simulator would give them. */
  net_counter_label *labels = calloc(counters, sizeof *labels);
  char (*names)[3][64] = calloc(counters, sizeof *names);
  for (uint32_t i = 0; i < counters; i++) {
    bool anywhere = cs.arr[i] == STATMOD_ANYWHERE;
    snprintf(names[i][0], 64, "signal%u", cs.signal[i]);
    snprintf(names[i][1], 64, "%s", anywhere ? "anywhere" : cs.arr_name[cs.arr[i]]);
    snprintf(names[i][2], 64, "signal %u %s%.30s (counter %u)", cs.signal[i], anywhere ? "" : "in ", names[i][1], i);
    labels[i] = (net_counter_label){.signal = cs.signal[i], .arr = cs.arr[i], .enabled = cs.enabled[i],
                                    .lo = anywhere ? 0 : cs.ranges[cs.arr[i]].lo,
                                    .hi = anywhere ? 0 : cs.ranges[cs.arr[i]].hi,
                                    .name = names[i][0], .where = names[i][1], .label = names[i][2]};
  }
  net_run_desc desc = {.period = cs.period, .freq_mhz = 50, .program = "synthetic", .core = "none",
                       .counters = labels};
  if (net_board_describe(b, &desc) != 0) {
    fprintf(stderr, "synth_board: %s\n", net_board_error(b));
    return 70;
  }
  printf("run_id=0x%016" PRIx64 "\n", net_board_run_id(b));
  fflush(stdout);
  synth s;
  synth_init(&s, counters, width, cs.period, seed);
  s.enabled = cs.enabled;
  statmod_interval iv;
  for (uint64_t i = 0; i < intervals; i++) {
    synth_next(&s, &iv);
    net_board_sink(b, &iv);
    cs.intervals++;
    if (pace)
      usleep(pace);
  }
  synth_final(&s, &iv);
  printf("totals=");
  for (uint32_t i = 0; i < counters; i++)
    printf("%s%" PRIu64, i ? "," : "", s.totals[i]);
  printf("\n");
  fflush(stdout);
  net_board_sink(b, &iv);
  net_board_stats st;
  net_board_get_stats(b, &st);
  printf("intervals=%" PRIu64 " acked=%d verdict=%u resent=%" PRIu64 " gone=%" PRIu64 " bad_tags=%u stale=%u\n",
         st.intervals, st.acked, st.verdict, st.resent, st.gone, st.bad_tags, st.stale);
  if (net_board_error(b)[0])
    fprintf(stderr, "synth_board: %s\n", net_board_error(b));
  synth_free(&s);
  net_board_close(b);
  free(labels);
  free(names);
  free(cs.enabled);
  free(cs.signal);
  free(cs.arr);
  free(cs.ranges);
  free(cs.arr_name);
  return 0;
}
