/*
 * The public API (include/tally/tally.h): a tally_sim owns one hart, its
 * board and the loaded program's symbols.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../board/board.h"
#include "../core/cpu.h"
#include "../loader/loader.h"
#include "../symbols/symtab.h"
#include "../timing/core_model.h"
#include "../timing/signals.h"
#include "../timing/timing.h"
#include "tally/tally.h"

struct tally_sim {
  core_cpu *cpu;
  board *board;
  sym_table syms;
};

void tally_config_default(tally_config *cfg) {
  *cfg = (tally_config){.ram_size = TALLY_RAM_SIZE_DEFAULT, .in_fd = 0};
}

tally_sim *tally_sim_new(const tally_config *cfg) {
  tally_config def;
  if (!cfg) {
    tally_config_default(&def);
    cfg = &def;
  }
  uint32_t ram = cfg->ram_size ? cfg->ram_size : TALLY_RAM_SIZE_DEFAULT;
  if (ram & 0xfff || ram > 0x80000000u)
    return NULL;
  tally_sim *sim = calloc(1, sizeof *sim);
  if (!sim)
    return NULL;
  sim->cpu = core_new(TALLY_RAM_BASE, ram);
  sim->board = board_new(cfg->out ? cfg->out : stdout, cfg->err ? cfg->err : stderr, cfg->in_fd);
  if (!sim->cpu || !sim->board) {
    tally_sim_free(sim);
    return NULL;
  }
  sim->cpu->board = sim->board;
  sym_table_init(&sim->syms);
  return sim;
}

void tally_sim_free(tally_sim *sim) {
  if (!sim)
    return;
  if (sim->board) {
    fflush(sim->board->out);
    fflush(sim->board->err);
  }
  core_free(sim->cpu);
  board_free(sim->board);
  sym_table_free(&sim->syms);
  free(sim);
}

static void start_at(tally_sim *sim, const loaded_image *img) {
  core_reset(sim->cpu, img->entry);
  if (img->has_tohost)
    board_enable_htif(sim->cpu, img->tohost, img->fromhost);
}

int tally_load_elf(tally_sim *sim, const char *path, tally_error *err) {
  loaded_image img;
  if (loader_elf(sim->cpu, path, &sim->syms, &img, err) != 0)
    return -1;
  start_at(sim, &img);
  return 0;
}

int tally_load_raw(tally_sim *sim, const char *path, uint32_t addr, uint32_t entry, tally_error *err) {
  loaded_image img;
  if (loader_raw(sim->cpu, path, addr, &img, err) != 0)
    return -1;
  img.entry = entry;
  start_at(sim, &img);
  return 0;
}

int tally_set_args(tally_sim *sim, int argc, char *const argv[]) {
  return board_set_cmdline(sim->board, argc, argv) ? 0 : -1;
}

tally_stop tally_run(tally_sim *sim, uint64_t max_insns) {
  tally_stop s = (tally_stop)core_run(sim->cpu, max_insns);
  fflush(sim->board->out);
  return s;
}

int tally_exit_code(const tally_sim *sim) { return sim->cpu->exit_code; }
uint64_t tally_instret(const tally_sim *sim) { return sim->cpu->instret; }
uint32_t tally_pc(const tally_sim *sim) { return sim->cpu->pc; }
uint32_t tally_reg(const tally_sim *sim, unsigned r) { return r < 32 ? sim->cpu->x[r] : 0; }
const char *tally_stop_detail(const tally_sim *sim) { return sim->cpu->stop_detail; }

tally_trap tally_last_trap(const tally_sim *sim) {
  const core_trap_info *t = &sim->cpu->trap;
  return (tally_trap){.cause = t->cause, .tval = t->tval, .pc = t->pc, .insn = t->insn, .instret = t->instret};
}

const char *tally_cause_name(uint32_t cause) {
  static const char *const names[] = {
    [0] = "instruction address misaligned", [1] = "instruction access fault",
    [2] = "illegal instruction", [3] = "breakpoint", [4] = "load address misaligned",
    [5] = "load access fault", [6] = "store/AMO address misaligned", [7] = "store/AMO access fault",
    [8] = "environment call from U-mode", [11] = "environment call from M-mode",
  };
  if (cause & 0x80000000u) {
    switch (cause & 0x7fffffffu) {
    case 3: return "machine software interrupt";
    case 7: return "machine timer interrupt";
    case 11: return "machine external interrupt";
    default: return "interrupt";
    }
  }
  return cause < sizeof names / sizeof names[0] && names[cause] ? names[cause] : "unknown cause";
}

int tally_disasm_at(const tally_sim *sim, uint32_t pc, char *buf, size_t size) {
  uint16_t lo, hi;
  if (!core_read_mem(sim->cpu, pc, &lo, 2))
    return 0;
  uint32_t bits = lo;
  if (isa_insn_len(lo) == 4) {
    if (!core_read_mem(sim->cpu, pc + 2, &hi, 2))
      return 0;
    bits |= (uint32_t)hi << 16;
  }
  isa_insn in;
  isa_decode(bits, &in);
  isa_disasm(&in, pc, buf, size);
  return in.len;
}

void tally_symbolize(const tally_sim *sim, uint32_t addr, char *buf, size_t size) {
  const sym_entry *e = sym_table_lookup(&sim->syms, addr);
  if (!e)
    snprintf(buf, size, "0x%08x", addr);
  else if (addr == e->addr)
    snprintf(buf, size, "%s", e->name);
  else
    snprintf(buf, size, "%s+0x%x", e->name, addr - e->addr);
}

/* ---- timing ---- */

