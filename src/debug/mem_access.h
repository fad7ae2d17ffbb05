/*
 * The memory an instruction touches, worked out from its bits and the
 * registers before it runs (loads, stores, AMOs and their compressed
 * forms): the public API has no hook into the memory system, and reading
 * the bits is exact. Used by the trace (its MEMORY field) and by the GDB
 * stub's read and access watchpoints. mem_access.c.
 */
#ifndef TALLY_DEBUG_MEM_ACCESS_H
#define TALLY_DEBUG_MEM_ACCESS_H

#include <stdbool.h>
#include <stdint.h>

#include "tally/tally.h"

typedef struct mem_access {
  bool valid;
  char kind;        /* 'r' load, 'w' store, 'a' atomic read-modify-write */
  uint32_t addr, len;
} mem_access;

/* What the instruction at pc will touch if it runs now. */
mem_access debug_mem_access(const tally_sim *sim, uint32_t pc);

static inline bool mem_access_reads(const mem_access *a) { return a->valid && (a->kind == 'r' || a->kind == 'a'); }
static inline bool mem_access_writes(const mem_access *a) { return a->valid && (a->kind == 'w' || a->kind == 'a'); }
/* Whether it touches any byte of [addr, addr + len). */
static inline bool mem_access_overlaps(const mem_access *a, uint32_t addr, uint32_t len) {
  return a->valid && (uint64_t)a->addr + a->len > addr && (uint64_t)addr + len > a->addr;
}

#endif
