/*
 * The simulated board around the hart: the devices bare-metal programs use
 * (the SiFive test finisher, tally's control block, a CLINT, an ns16550
 * UART), RISC-V semihosting and HTIF, at the addresses a board description
 * gives (board_desc.h, docs/boards.md). The default is QEMU's `virt`, so
 * programs built for QEMU virt run here unchanged:
 *
 *   0x00100000  SiFive test finisher  (exit status)
 *   0x00110000  tally control block   (markers, DVFS)
 *   0x02000000  CLINT                 (msip, mtimecmp, mtime)
 *   0x0c000000  PLIC                  (external interrupts, plic.c)
 *   0x10000000  ns16550 UART          (stdout / stdin)
 *   0x80000000  RAM                   (owned by the core)
 */
#ifndef TALLY_BOARD_BOARD_H
#define TALLY_BOARD_BOARD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/cpu.h"
#include "board_desc.h"
#include "hostfs.h"

#define BOARD_CORE_HZ 100000000u /* functional-mode clock for semihosting time calls */

#define SEMIHOST_MAX_FILES 32
#define SEMIHOST_READC_EOF_LIMIT 1000
#define UART_EOF_SPIN_LIMIT 100000 /* polls at end of input, in a row, before a stop */
#define UART_SPIN_INSNS 64          /* ... with at most this many instructions between */
#define BOARD_INPUT_POLL_MS 50     /* how often a wait for input looks for a stop */
#define SEMIHOST_REFUSAL_NOTES 5   /* refused host files told on stderr */

typedef struct semihost_file {
  int kind;     /* 0 free, 1 host fd, 2 the features pseudo-file */
  int fd;
  uint32_t pos; /* for the pseudo-file */
} semihost_file;

typedef struct board board;

/* The PLIC (plic.c): QEMU virt's sources, priority bits and contexts. */
#define PLIC_SOURCES 96     /* ids 1..95; 0 is "no interrupt" (QEMU virt: VIRT_IRQCHIP_NUM_SOURCES) */
#define PLIC_WORDS 3        /* 32-bit words of pending and enable bits */
#define PLIC_CONTEXTS 2     /* hart 0 M-mode (mip.MEIP), hart 0 S-mode (as QEMU's; drives nothing here) */
#define PLIC_PRIO_MASK 7u   /* priorities and thresholds 0..7 */
#define UART_IRQ 10         /* the UART's source, as on QEMU virt */

/* One source's requests and the latency of each interrupt taken for one. */
typedef struct irq_stat {
  uint64_t rises;           /* edges, or a level asserted with no request outstanding */
  uint64_t requests;        /* requests the gateway made (pending set) */
  uint64_t merged;          /* edges while a request was pending or in service: no new request */
  uint64_t polled;          /* requests claimed with no interrupt taken since they rose */
  uint64_t *lat;            /* latency of each interrupt taken, in cycles, in order */
  uint64_t *rise;           /* ... and the cycle its line rose (who ran then: per-task latency) */
  size_t nlat, cap;
  bool waiting;             /* a request is pending that no interrupt has been taken for ... */
  uint64_t since;           /* ... since this cycle (the line rose) */
} irq_stat;

typedef struct plic_state {
  uint8_t prio[PLIC_SOURCES];
  uint8_t threshold[PLIC_CONTEXTS];
  uint32_t pending[PLIC_WORDS];
  uint32_t claimed[PLIC_WORDS];  /* in service: claimed and not yet completed */
  uint32_t enable[PLIC_CONTEXTS][PLIC_WORDS];
  uint32_t level[PLIC_WORDS];    /* level-triggered sources' lines (the UART's) */
  bool entered;                  /* an external interrupt was taken ... */
  uint64_t entry_cycle;          /* ... the last one's handler began at this cycle */
  irq_stat stat[PLIC_SOURCES];
} plic_state;

/* Scripted interrupt sources and timed UART input (irq.c). */
typedef struct irq_event {
  uint64_t cycle;
  unsigned src;
} irq_event;

typedef struct irq_periodic {
  unsigned src;
  uint64_t period, jitter, first, count; /* count 0: no end */
  uint64_t k;                            /* rises made so far */
  uint64_t next;                         /* the next rise's cycle */
  uint64_t rng;                          /* SplitMix64 state */
} irq_periodic;

typedef struct uart_chunk {
  uint64_t cycle;           /* its bytes arrive at this cycle */
  size_t end;               /* ... up to this offset of rx_bytes */
} uart_chunk;

typedef struct irq_sources {
  irq_event *script;        /* sorted by cycle, then source */
  size_t nscript, script_next;
  irq_periodic *per;
  size_t nper;
  /* --uart-rx: the bytes, when each arrives, how far they have arrived and been read */
  bool uart_script;
  unsigned char *rx_bytes;
  size_t rx_len, rx_arrived, rx_read;
  uart_chunk *chunks;
  size_t nchunks, chunk_next;
} irq_sources;

/* One device on the bus: its window and handlers (bus.c). */
typedef struct bus_device {
  uint32_t base, size;
  bool (*load)(struct core_cpu *, uint32_t off, unsigned size, uint32_t *val);
  bool (*store)(struct core_cpu *, uint32_t off, unsigned size, uint32_t val);
} bus_device;

