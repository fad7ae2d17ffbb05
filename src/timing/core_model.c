/*
 * Core models: the built-in default, the INI reader (inih), `--set`
 * overrides, whole-model checks and the INI writer.
 *
 * Every key is one row of `keys[]` below: section, name, type, where the
 * value lives in core_model, its range or its words. Reading a file, applying
 * `--set`, checking a model and writing it back all walk that one table, so a
 * new key is one new row (plus its default and its line in
 * docs/core-models.md).
 *
 * Errors read "FILE:LINE: [section] key: what is wrong (expected ...)" for
 * files and "--set ASSIGNMENT: key must be ..., not VALUE" for overrides.
 */
#define _POSIX_C_SOURCE 200809L /* getline, strnlen, fileno */

#include "core_model.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "../textio/textio.h"
#include "../util/array.h"
#include "../util/search_path.h"

/* A core model is a page of INI: these bounds are far above any real one
 * and keep /dev/zero or a stray binary from exhausting memory. */
#define CORE_MODEL_MAX_BYTES (1u << 20)
#define CORE_MODEL_MAX_LINE 4096

/* ---------------------------------------------------------------- defaults */

void core_model_default(core_model *m) {
  memset(m, 0, sizeof *m);
  snprintf(m->name, sizeof m->name, "%s", "tally5");
  snprintf(m->description, sizeof m->description, "%s",
           "5-stage in-order RV32IMAC pipeline, 4 KiB 2-way I- and D-caches (write-back), SDRAM");

  m->frequency_mhz = 100;
  m->voltage = 1.2;

  m->cpi_alu = m->cpi_alu_reg = m->cpi_shift = m->cpi_load = m->cpi_store = 1;
  m->cpi_branch = m->cpi_jal = m->cpi_jalr = 1;
  m->cpi_mul = m->cpi_mulh = m->cpi_div = m->cpi_csr = m->cpi_system = m->cpi_amo = 1;
  m->fetch_ahead_insns = 1;
  m->wrong_path_words = 2;
  m->fence_i_wrong_path_reach = 1;
  m->shift = SHIFT_BARREL;
  m->mul_mode = MULDIV_FIXED;
  m->div_mode = MULDIV_FIXED;
  m->mul_latency = 2;
  m->div_latency = 32;
  m->predict = PREDICT_BACKWARD_TAKEN;
  m->branch_penalty = 2;
  m->branch_taken_penalty = 1;
  m->jal_penalty = 1;
  m->jalr_penalty = 2;
  m->load_use_penalty = 1;
  m->csr_penalty = 2;
  m->fence_i_penalty = 4;
  m->trap_penalty = 3;
  m->mret_penalty = 3;

  cache_params c = {
    .enabled = true, .size = 4096, .ways = 2, .line = 32,
    .replacement = REPL_LRU, .seed = 1, .write_policy = WRITE_BACK, .write_buffer = 0,
  };
  m->icache = c;
  c.write_buffer = 4;
  m->dcache = c;

  m->memory = MEMORY_SDRAM;
  m->bus_bytes = 4;
  m->read_first_ns = 60;
  m->read_beat_ns = 10;
  m->write_ns = 10;
  m->sdram_row_bytes = 2048;
  m->sdram_banks = 4;
  m->sdram_row_miss_ns = 30;

  m->nominal_voltage = 1.2;
  m->core_pj_per_cycle = 50;
  m->icache_pj_per_access = 8;
  m->dcache_pj_per_access = 10;
  m->mem_pj_per_read_beat = 120;
  m->mem_pj_per_write_beat = 140;
  m->static_mw = 5;

  m->pll_relock_cycles = 1000;
  m->min_mhz = 1;
  m->max_mhz = 1000;
  m->min_voltage = 0.5;
  m->max_voltage = 1.5;

  m->pmu_counters = 29;
  m->pmu_absent = PMU_ABSENT_ZERO;

  m->triggers = 4;
  m->pmp_entries = 16;
  m->pmp_granularity = 4;
  m->pmp_absent = PMU_ABSENT_ZERO;
  m->isa = ISA_RV32IMAC;
}

/* ------------------------------------------------------------- key table */

typedef enum key_type {
  T_TEXT,    /* char array; max = longest text */
  T_UINT,    /* uint32_t; decimal or 0x hex */
  T_SIZE,    /* uint32_t; also 4K, 4KiB, 1M ... */
  T_REAL,    /* double */
  T_BOOL,    /* bool */
  T_ENUM,    /* an enum stored as int; words lists its spellings */
} key_type;

enum { F_POW2 = 1, F_ABOVE_MIN = 2 /* min itself is not allowed */ };

typedef struct enum_word {
  const char *word;
  int value;
} enum_word;

typedef struct key_def {
  const char *section, *key;
  key_type type;
  size_t offset;
  double min, max;
  unsigned flags;
  const enum_word *words;  /* T_ENUM: NULL-terminated; first spelling of a value is canonical */
} key_def;

_Static_assert(sizeof(cache_replacement) == sizeof(int) && sizeof(cache_write_policy) == sizeof(int) &&
                   sizeof(branch_prediction) == sizeof(int) && sizeof(shift_mode) == sizeof(int) &&
                   sizeof(muldiv_mode) == sizeof(int) && sizeof(memory_kind) == sizeof(int) &&
                   sizeof(pmu_absent) == sizeof(int) && sizeof(micro_arch) == sizeof(int) &&
                   sizeof(core_isa) == sizeof(int),
               "T_ENUM fields are accessed as int");

