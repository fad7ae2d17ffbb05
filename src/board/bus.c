/*
 * Address decode for everything outside RAM: a table of the board's
 * devices (from its description), each a base, a size and two handlers.
 * Unmapped addresses and misaligned device accesses are access faults.
 */
#include <stdlib.h>

#include "board.h"

static const bus_device handlers[BOARD_DEV_COUNT] = {
  [BOARD_DEV_FINISHER] = {0, 0, finisher_load, finisher_store},
  [BOARD_DEV_CONTROL] = {0, 0, control_load, control_store},
  [BOARD_DEV_CLINT] = {0, 0, clint_load, clint_store},
  [BOARD_DEV_UART] = {0, 0, uart_load, uart_store},
  [BOARD_DEV_PLIC] = {0, 0, plic_load, plic_store},
};

static const bus_device *find(const board *b, uint32_t addr, unsigned size) {
  if (addr & (size - 1))
    return NULL;
  for (unsigned i = 0; i < b->ndevs; i++)
    if (addr - b->devs[i].base < b->devs[i].size)
      return &b->devs[i];
  return NULL;
}

bool board_load(core_cpu *cpu, uint32_t addr, unsigned size, uint32_t *val) {
  const bus_device *d = find(cpu->board, addr, size);
  *val = 0;
  return d && d->load(cpu, addr - d->base, size, val);
}

bool board_store(core_cpu *cpu, uint32_t addr, unsigned size, uint32_t val) {
  const bus_device *d = find(cpu->board, addr, size);
  return d && d->store(cpu, addr - d->base, size, val);
}

board *board_new(const board_desc *desc, FILE *out, FILE *err, int in_fd) {
  board *b = calloc(1, sizeof *b);
  if (!b)
    return NULL;
  if (desc)
    b->desc = *desc;
  else
    board_desc_virt(&b->desc);
  for (int i = 0; i < BOARD_DEV_COUNT; i++)
    if (b->desc.has[i]) {
      b->devs[b->ndevs] = handlers[i];
      b->devs[b->ndevs].base = b->desc.dev_base[i];
      b->devs[b->ndevs].size = board_dev_size((board_dev_id)i);
      b->ndevs++;
    }
  b->out = out;
  b->err = err;
  b->in_fd = in_fd;
  b->uart_rx = -1;
  hostfs_init(&b->fs);
  return b;
}

const core_bus board_bus = {.load = board_load, .store = board_store, .watched_store = board_htif_store,
                            .semihost = board_semihost, .events = board_events,
                            .interrupt_entry = board_interrupt_entry};