/* The core's bus (src/core/cpu.h): these devices, semihosting and HTIF. */
extern const core_bus board_bus;

struct board {
  board_desc desc;  /* the memory map */
  bus_device devs[BOARD_DEV_COUNT]; /* the devices present, in address decode order */
  unsigned ndevs;
  FILE *out, *err;  /* the program's stdout and stderr */
  int in_fd;        /* the program's stdin */

  /* ns16550 registers that keep what is written */
  uint8_t uart_ier, uart_lcr, uart_mcr, uart_scr, uart_dll, uart_dlm;
  int uart_rx;              /* the received byte waiting in RBR, -1 none */
  bool in_eof;              /* stdin has ended (the UART's view of it) */
  uint64_t uart_eof_polls, uart_last_poll; /* polls for input after its end, in a tight loop */

  bool uart_thr_ipending;   /* the transmitter-empty interrupt is pending (as QEMU's thr_ipending) */
  bool uart_line;           /* the UART's interrupt line, as last told to the PLIC */

  plic_state plic;
  irq_sources irq;

  /* control block */
  uint32_t markers, next_khz, next_mv;
  uint32_t dvfs_refused;    /* STATUS: the last APPLY was outside the model's range */
  uint32_t dvfs_refusals;   /* refusals so far, for the first few notes */

  /* HTIF: tohost/fromhost words, found from the ELF's symbols */
  bool htif;
  uint32_t tohost, fromhost;

  /* semihosting */
  char *cmdline;
  int sh_errno;
  uint32_t readc_at_eof;    /* SYS_READC calls in a row at end of input */
  semihost_file files[SEMIHOST_MAX_FILES];
  hostfs fs;                /* which host files SYS_OPEN may open (hostfs.h) */
};

/* A board with the devices of `desc` (NULL: the built-in virt). */
board *board_new(const board_desc *desc, FILE *out, FILE *err, int in_fd);
void board_free(board *b);
bool board_set_cmdline(board *b, int argc, char *const argv[]);
void board_enable_htif(core_cpu *cpu, uint32_t tohost, uint32_t fromhost);
/* Waits until the program's stdin can be read without blocking; false when
 * the host asked the run to stop meanwhile (board.c). */
bool board_wait_input(core_cpu *cpu);

/* MMIO, called by the core's slow paths through board_bus: false means an
 * access fault. */
bool board_load(core_cpu *cpu, uint32_t addr, unsigned size, uint32_t *val);
bool board_store(core_cpu *cpu, uint32_t addr, unsigned size, uint32_t val);

/* A store hit the HTIF tohost word. */
void board_htif_store(core_cpu *cpu, uint32_t addr, unsigned size);

/* The semihosting call in a0/a1 (semihost.c). */
void board_semihost(core_cpu *cpu);

/* Device handlers (one file each). */
bool uart_load(core_cpu *cpu, uint32_t off, unsigned size, uint32_t *val);
bool uart_store(core_cpu *cpu, uint32_t off, unsigned size, uint32_t val);
bool clint_load(core_cpu *cpu, uint32_t off, unsigned size, uint32_t *val);
bool clint_store(core_cpu *cpu, uint32_t off, unsigned size, uint32_t val);
bool finisher_load(core_cpu *cpu, uint32_t off, unsigned size, uint32_t *val);
bool finisher_store(core_cpu *cpu, uint32_t off, unsigned size, uint32_t val);
bool control_load(core_cpu *cpu, uint32_t off, unsigned size, uint32_t *val);
bool control_store(core_cpu *cpu, uint32_t off, unsigned size, uint32_t val);
bool plic_load(core_cpu *cpu, uint32_t off, unsigned size, uint32_t *val);
bool plic_store(core_cpu *cpu, uint32_t off, unsigned size, uint32_t val);

/* The PLIC's gateways (plic.c): an edge on source src at `cycle` (a
 * scripted source), a level (the UART's line); the interrupt entry that
 * measures latencies (core_bus.interrupt_entry). */
void plic_edge(core_cpu *cpu, unsigned src, uint64_t cycle);
void plic_level(core_cpu *cpu, unsigned src, bool high, uint64_t cycle);
void board_interrupt_entry(core_cpu *cpu, uint32_t cause, uint64_t handler_cycle);
/* Why a source's request waits with no interrupt taken, in words, or NULL. */
const char *plic_why_waiting(const core_cpu *cpu, unsigned src, char *buf, size_t size);

/* Events due (core_bus.events, irq.c); the UART's line after a change
 * (uart16550.c). */
void board_events(core_cpu *cpu, uint64_t now);
void uart_update_line(core_cpu *cpu, uint64_t cycle);
/* Adds --irq SPEC / reads --uart-rx FILE (irq.c): 0, or -1 with err. */
int board_irq_add(core_cpu *cpu, const char *spec, char *err, size_t errlen);
int board_uart_rx_load(core_cpu *cpu, const char *path, char *err, size_t errlen);
/* The board's next event, into cpu->ext_due. */
void board_irq_schedule(core_cpu *cpu);

#endif
