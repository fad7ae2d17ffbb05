/*
 * rtos.h - a small preemptive RTOS for the tally board (and QEMU's virt).
 *
 * Fixed-priority preemptive scheduling, round robin among equal
 * priorities at each tick; the tick is the CLINT timer (mtimecmp); the
 * context switch happens in the trap handler (rtos_trap.S): every task's
 * registers are saved on its own stack, the C part (rtos_trap) picks the
 * next task and the handler restores it. A task yields with `ecall`.
 *
 * The running task is `rtos_current` (a pointer to its TCB, whose `name`
 * member is a NUL-terminated string): the convention `tally profile
 * --tasks=tally` follows. Nothing in here knows about tally.
 *
 * Blocking objects: a queue of 32-bit items (bounded, FIFO) and a mutex
 * with optional priority inheritance. Priorities: higher number runs first;
 * 0 is the idle task's.
 */
#ifndef RTOS_H
#define RTOS_H

#include <stdbool.h>
#include <stdint.h>

#define RTOS_MAX_TASKS 8
#define RTOS_NAME_LEN 16

enum rtos_state { RTOS_READY, RTOS_SLEEPING, RTOS_BLOCKED, RTOS_DONE };

typedef struct rtos_task {
  uint32_t *sp;                 /* saved stack pointer (the trap frame is on top) */
  uint8_t prio, base_prio;      /* current (maybe inherited) and own priority */
  uint8_t state;                /* enum rtos_state */
  uint8_t index;
  uint32_t wake_tick;           /* RTOS_SLEEPING: the tick it wakes at */
  const void *waiting;          /* RTOS_BLOCKED: the queue or mutex */
  uint32_t runs;                /* times it was switched in */
  char name[RTOS_NAME_LEN];
} rtos_task;

typedef struct rtos_queue {
  uint32_t *buf;
  uint32_t cap, head, count;
} rtos_queue;

typedef struct rtos_mutex {
  rtos_task *owner;
  bool inherit;                 /* priority inheritance */
} rtos_mutex;

/* The running task (NULL before rtos_start). */
extern rtos_task *volatile rtos_current;
/* Ticks since rtos_start. */
extern volatile uint32_t rtos_ticks;

/* tick_mtime: the tick period in mtime units (10 MHz on the virt board). */
void rtos_init(uint32_t tick_mtime);
/* A task running entry(arg) on stack[0..words), at prio (1..255). */
rtos_task *rtos_task_create(const char *name, uint8_t prio, void (*entry)(void *), void *arg, uint32_t *stack,
                            uint32_t words);
/* Starts the scheduler; never returns. An idle task (priority 0) runs wfi. */
__attribute__((noreturn)) void rtos_start(void);

void rtos_yield(void);
void rtos_delay(uint32_t ticks);
/* Sleeps until *last + period, then sets *last to it (a periodic task). */
void rtos_delay_until(uint32_t *last, uint32_t period);
/* The task ends (its TCB stays, state RTOS_DONE). */
__attribute__((noreturn)) void rtos_task_exit(void);

/* External interrupts (mcause 0x8000000b, the PLIC's): fn runs in the
 * trap, before the scheduler picks the task to resume, so a task it makes
 * ready (rtos_queue_send_isr) preempts a lower-priority one at once. The
 * program enables mie.MEIE and its PLIC sources itself. */
void rtos_set_external_handler(void (*fn)(void));

void rtos_queue_init(rtos_queue *q, uint32_t *buf, uint32_t cap);
/* From an interrupt handler: item into q if it has room (else false: the
 * item is dropped), making the tasks waiting on q ready. */
bool rtos_queue_send_isr(rtos_queue *q, uint32_t item);
void rtos_queue_send(rtos_queue *q, uint32_t item);
uint32_t rtos_queue_receive(rtos_queue *q);

void rtos_mutex_init(rtos_mutex *m, bool inherit);
void rtos_mutex_lock(rtos_mutex *m);
void rtos_mutex_unlock(rtos_mutex *m);

/* Interrupts off/on around a critical section (machine mode). */
static inline void rtos_irq_off(void) { __asm__ volatile("csrci mstatus, 8" ::: "memory"); }
static inline void rtos_irq_on(void) { __asm__ volatile("csrsi mstatus, 8" ::: "memory"); }

#endif
