/*
 * rtos.c - the scheduler, the tick and the blocking objects of rtos.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtos.h"
#include "tally/target.h"

#define CLINT_MTIMECMP_LO (*(volatile uint32_t *)(uintptr_t)(TALLY_CLINT_BASE + 0x4000))
#define CLINT_MTIMECMP_HI (*(volatile uint32_t *)(uintptr_t)(TALLY_CLINT_BASE + 0x4004))
#define CLINT_MTIME_LO (*(volatile uint32_t *)(uintptr_t)(TALLY_CLINT_BASE + 0xbff8))
#define CLINT_MTIME_HI (*(volatile uint32_t *)(uintptr_t)(TALLY_CLINT_BASE + 0xbffc))

#define CAUSE_TIMER 0x80000007u
#define CAUSE_EXTERNAL 0x8000000bu
#define CAUSE_ECALL_M 11u
#define FRAME_WORDS 32

rtos_task *volatile rtos_current;
volatile uint32_t rtos_ticks;

static rtos_task tasks[RTOS_MAX_TASKS];
static uint32_t ntasks;
static uint32_t tick_period;
static uint64_t next_tick;
static uint32_t idle_stack[256];
static void (*external_handler)(void);

void rtos_trap_entry(void);

static uint64_t mtime(void) {
  uint32_t hi, lo;
  do {
    hi = CLINT_MTIME_HI;
    lo = CLINT_MTIME_LO;
  } while (hi != CLINT_MTIME_HI);
  return (uint64_t)hi << 32 | lo;
}

static void set_mtimecmp(uint64_t t) {
  CLINT_MTIMECMP_LO = 0xffffffffu; /* never below both halves' old and new values */
  CLINT_MTIMECMP_HI = (uint32_t)(t >> 32);
  CLINT_MTIMECMP_LO = (uint32_t)t;
}

void rtos_init(uint32_t tick_mtime) {
  tick_period = tick_mtime;
  ntasks = 0;
  rtos_current = NULL;
  rtos_ticks = 0;
}

rtos_task *rtos_task_create(const char *name, uint8_t prio, void (*entry)(void *), void *arg, uint32_t *stack,
                            uint32_t words) {
  if (ntasks == RTOS_MAX_TASKS || words < 2 * FRAME_WORDS) {
    printf("rtos: cannot create task %s\n", name);
    exit(3);
  }
  rtos_task *t = &tasks[ntasks];
  memset(t, 0, sizeof *t);
  t->index = (uint8_t)ntasks++;
  t->prio = t->base_prio = prio;
  strncpy(t->name, name, RTOS_NAME_LEN - 1);
  uint32_t *top = stack + (words & ~3u); /* 16-byte aligned */
  uint32_t *f = top - FRAME_WORDS;
  memset(f, 0, FRAME_WORDS * sizeof *f);
  f[0] = (uint32_t)(uintptr_t)entry;                 /* mepc */
  f[1] = (uint32_t)(uintptr_t)rtos_task_exit;        /* ra: returning ends the task */
  register uint32_t gp __asm__("gp");
  register uint32_t tp __asm__("tp");
  f[3] = gp;
  f[4] = tp;
  f[10] = (uint32_t)(uintptr_t)arg;                  /* a0 */
  t->sp = f;
  t->state = RTOS_READY;
  return t;
}

/* The ready task of highest priority; among equals, the first after the
 * running one (round robin). */
static rtos_task *pick(void) {
  rtos_task *best = NULL;
  uint32_t start = rtos_current ? rtos_current->index + 1u : 0;
  for (uint32_t k = 0; k < ntasks; k++) {
    rtos_task *t = &tasks[(start + k) % ntasks];
    if (t->state == RTOS_READY && (!best || t->prio > best->prio))
      best = t;
  }
  return best;
}

static void schedule(void) {
  rtos_task *next = pick();
  if (next != rtos_current) {
    next->runs++;
    rtos_current = next; /* the context switch: the trap entry restores `next` */
  }
}

static void tick(void) {
  next_tick += tick_period;
  set_mtimecmp(next_tick);
  uint32_t now = ++rtos_ticks;
  for (uint32_t i = 0; i < ntasks; i++)
    if (tasks[i].state == RTOS_SLEEPING && (int32_t)(now - tasks[i].wake_tick) >= 0)
      tasks[i].state = RTOS_READY;
}

void rtos_trap(uint32_t cause, uint32_t *frame) {
  if (cause == CAUSE_TIMER) {
    tick();
  } else if (cause == CAUSE_ECALL_M) {
    frame[0] += 4;
  } else if (cause == CAUSE_EXTERNAL && external_handler) {
    external_handler();
  } else {
    printf("rtos: unexpected trap, mcause %lx at %lx\n", (unsigned long)cause, (unsigned long)frame[0]);
    exit(3);
  }
  schedule();
}

