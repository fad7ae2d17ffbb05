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
  char arch[128];             /* Tag_RISCV_arch of .riscv.attributes ("rv32i2p1_m2p0..."), or "" */
} loaded_image;

/* `board`: the name of the board when it is not the default virt, for
 * the message about a program linked for another memory map (NULL: the
 * messages of tally's own board, which point at target/tally.ld). */
int loader_elf(core_cpu *cpu, const char *path, const char *board, sym_table *syms, loaded_image *img,
               tally_error *err);
uint64_t loader_elf_ram_needed(const char *path, uint32_t ram_base);
/* The file is an output of tally inst (it has the runtime's section,
 * .tally_inst.text); false when it is not or cannot be read. */
bool loader_elf_instrumented(const char *path);
/* The ISA string of an ELF's RISC-V attributes (.riscv.attributes,
 * Tag_RISCV_arch) into buf; false (buf "") when it has none or it is
 * damaged. */
bool loader_elf_arch(const unsigned char *sec, size_t n, char *buf, size_t size);
int loader_raw(core_cpu *cpu, const char *path, uint32_t addr, loaded_image *img, tally_error *err);

#endif
