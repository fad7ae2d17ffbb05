/*
 * The public API (include/tally/tally.h): a tally_sim owns one hart, its
 * board and the loaded program's symbols.
 */
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../board/board.h"
#include "../core/cpu.h"
#include "../core/ctx_count.h"
#include "../core/jit.h"
#include "../loader/loader.h"
#include "../symbols/dwarf_task.h"
#include "../symbols/lines.h"
#include "../symbols/symtab.h"
#include "../profile/profile.h"
#include "../profile/report.h"
#include "../statmod/statmod.h"
#include "../timing/core_model.h"
#include "../timing/signals.h"
#include "../timing/timing.h"
#include "api_internal.h"
#include "tally/tally.h"

/* What tally_profile_lines_enable found (tally_sim.lines_state). */
enum { LINES_UNREAD, LINES_READ, LINES_NONE, LINES_DAMAGED };

struct tally_sim {
  core_cpu *cpu;
  board *board;
  sym_table syms;
  loaded_image image;
  char *elf_path;           /* the loaded ELF, for its line table; NULL for a raw binary */
  sym_lines lines;          /* read by tally_profile_lines_enable */
  int lines_state;          /* LINES_*; lines_err holds the message */
  tally_error lines_err;
  int out_errno;            /* the first failed write of the program's output, 0: none */
  uint64_t jit_code;        /* $TALLY_JIT_CODE: bytes of translated code before a flush, 0: the default */
  bool argv0_path;          /* tally_keep_argv0_path: argv[0] as given, not its base name */
  char tasks_spec[128];     /* what tally_profile_tasks_enable turned on ("auto" for NULL) */
};

/* The program's output goes out at the end of every tally_run: a write
 * that fails (a full disk, a closed pipe) is kept for tally_output_error. */
static void flush_out(tally_sim *sim) {
  errno = 0;
  if ((fflush(sim->board->out) != 0 || ferror(sim->board->out)) && !sim->out_errno)
    sim->out_errno = errno ? errno : EIO;
}

int tally_output_error(tally_sim *sim) {
  flush_out(sim);
  return sim->out_errno;
}

void tally_config_default(tally_config *cfg) {
  *cfg = (tally_config){.ram_size = 0, .in_fd = 0, .board = NULL};
}

tally_sim *tally_sim_new(const tally_config *cfg) { return tally_sim_open(cfg, NULL); }

tally_sim *tally_sim_open(const tally_config *cfg, tally_error *err) {
  tally_config def;
  if (!cfg) {
    tally_config_default(&def);
    cfg = &def;
  }
  board_desc *desc = malloc(sizeof *desc);
  if (!desc)
    return api_error(err, "out of memory"), NULL;
  if (api_board_read(cfg->board, desc, err) != 0)
    return free(desc), NULL;
  uint32_t ram = cfg->ram_size ? cfg->ram_size : (uint32_t)desc->regions[0].size;
  char msg[sizeof err->msg];
  if (board_desc_check_ram(desc, ram, msg, sizeof msg) != 0) {
    if (cfg->ram_size)
      api_fail(err, TALLY_E_USAGE, "RAM of %u bytes: %s", ram, msg);
    else
      api_fail(err, TALLY_E_USAGE, "%s", msg);
    return free(desc), NULL;
  }
  tally_sim *sim = calloc(1, sizeof *sim);
  if (!sim) {
    api_error(err, "out of memory");
    return free(desc), NULL;
  }
  sim->cpu = core_new(desc->regions[0].base, ram);
  sim->board = board_new(desc, cfg->out ? cfg->out : stdout, cfg->err ? cfg->err : stderr, cfg->in_fd);
  free(desc);
  if (!sim->cpu || !sim->board) {
    api_error(err, "cannot allocate a board with %u bytes of RAM", ram);
    tally_sim_free(sim);
    return NULL;
  }
  /* the engine: $TALLY_ENGINE, else the translator where there is one */
  const char *engine = getenv("TALLY_ENGINE");
  int e = engine && *engine ? tally_engine_parse(engine) : core_jit_supported() ? TALLY_ENGINE_JIT : TALLY_ENGINE_INTERP;
  if (e < 0 || (e == TALLY_ENGINE_JIT && !core_jit_supported())) {
    if (e < 0)
      api_fail(err, TALLY_E_USAGE, "TALLY_ENGINE=%s: not an engine (interp or jit)", engine);
    else
      api_fail(err, TALLY_E_USAGE, "TALLY_ENGINE=jit: the translator runs on x86-64 Linux only");
    tally_sim_free(sim);
    return NULL;
  }
  const char *code = getenv("TALLY_JIT_CODE");
  if (code && *code && (!tally_parse_number(code, &sim->jit_code) || sim->jit_code > (1u << 30))) {
    api_fail(err, TALLY_E_USAGE, "TALLY_JIT_CODE=%s: not a size up to 1Gi (bytes, k/M suffixes)", code);
    tally_sim_free(sim);
    return NULL;
  }
  if (e == TALLY_ENGINE_JIT)
    core_set_engine(sim->cpu, true, sim->jit_code); /* without memory for it, the interpreter runs */
  sim->cpu->board = sim->board;
  sim->cpu->bus = &board_bus;
  sim->cpu->no_semihost = !sim->board->desc.semihosting;
  sym_table_init(&sim->syms);
  sym_lines_init(&sim->lines);
  return sim;
}

void tally_sim_free(tally_sim *sim) {
  if (!sim)
    return;
  if (sim->board) {
    fflush(sim->board->out);
    fflush(sim->board->err);
  }
  if (sim->cpu && sim->cpu->tm && sim->cpu->tm->watch) /* the statistics module */
    sim->cpu->tm->watch_ops->detach(sim->cpu->tm->watch);
  if (sim->cpu && sim->cpu->tm) {
    prof_free(sim->cpu->tm->prof);
    sim->cpu->tm->prof = NULL;
    sim->cpu->tm->ctx_row = NULL;
  }
  core_free(sim->cpu);
  board_free(sim->board);
  sym_table_free(&sim->syms);
  sym_lines_free(&sim->lines);
  free(sim->elf_path);
  free(sim);
}

