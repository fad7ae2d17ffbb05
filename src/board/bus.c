/*
 * Address decode for everything outside RAM: a table of devices, each a
 * base, a size and two handlers. Unmapped addresses and misaligned device
 * accesses are access faults.
 */
#include <stdlib.h>

#include "board.h"

typedef struct bus_device {
  uint32_t base, size;
  bool (*load)(core_cpu *, uint32_t off, unsigned size, uint32_t *val);
  bool (*store)(core_cpu *, uint32_t off, unsigned size, uint32_t val);
} bus_device;

static const bus_device devices[] = {
  {BOARD_FINISHER_BASE, 0x1000, finisher_load, finisher_store},
  {BOARD_CONTROL_BASE, 0x1000, control_load, control_store},
  {BOARD_CLINT_BASE, 0x10000, clint_load, clint_store},
  {BOARD_UART_BASE, 0x100, uart_load, uart_store},
};

static const bus_device *find(uint32_t addr, unsigned size) {
  if (addr & (size - 1))
    return NULL;
  for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++)
    if (addr - devices[i].base < devices[i].size)
      return &devices[i];
  return NULL;
}

bool board_load(core_cpu *cpu, uint32_t addr, unsigned size, uint32_t *val) {
  const bus_device *d = find(addr, size);
  *val = 0;
  return d && d->load(cpu, addr - d->base, size, val);
}

bool board_store(core_cpu *cpu, uint32_t addr, unsigned size, uint32_t val) {
  const bus_device *d = find(addr, size);
  return d && d->store(cpu, addr - d->base, size, val);
}

board *board_new(FILE *out, FILE *err, int in_fd) {
  board *b = calloc(1, sizeof *b);
  if (!b)
    return NULL;
  b->out = out;
  b->err = err;
  b->in_fd = in_fd;
  b->uart_rx = -1;
  hostfs_init(&b->fs);
  return b;
}
