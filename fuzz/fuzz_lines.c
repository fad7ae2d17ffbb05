/*
 * libFuzzer target: the DWARF line reader (src/symbols/lines.c), the code
 * that hands sections to libdw. The bytes are an ELF image in memory
 * (libelf's elf_memory); whatever it reads must stay inside them, and a
 * damaged table must be refused with a reason.
 */
#include <libelf.h>
#include <stdint.h>
#include <string.h>

#include "symbols/lines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char copy[1 << 20];
  if (size > sizeof copy || elf_version(EV_CURRENT) == EV_NONE)
    return 0;
  memcpy(copy, data, size);
  Elf *e = elf_memory(copy, size);
  if (!e)
    return 0;
  if (elf_kind(e) == ELF_K_ELF) {
    sym_lines l;
    tally_error err = {0};
    sym_lines_init(&l);
    int rc = sym_lines_read_elf(&l, e, "fuzz.elf", &err);
    if (rc < 0 && !err.msg[0])
      __builtin_trap(); /* refused without a reason */
    for (size_t i = 0; rc > 0 && i < l.n; i++)
      (void)sym_lines_lookup(&l, l.v[i].addr);
    sym_lines_free(&l);
  }
  elf_end(e);
  return 0;
}
