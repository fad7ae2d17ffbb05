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

#endif
