/*
 * SiFive test finisher (QEMU virt's "sifive_test"): a 32-bit store of
 * 0x5555 ends the run with status 0, (code << 16) | 0x3333 with `code`,
 * 0x7777 asks for a reset, which a simulation treats as the end.
 */
#include "board.h"

bool finisher_load(core_cpu *cpu, uint32_t off, unsigned size, uint32_t *val) {
  (void)cpu; (void)off; (void)size;
  *val = 0;
  return true;
}

bool finisher_store(core_cpu *cpu, uint32_t off, unsigned size, uint32_t val) {
  if (off != 0 || size != 4)
    return true;
  switch (val & 0xffff) {
  case 0x5555:
    cpu->exit_code = 0;
    core_set_stop(cpu, CORE_STOP_EXIT, "test finisher: pass");
    break;
  case 0x3333:
    cpu->exit_code = (int)(val >> 16);
    core_set_stop(cpu, CORE_STOP_EXIT, "test finisher: fail with code %u", val >> 16);
    break;
  case 0x7777:
    cpu->exit_code = 0;
    core_set_stop(cpu, CORE_STOP_EXIT, "test finisher: reset requested");
    break;
  default:
    break;
  }
  return true;
}
