/*
 * A board description: the memory map as data (docs/boards.md). One RAM
 * region (the core's), any number of other address regions that only carry
 * timing attributes (an uncached IO window), and the devices, each at the
 * address the file gives or absent. Read from an INI file (boards/NAME.ini),
 * or the built-in `virt` (the same as boards/virt.ini).
 *
 * Errors read "FILE:LINE: [section] key: what is wrong (expected ...)".
 */
#ifndef TALLY_BOARD_BOARD_DESC_H
#define TALLY_BOARD_BOARD_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOARD_MAX_REGIONS 8       /* [ram] and up to 7 [region.NAME] sections */
#define BOARD_WAIT_STATES_MAX 1000

/* The devices a board may have, each one window of addresses. */
typedef enum board_dev_id {
  BOARD_DEV_FINISHER, /* SiFive test finisher: 0x5555 exit 0, (code << 16) | 0x3333 exit code */
  BOARD_DEV_CONTROL,  /* tally's control block: markers, DVFS (control.c) */
  BOARD_DEV_CLINT,    /* msip, mtimecmp, mtime */
  BOARD_DEV_UART,     /* ns16550 */
  BOARD_DEV_PLIC,     /* platform-level interrupt controller, QEMU virt's layout (plic.c) */
  BOARD_DEV_COUNT
} board_dev_id;

typedef struct board_region {
  char name[32];          /* "ram", or the NAME of [region.NAME] */
  uint32_t base;
  uint64_t size;          /* bytes; base + size <= 2^32 */
  uint32_t wait_states;   /* extra cycles per bus beat (a core model charges them) */
  bool cacheable;         /* false: accesses bypass the caches */
  int line;               /* where the file declares it (0: built in) */
} board_region;

typedef struct board_desc {
  char name[64];
  char description[181];
  char path[1024];        /* the file read ("" for the built-in virt) */
  board_region regions[BOARD_MAX_REGIONS]; /* [0] is the RAM */
  unsigned nregions;
  bool has[BOARD_DEV_COUNT];
  uint32_t dev_base[BOARD_DEV_COUNT];
  int dev_line[BOARD_DEV_COUNT];
  bool semihosting;       /* the ebreak sequence is a host call; else a breakpoint */
  bool htif;              /* a program's tohost symbol is served */
} board_desc;

/* The name and window size of each device ("uart", 0x100 ...). */
const char *board_dev_name(board_dev_id d);
uint32_t board_dev_size(board_dev_id d);

/* The built-in default: QEMU virt's layout (the same as boards/virt.ini). */
void board_desc_virt(board_desc *d);

/* Loads NAME: a path to an .ini file (it contains '/' or ends in .ini), or
 * the name of a board found as NAME.ini in dirs (colon-separated). On error
 * -1 with err saying what and where; *is_file tells a file's fault (bad
 * input) from a name's (usage). */
int board_desc_load(board_desc *d, const char *name, const char *dirs, bool *is_file, char *err, size_t errlen);

/* Names of the boards found in dirs, sorted, without duplicates. */
size_t board_desc_list(const char *dirs, char names[][64], size_t max);

/* Checks RAM of ram_size bytes at the board's RAM base: a multiple of
 * 4 KiB, at most 2 GiB, inside the address space and clear of the devices
 * and the other regions. -1 with a message otherwise. */
int board_desc_check_ram(const board_desc *d, uint64_t ram_size, char *err, size_t errlen);

/* The region holding addr, or NULL. */
const board_region *board_desc_region(const board_desc *d, uint32_t addr);

#endif