static void start_at(tally_sim *sim, const loaded_image *img, const char *elf_path) {
  sim->image = *img;
  free(sim->elf_path);
  sim->elf_path = elf_path ? strdup(elf_path) : NULL;
  sym_lines_free(&sim->lines);
  sim->lines_state = LINES_UNREAD;
  core_reset(sim->cpu, img->entry);
  if (img->has_tohost && sim->board->desc.htif)
    board_enable_htif(sim->cpu, img->tohost, img->fromhost);
}

uint64_t tally_elf_ram_needed(const char *path) { return loader_elf_ram_needed(path, TALLY_RAM_BASE); }

uint64_t tally_elf_ram_needed_at(const char *path, uint32_t ram_base) {
  return loader_elf_ram_needed(path, ram_base);
}

const char *tally_board_name(const tally_sim *sim) { return sim->board->desc.name; }
uint32_t tally_ram_base(const tally_sim *sim) { return sim->cpu->ram_base; }
uint32_t tally_ram_size(const tally_sim *sim) { return sim->cpu->ram_size; }

int tally_load_elf(tally_sim *sim, const char *path, tally_error *err) {
  loaded_image img;
  const board_desc *d = &sim->board->desc;
  /* tally inst's runtime makes semihosting calls (target/inst/rt_entry.S)
   * and lives at 0x88000000-0x89000000 (target/inst/analysis.ld) */
  if (loader_elf_instrumented(path)) {
    bool ram = (uint64_t)0x88000000u - sim->cpu->ram_base < sim->cpu->ram_size &&
               (uint64_t)sim->cpu->ram_base + sim->cpu->ram_size >= 0x89000000ull;
    bool virt = !d->path[0] || !strcmp(d->name, "virt");
    if (!d->semihosting || (!ram && !virt))
      return api_fail(err, TALLY_E_INPUT,
                      "%s: the program is instrumented by tally inst, whose runtime makes semihosting calls and "
                      "lives at 0x88000000-0x89000000; board %s has %s (run it on virt, or a board with both)",
                      path, d->name, !d->semihosting ? "no semihosting" : "no RAM there");
  }
  bool own = !d->path[0] || !strcmp(d->name, "virt"); /* tally.ld's map: the messages that point at it */
  if (loader_elf(sim->cpu, path, own ? NULL : d->name, &sim->syms, &img, err) != 0)
    return -1;
  start_at(sim, &img, path);
  return 0;
}

int tally_load_raw(tally_sim *sim, const char *path, uint32_t addr, uint32_t entry, tally_error *err) {
  loaded_image img;
  if (loader_raw(sim->cpu, path, addr, &img, err) != 0)
    return -1;
  img.entry = entry;
  start_at(sim, &img, NULL);
  return 0;
}

void tally_keep_argv0_path(tally_sim *sim, bool keep) { sim->argv0_path = keep; }

/* crt0 copies the command line onto the stack, a few cycles a character:
 * argv[0] as its base name keeps the folder a program was run from out of
 * every count. */
int tally_set_args(tally_sim *sim, int argc, char *const argv[]) {
  const char *slash = argc > 0 && !sim->argv0_path ? strrchr(argv[0], '/') : NULL;
  if (!slash || !slash[1])
    return board_set_cmdline(sim->board, argc, argv) ? 0 : -1;
  char **named = malloc((size_t)argc * sizeof *named);
  if (!named)
    return -1;
  memcpy(named, argv, (size_t)argc * sizeof *named);
  named[0] = (char *)(slash + 1);
  bool ok = board_set_cmdline(sim->board, argc, named);
  free(named);
  return ok ? 0 : -1;
}

int tally_set_host_files(tally_sim *sim, tally_host_files mode, const char *root, tally_error *err) {
  static const int modes[] = {[TALLY_HOST_FILES_READ] = HOSTFS_READ, [TALLY_HOST_FILES_NONE] = HOSTFS_NONE,
                              [TALLY_HOST_FILES_RW] = HOSTFS_RW};
  char msg[sizeof err->msg - 64];
  if ((unsigned)mode >= sizeof modes / sizeof modes[0]) {
    snprintf(err->msg, sizeof err->msg, "unknown host-file policy %d", (int)mode);
    return -1;
  }
  if (hostfs_set(&sim->board->fs, modes[mode], root, msg, sizeof msg) != 0) {
    snprintf(err->msg, sizeof err->msg, "the program's directory %s", msg);
    return -1;
  }
  return 0;
}

int tally_protect_host_file(tally_sim *sim, const char *path, tally_error *err) {
  char msg[sizeof err->msg - 64];
  if (hostfs_protect(&sim->board->fs, path, true, msg, sizeof msg) != 0) {
    snprintf(err->msg, sizeof err->msg, "cannot protect %s from the program: %s", path, msg);
    return -1;
  }
  return 0;
}

int tally_protect_host_fd(tally_sim *sim, int fd, tally_error *err) {
  char msg[sizeof err->msg - 64];
  if (hostfs_protect_fd(&sim->board->fs, fd, msg, sizeof msg) != 0) {
    snprintf(err->msg, sizeof err->msg, "cannot protect an open file from the program: %s", msg);
    return -1;
  }
  return 0;
}

tally_stop tally_run(tally_sim *sim, uint64_t max_insns) {
  tally_stop s = (tally_stop)core_run(sim->cpu, max_insns);
  flush_out(sim);
  return s;
}

void tally_set_max_cycles(tally_sim *sim, uint64_t max_cycles) { sim->cpu->max_cycles = max_cycles; }
uint64_t tally_max_cycles(const tally_sim *sim) { return sim->cpu->max_cycles; }

tally_stop tally_step(tally_sim *sim) {
  tally_stop s = (tally_stop)core_step(sim->cpu);
  flush_out(sim);
  return s;
}