static const enum_word replacement_words[] = {
  {"lru", REPL_LRU}, {"lrr", REPL_LRR}, {"fifo", REPL_LRR}, {"round-robin", REPL_LRR},
  {"random", REPL_RANDOM}, {NULL, 0},
};
static const enum_word write_policy_words[] = {
  {"write-back", WRITE_BACK}, {"write-through", WRITE_THROUGH}, {NULL, 0},
};
static const enum_word predict_words[] = {
  {"not-taken", PREDICT_NOT_TAKEN}, {"backward-taken", PREDICT_BACKWARD_TAKEN},
  {"taken", PREDICT_TAKEN}, {NULL, 0},
};
static const enum_word shift_words[] = {
  {"barrel", SHIFT_BARREL}, {"two-stage", SHIFT_TWO_STAGE}, {"serial", SHIFT_SERIAL}, {NULL, 0},
};
static const enum_word muldiv_words[] = {
  {"fixed", MULDIV_FIXED}, {"iterative", MULDIV_ITERATIVE}, {NULL, 0},
};
static const enum_word memory_words[] = {
  {"sram", MEMORY_SRAM}, {"sdram", MEMORY_SDRAM}, {NULL, 0},
};
static const enum_word fence_i_flush_words[] = {
  {"false", FENCE_I_FLUSH_AT_ONCE}, {"no", FENCE_I_FLUSH_AT_ONCE}, {"0", FENCE_I_FLUSH_AT_ONCE},
  {"true", FENCE_I_REFILL_DURING}, {"yes", FENCE_I_REFILL_DURING}, {"1", FENCE_I_REFILL_DURING},
  {"refill-first", FENCE_I_REFILL_FIRST}, {NULL, 0},
};
static const enum_word micro_words[] = {
  {"generic", MICRO_GENERIC}, {"picorv32", MICRO_PICORV32}, {"vexriscv-min", MICRO_VEXMIN}, {NULL, 0},
};
static const enum_word isa_words[] = {
  {"rv32imac", ISA_RV32IMAC}, {"rv32i", 0}, {"rv32im", ISA_EXT_M}, {"rv32ia", ISA_EXT_A}, {"rv32ic", ISA_EXT_C},
  {"rv32ima", ISA_EXT_M | ISA_EXT_A}, {"rv32imc", ISA_EXT_M | ISA_EXT_C}, {"rv32iac", ISA_EXT_A | ISA_EXT_C},
  {NULL, 0},
};
static const enum_word absent_words[] = {
  {"zero", PMU_ABSENT_ZERO}, {"illegal", PMU_ABSENT_ILLEGAL}, {NULL, 0},
};

#define AT(field) offsetof(core_model, field)
#define TEXT(s, k, f, len) {s, k, T_TEXT, AT(f), 0, len, 0, NULL}
#define UINT(s, k, f, lo, hi) {s, k, T_UINT, AT(f), lo, hi, 0, NULL}
#define POW2(s, k, f, lo, hi) {s, k, T_UINT, AT(f), lo, hi, F_POW2, NULL}
#define SIZE(s, k, f, lo, hi) {s, k, T_SIZE, AT(f), lo, hi, F_POW2, NULL}
#define REAL(s, k, f, lo, hi) {s, k, T_REAL, AT(f), lo, hi, 0, NULL}
#define POSITIVE(s, k, f, hi) {s, k, T_REAL, AT(f), 0, hi, F_ABOVE_MIN, NULL}
#define BOOL(s, k, f) {s, k, T_BOOL, AT(f), 0, 1, 0, NULL}
#define ENUM(s, k, f, w) {s, k, T_ENUM, AT(f), 0, 0, 0, w}

#define KIB 1024.0
#define MIB (1024.0 * 1024.0)
#define CPI_MAX 1000
#define PENALTY_MAX 1000
#define NS_MAX 1e6
#define PJ_MAX 1e9

#define CACHE_KEYS(s, c)                                      \
  BOOL(s, "enabled", c.enabled),                              \
  SIZE(s, "size", c.size, 4, 64 * MIB),                       \
  POW2(s, "ways", c.ways, 1, 65536),                          \
  SIZE(s, "line", c.line, 4, 4 * KIB),                        \
  ENUM(s, "replacement", c.replacement, replacement_words),   \
  UINT(s, "seed", c.seed, 0, UINT32_MAX),                     \
  UINT(s, "refill_cycles", c.refill_cycles, 0, 1000)

