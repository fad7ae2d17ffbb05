/*
 * Getting a program into the board's RAM: ELF executables (libelf) and raw
 * binaries. Errors name the file and what is wrong with it, and nothing is
 * written to RAM until the whole file has been checked.
 */
#ifndef TALLY_LOADER_LOADER_H
#define TALLY_LOADER_LOADER_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/cpu.h"
#include "../symbols/symtab.h"
#include "tally/tally.h"

typedef struct loaded_image {
  uint32_t entry;
  uint32_t code_lo, code_hi;  /* span of the executable segments */
  bool has_tohost;
  uint32_t tohost, fromhost;
} loaded_image;

/* `board`: the name of the board when it is not the default virt, for
 * the message about a program linked for another memory map (NULL: the
 * messages of tally's own board, which point at target/tally.ld). */
int loader_elf(core_cpu *cpu, const char *path, const char *board, sym_table *syms, loaded_image *img,
               tally_error *err);
uint64_t loader_elf_ram_needed(const char *path, uint32_t ram_base);
int loader_raw(core_cpu *cpu, const char *path, uint32_t addr, loaded_image *img, tally_error *err);

#endif