uint64_t tally_traps_taken(const tally_sim *sim) { return sim->cpu->traps; }

bool tally_interrupt_due(const tally_sim *sim) { return core_interrupt_due(sim->cpu); }

int tally_exit_code(const tally_sim *sim) { return sim->cpu->exit_code; }
uint64_t tally_instret(const tally_sim *sim) { return sim->cpu->instret; }
uint32_t tally_pc(const tally_sim *sim) { return sim->cpu->pc; }
uint32_t tally_reg(const tally_sim *sim, unsigned r) { return r < 32 ? sim->cpu->x[r] : 0; }
void tally_set_reg(tally_sim *sim, unsigned r, uint32_t v) {
  if (r > 0 && r < 32)
    sim->cpu->x[r] = v;
}
void tally_set_pc(tally_sim *sim, uint32_t pc) { sim->cpu->pc = pc & ~1u; }
bool tally_read_mem(const tally_sim *sim, uint32_t addr, void *dst, uint32_t len) {
  return core_read_mem(sim->cpu, addr, dst, len);
}
bool tally_write_mem(tally_sim *sim, uint32_t addr, const void *src, uint32_t len) {
  return core_write_mem(sim->cpu, addr, src, len);
}
bool tally_csr_read(tally_sim *sim, unsigned csr, uint32_t *v) {
  uint64_t totals[SIG_COUNT];
  tally_signal_totals(sim, totals); /* the PMU's counters are worked out from them */
  return core_csr_debug_read(sim->cpu, csr, totals, v);
}

bool tally_csr_write(tally_sim *sim, unsigned csr, uint32_t v) {
  uint64_t totals[SIG_COUNT];
  tally_signal_totals(sim, totals);
  return core_csr_debug_write(sim->cpu, csr, v, totals);
}
bool tally_trigger_stopped(const tally_sim *sim, tally_trigger_hit *hit) {
  const core_debug_hit *h = &sim->cpu->debug_hit;
  if (!h->hit)
    return false;
  *hit = (tally_trigger_hit){.trigger = h->trigger, .kind = h->kind, .pc = h->pc, .addr = h->addr};
  return true;
}
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
  uint32_t bits;
  if (!core_fetch_insn(sim->cpu, pc, &bits))
    return 0;
  isa_insn in;
  isa_decode(bits, &in);
  isa_disasm(&in, pc, buf, size);
  return in.len;
}

int tally_core_lacks(const tally_sim *sim, uint32_t pc, char *buf, size_t size) {
  uint32_t bits;
  if (!sim->cpu->tm || !core_fetch_insn(sim->cpu, pc, &bits))
    return 0;
  isa_insn in;
  isa_decode(bits, &in);
  return in.kind != K_ILLEGAL && !timing_decodes(sim->cpu->tm, in.kind, in.len, in.csr, in.rs1, buf, size);
}

/* The extensions of an ISA string ("rv32i2p1_m2p0_f2p2_zicsr2p0",
 * "rv32imafdc"): its single letters into `letters` (G as IMAFD), and
 * whether a multi-letter one asks for a floating-point, vector or bit-
 * manipulation unit ("zfh", "zve32x", "zba"). */
static void isa_letters(const char *arch, char *letters, size_t size, bool *other) {
  size_t n = 0;
  *other = false;
  letters[0] = '\0';
  if (strncmp(arch, "rv32", 4) != 0 && strncmp(arch, "rv64", 4) != 0)
    return;
  for (const char *c = arch + 4; *c;) {
    if (*c == '_') {
      c++;
      continue;
    }
    if (*c == 'z' || *c == 's' || *c == 'x') { /* multi-letter, to the next '_' */
      size_t len = strcspn(c, "_");
      *other |= *c == 'z' && len > 1 && strchr("fvbkdhq", c[1]) != NULL;
      c += len;
      continue;
    }
    const char *add = *c == 'g' ? "imafd" : (char[]){*c, 0};
    for (; *add && n + 1 < size; add++)
      if (!strchr(letters, *add)) {
        letters[n++] = *add;
        letters[n] = '\0';
      }
    c++;
    while (*c >= '0' && *c <= '9') /* a version: 2p1 */
      c++;
    if (*c == 'p') {
      c++;
      while (*c >= '0' && *c <= '9')
        c++;
    }
  }
}

int tally_program_isa_lacks(const tally_sim *sim, char *buf, size_t size) {
  const char *arch = sim->image.arch;
  char want[32], core[8] = "i";
  bool other;
  isa_letters(arch, want, sizeof want, &other);
  const timing *tm = sim->cpu->tm;
  core_isa isa = tm ? tm->model.isa : ISA_RV32IMAC;
  if (isa & ISA_EXT_M) strcat(core, "m");
  if ((isa & ISA_EXT_A) && !(tm && tm->pico)) strcat(core, "a");
  if (isa & ISA_EXT_C) strcat(core, "c");
  char lack[32];
  size_t n = 0;
  for (const char *c = want; *c; c++)
    if (!strchr(core, *c) && *c != 'e' && n + 1 < sizeof lack)
      lack[n++] = (char)(*c - 'a' + 'A');
  lack[n] = '\0';
  if (!n && !other)
    return 0;
  char list[96] = "";
  size_t len = 0;
  for (size_t i = 0; i < n && len < sizeof list; i++)
    len += (size_t)snprintf(list + len, sizeof list - len, "%s%c", i == 0 ? "" : i + 1 == n ? " and " : ", ", lack[i]);
  snprintf(buf, size, "the program is built for rv32%s (%s, its ELF attributes): %s %s not in the core's rv32%s",
           want, arch, n ? list : "extensions beyond the base ISA", n == 1 ? "is" : "are", core);
  return 1;
}