static const key_def keys[] = {
  TEXT("core", "name", name, sizeof(((core_model *)0)->name) - 1),
  TEXT("core", "description", description, 180),   /* fits inih's 200-byte line */
  POSITIVE("core", "frequency_mhz", frequency_mhz, 100000),
  POSITIVE("core", "voltage", voltage, 10),
  UINT("core", "triggers", triggers, 0, 16),                         /* CORE_TRIGGERS_MAX */
  UINT("core", "pmp_entries", pmp_entries, 0, 16),                   /* 0 or 16: checked below */
  SIZE("core", "pmp_granularity", pmp_granularity, 4, 2048 * MIB),
  ENUM("core", "pmp_absent", pmp_absent, absent_words),
  ENUM("core", "micro_arch", micro_arch, micro_words),
  ENUM("core", "isa", isa, isa_words),

  UINT("pipeline", "cpi.alu", cpi_alu, 1, CPI_MAX),
  UINT("pipeline", "cpi.alu_reg", cpi_alu_reg, 1, CPI_MAX),
  UINT("pipeline", "cpi.shift", cpi_shift, 1, CPI_MAX),
  UINT("pipeline", "cpi.load", cpi_load, 1, CPI_MAX),
  UINT("pipeline", "cpi.store", cpi_store, 1, CPI_MAX),
  UINT("pipeline", "cpi.branch", cpi_branch, 1, CPI_MAX),
  UINT("pipeline", "cpi.jal", cpi_jal, 1, CPI_MAX),
  UINT("pipeline", "cpi.jalr", cpi_jalr, 1, CPI_MAX),
  UINT("pipeline", "cpi.mul", cpi_mul, 1, CPI_MAX),
  UINT("pipeline", "cpi.mulh", cpi_mulh, 1, CPI_MAX),
  UINT("pipeline", "cpi.div", cpi_div, 1, CPI_MAX),
  UINT("pipeline", "cpi.csr", cpi_csr, 1, CPI_MAX),
  UINT("pipeline", "cpi.system", cpi_system, 1, CPI_MAX),
  UINT("pipeline", "cpi.amo", cpi_amo, 1, CPI_MAX),
  ENUM("pipeline", "shift", shift, shift_words),
  ENUM("pipeline", "mul_mode", mul_mode, muldiv_words),
  ENUM("pipeline", "div_mode", div_mode, muldiv_words),
  UINT("pipeline", "mul_latency", mul_latency, 0, PENALTY_MAX),
  UINT("pipeline", "div_latency", div_latency, 0, PENALTY_MAX),
  ENUM("pipeline", "branch_predict", predict, predict_words),
  UINT("pipeline", "branch_penalty", branch_penalty, 0, PENALTY_MAX),
  UINT("pipeline", "branch_taken_penalty", branch_taken_penalty, 0, PENALTY_MAX),
  UINT("pipeline", "jal_penalty", jal_penalty, 0, PENALTY_MAX),
  UINT("pipeline", "jalr_penalty", jalr_penalty, 0, PENALTY_MAX),
  UINT("pipeline", "load_use_penalty", load_use_penalty, 0, 255),   /* op_timing.load_use is 8 bits */
  UINT("pipeline", "mul_use_penalty", mul_use_penalty, 0, 255),
  UINT("pipeline", "shift_use_penalty", shift_use_penalty, 0, 255),
  UINT("pipeline", "csr_use_penalty", csr_use_penalty, 0, 255),
  UINT("pipeline", "div_use_penalty", div_use_penalty, 0, 255),
  UINT("pipeline", "sc_use_penalty", sc_use_penalty, 0, 255),
  UINT("pipeline", "amo_penalty", amo_penalty, 0, PENALTY_MAX),
  BOOL("pipeline", "fetch_ahead", fetch_ahead),
  UINT("pipeline", "fetch_ahead_insns", fetch_ahead_insns, 1, 2),
  BOOL("pipeline", "fetch_ahead_data", fetch_ahead_data),
  BOOL("pipeline", "wrong_path_use_redo", wrong_path_use_redo),
  BOOL("pipeline", "wrong_path_jalr_over", wrong_path_jalr_over),
  BOOL("pipeline", "wrong_path_jalr_pair", wrong_path_jalr_pair),
  BOOL("pipeline", "replay_shift_wait", replay_shift_wait),
  BOOL("pipeline", "wrong_path_dev_wait", wrong_path_dev_wait),
  BOOL("pipeline", "wrong_path_use_reach", wrong_path_use_reach),
  BOOL("pipeline", "predicted_use_reach", predicted_use_reach),
  BOOL("pipeline", "branch_fill_waited", branch_fill_waited),
  BOOL("pipeline", "csr_hold_reach", csr_hold_reach),
  BOOL("pipeline", "amo_hit_passes", amo_hit_passes),
  BOOL("pipeline", "amo_fill_first", amo_fill_first),
  BOOL("pipeline", "wrong_path_use_split", wrong_path_use_split),
  BOOL("pipeline", "fence_i_load_redo", fence_i_load_redo),
  UINT("pipeline", "wrong_path_read_late", wrong_path_read_late, 0, 3),
  BOOL("pipeline", "wrong_path_use_hold", wrong_path_use_hold),
  BOOL("pipeline", "redirect_passes_late", redirect_passes_late),
  BOOL("pipeline", "predicted_passes_late", predicted_passes_late),
  BOOL("pipeline", "wrong_path_fill", wrong_path_fill),
  UINT("pipeline", "wrong_path_words", wrong_path_words, 2, 3),
  UINT("pipeline", "wrong_path_tail", wrong_path_tail, 0, 255),
  BOOL("pipeline", "wrong_path_jump", wrong_path_jump),
  BOOL("pipeline", "wrong_path_jump_halts", wrong_path_jump_halts),
  BOOL("pipeline", "wrong_path_jalr_jump_halts", wrong_path_jalr_jump_halts),
  BOOL("pipeline", "wrong_path_jalr_jump_next", wrong_path_jalr_jump_next),
  BOOL("pipeline", "wrong_path_held_pairs", wrong_path_held_pairs),
  BOOL("pipeline", "taken_path_fill", taken_path_fill),
  BOOL("pipeline", "taken_path_held", taken_path_held),
  BOOL("pipeline", "predicted_target_fill", predicted_target_fill),
  BOOL("pipeline", "predicted_target_defer", predicted_target_defer),
  BOOL("pipeline", "predicted_target_next", predicted_target_next),
  ENUM("pipeline", "fence_i_late_flush", fence_i_late_flush, fence_i_flush_words),
  UINT("pipeline", "fence_i_redo", fence_i_redo, 0, PENALTY_MAX),
  UINT("pipeline", "fence_i_redo_reach", fence_i_redo_reach, 0, 4),
  BOOL("pipeline", "fence_i_redo_between", fence_i_redo_between),
  BOOL("pipeline", "fence_i_jalr_flush", fence_i_jalr_flush),
  UINT("pipeline", "fence_i_wrong_path_reach", fence_i_wrong_path_reach, 1, 2),
  BOOL("pipeline", "fence_i_overlap", fence_i_overlap),
  BOOL("pipeline", "fence_i_csr_overlap", fence_i_csr_overlap),
  BOOL("pipeline", "fence_i_use_overlap", fence_i_use_overlap),
  BOOL("pipeline", "fence_i_csr_refetch", fence_i_csr_refetch),
  BOOL("pipeline", "fence_i_csr_refetch_any", fence_i_csr_refetch_any),
  BOOL("pipeline", "fence_i_csr_refetch_next", fence_i_csr_refetch_next),
  BOOL("pipeline", "fence_i_csr_refetch_load", fence_i_csr_refetch_load),
  BOOL("pipeline", "fence_i_hold_overlap", fence_i_hold_overlap),
  BOOL("pipeline", "fence_i_merge", fence_i_merge),
  BOOL("pipeline", "fence_i_wbuf_overlap", fence_i_wbuf_overlap),
  BOOL("pipeline", "device_div_overlap", device_div_overlap),
  BOOL("pipeline", "wbuf_div_overlap", wbuf_div_overlap),
  BOOL("pipeline", "fence_i_jal_wait", fence_i_jal_wait),
  BOOL("pipeline", "fence_i_branch_halt", fence_i_branch_halt),
  BOOL("pipeline", "overwrite_keeps_wait", overwrite_keeps_wait),
  UINT("pipeline", "redirect_rvc_pair", redirect_rvc_pair, 0, 255),
  UINT("pipeline", "redirect_split_target", redirect_split_target, 0, 255),
  BOOL("pipeline", "csr_drain", csr_drain),
  BOOL("pipeline", "wrong_path_csr_miss", wrong_path_csr_miss),
  BOOL("pipeline", "refill_drains_csr", refill_drains_csr),
  BOOL("pipeline", "csr_drain_refill", csr_drain_refill),
  BOOL("pipeline", "refill_hides_next_use", refill_hides_next_use),
  UINT("pipeline", "held_refetch", held_refetch, 0, 255),
  UINT("pipeline", "csr_penalty", csr_penalty, 0, PENALTY_MAX),
  UINT("pipeline", "fence_i_penalty", fence_i_penalty, 0, PENALTY_MAX),
  UINT("pipeline", "trap_penalty", trap_penalty, 0, PENALTY_MAX),
  UINT("pipeline", "mret_penalty", mret_penalty, 0, PENALTY_MAX),
  UINT("pipeline", "split_fetch_penalty", split_fetch_penalty, 0, 255), /* within op_timing.fetch_stall */

  CACHE_KEYS("icache", icache),
  UINT("icache", "flush_cycles", icache.flush_cycles, 0, 100000),
  BOOL("icache", "fence_i_flush", icache.fence_i_flush),

  CACHE_KEYS("dcache", dcache),
  ENUM("dcache", "write_policy", dcache.write_policy, write_policy_words),
  UINT("dcache", "write_buffer", dcache.write_buffer, 0, 64),       /* TIMING_WBUF_MAX */
  BOOL("dcache", "write_buffer_late_ready", dcache.write_buffer_late_ready),
  UINT("dcache", "store_load_replay", dcache.store_load_replay, 0, 255),
  UINT("dcache", "replay_decode_wait", dcache.replay_decode_wait, 0, 255),
  BOOL("dcache", "replay_refill_line", dcache.replay_refill_line),
  BOOL("dcache", "refill_refetch", dcache.refill_refetch),
  BOOL("dcache", "refill_refetch_wrong_path", dcache.refill_refetch_wrong_path),
  BOOL("dcache", "refill_refetch_wait", dcache.refill_refetch_wait),
  BOOL("dcache", "refill_refetch_store", dcache.refill_refetch_store),
  BOOL("dcache", "refill_refetch_jump", dcache.refill_refetch_jump),
  BOOL("dcache", "refill_refetch_early_jump", dcache.refill_refetch_early_jump),
  BOOL("dcache", "redo_refill_wait", dcache.redo_refill_wait),
  BOOL("dcache", "seq_div", dcache.seq_div),
  BOOL("dcache", "seq_covered", dcache.seq_covered),
  BOOL("dcache", "seq_sc", dcache.seq_sc),
  BOOL("dcache", "seq_alu", dcache.seq_alu),
  BOOL("dcache", "next_fill", dcache.next_fill),
  BOOL("dcache", "redo_refill_words", dcache.redo_refill_words),
  BOOL("dcache", "redo_words_free", dcache.redo_words_free),
  BOOL("dcache", "redo_words_store", dcache.redo_words_store),
  BOOL("dcache", "next_fill_load", dcache.next_fill_load),
  BOOL("dcache", "two_refill_after", dcache.two_refill_after),

  ENUM("memory", "type", memory, memory_words),
  POW2("memory", "bus_bytes", bus_bytes, 1, 64),
  BOOL("memory", "fetch_port", fetch_port),
  BOOL("memory", "device_bus", device_bus),
  UINT("memory", "device_read_cycles", device_read_cycles, 0, 255),
  UINT("memory", "exit_ack_cycles", exit_ack_cycles, 0, 255),
  REAL("memory", "read_first_ns", read_first_ns, 0, NS_MAX),
  REAL("memory", "read_beat_ns", read_beat_ns, 0, NS_MAX),
  REAL("memory", "write_ns", write_ns, 0, NS_MAX),
  SIZE("memory", "sdram_row_bytes", sdram_row_bytes, 4, 1 * MIB),
  UINT("memory", "sdram_banks", sdram_banks, 1, 16),                 /* timing keeps 16 open rows */
  REAL("memory", "sdram_row_miss_ns", sdram_row_miss_ns, 0, NS_MAX),
  UINT("memory", "sram_base", sram_base, 0, UINT32_MAX),
  {"memory", "sram_size", T_SIZE, AT(sram_size), 0, 2048 * MIB, 0, NULL},  /* 0: no SRAM; checked below */
  UINT("memory", "wait_states", wait_states, 0, 3),                  /* micro_arch picorv32 only */

  POSITIVE("energy", "nominal_voltage", nominal_voltage, 10),
  REAL("energy", "core_pj_per_cycle", core_pj_per_cycle, 0, PJ_MAX),
  REAL("energy", "icache_pj_per_access", icache_pj_per_access, 0, PJ_MAX),
  REAL("energy", "dcache_pj_per_access", dcache_pj_per_access, 0, PJ_MAX),
  REAL("energy", "mem_pj_per_read_beat", mem_pj_per_read_beat, 0, PJ_MAX),
  REAL("energy", "mem_pj_per_write_beat", mem_pj_per_write_beat, 0, PJ_MAX),
  REAL("energy", "static_mw", static_mw, 0, PJ_MAX),

  UINT("dvfs", "pll_relock_cycles", pll_relock_cycles, 0, 100000000),
  POSITIVE("dvfs", "min_mhz", min_mhz, 100000),
  POSITIVE("dvfs", "max_mhz", max_mhz, 100000),
  POSITIVE("dvfs", "min_voltage", min_voltage, 10),
  POSITIVE("dvfs", "max_voltage", max_voltage, 10),
  TEXT("dvfs", "points", dvfs_points, 127),

  UINT("pmu", "counters", pmu_counters, 0, 29),                      /* mhpmcounter3..31 */
  ENUM("pmu", "absent", pmu_absent, absent_words),
};