static void idle(void *arg) {
  (void)arg;
  for (;;)
    __asm__ volatile("wfi");
}

void rtos_start(void) {
  rtos_task_create("idle", 0, idle, NULL, idle_stack, sizeof idle_stack / sizeof idle_stack[0]);
  rtos_irq_off();
  __asm__ volatile("csrw mtvec, %0" : : "r"(rtos_trap_entry));
  next_tick = mtime() + tick_period;
  set_mtimecmp(next_tick);
  __asm__ volatile("csrs mie, %0" : : "r"(1u << 7)); /* MTIE */
  __asm__ volatile("ecall" ::: "memory");           /* the first switch; main's context is dropped */
  for (;;)
    ;
}

void rtos_yield(void) { __asm__ volatile("ecall" ::: "memory"); }

/* The running task stops until woken; interrupts are off on entry and on
 * again when it runs next. */
static void block_on(const void *obj) {
  rtos_current->state = RTOS_BLOCKED;
  rtos_current->waiting = obj;
  rtos_yield();
}

/* Makes every task blocked on obj ready; true if one of them has a higher
 * priority than the running task. */
static bool wake_all(const void *obj) {
  bool higher = false;
  for (uint32_t i = 0; i < ntasks; i++)
    if (tasks[i].state == RTOS_BLOCKED && tasks[i].waiting == obj) {
      tasks[i].state = RTOS_READY;
      tasks[i].waiting = NULL;
      higher |= tasks[i].prio > rtos_current->prio;
    }
  return higher;
}

void rtos_delay(uint32_t ticks) {
  rtos_irq_off();
  rtos_current->wake_tick = rtos_ticks + ticks;
  rtos_current->state = RTOS_SLEEPING;
  rtos_yield();
}

void rtos_delay_until(uint32_t *last, uint32_t period) {
  rtos_irq_off();
  *last += period;
  if ((int32_t)(*last - rtos_ticks) > 0) {
    rtos_current->wake_tick = *last;
    rtos_current->state = RTOS_SLEEPING;
    rtos_yield();
  } else {
    rtos_irq_on(); /* late: the period has passed already */
  }
}

void rtos_task_exit(void) {
  rtos_irq_off();
  rtos_current->state = RTOS_DONE;
  rtos_yield();
  for (;;)
    ;
}

void rtos_set_external_handler(void (*fn)(void)) { external_handler = fn; }

void rtos_queue_init(rtos_queue *q, uint32_t *buf, uint32_t cap) { *q = (rtos_queue){buf, cap, 0, 0}; }

bool rtos_queue_send_isr(rtos_queue *q, uint32_t item) {
  if (q->count == q->cap)
    return false;
  q->buf[(q->head + q->count) % q->cap] = item;
  q->count++;
  for (uint32_t i = 0; i < ntasks; i++)
    if (tasks[i].state == RTOS_BLOCKED && tasks[i].waiting == q) {
      tasks[i].state = RTOS_READY;
      tasks[i].waiting = NULL;
    }
  return true;
}

void rtos_queue_send(rtos_queue *q, uint32_t item) {
  rtos_irq_off();
  while (q->count == q->cap) {
    block_on(q);
    rtos_irq_off();
  }
  q->buf[(q->head + q->count) % q->cap] = item;
  q->count++;
  bool higher = wake_all(q);
  rtos_irq_on();
  if (higher)
    rtos_yield();
}

uint32_t rtos_queue_receive(rtos_queue *q) {
  rtos_irq_off();
  while (q->count == 0) {
    block_on(q);
    rtos_irq_off();
  }
  uint32_t item = q->buf[q->head];
  q->head = (q->head + 1) % q->cap;
  q->count--;
  bool higher = wake_all(q);
  rtos_irq_on();
  if (higher)
    rtos_yield();
  return item;
}

void rtos_mutex_init(rtos_mutex *m, bool inherit) { *m = (rtos_mutex){NULL, inherit}; }

void rtos_mutex_lock(rtos_mutex *m) {
  rtos_irq_off();
  while (m->owner) {
    if (m->inherit && m->owner->prio < rtos_current->prio)
      m->owner->prio = rtos_current->prio;
    block_on(m);
    rtos_irq_off();
  }
  m->owner = rtos_current;
  rtos_irq_on();
}

void rtos_mutex_unlock(rtos_mutex *m) {
  rtos_irq_off();
  m->owner = NULL;
  rtos_current->prio = rtos_current->base_prio;
  bool higher = wake_all(m);
  rtos_irq_on();
  if (higher)
    rtos_yield();
}
