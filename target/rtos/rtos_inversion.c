/*
 * rtos_inversion - priority inversion on rtos.c, with or without priority
 * inheritance (argv[1] "pi": with).
 *
 *   low (1):    takes the mutex at once, then works for LOW_WORK rounds
 *               holding it, then releases it.
 *   high (3):   sleeps 1 tick, then wants the mutex (low has it).
 *   medium (2): sleeps 2 ticks, then works for MEDIUM_WORK rounds; it
 *               needs no mutex.
 *
 * Without inheritance, medium preempts low at tick 2 while high waits for
 * low: high gets the mutex only after medium has finished (the
 * inversion). With inheritance low runs at high's priority once high
 * waits, so high gets the mutex before medium has finished. The program
 * checks which of the two happened and prints `rtos_inversion: OK` when it
 * is the one the mode promises.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtos.h"
#include "tally/target.h"

#define LOW_WORK 60
#define MEDIUM_WORK 120

static rtos_mutex m;
static uint32_t stack_low[1024], stack_medium[1024], stack_high[1024];
static volatile uint32_t sink;
static uint32_t high_asked, high_got, medium_done;
static bool medium_finished_before_high;
static int done;
static bool inherit;

/* About a tick's worth of work per round at the default core model. */
__attribute__((noinline)) static void work(uint32_t rounds) {
  uint32_t s = sink;
  for (uint32_t r = 0; r < rounds; r++)
    for (int k = 0; k < 100; k++)
      s = tally_mix32(s + (uint32_t)k);
  sink = s;
}

static void finish(void) {
  rtos_irq_off();
  if (++done < 3) {
    rtos_irq_on();
    return;
  }
  printf("rtos_inversion: inheritance %s, high asked at tick %lu, got the mutex at tick %lu (waited %lu), medium done "
         "at tick %lu\n",
         inherit ? "on" : "off", (unsigned long)high_asked, (unsigned long)high_got,
         (unsigned long)(high_got - high_asked), (unsigned long)medium_done);
  if (medium_finished_before_high == inherit) {
    printf("rtos_inversion: FAIL medium %s high got the mutex\n", inherit ? "finished before" : "did not finish before");
    exit(1);
  }
  printf("rtos_inversion: OK\n");
  exit(0);
}

static void low(void *arg) {
  (void)arg;
  rtos_mutex_lock(&m);
  work(LOW_WORK);
  rtos_mutex_unlock(&m);
  finish();
}

static void medium(void *arg) {
  (void)arg;
  rtos_delay(2);
  work(MEDIUM_WORK);
  medium_done = rtos_ticks;
  finish();
}

static void high(void *arg) {
  (void)arg;
  rtos_delay(1);
  high_asked = rtos_ticks;
  rtos_mutex_lock(&m);
  high_got = rtos_ticks;
  medium_finished_before_high = medium_done != 0;
  work(2);
  rtos_mutex_unlock(&m);
  finish();
}

int main(int argc, char **argv) {
  inherit = argc > 1 && strcmp(argv[1], "pi") == 0;
  rtos_init(1000);
  rtos_mutex_init(&m, inherit);
  rtos_task_create("low", 1, low, NULL, stack_low, 1024);
  rtos_task_create("medium", 2, medium, NULL, stack_medium, 1024);
  rtos_task_create("high", 3, high, NULL, stack_high, 1024);
  rtos_start();
}