int tally_untimed_counter_read(const tally_sim *sim, char *name, size_t size, uint32_t *pc) {
  uint32_t csr = sim->cpu->untimed_csr;
  if (!csr || sim->cpu->tm)
    return 0;
  const char *m = csr < 0xc00 ? "m" : "", *h = csr & 0x80u ? "h" : "";
  unsigned n = csr & 0x1fu;
  if (n == 0)
    snprintf(name, size, "%scycle%s", m, h);
  else
    snprintf(name, size, "%shpmcounter%u%s", m, n, h);
  *pc = sim->cpu->untimed_pc;
  return 1;
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
  /* a model named is a usage error when wrong, a model file an input error */
  bool is_file = name && (strchr(name, '/') || (strlen(name) > 4 && !strcmp(name + strlen(name) - 4, ".ini")));
  err->code = is_file ? TALLY_E_INPUT : TALLY_E_USAGE;
  if (name && core_model_load(&m, name, tally_core_dirs(), err->msg, sizeof err->msg) != 0)
    return -1;
  err->code = TALLY_E_USAGE;
  for (int i = 0; i < nsets; i++)
    if (core_model_set(&m, sets[i], err->msg, sizeof err->msg) != 0)
      return -1;
  if (core_model_validate(&m, err->msg, sizeof err->msg) != 0) {
    err->code = nsets ? TALLY_E_USAGE : TALLY_E_INPUT; /* the --set values, or the file's own */
    return -1;
  }
  err->code = TALLY_E_INTERNAL;
  /* a board whose RAM is not cacheable: no access ever reaches the caches
   * (devices never do), so the model runs as one without them */
  if (!sim->board->desc.regions[0].cacheable)
    m.icache.enabled = m.dcache.enabled = false;
  /* PicoRV32's model times its one memory itself ([memory] wait_states,
   * picorv32.c): the board's RAM wait states are that memory's, added to
   * the model's and taken off the generic per-beat path so that no beat
   * pays them twice */
  uint32_t ram_waits = sim->board->desc.regions[0].wait_states;
  if (m.micro_arch == MICRO_PICORV32 && ram_waits) {
    if (m.wait_states + ram_waits > 3) {
      snprintf(err->msg, sizeof err->msg,
               "core model %s with board %s: %u wait states of the core's memory and %u of the board's RAM make "
               "%u; the PicoRV32 model is checked against the RTL at 0 to 3",
               m.name, sim->board->desc.name, m.wait_states, ram_waits, m.wait_states + ram_waits);
      err->code = TALLY_E_USAGE;
      return -1;
    }
    m.wait_states += ram_waits;
  }
  timing *tm = timing_new(&m);
  if (!tm) {
    snprintf(err->msg, sizeof err->msg, "cannot set up core model '%s'", m.name);
    return -1;
  }
  const board_desc *d = &sim->board->desc;
  timing_mem_region regions[TIMING_MAX_MEM_REGIONS];
  uint32_t n = 0;
  for (unsigned i = 0; i < d->nregions && n < TIMING_MAX_MEM_REGIONS; i++, n++)
    regions[n] = (timing_mem_region){.base = d->regions[i].base,
                                     .size = i == 0 ? sim->cpu->ram_size : d->regions[i].size,
                                     .wait_states = i == 0 && m.micro_arch == MICRO_PICORV32
                                                        ? 0 : d->regions[i].wait_states,
                                     .cacheable = d->regions[i].cacheable};
  timing_set_memory_map(tm, regions, n);
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

int tally_on_icache_miss(tally_sim *sim, void (*fn)(void *ctx, uint32_t line_addr), void *ctx) {
  timing *tm = sim->cpu->tm;
  if (!tm)
    return -1;
  tm->icache_miss_fn = fn;
  tm->icache_miss_ctx = ctx;
  return 0;
}

_Static_assert(TALLY_DCACHE_WRITE == TIMING_DC_WRITE && TALLY_DCACHE_HIT == TIMING_DC_HIT &&
                   TALLY_DCACHE_WRITEBACK == TIMING_DC_WRITEBACK,
               "tally_on_dcache_miss's flags are the timing model's");

int tally_on_dcache_miss(tally_sim *sim, void (*fn)(void *ctx, uint32_t line_addr, uint32_t flags), void *ctx) {
  timing *tm = sim->cpu->tm;
  if (!tm)
    return -1;
  tm->dcache_miss_fn = fn;
  tm->dcache_miss_ctx = ctx;
  return 0;
}

uint64_t tally_cycles(const tally_sim *sim) {
  return sim->cpu->tm ? sim->cpu->tm->cycle : sim->cpu->instret + sim->cpu->idle_cycles;
}

double tally_sim_seconds(tally_sim *sim) {
  if (!sim->cpu->tm)
    return (double)tally_cycles(sim) / BOARD_CORE_HZ;
  return tally_energy_now(sim).seconds;
}

int tally_signal_count(void) { return SIG_COUNT; }
const char *tally_signal_name(int id) { return id >= 0 && id < SIG_COUNT ? signal_catalog[id].name : NULL; }
const char *tally_signal_meaning(int id) { return id >= 0 && id < SIG_COUNT ? signal_catalog[id].meaning : NULL; }
int tally_signal_lookup(const char *name) { return signal_lookup(name); }

void tally_signal_totals(tally_sim *sim, uint64_t *totals) {
  core_signal_totals(sim->cpu, totals);
  if (!sim->cpu->tm)
    return;
  signal_derive(totals);
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

/* ---- profiles ---- */

int tally_profile_enable(tally_sim *sim, uint64_t sample_period_cycles, tally_error *err) {
  timing *tm = sim->cpu->tm;
  if (!tm) {
    snprintf(err->msg, sizeof err->msg, "profiling needs a core model (tally_set_core)");
    return -1;
  }
  if (!sim->image.code_hi) {
    snprintf(err->msg, sizeof err->msg, "profiling needs a loaded program");
    return -1;
  }
  prof_state *old = tm->prof;
  if (old && old->tasks && old->tasks->on_run) {
    /* the statistics module's task counters follow this profile's tasks:
     * it is kept, and goes on counting what it has (a new one would lose them) */
    old->sample_period = sample_period_cycles;
    old->next_sample = sample_period_cycles;
    return 0;
  }
  prof_state *p = prof_new(sim->image.code_lo, sim->image.code_hi, &sim->syms);
  if (!p) {
    snprintf(err->msg, sizeof err->msg, "out of memory for a profile of 0x%08x-0x%08x", sim->image.code_lo,
             sim->image.code_hi);
    return -1;
  }
  p->root.func = sim->image.entry;
  p->sample_period = sample_period_cycles;
  p->next_sample = sample_period_cycles;
  core_fold_blocks(sim->cpu);
  core_ctx_counts_drop(sim->cpu, true); /* they point into the old profile's contexts */
  prof_free(tm->prof);
  prof_attach(p, tm);
  sim->cpu->flush_pending = true; /* profiled blocks end at function entries (block.c) */
  tm->prof_row = timing_row(tm, sim->cpu->pc);
  p->last_cycle = p->start_cycle = tm->cycle;
  return 0;
}

tally_profile *tally_profile_take(tally_sim *sim) {
  timing *tm = sim->cpu->tm;
  if (!tm || !tm->prof)
    return NULL;
  uint64_t totals[SIG_COUNT];
  tally_signal_totals(sim, totals); /* folds the blocks into the rows too */
  return profile_snapshot(tm->prof, &sim->syms, sim->lines_state == LINES_READ ? &sim->lines : NULL, sim->image.entry,
                          tm->cycle, totals);
}

void tally_profile_free(tally_profile *p) { profile_free(p); }

int tally_profile_timeline_enable(tally_sim *sim, uint64_t max_calls, tally_error *err) {
  prof_state *p = sim->cpu->tm ? sim->cpu->tm->prof : NULL;
  if (!p) {
    snprintf(err->msg, sizeof err->msg, "a timeline needs the profile on (tally_profile_enable)");
    err->code = TALLY_E_USAGE;
    return -1;
  }
  if (!prof_timeline_enable(p, max_calls > SIZE_MAX / 4 ? SIZE_MAX / 4 : (size_t)max_calls)) {
    snprintf(err->msg, sizeof err->msg, "out of memory for a timeline");
    err->code = TALLY_E_INTERNAL;
    return -1;
  }
  return 0;
}

size_t tally_profile_slices(const tally_profile *p, const tally_slice **out, uint64_t *cut) {
  *out = p->slices;
  if (cut)
    *cut = p->timeline_cut;
  return p->nslices;
}

size_t tally_profile_functions(const tally_profile *p, const tally_func_profile **out) {
  *out = p->funcs;
  /* the "[unknown]" bucket only when something landed there */
  const tally_func_profile *u = &p->funcs[p->unknown];
  bool used = u->calls || u->samples;
  for (int s = 0; s < SIG_COUNT && !used; s++)
    used = u->self[s] != 0;
  return used ? p->nfuncs : p->nfuncs_real;
}

size_t tally_profile_arcs(const tally_profile *p, const tally_arc **out) {
  *out = p->arcs;
  return p->narcs;
}

uint64_t tally_profile_total(const tally_profile *p, int signal) {
  return signal >= 0 && signal < SIG_COUNT ? p->totals[signal] : 0;
}

uint64_t tally_profile_samples_taken(const tally_profile *p) { return p->samples_taken; }

uint64_t tally_profile_at(const tally_profile *p, uint32_t pc, int signal) {
  const prof_state *st = p->state;
  if (signal < 0 || signal >= SIG_COUNT || pc - st->lo >= st->hi - st->lo)
    return 0;
  const int64_t *row = prof_row((prof_state *)st, pc);
  if (signal != SIG_STALL)
    return (uint64_t)row[signal];
  /* rows hold the stall.* parts; "stall" is derived from them, as in the totals */
  uint64_t v[SIG_COUNT];
  for (int s = 0; s < SIG_COUNT; s++)
    v[s] = (uint64_t)row[s];
  signal_derive(v);
  return v[SIG_STALL];
}

void tally_profile_code_range(const tally_profile *p, uint32_t *lo, uint32_t *hi) {
  *lo = p->state->lo;
  *hi = p->state->hi;
}

void tally_profile_stacks(const tally_profile *p, void (*fn)(void *, const char *const *, size_t, uint64_t),
                          void *ctx) {
  profile_stacks(p, fn, ctx);
}

void tally_profile_anomalies(const tally_profile *p, uint64_t *unmatched_returns, uint64_t *unwinds) {
  *unmatched_returns = p->state->unmatched_returns;
  *unwinds = p->state->unwinds;
}

/* ---- tasks ---- */

static bool read_guest(void *ctx, uint32_t addr, void *dst, uint32_t len) {
  return core_read_mem((const core_cpu *)ctx, addr, dst, len);
}

static bool read_guest_reg(void *ctx, unsigned reg, uint32_t *val) {
  const core_cpu *cpu = ctx;
  if (reg >= 32)
    return false;
  *val = reg ? cpu->x[reg] : 0;
  return true;
}

/* x0..x31 or an ABI name (fp is s0); -1 if neither. */
static int register_number(const char *s) {
  static const char *const abi[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
                                      "a1",   "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                      "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
  if (!strcmp(s, "fp"))
    return 8;
  for (int i = 0; i < 32; i++)
    if (!strcmp(s, abi[i]))
      return i;
  if (s[0] == 'x' && s[1]) {
    char *end;
    long n = strtol(s + 1, &end, 10);
    if (!*end && n >= 0 && n < 32 && s[1] != '+' && s[1] != '-' && s[1] != ' ')
      return (int)n;
  }
  return -1;
}

/* The kernel conventions: the current-task pointer and the name member. */
static const struct {
  const char *name, *path, *member;
} task_conventions[] = {
    {"freertos", "pxCurrentTCB", "pcTaskName"},
    {"zephyr", "_kernel.cpus[0].current", "name"},
    {"tally", "rtos_current", "name"},
};

int tally_profile_tasks_enable(tally_sim *sim, const char *spec, tally_error *err) {
  prof_state *p = sim->cpu->tm ? sim->cpu->tm->prof : NULL;
  if (!p)
    return api_fail(err, TALLY_E_USAGE, "tasks need the profile on (tally_profile_enable)");
  if (!spec || !*spec)
    spec = "auto";
  if (p->tasks && p->tasks->on_run && strcmp(sim->tasks_spec, spec) == 0)
    return 0; /* on already, as asked, for the statistics module's task counters */
  if (p->tasks || p->depth != 1)
    return api_fail(err, TALLY_E_USAGE, "tasks must be turned on once, before the run");
  prof_task_layout l = {.reg = -1};
  char source[384], path[128], member[48] = "name"; /* l.name_member points here */
  if (strncmp(spec, "reg:", 4) == 0) {
    int r = register_number(spec + 4);
    if (r <= 0 || r == 2)
      return api_fail(err, TALLY_E_USAGE,
                      "--tasks=%s: expected reg:REGISTER (x1..x31 but sp, or an ABI name: tp, gp, s11...)", spec);
    core_fold_blocks(sim->cpu);
    l.reg = r;
    l.read_reg = read_guest_reg;
    if (!prof_tasks_enable(p, &l, read_guest, sim->cpu, sim->cpu->tm->cycle))
      return api_fail(err, TALLY_E_INTERNAL, "out of memory for the tasks");
    snprintf(p->tasks->source, sizeof p->tasks->source,
             "register %s (x%d), read at every return from a trap handler (tasks named by their pointer)", spec + 4, r);
    snprintf(sim->tasks_spec, sizeof sim->tasks_spec, "%s", spec);
    return 0;
  }
  if (strncmp(spec, "0x", 2) == 0 || strncmp(spec, "0X", 2) == 0) {
    char *end;
    errno = 0;
    unsigned long a = strtoul(spec + 2, &end, 16);
    if (end == spec + 2 || *end || errno || a > UINT32_MAX)
      return api_fail(err, TALLY_E_USAGE, "--tasks=%s: not an address (0x followed by hex digits)", spec);
    l.ptr_addr = (uint32_t)a;
    snprintf(source, sizeof source, "the word at 0x%08x (no names: tasks are named by their pointer)",
             (unsigned)l.ptr_addr);
  } else {
    if (!sim->elf_path)
      return api_fail(err, TALLY_E_USAGE, "--tasks=%s needs an ELF file with debug information; for a raw binary give "
                                          "the pointer's address (--tasks=0xADDR)", spec);
    const char *conv = NULL;
    size_t k = 0, nconv = sizeof task_conventions / sizeof task_conventions[0];
    bool all = strcmp(spec, "auto") == 0;
    for (; !all && k < nconv && strcmp(spec, task_conventions[k].name) != 0; k++)
      ;
    sym_task_place pl;
    int rc = 0;
    if (all || k < nconv) {
      for (size_t i = all ? 0 : k; i < (all ? nconv : k + 1) && rc == 0; i++) {
        conv = task_conventions[i].name;
        snprintf(path, sizeof path, "%s", task_conventions[i].path);
        snprintf(member, sizeof member, "%s", task_conventions[i].member);
        rc = sym_task_place_find(sim->elf_path, path, member, &pl, err);
      }
      if (rc == 0 && all)
        return api_fail(err, TALLY_E_USAGE,
                        "%s has none of the kernel conventions' task pointers (freertos: pxCurrentTCB, zephyr: "
                        "_kernel, tally: rtos_current): name yours with --tasks=VARIABLE[:NAME_MEMBER]",
                        sim->elf_path);
      if (rc == 0) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        return api_fail(err, TALLY_E_USAGE, "--tasks=%s: %s (is it a %s program?)", spec, why, conv);
      }
    } else {
      const char *colon = strchr(spec, ':');
      size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
      if (n == 0 || n >= sizeof path || (colon && (!colon[1] || strlen(colon + 1) >= sizeof member)))
        return api_fail(err, TALLY_E_USAGE,
                        "--tasks=%s: expected auto, freertos, zephyr, tally, VARIABLE[:NAME_MEMBER] or 0xADDR", spec);
      memcpy(path, spec, n);
      path[n] = 0;
      if (colon)
        snprintf(member, sizeof member, "%s", colon + 1);
      rc = sym_task_place_find(sim->elf_path, path, member, &pl, err);
      if (rc == 0) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        return api_fail(err, TALLY_E_USAGE, "--tasks=%s: %s", spec, why);
      }
    }
    if (rc < 0) {
      err->code = TALLY_E_USAGE;
      return -1;
    }
    l = (prof_task_layout){.ptr_addr = pl.ptr_addr, .reg = -1, .has_name = pl.has_name,
                           .name_is_ptr = pl.name_is_ptr,
                           .name_off = pl.name_off, .name_len = pl.name_len, .name_member = member};
    if (pl.has_name)
      snprintf(source, sizeof source, "%s%s%s (0x%08x): struct %s, name `%s' at +%u (%s)", conv ? conv : "",
               conv ? ": " : "", path, (unsigned)pl.ptr_addr, pl.tcb_type, member, (unsigned)pl.name_off,
               pl.name_is_ptr ? "a char pointer" : "a char array");
    else
      snprintf(source, sizeof source, "%s%s%s (0x%08x): struct %s, no member `%s': tasks named by their pointer",
               conv ? conv : "", conv ? ": " : "", path, (unsigned)pl.ptr_addr, pl.tcb_type, member);
  }
  if (l.ptr_addr - sim->cpu->ram_base > sim->cpu->ram_size - 4 || (l.ptr_addr & 3u))
    return api_fail(err, TALLY_E_USAGE, "--tasks=%s: the task pointer at 0x%08x is %s", spec, (unsigned)l.ptr_addr,
                    l.ptr_addr & 3u ? "not word-aligned" : "outside RAM");
  core_fold_blocks(sim->cpu);
  if (!prof_tasks_enable(p, &l, read_guest, sim->cpu, sim->cpu->tm->cycle))
    return api_fail(err, TALLY_E_INTERNAL, "out of memory for the tasks");
  snprintf(p->tasks->source, sizeof p->tasks->source, "%s", source);
  snprintf(sim->tasks_spec, sizeof sim->tasks_spec, "%s", spec);
  core_watch_set(sim->cpu, l.ptr_addr, 4, WATCH_TASK);
  return 0;
}

int api_tasks_follow(tally_sim *sim, const char *spec, void (*fn)(void *ctx, const char *name), void *ctx,
                     tally_error *err) {
  if (!sim->cpu->tm)
    return api_fail(err, TALLY_E_USAGE, "task counters need a core model");
  prof_state *p = sim->cpu->tm->prof;
  if (!p && tally_profile_enable(sim, 0, err) != 0)
    return -1;
  p = sim->cpu->tm->prof;
  if (!p->tasks && tally_profile_tasks_enable(sim, spec, err) != 0)
    return -1;
  if (p->tasks->on_run && (p->tasks->on_run != fn || p->tasks->on_run_ctx != ctx))
    return api_fail(err, TALLY_E_USAGE, "the tasks are followed for another statistics module");
  p->tasks->on_run = fn;
  p->tasks->on_run_ctx = ctx;
  if (p->tasks->running >= 0)
    fn(ctx, p->tasks->v[p->tasks->running].name);
  return 0;
}

void api_tasks_unfollow(tally_sim *sim, void (*fn)(void *ctx, const char *name), void *ctx) {
  prof_state *p = sim->cpu->tm ? sim->cpu->tm->prof : NULL;
  if (p && p->tasks && p->tasks->on_run == fn && p->tasks->on_run_ctx == ctx) {
    p->tasks->on_run = NULL;
    p->tasks->on_run_ctx = NULL;
  }
}

bool api_tasks_seen(const tally_sim *sim, const char *name, char *buf, size_t size) {
  const prof_state *p = sim->cpu->tm ? sim->cpu->tm->prof : NULL;
  if (!p || !p->tasks)
    return false;
  bool found = false;
  size_t o = 0;
  if (size)
    buf[0] = '\0';
  for (size_t i = 0; i < p->tasks->n; i++) {
    found |= name && strcmp(p->tasks->v[i].name, name) == 0;
    int n = o < size ? snprintf(buf + o, size - o, "%s%s", i ? ", " : "", p->tasks->v[i].name) : -1;
    if (n > 0)
      o += (size_t)n;
  }
  return found;
}

/* tally_profile_lines_enable's answer for the state, with its message. */
static int lines_answer(const tally_sim *sim, tally_error *err) {
  if (err)
    *err = sim->lines_err;
  return sim->lines_state == LINES_READ ? 1 : sim->lines_state == LINES_NONE ? 0 : -1;
}

int tally_profile_lines_enable(tally_sim *sim, tally_error *err) {
  if (sim->lines_state != LINES_UNREAD)
    return lines_answer(sim, err);
  tally_error *e = &sim->lines_err;
  e->msg[0] = '\0';
  if (!sim->elf_path) {
    snprintf(e->msg, sizeof e->msg, "the program was loaded as a raw binary, which has no source line table; "
             "load its ELF file, built with -g");
    sim->lines_state = LINES_NONE;
  } else if (sym_lines_read_file(&sim->lines, sim->elf_path, e) != 0) {
    sim->lines_state = LINES_DAMAGED;
  } else if (sim->lines.n == 0) {
    snprintf(e->msg, sizeof e->msg, "%s has no source line table (no DWARF .debug_line): rebuild it with -g "
             "(and do not strip it)", sim->elf_path);
    sim->lines_state = LINES_NONE;
  } else {
    sim->lines_state = LINES_READ;
  }
  return lines_answer(sim, err);
}

int tally_profile_source_at(const tally_profile *p, uint32_t pc, const char **file, uint32_t *line) {
  const sym_line *r = p->line_table ? sym_lines_lookup(p->line_table, pc) : NULL;
  if (!r)
    return 0;
  *file = sym_lines_file(p->line_table, r);
  *line = r->line;
  return 1;
}

size_t tally_profile_lines(const tally_profile *p, const tally_line_profile **out) {
  *out = p->lines;
  return p->nlines;
}

/* ---- functions by name ---- */

int tally_load_map(tally_sim *sim, const char *path, tally_error *err) {
  sym_table t;
  sym_table_init(&t);
  if (sym_table_read_map_file(&t, path, err) != 0) {
    sym_table_free(&t);
    return -1;
  }
  sym_table_free(&sim->syms);
  sim->syms = t;
  if (sim->cpu->tm && sim->cpu->tm->prof)
    prof_symbols_changed(sim->cpu->tm->prof);
  return 0;
}

int tally_load_symbols(tally_sim *sim, const char *elf, tally_error *err) {
  sym_table t;
  sym_table_init(&t);
  bool has_symtab;
  if (sym_table_read_elf_file(&t, elf, &has_symtab, err) != 0) {
    sym_table_free(&t);
    return -1;
  }
  sym_table_free(&sim->syms);
  sim->syms = t;
  if (sim->cpu->tm && sim->cpu->tm->prof)
    prof_symbols_changed(sim->cpu->tm->prof);
  return 0;
}

static bool names(const sym_entry *e, const char *name) {
  if (strcmp(e->name, name) == 0)
    return true;
  for (size_t k = 0; k < e->naliases; k++)
    if (strcmp(e->aliases[k], name) == 0)
      return true;
  return false;
}

/* Edit distance of a and b, giving up above `limit` (returns limit + 1). */
static size_t distance(const char *a, const char *b, size_t limit) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > lb + limit || lb > la + limit || lb >= 64)
    return limit + 1;
  size_t row[64];
  for (size_t j = 0; j <= lb; j++)
    row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0], best = row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t v = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < v) v = up + 1;
      if (row[j - 1] + 1 < v) v = row[j - 1] + 1;
      row[j] = v;
      diag = up;
      if (v < best) best = v;
    }
    if (best > limit)
      return limit + 1;
  }
  return row[lb];
}