#define N_KEYS (sizeof keys / sizeof keys[0])

static const char *const sections[] = {"core", "pipeline", "icache", "dcache", "memory", "energy", "dvfs", "pmu"};
#define N_SECTIONS (sizeof sections / sizeof sections[0])

static const key_def *find_key(const char *section, const char *key) {
  for (size_t i = 0; i < N_KEYS; i++)
    if (!strcmp(keys[i].section, section) && !strcmp(keys[i].key, key))
      return &keys[i];
  return NULL;
}

static bool known_section(const char *section) {
  for (size_t i = 0; i < N_SECTIONS; i++)
    if (!strcmp(sections[i], section))
      return true;
  return false;
}

static void *field(core_model *m, const key_def *k) { return (char *)m + k->offset; }
static const void *cfield(const core_model *m, const key_def *k) { return (const char *)m + k->offset; }

/* ------------------------------------------------------------ small text */

/* Appends to a fixed buffer, always NUL-terminated, silently truncating. */
typedef struct text {
  char *buf;
  size_t size, len;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...) {
  if (!t->size)
    return;
  if (t->len >= t->size)
    t->len = t->size - 1;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
  va_end(ap);
  if (n > 0)
    t->len += (size_t)n;
  if (t->len >= t->size)
    t->len = t->size - 1;
}

static void errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void errf(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || !errlen)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

static bool is_pow2(double v) {
  uint64_t x = (uint64_t)v;
  return v >= 1 && (double)x == v && !(x & (x - 1));
}

/* 4096 -> "4K", 65536 -> "64K", 1048576 -> "1M", 3000 -> "3000". */
static void format_size(char *out, size_t n, double v) {
  uint64_t x = (uint64_t)v;
  if (x && x % (1u << 30) == 0)
    snprintf(out, n, "%lluG", (unsigned long long)(x >> 30));
  else if (x && x % (1u << 20) == 0)
    snprintf(out, n, "%lluM", (unsigned long long)(x >> 20));
  else if (x && x % 1024 == 0)
    snprintf(out, n, "%lluK", (unsigned long long)(x >> 10));
  else
    snprintf(out, n, "%llu", (unsigned long long)x);
}

