/*
 * rtos_pipeline - a producer/consumer pipeline on rtos.c: `producer`
 * (priority 2) makes N items and sends them to queue q1; `filter`
 * (priority 3) transforms each and sends it on through q2; `consumer`
 * (priority 1) folds them into a checksum; `stats` (priority 1, sharing the
 * consumer's priority round robin at each tick) crunches in the
 * background. The consumer checks its checksum against the same items
 * computed without tasks or queues, prints `rtos_pipeline: OK` and ends
 * the run. Size: argv[1] items (default 400).
 */
#include <stdio.h>
#include <stdlib.h>

#include "rtos.h"
#include "tally/target.h"

static rtos_queue q1, q2;
static uint32_t q1_buf[4], q2_buf[4];
static uint32_t stack_producer[1024], stack_filter[1024], stack_consumer[1024], stack_stats[1024];
static uint32_t n_items;
static uint32_t expected;
static volatile uint32_t stats_rounds, stats_sink;

__attribute__((noinline)) static uint32_t produce(uint32_t i) {
  uint32_t x = tally_mix32(i + 1);
  for (int k = 0; k < 40; k++)
    x = x * 1664525u + 1013904223u + (x >> 13);
  return x;
}

__attribute__((noinline)) static uint32_t transform(uint32_t x) {
  uint32_t crc = 0xffffffffu;
  for (int b = 0; b < 32; b++) {
    uint32_t bit = (crc ^ (x >> b)) & 1u;
    crc = (crc >> 1) ^ (bit ? 0xedb88320u : 0);
  }
  return ~crc;
}

__attribute__((noinline)) static uint32_t fold(uint32_t acc, uint32_t x) {
  for (int k = 0; k < 8; k++)
    acc = (acc ^ x) * 0x01000193u + (uint32_t)k;
  return acc;
}

static void producer(void *arg) {
  (void)arg;
  for (uint32_t i = 0; i < n_items; i++)
    rtos_queue_send(&q1, produce(i));
}

static void filter(void *arg) {
  (void)arg;
  for (uint32_t i = 0; i < n_items; i++)
    rtos_queue_send(&q2, transform(rtos_queue_receive(&q1)));
}

static void consumer(void *arg) {
  (void)arg;
  uint32_t acc = 0x811c9dc5u;
  for (uint32_t i = 0; i < n_items; i++)
    acc = fold(acc, rtos_queue_receive(&q2));
  rtos_irq_off();
  printf("rtos_pipeline: %lu items, checksum %08lx, %lu ticks, stats rounds %lu\n", (unsigned long)n_items,
         (unsigned long)acc, (unsigned long)rtos_ticks, (unsigned long)stats_rounds);
  if (acc != expected) {
    printf("rtos_pipeline: FAIL checksum %08lx, expected %08lx\n", (unsigned long)acc, (unsigned long)expected);
    exit(1);
  }
  printf("rtos_pipeline: OK\n");
  exit(0);
}

__attribute__((noinline)) static uint32_t crunch(uint32_t s) {
  for (int k = 0; k < 200; k++)
    s = tally_mix32(s + (uint32_t)k);
  return s;
}

static void stats(void *arg) {
  (void)arg;
  uint32_t s = 1;
  for (;;) {
    s = crunch(s);
    stats_sink = s;
    stats_rounds++;
  }
}

int main(int argc, char **argv) {
  n_items = (uint32_t)tally_size_arg(argc, argv, 400);
  expected = 0x811c9dc5u;
  for (uint32_t i = 0; i < n_items; i++)
    expected = fold(expected, transform(produce(i)));
  rtos_init(1000); /* a tick every 100 us of mtime */
  rtos_queue_init(&q1, q1_buf, 4);
  rtos_queue_init(&q2, q2_buf, 4);
  rtos_task_create("producer", 2, producer, NULL, stack_producer, 1024);
  rtos_task_create("filter", 3, filter, NULL, stack_filter, 1024);
  rtos_task_create("consumer", 1, consumer, NULL, stack_consumer, 1024);
  rtos_task_create("stats", 1, stats, NULL, stack_stats, 1024);
  rtos_start();
}
