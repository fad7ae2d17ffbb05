/*
 * The tally control block, a device of tally's own at 0x00110000 (nothing
 * sits there on QEMU virt): user markers the program raises around code it
 * wants measured, and the DVFS register that changes the core clock and
 * voltage at run time. Registers (32-bit):
 *   +0x00 MARKERS   read/write: marker bits 0-3, each a level signal
 *   +0x04 SET       write: set these marker bits
 *   +0x08 CLEAR     write: clear these marker bits
 *   +0x10 FREQ_KHZ  read: current core clock; write: the next clock
 *   +0x14 VOLT_MV   read: current voltage; write: the next voltage
 *   +0x18 APPLY     write: switch to FREQ_KHZ/VOLT_MV (the PLL relocks: the
 *                   core stalls for the model's pll_relock_cycles)
 *   +0x1c STATUS    read: bit 0 set when the last APPLY was refused
 * A switch outside the core model's [dvfs] operating range (min_mhz-max_mhz,
 * min_voltage-max_voltage) is refused as a PLL refuses to lock there: the
 * clock and voltage stay, STATUS says so, and the first few are told on
 * stderr. In functional mode (no core model) writes are accepted and
 * ignored.
 */
#include <stdio.h>

#include "../timing/timing.h"
#include "board.h"

enum { CTL_MARKERS = 0x00, CTL_SET = 0x04, CTL_CLEAR = 0x08, CTL_FREQ = 0x10, CTL_VOLT = 0x14, CTL_APPLY = 0x18,
       CTL_STATUS = 0x1c };
#define DVFS_REFUSAL_NOTES 5

static void set_markers(core_cpu *cpu, uint32_t bits) {
  board *b = cpu->board;
  bits &= 0xf;
  if (cpu->tm)
    timing_set_markers(cpu->tm, bits, core_cycle_now(cpu));
  b->markers = bits;
}

bool control_load(core_cpu *cpu, uint32_t off, unsigned size, uint32_t *val) {
  board *b = cpu->board;
  if (size != 4)
    return false;
  switch (off) {
  case CTL_MARKERS: *val = b->markers; break;
  case CTL_FREQ: *val = cpu->tm ? (uint32_t)(cpu->tm->freq_mhz * 1000 + 0.5) : BOARD_CORE_HZ / 1000; break;
  case CTL_VOLT: *val = cpu->tm ? (uint32_t)(cpu->tm->voltage * 1000 + 0.5) : 0; break;
  case CTL_STATUS: *val = b->dvfs_refused; break;
  default: *val = 0; break;
  }
  return true;
}

/* APPLY: switch, when the model's range allows it. */
static void apply_clock(core_cpu *cpu, board *b) {
  if (!cpu->tm)
    return;
  const core_model *m = &cpu->tm->model;
  double mhz = b->next_khz / 1000.0, volts = b->next_mv / 1000.0;
  b->dvfs_refused = !(mhz >= m->min_mhz && mhz <= m->max_mhz && volts >= m->min_voltage && volts <= m->max_voltage);
  if (!b->dvfs_refused) {
    core_set_clock(cpu, mhz, volts);
    return;
  }
  if (b->dvfs_refusals++ < DVFS_REFUSAL_NOTES)
    fprintf(b->err,
            "tally: control: DVFS switch to %u kHz, %u mV refused: outside the core model's range "
            "%g-%g MHz, %g-%g V (the clock stays at %g MHz, %g V)\n",
            b->next_khz, b->next_mv, m->min_mhz, m->max_mhz, m->min_voltage, m->max_voltage,
            cpu->tm->freq_mhz, cpu->tm->voltage);
}

bool control_store(core_cpu *cpu, uint32_t off, unsigned size, uint32_t val) {
  board *b = cpu->board;
  if (size != 4)
    return false;
  switch (off) {
  case CTL_MARKERS: set_markers(cpu, val); break;
  case CTL_SET: set_markers(cpu, b->markers | val); break;
  case CTL_CLEAR: set_markers(cpu, b->markers & ~val); break;
  case CTL_FREQ: b->next_khz = val; break;
  case CTL_VOLT: b->next_mv = val; break;
  case CTL_APPLY: apply_clock(cpu, b); break;
  default: break;
  }
  return true;
}