/* Up to four function names close to `name` (a typo away, or containing it),
 * as "; did you mean a, b?", appended to msg. */
static void suggest_functions(const sym_table *t, const char *name, char *msg, size_t size) {
  size_t o = strlen(msg), found = 0, limit = strlen(name) < 4 ? 1 : 2;
  for (size_t i = 0; i < t->n && found < 4; i++) {
    const char *s = t->v[i].name;
    if (distance(name, s, limit) > limit && !(strlen(name) >= 3 && strstr(s, name)))
      continue;
    int n = snprintf(msg + o, size - o, "%s%s", found ? ", " : "; did you mean ", s);
    if (n < 0 || (size_t)n >= size - o)
      break;
    o += (size_t)n;
    found++;
  }
  if (found && o + 2 < size)
    strcat(msg, "?");
}

int tally_function_range(const tally_sim *sim, const char *name, uint32_t *lo, uint32_t *hi, tally_error *err) {
  const sym_table *t = &sim->syms;
  const sym_entry *found = NULL;
  size_t count = 0;
  for (size_t i = 0; i < t->n; i++) {
    if (!names(&t->v[i], name))
      continue;
    if (count++ == 0)
      found = &t->v[i];
  }
  if (count == 1) {
    *lo = found->lo;
    *hi = found->hi;
    return 0;
  }
  if (count == 0) {
    if (t->n == 0)
      snprintf(err->msg, sizeof err->msg, "no function named '%s': the program has no symbols (a raw binary needs "
               "--map FILE; or give the range as 0xLO-0xHI)", name);
    else {
      snprintf(err->msg, sizeof err->msg, "no function named '%s' in the program (tally symbols lists them)", name);
      suggest_functions(t, name, err->msg, sizeof err->msg);
    }
    return -1;
  }
  int n = snprintf(err->msg, sizeof err->msg, "%zu functions are named '%s':", count, name);
  for (size_t i = 0; i < t->n && n > 0 && (size_t)n < sizeof err->msg; i++)
    if (names(&t->v[i], name))
      n += snprintf(err->msg + n, sizeof err->msg - (size_t)n, " 0x%08x-0x%08x", t->v[i].lo, t->v[i].hi);
  if (n > 0 && (size_t)n < sizeof err->msg)
    snprintf(err->msg + n, sizeof err->msg - (size_t)n, "; give the one meant as 0xLO-0xHI");
  return -1;
}