/* Plain text for v that reads back as exactly v: 15 digits cover every
 * value a person writes (0.1 stays "0.1"); 17 cover all the others. */
static void format_real(char *out, size_t n, double v) {
  snprintf(out, n, "%.15g", v);
  if (strtod(out, NULL) != v)
    snprintf(out, n, "%.17g", v);
}

static void format_number(char *out, size_t n, const key_def *k, double v) {
  if (k->type == T_SIZE)
    format_size(out, n, v);
  else if (k->type == T_REAL)
    format_real(out, n, v);
  else
    snprintf(out, n, "%.0f", v);
}

/* What a key accepts, for "(expected ...)" and "must be ...". */
static void describe_expected(const key_def *k, char *out, size_t n) {
  text t = {out, n, 0};
  char lo[32], hi[32];
  format_number(lo, sizeof lo, k, k->min);
  format_number(hi, sizeof hi, k, k->max);
  switch (k->type) {
  case T_TEXT:
    put(&t, "text of at most %.0f characters, without ';'", k->max);
    break;
  case T_BOOL:
    put(&t, "true, false, yes, no, 1 or 0");
    break;
  case T_ENUM:
    put(&t, "one of ");
    for (const enum_word *w = k->words; w->word; w++)
      put(&t, "%s%s", w == k->words ? "" : w[1].word ? ", " : " or ", w->word);
    break;
  case T_SIZE:
    put(&t, "a power of two from %s to %s (bytes; 4096, 4K and 4KiB are the same)", lo, hi);
    break;
  case T_UINT:
    put(&t, "%s from %s to %s", k->flags & F_POW2 ? "a power of two" : "an integer", lo, hi);
    break;
  case T_REAL:
    if (k->flags & F_ABOVE_MIN)
      put(&t, "a number greater than %s and at most %s", lo, hi);
    else
      put(&t, "a number from %s to %s", lo, hi);
    break;
  }
}

/* A failed value: what is wrong with it. */
typedef struct value_error {
  char wrong[160];
} value_error;

static int fail(value_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(value_error *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->wrong, sizeof e->wrong, fmt, ap);
  va_end(ap);
  return -1;
}

/* ---------------------------------------------------------- value parsing */

static int parse_unsigned(const char *s, bool sizes, double *out) {
  const char *p = s;
  if (!isdigit((unsigned char)*p))
    return -1;
  int base = (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) ? 16 : 10;
  if (base == 16 && !isxdigit((unsigned char)p[2]))
    return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(p, &end, base);
  if (errno == ERANGE)
    v = ULLONG_MAX;
  double scale = 1;
  if (sizes && *end) {
    while (*end == ' ' || *end == '\t')
      end++;
    static const struct { const char *suffix; double scale; } units[] = {
      {"K", KIB}, {"k", KIB}, {"KiB", KIB}, {"KB", KIB}, {"kB", KIB}, {"Ki", KIB},
      {"M", MIB}, {"MiB", MIB}, {"MB", MIB}, {"Mi", MIB},
      {"G", 1024 * MIB}, {"GiB", 1024 * MIB}, {"GB", 1024 * MIB}, {"Gi", 1024 * MIB},
    };
    size_t i;
    for (i = 0; i < sizeof units / sizeof units[0]; i++)
      if (!strcmp(end, units[i].suffix))
        break;
    if (i == sizeof units / sizeof units[0])
      return -1;
    scale = units[i].scale;
    end += strlen(end);
  }
  if (*end)
    return -1;
  *out = (double)v * scale;
  return 0;
}

static bool parse_bool(const char *s, bool *out) {
  static const char *const yes[] = {"true", "yes", "1", "on"}, *const no[] = {"false", "no", "0", "off"};
  for (size_t i = 0; i < 4; i++) {
    if (!strcasecmp(s, yes[i]))
      return *out = true, true;
    if (!strcasecmp(s, no[i]))
      return *out = false, true;
  }
  return false;
}

static int check_range(const key_def *k, double v, const char *shown, value_error *e) {
  bool low = (k->flags & F_ABOVE_MIN) ? !(v > k->min) : !(v >= k->min);
  if (low || !(v <= k->max))
    return fail(e, "%s is out of range", shown);
  if ((k->flags & F_POW2) && !is_pow2(v))
    return fail(e, "%s is not a power of two", shown);
  return 0;
}

/* Text fields: short enough, and nothing that would not read back. */
static int check_text(const key_def *k, const char *s, size_t len, value_error *e) {
  if (len > (size_t)k->max)
    return fail(e, "the text is too long (%zu characters)", len);
  if (strchr(s, ';'))
    return fail(e, "'%s' contains ';'", s);
  for (const char *p = s; *p; p++)
    if (iscntrl((unsigned char)*p))
      return fail(e, "the text contains a control character");
  if (!strcmp(k->key, "name") && !len)
    return fail(e, "the name is empty");
  return 0;
}

/* Parses `value` for key k into the model; on error fills e. */
static int apply_value(core_model *m, const key_def *k, const char *value, value_error *e) {
  void *f = field(m, k);
  double v;
  switch (k->type) {
  case T_TEXT: {
    size_t len = strlen(value);
    if (check_text(k, value, len, e) != 0)
      return -1;
    memset(f, 0, (size_t)k->max + 1);
    memcpy(f, value, len);
    return 0;
  }
  case T_BOOL: {
    bool b;
    if (!parse_bool(value, &b))
      return fail(e, "'%s' is not a boolean", value);
    *(bool *)f = b;
    return 0;
  }
  case T_ENUM:
    for (const enum_word *w = k->words; w->word; w++)
      if (!strcasecmp(value, w->word)) {
        *(int *)f = w->value;
        return 0;
      }
    return fail(e, "'%s' is not a valid choice", value);
  case T_UINT:
  case T_SIZE:
    if (parse_unsigned(value, k->type == T_SIZE, &v) != 0)
      return fail(e, "'%s' is not %s", value, k->type == T_SIZE ? "a size" : "an integer");
    if (check_range(k, v, value, e) != 0)
      return -1;
    *(uint32_t *)f = (uint32_t)v;
    return 0;
  case T_REAL: {
    char *end = (char *)value;
    errno = 0;
    v = *value ? strtod(value, &end) : 0;
    if (!*value || *end || !isfinite(v) || errno == ERANGE)
      return fail(e, "'%s' is not a number", value);
    if (check_range(k, v, value, e) != 0)
      return -1;
    *(double *)f = v;
    return 0;
  }
  }
  return fail(e, "unsupported key type");
}