const char *tally_core_dirs(void) {
  const char *env = getenv("TALLY_CORES_PATH");
  return env && *env ? env : TALLY_CORES_DIR;
}

int tally_set_core(tally_sim *sim, const char *name, const char *const *sets, int nsets, tally_error *err) {
  core_model m;
  core_model_default(&m);
  if (name && core_model_load(&m, name, tally_core_dirs(), err->msg, sizeof err->msg) != 0)
    return -1;
  for (int i = 0; i < nsets; i++)
    if (core_model_set(&m, sets[i], err->msg, sizeof err->msg) != 0)
      return -1;
  if (core_model_validate(&m, err->msg, sizeof err->msg) != 0)
    return -1;
  timing *tm = timing_new(&m);
  if (!tm) {
    snprintf(err->msg, sizeof err->msg, "cannot set up core model '%s'", m.name);
    return -1;
  }
  core_set_timing(sim->cpu, tm);
  return 0;
}

const char *tally_core_name(const tally_sim *sim) { return sim->cpu->tm ? sim->cpu->tm->model.name : ""; }

void tally_core_describe(const tally_sim *sim, char *buf, size_t size) {
  if (sim->cpu->tm)
    core_model_write(&sim->cpu->tm->model, buf, size);
  else if (size)
    buf[0] = '\0';
}

uint64_t tally_cycles(const tally_sim *sim) {
  return sim->cpu->tm ? sim->cpu->tm->cycle : sim->cpu->instret + sim->cpu->idle_cycles;
}

int tally_signal_count(void) { return SIG_COUNT; }
const char *tally_signal_name(int id) { return id >= 0 && id < SIG_COUNT ? signal_catalog[id].name : NULL; }
const char *tally_signal_meaning(int id) { return id >= 0 && id < SIG_COUNT ? signal_catalog[id].meaning : NULL; }
int tally_signal_lookup(const char *name) { return signal_lookup(name); }

void tally_signal_totals(tally_sim *sim, uint64_t *totals) {
  core_signal_totals(sim->cpu, totals);
  if (!sim->cpu->tm)
    return;
  /* the catalog's derived signal: any stall */
  totals[SIG_STALL] = 0;
  static const int stalls[] = {SIG_STALL_ICACHE, SIG_STALL_LOAD_USE, SIG_STALL_MULDIV, SIG_STALL_DCACHE,
                               SIG_STALL_WBUF, SIG_STALL_BRANCH, SIG_STALL_JUMP, SIG_STALL_SYSTEM, SIG_STALL_DVFS};
  for (size_t i = 0; i < sizeof stalls / sizeof stalls[0]; i++)
    totals[SIG_STALL] += totals[stalls[i]];
  uint64_t markers[4];
  timing_marker_totals(sim->cpu->tm, sim->cpu->tm->cycle, markers);
  for (int i = 0; i < 4; i++)
    totals[SIG_MARKER0 + i] = markers[i];
}

tally_energy tally_energy_now(tally_sim *sim) {
  tally_energy e = {0};
  if (!sim->cpu->tm)
    return e;
  uint64_t totals[SIG_COUNT];
  core_signal_totals(sim->cpu, totals);
  timing_energy t = timing_energy_now(sim->cpu->tm, totals);
  e = (tally_energy){t.core_j, t.static_j, t.cache_j, t.mem_j, t.total_j, t.seconds,
                     sim->cpu->tm->freq_mhz, sim->cpu->tm->voltage};
  return e;
}