/* ---- statistics module ---- */

struct core_cpu *api_sim_cpu(tally_sim *sim) { return sim->cpu; }

int tally_statmod_attach(tally_sim *sim, struct statmod *m, tally_error *err) {
  return statmod_attach(m, sim->cpu, err->msg, sizeof err->msg);
}

const char *tally_signal_noun(int id) { return id >= 0 && id < SIG_COUNT ? signal_catalog[id].noun : NULL; }

void tally_request_stop(tally_sim *sim) { atomic_store(&sim->cpu->stop_request, 1); }

/* ---- what the other files of src/api need (api_internal.h) ---- */

int api_fail(tally_error *err, tally_errcode code, const char *fmt, ...) {
  if (!err)
    return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
  err->code = code;
  return -1;
}

const sym_table *api_sim_symbols(const tally_sim *sim) { return &sim->syms; }

size_t tally_function_count(const tally_sim *sim) { return sim->syms.n; }

int tally_function_at(const tally_sim *sim, size_t i, tally_function *f) {
  if (i >= sim->syms.n)
    return -1;
  const sym_entry *e = &sim->syms.v[i];
  *f = (tally_function){.name = e->name, .lo = e->lo, .hi = e->hi, .section = sym_section_name(&sim->syms, e),
                        .naliases = e->naliases, .aliases = (const char *const *)e->aliases};
  return 0;
}

