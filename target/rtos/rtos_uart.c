/*
 * rtos_uart - an interrupt-driven UART on rtos.c: the UART's receive
 * interrupt (PLIC source 10) moves every byte waiting into queue `rx`;
 * `parser` (priority 4) makes lines of them, each a decimal number N, and
 * sends N to `worker` (priority 2), which computes work(N) (N rounds of a
 * hash) and sends N and the result on to `logger` (priority 3), which
 * prints "N -> RESULT"; `stats` (priority 1) crunches in the background
 * whenever the others wait. A line "q" ends the run: the
 * logger prints the lines' count and a checksum of the results, "OK", and
 * exits 0.
 *
 * Input: on tally, `--uart-rx FILE` with timed lines (target/rtos/
 * rtos_uart.rx), so that the bytes arrive at known cycles while some task
 * runs; on QEMU virt, the same text on its serial port (stdin,
 * scripts/qemu-run.sh). The output depends on the text only: the same on
 * both. Blank lines and carriage returns are ignored; a line that is not
 * a number is reported and skipped. Bytes the queue has no room for are
 * counted and reported (none with the shipped input).
 */
#include <stdio.h>
#include <stdlib.h>

#include "rtos.h"
#include "tally/target.h"

#define PLIC_PRIORITY(src) (*(volatile uint32_t *)(uintptr_t)(0x0c000000u + 4u * (src)))
#define PLIC_ENABLE0 (*(volatile uint32_t *)(uintptr_t)0x0c002000u)
#define PLIC_THRESHOLD0 (*(volatile uint32_t *)(uintptr_t)0x0c200000u)
#define PLIC_CLAIM0 (*(volatile uint32_t *)(uintptr_t)0x0c200004u)
#define UART_RBR 0
#define UART_IER 1
#define UART_LSR_DR 0x01
#define UART_SRC 10
#define END_ITEM 0xffffffffu

static rtos_queue rx, work_q, log_q;
static uint32_t rx_buf[256], work_buf[4], log_buf[8];
static uint32_t stack_parser[1024], stack_worker[1024], stack_logger[1024], stack_stats[1024];
static volatile uint32_t rx_dropped, stats_rounds, stats_sink;

/* The receive interrupt: claim, every byte waiting into `rx`, complete. */
static void uart_isr(void) {
  uint32_t src = PLIC_CLAIM0;
  while (*tally_uart_reg(TALLY_UART_LSR) & UART_LSR_DR) {
    uint8_t c = *tally_uart_reg(UART_RBR);
    if (!rtos_queue_send_isr(&rx, c))
      rx_dropped++;
  }
  PLIC_CLAIM0 = src;
}

static void parser(void *arg) {
  (void)arg;
  uint32_t n = 0, digits = 0;
  bool bad = false;
  for (;;) {
    uint32_t c = rtos_queue_receive(&rx);
    if (c == '\r')
      continue;
    if (c != '\n') {
      if (c == 'q' && digits == 0 && !bad) {
        rtos_queue_send(&work_q, END_ITEM);
        rtos_task_exit();
      }
      if (c >= '0' && c <= '9' && digits < 9)
        n = n * 10 + (c - '0'), digits++;
      else
        bad = true;
      continue;
    }
    if (bad || digits)
      rtos_queue_send(&work_q, bad ? END_ITEM - 1 : n);
    n = digits = 0;
    bad = false;
  }
}

__attribute__((noinline)) static uint32_t work(uint32_t n) {
  uint32_t x = n;
  for (uint32_t k = 0; k < n; k++)
    x = tally_mix32(x + k);
  return x;
}

static void worker(void *arg) {
  (void)arg;
  for (;;) {
    uint32_t n = rtos_queue_receive(&work_q);
    rtos_queue_send(&log_q, n);
    if (n == END_ITEM)
      rtos_task_exit();
    rtos_queue_send(&log_q, n == END_ITEM - 1 ? 0 : work(n));
  }
}

static void logger(void *arg) {
  (void)arg;
  uint32_t lines = 0, sum = 0x811c9dc5u;
  for (;;) {
    uint32_t n = rtos_queue_receive(&log_q);
    if (n == END_ITEM)
      break;
    uint32_t r = rtos_queue_receive(&log_q);
    rtos_irq_off(); /* one printer at a time: the console is not reentrant */
    if (n == END_ITEM - 1)
      printf("rtos_uart: not a number, skipped\n");
    else
      printf("%lu -> %08lx\n", (unsigned long)n, (unsigned long)r);
    rtos_irq_on();
    lines++;
    sum = (sum ^ r) * 0x01000193u;
  }
  rtos_irq_off();
  printf("rtos_uart: %lu lines, checksum %08lx\n", (unsigned long)lines, (unsigned long)sum);
  if (rx_dropped) {
    printf("rtos_uart: FAIL %lu bytes dropped (the queue was full)\n", (unsigned long)rx_dropped);
    exit(1);
  }
  printf("rtos_uart: OK\n");
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

int main(void) {
  rtos_init(1000); /* a tick every 100 us of mtime */
  rtos_queue_init(&rx, rx_buf, sizeof rx_buf / sizeof rx_buf[0]);
  rtos_queue_init(&work_q, work_buf, sizeof work_buf / sizeof work_buf[0]);
  rtos_queue_init(&log_q, log_buf, sizeof log_buf / sizeof log_buf[0]);
  rtos_task_create("parser", 4, parser, NULL, stack_parser, 1024);
  rtos_task_create("worker", 2, worker, NULL, stack_worker, 1024);
  rtos_task_create("logger", 3, logger, NULL, stack_logger, 1024);
  rtos_task_create("stats", 1, stats, NULL, stack_stats, 1024);
  rtos_set_external_handler(uart_isr);
  PLIC_PRIORITY(UART_SRC) = 1;
  PLIC_THRESHOLD0 = 0;
  PLIC_ENABLE0 = 1u << UART_SRC;
  *tally_uart_reg(UART_IER) = 1; /* received data available */
  __asm__ volatile("csrs mie, %0" : : "r"(1u << 11)); /* MEIE; mstatus.MIE comes with the first task */
  rtos_start();
}