/* The value of key k in m as INI text. */
static void format_value(const core_model *m, const key_def *k, char *out, size_t n) {
  const void *f = cfield(m, k);
  switch (k->type) {
  case T_TEXT:
    snprintf(out, n, "%s", (const char *)f);
    return;
  case T_BOOL:
    snprintf(out, n, "%s", *(const bool *)f ? "true" : "false");
    return;
  case T_ENUM:
    for (const enum_word *w = k->words; w->word; w++)
      if (w->value == *(const int *)f) {
        snprintf(out, n, "%s", w->word);
        return;
      }
    snprintf(out, n, "%d", *(const int *)f);
    return;
  case T_UINT:
  case T_SIZE:
    format_number(out, n, k, *(const uint32_t *)f);
    return;
  case T_REAL:
    format_real(out, n, *(const double *)f);
    return;
  }
}

static void list_keys(text *t, const char *section) {
  bool first = true;
  for (size_t i = 0; i < N_KEYS; i++)
    if (!strcmp(keys[i].section, section)) {
      put(t, "%s%s", first ? "" : ", ", keys[i].key);
      first = false;
    }
}

static void list_sections(text *t) {
  for (size_t i = 0; i < N_SECTIONS; i++)
    put(t, "%s%s", i == 0 ? "" : i + 1 < N_SECTIONS ? ", " : " or ", sections[i]);
}

/* ------------------------------------------------------------- file reader */

typedef struct parse_ctx {
  core_model *m;
  const char *path;
  FILE *f;
  char *line;                /* getline buffer */
  size_t line_cap;
  int lineno;                /* lines handed to inih so far = inih's line number */
  int err_line;              /* first error found by the reader or the handler, 0 = none */
  char err[512];
  int set_on[N_KEYS];        /* line where each key was set, 0 = not yet */
  bool is_model;             /* a known [section] line was read: the file's text may be quoted */
  int model_line;            /* the line of the first one */
} parse_ctx;

/* Is s (a line without its leading blanks) a known [section] header? */
static bool known_header(const char *s) {
  char name[32];
  size_t n = strcspn(s + 1, "]");
  if (s[0] != '[' || s[1 + n] != ']' || n == 0 || n >= sizeof name)
    return false;
  memcpy(name, s + 1, n);
  name[n] = '\0';
  return known_section(name);
}

/* The error for a line before any known [section]: the file is not (yet)
 * a core model, so nothing of it is quoted (a path such as
 * /proc/self/environ must not turn tally into a way to print a file). */
static void not_model_error(parse_ctx *c, char *expect, size_t size);