/* ---- engine ---- */

const char *tally_engine_name(tally_engine engine) { return engine == TALLY_ENGINE_JIT ? "jit" : "interp"; }

int tally_engine_parse(const char *word) {
  if (word && strcmp(word, "interp") == 0)
    return TALLY_ENGINE_INTERP;
  if (word && strcmp(word, "jit") == 0)
    return TALLY_ENGINE_JIT;
  return -1;
}

int tally_set_engine(tally_sim *sim, tally_engine engine, tally_error *err) {
  if (engine == TALLY_ENGINE_JIT && !core_jit_supported())
    return api_fail(err, TALLY_E_USAGE, "engine jit: the translator runs on x86-64 Linux only; use --engine interp");
  if (!core_set_engine(sim->cpu, engine == TALLY_ENGINE_JIT, sim->jit_code))
    return api_error(err, "engine jit: no memory for translated code");
  return 0;
}

tally_engine tally_get_engine(const tally_sim *sim) { return sim->cpu->jit ? TALLY_ENGINE_JIT : TALLY_ENGINE_INTERP; }

tally_engine tally_engine_running(const tally_sim *sim) {
  return sim->cpu->jit && !core_jit_timed_why(sim->cpu) ? TALLY_ENGINE_JIT : TALLY_ENGINE_INTERP;
}

const char *tally_engine_why(const tally_sim *sim) { return sim->cpu->jit ? core_jit_timed_why(sim->cpu) : NULL; }

void tally_jit_stats_get(const tally_sim *sim, tally_jit_stats *st) {
  *st = (tally_jit_stats){0};
  const core_jit *j = sim->cpu->jit;
  if (!j)
    return;
  size_t used = (size_t)(j->code_next - j->region) - j->page;
  st->blocks = j->translated;
  st->translate_ns = j->translate_ns;
  st->code_bytes = used > j->code_bytes_max ? used : j->code_bytes_max;
  st->full_flushes = j->flushes_full;
}
