/*
 * rtos_control - a periodic control loop on rtos.c: `control` (priority 3)
 * runs every 2 ticks, reads the simulated plant, runs a fixed-point PI
 * controller and drives the plant toward its set point; `logger`
 * (priority 2) wakes every 10 ticks and keeps the worst error of the last
 * window; `background` (priority 1) sorts arrays whenever nothing else
 * runs. control also notes its release latency: mtime when it starts
 * minus the tick it was due at. After PERIODS periods the plant must be
 * within 1% of the set point and no period missed: `rtos_control: OK`.
 * Size: argv[1] periods (default 60).
 */
#include <stdio.h>
#include <stdlib.h>

#include "rtos.h"
#include "tally/target.h"

#define SETPOINT (1000 << 8)

static uint32_t stack_control[1024], stack_logger[1024], stack_background[1024];
static volatile int32_t plant = 0, error_now;
static int32_t worst_window;
static uint32_t periods, missed, max_latency;
static volatile uint32_t sorted_arrays;

static uint32_t mtime_lo(void) { return *(volatile uint32_t *)(uintptr_t)(TALLY_CLINT_BASE + 0xbff8); }

/* A first-order plant: y += (u - y) / 8. */
__attribute__((noinline)) static void plant_step(int32_t u) { plant += (u - plant) / 8; }

__attribute__((noinline)) static int32_t controller(int32_t err, int32_t *integral) {
  *integral += err / 4;
  return SETPOINT + err * 2 + *integral;
}

static void control(void *arg) {
  (void)arg;
  int32_t integral = 0;
  uint32_t last = rtos_ticks;
  for (uint32_t p = 0; p < periods; p++) {
    uint32_t before = last;
    rtos_delay_until(&last, 2);
    if (last != before + 2)
      missed++;
    uint32_t lat = mtime_lo() % 1000; /* mtime since the tick (ticks are 1000 mtime apart) */
    if (lat > max_latency)
      max_latency = lat;
    int32_t err = SETPOINT - plant;
    error_now = err;
    plant_step(controller(err, &integral));
  }
  rtos_irq_off();
  int32_t e = SETPOINT - plant;
  printf("rtos_control: %lu periods, plant %ld/256 (set point %d/256), missed %lu, max release latency %lu mtime, "
         "%lu arrays sorted\n",
         (unsigned long)periods, (long)plant, SETPOINT, (unsigned long)missed, (unsigned long)max_latency,
         (unsigned long)sorted_arrays);
  if (e < 0)
    e = -e;
  if (e > SETPOINT / 100 || missed) {
    printf("rtos_control: FAIL error %ld/256, missed %lu\n", (long)e, (unsigned long)missed);
    exit(1);
  }
  printf("rtos_control: OK\n");
  exit(0);
}

static void logger(void *arg) {
  (void)arg;
  uint32_t last = rtos_ticks;
  for (;;) {
    rtos_delay_until(&last, 10);
    int32_t e = error_now < 0 ? -error_now : error_now;
    worst_window = e;
  }
}

__attribute__((noinline)) static void sort(uint32_t *a, int n) {
  for (int i = 1; i < n; i++) {
    uint32_t v = a[i];
    int j = i - 1;
    for (; j >= 0 && a[j] > v; j--)
      a[j + 1] = a[j];
    a[j + 1] = v;
  }
}

static void background(void *arg) {
  (void)arg;
  static uint32_t a[64];
  uint32_t seed = 7;
  for (;;) {
    for (int i = 0; i < 64; i++)
      a[i] = seed = tally_mix32(seed);
    sort(a, 64);
    sorted_arrays++;
  }
}

int main(int argc, char **argv) {
  periods = (uint32_t)tally_size_arg(argc, argv, 60);
  rtos_init(1000);
  rtos_task_create("control", 3, control, NULL, stack_control, 1024);
  rtos_task_create("logger", 2, logger, NULL, stack_logger, 1024);
  rtos_task_create("background", 1, background, NULL, stack_background, 1024);
  rtos_start();
}