static void ctx_error(parse_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ctx_error(parse_ctx *c, const char *fmt, ...) {
  if (c->err_line)
    return;
  c->err_line = c->lineno;
  int n = snprintf(c->err, sizeof c->err, "%s:%d: ", c->path, c->lineno);
  va_list ap;
  va_start(ap, fmt);
  if (n > 0 && (size_t)n < sizeof c->err)
    vsnprintf(c->err + n, sizeof c->err - (size_t)n, fmt, ap);
  va_end(ap);
}

/* inih's reader: one whole line per call, without its leading blanks (so an
 * indented key is never taken for a continuation of the previous value) and
 * never split, however long. */
static char *read_line(char *str, int num, void *stream) {
  parse_ctx *c = stream;
  char msg[128], *s;
  ssize_t len = textio_next_line(&c->line, &c->line_cap, c->f, CORE_MODEL_MAX_LINE, "core model", &s, msg, sizeof msg);
  if (len < 0) {
    if (len != TEXTIO_EOF) {
      c->lineno++;
      ctx_error(c, "%s", msg);
    }
    return NULL;
  }
  c->lineno++;
  if (num <= 1)
    return NULL;
  if (!textio_fit_line(str, (size_t)num, s, (size_t)len))
    ctx_error(c, "line too long (%zd characters; at most %d)", len, num - 1);
  if (!c->is_model && known_header(str)) {
    c->is_model = true;
    c->model_line = c->lineno;
  }
  return str;
}

static void not_model_error(parse_ctx *c, char *expect, size_t size) {
  text t = {expect, size, 0};
  list_sections(&t);
  ctx_error(c, "not a core model file (its first lines must be a [section] line, one of %s, then key = value "
               "lines; nothing of the file is shown)", expect);
}

static int on_key(void *user, const char *section, const char *name, const char *value) {
  parse_ctx *c = user;
  char expect[400];
  if (!c->is_model) {
    not_model_error(c, expect, sizeof expect);
    return 0;
  }
  if (!*section) {
    text t = {expect, sizeof expect, 0};
    list_sections(&t);
    ctx_error(c, "%s: key outside any section (expected a [section] line first: %s)", name, expect);
    return 0;
  }
  if (!known_section(section)) {
    text t = {expect, sizeof expect, 0};
    list_sections(&t);
    ctx_error(c, "[%s] %s: unknown section (expected %s)", section, name, expect);
    return 0;
  }
  const key_def *k = find_key(section, name);
  if (!k) {
    text t = {expect, sizeof expect, 0};
    list_keys(&t, section);
    ctx_error(c, "[%s] %s: unknown key (expected one of: %s)", section, name, expect);
    return 0;
  }
  size_t idx = (size_t)(k - keys);
  if (c->set_on[idx]) {
    ctx_error(c, "[%s] %s: set twice (first on line %d)", section, name, c->set_on[idx]);
    return 0;
  }
  c->set_on[idx] = c->lineno;
  value_error e;
  if (apply_value(c->m, k, value, &e) != 0) {
    describe_expected(k, expect, sizeof expect);
    ctx_error(c, "[%s] %s: %s (expected %s)", section, name, e.wrong, expect);
    return 0;
  }
  return 1;
}

/* The text of line n of f, for syntax errors inih finds on its own. */
static void quote_line(FILE *f, int n, char *out, size_t size) {
  out[0] = '\0';
  if (fseek(f, 0, SEEK_SET) != 0)
    return;
  char *line = NULL;
  size_t cap = 0;
  for (int i = 1; getline(&line, &cap, f) >= 0; i++)
    if (i == n) {
      size_t len = strcspn(line, "\r\n");
      line[len] = '\0';
      bool text = true;   /* control characters (a NUL, an escape): not shown */
      for (size_t j = 0; j < len && j < 60; j++)
        if ((unsigned char)line[j] < 0x20 && line[j] != '\t')
          text = false;
      if (text)
        snprintf(out, size, "'%.60s%s'", line, len > 60 ? "..." : "");
      else
        snprintf(out, size, "a line that is not text");
      break;
    }
  free(line);
}

static int parse_file(core_model *m, const char *path, char *err, size_t errlen) {
  parse_ctx *c = calloc(1, sizeof *c);
  if (!c) {
    errf(err, errlen, "%s: out of memory", path);
    return -1;
  }
  c->m = m;
  c->path = path;
  c->f = textio_open(path, CORE_MODEL_MAX_BYTES, "a core model file", err, errlen);
  if (!c->f) {
    free(c);
    return -1;
  }
  int rc = ini_parse_stream(read_line, c, on_key, c);
  int status = 0;
  if (c->err_line && (rc <= 0 || rc >= c->err_line)) {
    errf(err, errlen, "%s", c->err);
    status = -1;
  } else if (rc > 0 && (!c->is_model || rc < c->model_line)) {
    char expect[400];
    c->lineno = rc;
    c->err_line = 0;   /* this error comes first */
    not_model_error(c, expect, sizeof expect);
    errf(err, errlen, "%s", c->err);
    status = -1;
  } else if (rc > 0) {
    char shown[80];
    quote_line(c->f, rc, shown, sizeof shown);
    errf(err, errlen, "%s:%d: cannot read %s (expected [section], key = value, or a ; comment)", path, rc,
         shown);
    status = -1;
  } else if (rc < 0) {
    errf(err, errlen, "%s: cannot read the file (out of memory)", path);
    status = -1;
  } else if (ferror(c->f)) {
    errf(err, errlen, "%s: read error", path);
    status = -1;
  }
  fclose(c->f);
  free(c->line);
  free(c);
  return status;
}

/* --------------------------------------------------------------- loading */

size_t core_model_list(const char *dirs, char names[][64], size_t max) { return search_path_list(dirs, names, max); }

/* Finds NAME.ini in dirs; -1 with the list of available names if absent. */
static int find_model(const char *name, const char *dirs, char *path, size_t pathlen, char *err, size_t errlen) {
  if (search_path_find(name, dirs, path, pathlen) == 0)
    return 0;
  char names[128][64];
  size_t n = core_model_list(dirs, names, 128);
  text t = {err, errlen, 0};
  put(&t, "unknown core model '%s' (", name);
  if (!n) {
    put(&t, "no core models found in '%s'", dirs ? dirs : "");
  } else {
    put(&t, "available: ");
    for (size_t i = 0; i < n; i++)
      put(&t, "%s%s", i ? ", " : "", names[i]);
  }
  put(&t, "; or give a path to an .ini file)");
  return -1;
}

int core_model_load(core_model *m, const char *name, const char *dirs, char *err, size_t errlen) {
  if (!name || !*name) {
    errf(err, errlen, "no core model named (expected a model name or a path to an .ini file)");
    return -1;
  }
  char path[sizeof m->path];
  if (strchr(name, '/') || search_path_ends_with(name, ".ini")) {
    if (strlen(name) >= sizeof path) {
      errf(err, errlen, "%.60s...: path too long (at most %zu characters)", name, sizeof path - 1);
      return -1;
    }
    snprintf(path, sizeof path, "%s", name);
  } else if (find_model(name, dirs, path, sizeof path, err, errlen) != 0) {
    return -1;
  }

  core_model *tmp = malloc(sizeof *tmp);
  if (!tmp) {
    errf(err, errlen, "%s: out of memory", path);
    return -1;
  }
  core_model_default(tmp);
  /* A file describes its own machine: unless it says otherwise, it is named
   * after the file and has no description. */
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  size_t stem = search_path_ends_with(base, ".ini") ? strlen(base) - 4 : strlen(base);
  if (stem >= sizeof tmp->name)
    stem = sizeof tmp->name - 1;
  memset(tmp->name, 0, sizeof tmp->name);
  memcpy(tmp->name, base, stem);
  memset(tmp->description, 0, sizeof tmp->description);
  snprintf(tmp->path, sizeof tmp->path, "%s", path);

  int rc = parse_file(tmp, path, err, errlen);
  if (rc == 0)
    *m = *tmp;
  free(tmp);
  return rc;
}

/* --------------------------------------------------------------- --set */

static void trim(char *s) {
  char *p = s;
  while (*p == ' ' || *p == '\t')
    p++;
  size_t n = strlen(p);
  while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
    n--;
  memmove(s, p, n);
  s[n] = '\0';
}

int core_model_set(core_model *m, const char *assignment, char *err, size_t errlen) {
  char buf[512];
  if (!assignment || strlen(assignment) >= sizeof buf) {
    errf(err, errlen, "--set: assignment missing or too long");
    return -1;
  }
  snprintf(buf, sizeof buf, "%s", assignment);
  char *eq = strchr(buf, '=');
  char *dot = eq ? memchr(buf, '.', (size_t)(eq - buf)) : NULL;
  if (!eq || !dot) {
    errf(err, errlen, "--set %s: expected section.key=value (e.g. icache.size=8K)", assignment);
    return -1;
  }
  *eq = '\0';
  *dot = '\0';
  char *section = buf, *key = dot + 1, *value = eq + 1;
  trim(section);
  trim(key);
  trim(value);
  char expect[400];
  text t = {expect, sizeof expect, 0};
  if (!known_section(section)) {
    list_sections(&t);
    errf(err, errlen, "--set %s: unknown section '%s' (expected %s)", assignment, section, expect);
    return -1;
  }
  const key_def *k = find_key(section, key);
  if (!k) {
    list_keys(&t, section);
    errf(err, errlen, "--set %s: unknown key %s.%s (expected one of: %s)", assignment, section, key, expect);
    return -1;
  }
  core_model tmp = *m;
  value_error e;
  if (apply_value(&tmp, k, value, &e) != 0) {
    describe_expected(k, expect, sizeof expect);
    errf(err, errlen, "--set %s: %s must be %s, not '%s'", assignment, k->key, expect, value);
    return -1;
  }
  *m = tmp;
  return 0;
}

/* ------------------------------------------------------------ validation */

static int check_field(const core_model *m, const key_def *k, value_error *e) {
  const void *f = cfield(m, k);
  char shown[64];
  switch (k->type) {
  case T_TEXT: {
    /* the field may lack its NUL: look at the key's length + 1 at most */
    char s[256];
    size_t len = strnlen(f, (size_t)k->max + 1);
    memcpy(s, f, len);
    s[len] = '\0';
    return check_text(k, s, len, e);
  }
  case T_BOOL:
    return 0;
  case T_ENUM:
    for (const enum_word *w = k->words; w->word; w++)
      if (w->value == *(const int *)f)
        return 0;
    return fail(e, "%d is not a valid choice", *(const int *)f);
  case T_UINT:
  case T_SIZE:
    format_value(m, k, shown, sizeof shown);
    return check_range(k, *(const uint32_t *)f, shown, e);
  case T_REAL:
    format_value(m, k, shown, sizeof shown);
    return check_range(k, *(const double *)f, shown, e);
  }
  return 0;
}

static int check_cache(const core_model *m, const char *section, const cache_params *c, char *err,
                       size_t errlen) {
  if (!c->enabled)
    return 0;
  uint64_t need = (uint64_t)c->ways * c->line;
  if (need > c->size) {
    char size[32], needs[32];
    format_size(size, sizeof size, c->size);
    format_size(needs, sizeof needs, (double)need);
    errf(err, errlen,
         "core model %s: [%s] size: %s is smaller than ways x line = %u x %u = %s (expected size >= ways x line)",
         m->name, section, size, c->ways, c->line, needs);
    return -1;
  }
  return 0;
}

/* [dvfs] points: "MHZ:V" pairs separated by commas or spaces, each inside
 * the PLL's and the regulator's range (tally dvfs switches among them). */
static int check_points(const core_model *m, char *err, size_t errlen) {
  const char *s = m->dvfs_points;
  int n = 0;
  for (;;) {
    while (*s == ',' || *s == ' ' || *s == '\t')
      s++;
    if (!*s)
      return 0;
    char *end;
    double mhz = strtod(s, &end), v = 0;
    bool ok = end != s && *end == ':';
    if (ok) {
      const char *vs = end + 1;
      v = strtod(vs, &end);
      ok = end != vs && (*end == '\0' || *end == ',' || *end == ' ' || *end == '\t');
    }
    if (!ok || ++n > 8) {
      errf(err, errlen, "core model %s: [dvfs] points: '%s': %s", m->name, m->dvfs_points,
           ok ? "more than 8 points" : "expected MHZ:VOLTS pairs separated by commas, e.g. 500:1.2, 250:1.0");
      return -1;
    }
    if (!(mhz >= m->min_mhz && mhz <= m->max_mhz && v >= m->min_voltage && v <= m->max_voltage)) {
      errf(err, errlen, "core model %s: [dvfs] points: %g:%g is outside the range %g-%g MHz, %g-%g V", m->name,
           mhz, v, m->min_mhz, m->max_mhz, m->min_voltage, m->max_voltage);
      return -1;
    }
    s = end;
  }
}

int core_model_validate(const core_model *m, char *err, size_t errlen) {
  for (size_t i = 0; i < N_KEYS; i++) {
    const key_def *k = &keys[i];
    value_error e;
    if (check_field(m, k, &e) != 0) {
      char expect[400];
      describe_expected(k, expect, sizeof expect);
      errf(err, errlen, "core model %s: [%s] %s: %s (expected %s)", m->name, k->section, k->key, e.wrong,
           expect);
      return -1;
    }
  }
  if (check_cache(m, "icache", &m->icache, err, errlen) != 0 ||
      check_cache(m, "dcache", &m->dcache, err, errlen) != 0)
    return -1;
  if (!(m->min_mhz <= m->frequency_mhz && m->frequency_mhz <= m->max_mhz) ||
      !(m->min_voltage <= m->voltage && m->voltage <= m->max_voltage)) {
    errf(err, errlen,
         "core model %s: [core] frequency_mhz = %g, voltage = %g: outside the [dvfs] range %g-%g MHz, %g-%g V "
         "(expected the starting point inside the range)",
         m->name, m->frequency_mhz, m->voltage, m->min_mhz, m->max_mhz, m->min_voltage, m->max_voltage);
    return -1;
  }
  if (m->sram_size && (m->sram_base % 4096 || m->sram_size % 4096 || m->sram_size > 0u - m->sram_base)) {
    /* whole pages: a cache line is either all SRAM or not at all */
    errf(err, errlen,
         "core model %s: [memory] sram_base = 0x%08x, sram_size = %u: expected multiples of 4 KiB with the "
         "range below 4 GiB",
         m->name, m->sram_base, m->sram_size);
    return -1;
  }
  if (m->pmp_entries != 0 && m->pmp_entries != 16) {
    errf(err, errlen, "core model %s: [core] pmp_entries = %u: expected 0 or 16", m->name, m->pmp_entries);
    return -1;
  }
  if (check_points(m, err, errlen) != 0)
    return -1;
  if (m->micro_arch != MICRO_PICORV32 && m->wait_states) {
    errf(err, errlen,
         "core model %s: [memory] wait_states = %u: only micro_arch = picorv32 uses it (expected 0, or the "
         "latencies in read_first_ns, read_beat_ns, write_ns)",
         m->name, m->wait_states);
    return -1;
  }
  if (m->micro_arch == MICRO_PICORV32 && (m->icache.enabled || m->dcache.enabled)) {
    errf(err, errlen,
         "core model %s: [core] micro_arch = picorv32: [icache] and [dcache] enabled (expected false: "
         "PicoRV32 has no caches)",
         m->name);
    return -1;
  }
  if (m->micro_arch == MICRO_VEXMIN && (m->icache.enabled || m->dcache.enabled)) {
    errf(err, errlen,
         "core model %s: [core] micro_arch = vexriscv-min: [icache] and [dcache] enabled (expected false: "
         "VexRiscv_Min has no caches)",
         m->name);
    return -1;
  }
  if (m->memory == MEMORY_SDRAM && m->sdram_row_bytes < m->bus_bytes) {
    errf(err, errlen,
         "core model %s: [memory] sdram_row_bytes: %u is smaller than bus_bytes = %u (expected a row of at "
         "least one beat)",
         m->name, m->sdram_row_bytes, m->bus_bytes);
    return -1;
  }
  return 0;
}

/* ---------------------------------------------------------------- writing */

void core_model_write(const core_model *m, char *buf, size_t size) {
  text t = {buf, size, 0};
  if (size)
    buf[0] = '\0';
  put(&t, "; tally core model '%s'", m->name);
  if (m->path[0])
    put(&t, ", read from %s", m->path);
  put(&t, "\n; every key is listed; load this file with --core FILE (see docs/core-models.md)\n");
  const char *section = NULL;
  for (size_t i = 0; i < N_KEYS; i++) {
    const key_def *k = &keys[i];
    if (!section || strcmp(section, k->section)) {
      section = k->section;
      put(&t, "\n[%s]\n", section);
    }
    char value[256];
    format_value(m, k, value, sizeof value);
    put(&t, "%s = %s\n", k->key, value);
  }
}
