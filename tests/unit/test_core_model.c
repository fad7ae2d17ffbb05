/*
 * unit.core_model: the shipped core models, the INI reader's errors (with
 * their line numbers), --set overrides, whole-model checks and the
 * write -> load round trip.
 *
 * Usage: test_core_model [CORES_DIR]   (default: TALLY_CORES_DIR)
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "timing/core_model.h"

#ifndef TALLY_CORES_DIR
#define TALLY_CORES_DIR "cores"
#endif

static int passed, failed;
static const char *cores_dir = TALLY_CORES_DIR;
static char tmpdir[256];

#define CHECK(cond, ...)                                                \
  do {                                                                  \
    if (cond) {                                                         \
      passed++;                                                         \
    } else {                                                            \
      failed++;                                                         \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);   \
      fprintf(stderr, __VA_ARGS__);                                     \
      fputc('\n', stderr);                                              \
    }                                                                   \
  } while (0)

/* ------------------------------------------------------------- helpers */

/* Every field of core_model but `path`, named once; the comparisons and the
 * "every key reaches a field" test walk this list. */
#define TEXT_FIELDS(X) X(name) X(description) X(dvfs_points)
#define REAL_FIELDS(X)                                                                             \
  X(frequency_mhz) X(voltage) X(read_first_ns) X(read_beat_ns) X(write_ns) X(sdram_row_miss_ns)   \
  X(nominal_voltage) X(core_pj_per_cycle) X(icache_pj_per_access) X(dcache_pj_per_access)          \
  X(mem_pj_per_read_beat) X(mem_pj_per_write_beat) X(static_mw) X(min_mhz) X(max_mhz)                \
  X(min_voltage) X(max_voltage)
#define INT_FIELDS(X)                                                                               \
  X(cpi_alu) X(cpi_alu_reg) X(cpi_shift) X(cpi_load) X(cpi_store) X(cpi_branch) X(cpi_jal)          \
  X(cpi_jalr) X(cpi_mul) X(cpi_mulh) X(cpi_div) X(cpi_csr) X(cpi_system) X(cpi_amo) X(shift)        \
  X(mul_mode) X(div_mode) X(mul_latency) X(div_latency) X(predict) X(branch_penalty)                \
  X(branch_taken_penalty) X(jal_penalty) X(jalr_penalty) X(load_use_penalty) X(mul_use_penalty)     \
  X(shift_use_penalty) X(csr_use_penalty) X(div_use_penalty) X(sc_use_penalty) X(amo_penalty) X(fetch_ahead) X(fetch_ahead_insns) X(fetch_ahead_data) X(wrong_path_use_redo) X(wrong_path_jalr_over) X(wrong_path_read_late) X(wrong_path_use_hold) X(redirect_passes_late) X(predicted_passes_late) X(wrong_path_fill) X(wrong_path_words) X(wrong_path_tail) X(wrong_path_jump) X(wrong_path_jump_halts) X(wrong_path_jalr_jump_halts) X(wrong_path_jalr_jump_next) X(wrong_path_held_pairs) X(taken_path_fill) X(taken_path_held) X(predicted_target_fill) X(predicted_target_defer) X(predicted_target_next) X(fence_i_late_flush) X(fence_i_redo) X(fence_i_redo_reach) X(fence_i_redo_between) X(fence_i_jalr_flush) X(fence_i_wrong_path_reach) X(fence_i_overlap) X(fence_i_csr_overlap) X(fence_i_csr_refetch) X(fence_i_hold_overlap) X(fence_i_merge) X(fence_i_wbuf_overlap) X(device_div_overlap) X(wbuf_div_overlap) X(fence_i_jal_wait) X(fence_i_branch_halt) X(overwrite_keeps_wait) X(redirect_rvc_pair) X(redirect_split_target) X(csr_drain) X(refill_drains_csr) X(csr_drain_refill) X(wrong_path_csr_miss) X(held_refetch) X(refill_hides_next_use) X(csr_penalty) X(wrong_path_dev_wait) X(wrong_path_use_reach) X(predicted_use_reach) X(csr_hold_reach) X(branch_fill_waited) X(wrong_path_jalr_pair) X(fence_i_load_redo) X(amo_hit_passes) X(amo_fill_first) X(replay_shift_wait) X(wrong_path_use_split) X(fence_i_use_overlap) X(fence_i_csr_refetch_any) X(fence_i_csr_refetch_next) X(fence_i_csr_refetch_load)                                                          \
  X(fence_i_penalty) X(trap_penalty) X(mret_penalty) X(split_fetch_penalty) X(memory) X(bus_bytes) X(fetch_port) X(device_bus) X(device_read_cycles) X(exit_ack_cycles) X(sdram_row_bytes)      \
  X(sdram_banks) X(sram_base) X(sram_size) X(wait_states) X(micro_arch) X(isa) X(pll_relock_cycles) X(pmu_counters) X(pmu_absent)        \
  X(triggers) X(pmp_entries) X(pmp_granularity) X(pmp_absent)                                     \
  X(icache.enabled) X(icache.size) X(icache.ways) X(icache.line) X(icache.replacement)              \
  X(icache.seed) X(icache.write_policy) X(icache.write_buffer) X(icache.refill_cycles) X(icache.flush_cycles) X(icache.fence_i_flush)                                      \
  X(dcache.store_load_replay) X(dcache.replay_decode_wait) X(dcache.replay_refill_line) X(dcache.refill_refetch) X(dcache.refill_refetch_wrong_path) X(dcache.refill_refetch_wait) X(dcache.refill_refetch_store) X(dcache.refill_refetch_jump) X(dcache.refill_refetch_early_jump) X(dcache.redo_refill_wait) X(dcache.next_fill) X(dcache.redo_refill_words) X(dcache.redo_words_free) X(dcache.redo_words_store) X(dcache.next_fill_load) X(dcache.two_refill_after) X(dcache.seq_div) X(dcache.seq_covered) X(dcache.seq_sc) X(dcache.seq_alu) X(dcache.enabled) X(dcache.size) X(dcache.ways) X(dcache.line) X(dcache.replacement)              \
  X(dcache.seed) X(dcache.write_policy) X(dcache.write_buffer) X(dcache.write_buffer_late_ready) X(dcache.refill_cycles)

/* Name of the first field where a and b differ (path ignored), or NULL. */
static const char *first_difference(const core_model *a, const core_model *b) {
#define CMP_TEXT(f) if (strcmp(a->f, b->f)) return #f;
#define CMP_VAL(f) if (a->f != b->f) return #f;
  TEXT_FIELDS(CMP_TEXT)
  REAL_FIELDS(CMP_VAL)
  INT_FIELDS(CMP_VAL)
#undef CMP_TEXT
#undef CMP_VAL
  return NULL;
}

static int count_differences(const core_model *a, const core_model *b) {
  int n = 0;
#define CNT_TEXT(f) n += strcmp(a->f, b->f) != 0;
#define CNT_VAL(f) n += a->f != b->f;
  TEXT_FIELDS(CNT_TEXT)
  REAL_FIELDS(CNT_VAL)
  INT_FIELDS(CNT_VAL)
#undef CNT_TEXT
#undef CNT_VAL
  return n;
}

static const char *tmp_path(const char *name) {
  static char buf[4][512];
  static int next;
  char *p = buf[next++ % 4];
  snprintf(p, sizeof buf[0], "%s/%s", tmpdir, name);
  return p;
}

static const char *write_file(const char *name, const char *content) {
  const char *path = tmp_path(name);
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(2);
  }
  fputs(content, f);
  fclose(f);
  return path;
}

/* Loads `content` as a file; returns the load status and leaves the message in err. */
static int load_text(core_model *m, const char *content, char *err, size_t errlen) {
  const char *path = write_file("case.ini", content);
  core_model_default(m);
  return core_model_load(m, path, NULL, err, errlen);
}

/* The file "case.ini" must fail with exactly "PATH:" + expected. */
static void expect_file_error(const char *content, const char *expected, int line) {
  core_model m;
  char err[1024] = "", want[1024];
  int rc = load_text(&m, content, err, sizeof err);
  snprintf(want, sizeof want, "%s:%s", tmp_path("case.ini"), expected);
  if (rc == 0 || strcmp(err, want)) {
    failed++;
    fprintf(stderr, "FAIL %s:%d: load gave rc=%d\n  got:  %s\n  want: %s\n", __FILE__, line, rc, err, want);
  } else {
    passed++;
  }
}
#define EXPECT_FILE_ERROR(content, expected) expect_file_error(content, expected, __LINE__)

/* --set must fail with a message containing `part`, and leave the model alone. */
static void expect_set_error(const char *assignment, const char *part, int line) {
  core_model m, before;
  char err[1024] = "";
  core_model_default(&m);
  before = m;
  int rc = core_model_set(&m, assignment, err, sizeof err);
  if (rc == 0 || !strstr(err, part) || first_difference(&m, &before)) {
    failed++;
    fprintf(stderr, "FAIL %s:%d: --set %s gave rc=%d\n  got:  %s\n  want: ...%s...\n", __FILE__, line, assignment,
            rc, err, part);
  } else {
    passed++;
  }
}
#define EXPECT_SET_ERROR(assignment, part) expect_set_error(assignment, part, __LINE__)

static int load_model(core_model *m, const char *name, char *err, size_t errlen) {
  core_model_default(m);
  return core_model_load(m, name, cores_dir, err, errlen);
}

/* ---------------------------------------------------------------- tests */

static void test_default(void) {
  core_model m;
  char err[512] = "";
  core_model_default(&m);
  CHECK(core_model_validate(&m, err, sizeof err) == 0, "%s", err);
  CHECK(!strcmp(m.name, "tally5"), "%s", m.name);
  CHECK(m.path[0] == '\0', "%s", m.path);
  CHECK(m.frequency_mhz == 100 && m.voltage == 1.2, "%g MHz %g V", m.frequency_mhz, m.voltage);
  CHECK(m.cpi_alu == 1 && m.cpi_load == 1 && m.cpi_div == 1 && m.cpi_mul == 1, "cpi");
  CHECK(m.div_latency == 32 && m.div_mode == MULDIV_FIXED && m.mul_latency == 2, "muldiv");
  CHECK(m.predict == PREDICT_BACKWARD_TAKEN && m.branch_penalty == 2 && m.branch_taken_penalty == 1, "branch");
  CHECK(m.jal_penalty == 1 && m.jalr_penalty == 2 && m.load_use_penalty == 1 && m.csr_penalty == 2 &&
            m.fence_i_penalty == 4 && m.trap_penalty == 3 && m.mret_penalty == 3,
        "penalties");
  CHECK(m.shift == SHIFT_BARREL, "shift");
  CHECK(m.icache.enabled && m.icache.size == 4096 && m.icache.ways == 2 && m.icache.line == 32 &&
            m.icache.replacement == REPL_LRU,
        "icache");
  CHECK(m.dcache.enabled && m.dcache.size == 4096 && m.dcache.ways == 2 && m.dcache.line == 32 &&
            m.dcache.replacement == REPL_LRU && m.dcache.write_policy == WRITE_BACK && m.dcache.write_buffer == 4,
        "dcache");
  CHECK(m.memory == MEMORY_SDRAM && m.bus_bytes == 4 && m.read_first_ns == 60 && m.read_beat_ns == 10 &&
            m.write_ns == 10 && m.sdram_row_bytes == 2048 && m.sdram_banks == 4 && m.sdram_row_miss_ns == 30,
        "memory");
  CHECK(m.nominal_voltage == 1.2 && m.core_pj_per_cycle == 50 && m.icache_pj_per_access == 8 &&
            m.dcache_pj_per_access == 10 && m.mem_pj_per_read_beat == 120 && m.mem_pj_per_write_beat == 140 &&
            m.static_mw == 5,
        "energy");
  CHECK(m.pll_relock_cycles == 1000, "dvfs");
  CHECK(m.pmu_counters == 29 && m.pmu_absent == PMU_ABSENT_ZERO, "pmu");
  CHECK(m.triggers == 4 && m.pmp_entries == 16 && m.pmp_granularity == 4 && m.pmp_absent == PMU_ABSENT_ZERO,
        "triggers %u, pmp %u/%u", m.triggers, m.pmp_entries, m.pmp_granularity);
}

static void test_shipped(void) {
  static const char *const shipped[] = {"tally5", "tally5-wt", "sram", "picorv32"};
  char err[1024];
  for (size_t i = 0; i < sizeof shipped / sizeof shipped[0]; i++) {
    core_model m;
    err[0] = '\0';
    int rc = load_model(&m, shipped[i], err, sizeof err);
    CHECK(rc == 0, "%s: %s", shipped[i], err);
    CHECK(core_model_validate(&m, err, sizeof err) == 0, "%s: %s", shipped[i], err);
    CHECK(!strcmp(m.name, shipped[i]), "name %s for %s", m.name, shipped[i]);
    CHECK(m.description[0] != '\0', "%s has no description", shipped[i]);
    CHECK(strstr(m.path, shipped[i]) != NULL, "path %s", m.path);

    /* the same file by path */
    char path[1024];
    core_model byp;
    snprintf(path, sizeof path, "%s/%s.ini", cores_dir, shipped[i]);
    core_model_default(&byp);
    CHECK(core_model_load(&byp, path, NULL, err, sizeof err) == 0, "%s", err);
    CHECK(first_difference(&m, &byp) == NULL, "%s by path differs in %s", shipped[i], first_difference(&m, &byp));
  }
}

static void test_tally5_is_default(void) {
  core_model def, m;
  char err[512] = "";
  core_model_default(&def);
  CHECK(load_model(&m, "tally5", err, sizeof err) == 0, "%s", err);
  const char *d = first_difference(&def, &m);
  CHECK(d == NULL, "tally5.ini differs from core_model_default in %s", d);
  /* and their INI text (everything but the header comment) is identical */
  static char a[8192], b[8192];
  core_model_write(&def, a, sizeof a);
  core_model_write(&m, b, sizeof b);
  const char *sa = strstr(a, "\n["), *sb = strstr(b, "\n[");
  CHECK(sa && sb && !strcmp(sa, sb), "written forms differ");
}

static void test_variants(void) {
  core_model def, wt, sram;
  char err[512] = "";
  core_model_default(&def);
  CHECK(load_model(&wt, "tally5-wt", err, sizeof err) == 0, "%s", err);
  CHECK(wt.dcache.write_policy == WRITE_THROUGH && wt.dcache.write_buffer == 4, "tally5-wt dcache");
  /* everything else as tally5 */
  core_model x = wt;
  snprintf(x.name, sizeof x.name, "%s", def.name);
  snprintf(x.description, sizeof x.description, "%s", def.description);
  x.dcache.write_policy = WRITE_BACK;
  CHECK(first_difference(&def, &x) == NULL, "tally5-wt also differs in %s", first_difference(&def, &x));

  CHECK(load_model(&sram, "sram", err, sizeof err) == 0, "%s", err);
  CHECK(!sram.icache.enabled && !sram.dcache.enabled, "sram has caches");
  CHECK(sram.memory == MEMORY_SRAM && sram.read_first_ns == 0 && sram.read_beat_ns == 0 && sram.write_ns == 0,
        "sram memory");
#define SAME_PIPE(f) CHECK(sram.f == def.f, "sram " #f " differs from tally5");
  SAME_PIPE(cpi_alu) SAME_PIPE(cpi_load) SAME_PIPE(cpi_store) SAME_PIPE(cpi_branch) SAME_PIPE(cpi_div)
  SAME_PIPE(mul_latency) SAME_PIPE(div_latency) SAME_PIPE(predict) SAME_PIPE(branch_penalty)
  SAME_PIPE(branch_taken_penalty) SAME_PIPE(jal_penalty) SAME_PIPE(jalr_penalty) SAME_PIPE(load_use_penalty)
  SAME_PIPE(frequency_mhz) SAME_PIPE(shift)
#undef SAME_PIPE
}

/* The CPI table of PicoRV32's README (ENABLE_REGS_DUALPORT, single-cycle memory). */
static void test_picorv32(void) {
  core_model p;
  char err[512] = "";
  CHECK(load_model(&p, "picorv32", err, sizeof err) == 0, "%s", err);
  CHECK(p.cpi_jal + p.jal_penalty == 3, "jal %u+%u", p.cpi_jal, p.jal_penalty);
  CHECK(p.cpi_alu == 3, "ALU reg+imm %u", p.cpi_alu);
  CHECK(p.cpi_alu_reg == 3, "ALU reg+reg %u", p.cpi_alu_reg);
  CHECK(p.predict == PREDICT_NOT_TAKEN && p.cpi_branch == 3, "branch not taken %u", p.cpi_branch);
  CHECK(p.cpi_branch + p.branch_penalty == 5 && p.branch_taken_penalty == 0, "branch taken %u+%u", p.cpi_branch,
        p.branch_penalty);
  CHECK(p.cpi_load == 5 && p.cpi_store == 5, "load %u store %u", p.cpi_load, p.cpi_store);
  CHECK(p.cpi_jalr + p.jalr_penalty == 6, "jalr %u+%u", p.cpi_jalr, p.jalr_penalty);
  /* shifts 4-14: 4 + amount/4 + amount%4 */
  CHECK(p.shift == SHIFT_TWO_STAGE && p.cpi_shift == 4, "shift");
  CHECK(p.cpi_shift + 0 / 4 + 0 % 4 == 4 && p.cpi_shift + 31 / 4 + 31 % 4 == 14, "shift range");
  CHECK(p.mul_mode == MULDIV_FIXED && p.cpi_mul + p.mul_latency == 40, "MUL %u+%u", p.cpi_mul, p.mul_latency);
  CHECK(p.cpi_mulh + p.mul_latency == 72, "MULH %u+%u", p.cpi_mulh, p.mul_latency);
  CHECK(p.div_mode == MULDIV_FIXED && p.cpi_div + p.div_latency == 40, "DIV %u+%u", p.cpi_div, p.div_latency);
  CHECK(p.load_use_penalty == 0 && p.csr_penalty == 0 && p.fence_i_penalty == 0, "penalties");
  CHECK(!p.icache.enabled && !p.dcache.enabled, "caches");
  CHECK(p.memory == MEMORY_SRAM && p.read_first_ns == 0 && p.read_beat_ns == 0 && p.write_ns == 0, "memory");
  /* the RTL has neither debug triggers nor PMP */
  CHECK(p.triggers == 0 && p.pmp_entries == 0 && p.pmp_absent == PMU_ABSENT_ILLEGAL, "triggers %u pmp %u",
        p.triggers, p.pmp_entries);
}

/* vexriscv-min: timed by its own rules (micro_arch vexriscv-min), which
 * need the caches off and the board's wait states (not [memory]'s); the
 * engine's own penalties are 0 so that it adds nothing to them. */
static void test_vexriscv_min(void) {
  core_model p;
  char err[512] = "";
  CHECK(load_model(&p, "vexriscv-min", err, sizeof err) == 0, "%s", err);
  CHECK(p.micro_arch == MICRO_VEXMIN, "micro_arch %d", (int)p.micro_arch);
  CHECK(p.branch_penalty == 0 && p.jal_penalty == 0 && p.jalr_penalty == 0 && p.load_use_penalty == 0 &&
            p.csr_penalty == 0 && p.trap_penalty == 0 && p.mret_penalty == 0 && p.shift == SHIFT_BARREL,
        "the engine's penalties");
  CHECK(p.isa == 0, "isa %#x (expected rv32i: no M, A, C)", (unsigned)p.isa);
  core_model x = p;
  x.icache.enabled = true;
  CHECK(core_model_validate(&x, err, sizeof err) != 0 && strstr(err, "micro_arch = vexriscv-min"),
        "an I-cache accepted: %s", err);
  x = p;
  x.wait_states = 1;
  CHECK(core_model_validate(&x, err, sizeof err) != 0 && strstr(err, "wait_states"), "wait_states accepted: %s",
        err);
  x = p;
  CHECK(core_model_set(&x, "core.micro_arch=vexriscv", err, sizeof err) != 0 && strstr(err, "vexriscv-min"),
        "a bad micro_arch accepted or not listed: %s", err);
}

/* [pipeline] fence_i_late_flush: a boolean's spellings, and refill-first,
 * as the shipped VexRiscv models set it; anything else is refused. */
static void test_fence_i_late_flush(void) {
  core_model p;
  char err[512] = "";
  CHECK(load_model(&p, "vexriscv", err, sizeof err) == 0, "%s", err);
  CHECK(p.fence_i_late_flush == FENCE_I_REFILL_DURING, "vexriscv: %d", p.fence_i_late_flush);
  CHECK(load_model(&p, "vexriscv-imac", err, sizeof err) == 0, "%s", err);
  CHECK(p.fence_i_late_flush == FENCE_I_REFILL_FIRST, "vexriscv-imac: %d", p.fence_i_late_flush);
  static const struct { const char *set; int want; } ok[] = {
    {"pipeline.fence_i_late_flush=no", FENCE_I_FLUSH_AT_ONCE}, {"pipeline.fence_i_late_flush=1", FENCE_I_REFILL_DURING},
    {"pipeline.fence_i_late_flush=YES", FENCE_I_REFILL_DURING},
    {"pipeline.fence_i_late_flush=refill-first", FENCE_I_REFILL_FIRST},
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    core_model_default(&p);
    CHECK(core_model_set(&p, ok[i].set, err, sizeof err) == 0 && p.fence_i_late_flush == ok[i].want, "%s: %d %s",
          ok[i].set, p.fence_i_late_flush, err);
  }
  EXPECT_SET_ERROR("pipeline.fence_i_late_flush=refill", "refill-first");
}

/* Every key, set to a value unlike the default's. */
static const char *const every_key[] = {
  "core.name=other", "core.description=a test model, all keys changed", "core.frequency_mhz=123.456",
  "core.voltage=0.95", "core.triggers=2", "core.pmp_entries=0", "core.pmp_granularity=4K",
  "core.pmp_absent=illegal", "core.micro_arch=picorv32", "core.isa=rv32ic",
  "pipeline.cpi.alu=2", "pipeline.cpi.alu_reg=3", "pipeline.cpi.shift=4", "pipeline.cpi.load=5",
  "pipeline.cpi.store=6", "pipeline.cpi.branch=7", "pipeline.cpi.jal=8", "pipeline.cpi.jalr=9",
  "pipeline.cpi.mul=10", "pipeline.cpi.mulh=11", "pipeline.cpi.div=12", "pipeline.cpi.csr=13",
  "pipeline.cpi.system=14", "pipeline.cpi.amo=15", "pipeline.shift=serial", "pipeline.mul_mode=iterative",
  "pipeline.div_mode=iterative", "pipeline.mul_latency=33", "pipeline.div_latency=34",
  "pipeline.branch_predict=taken", "pipeline.branch_penalty=5", "pipeline.branch_taken_penalty=6",
  "pipeline.jal_penalty=7", "pipeline.jalr_penalty=8", "pipeline.load_use_penalty=9",
  "pipeline.mul_use_penalty=3", "pipeline.shift_use_penalty=2", "pipeline.csr_use_penalty=1", "pipeline.div_use_penalty=1", "pipeline.sc_use_penalty=2", "pipeline.amo_penalty=3", "pipeline.fetch_ahead=true", "pipeline.fetch_ahead_insns=2", "pipeline.fetch_ahead_data=true", "pipeline.wrong_path_use_redo=true", "pipeline.wrong_path_jalr_over=true", "pipeline.wrong_path_read_late=2", "pipeline.wrong_path_use_hold=true", "pipeline.redirect_passes_late=true", "pipeline.predicted_passes_late=true", "pipeline.wrong_path_fill=true", "pipeline.wrong_path_words=3", "pipeline.wrong_path_tail=3", "pipeline.wrong_path_jump=true", "pipeline.wrong_path_jump_halts=true", "pipeline.wrong_path_jalr_jump_halts=true", "pipeline.wrong_path_jalr_jump_next=true", "pipeline.wrong_path_held_pairs=true", "pipeline.taken_path_fill=true", "pipeline.taken_path_held=true", "pipeline.predicted_target_fill=true", "pipeline.predicted_target_defer=true", "pipeline.predicted_target_next=true", "pipeline.fence_i_late_flush=true", "pipeline.fence_i_redo=21", "pipeline.fence_i_redo_reach=2", "pipeline.fence_i_redo_between=true", "pipeline.fence_i_jalr_flush=true", "pipeline.fence_i_wrong_path_reach=2", "pipeline.fence_i_overlap=true", "pipeline.fence_i_csr_overlap=true", "pipeline.fence_i_csr_refetch=true", "pipeline.fence_i_hold_overlap=true", "pipeline.fence_i_merge=true", "pipeline.fence_i_wbuf_overlap=true", "pipeline.device_div_overlap=true", "pipeline.wbuf_div_overlap=true", "pipeline.fence_i_jal_wait=true", "pipeline.fence_i_branch_halt=true", "pipeline.overwrite_keeps_wait=true", "pipeline.redirect_rvc_pair=4", "pipeline.redirect_split_target=2", "pipeline.csr_drain=true", "pipeline.refill_drains_csr=true", "pipeline.csr_drain_refill=true", "pipeline.wrong_path_csr_miss=true", "pipeline.held_refetch=3", "pipeline.refill_hides_next_use=true", "pipeline.wrong_path_dev_wait=true", "pipeline.wrong_path_use_reach=true", "pipeline.predicted_use_reach=true", "pipeline.csr_hold_reach=true", "pipeline.branch_fill_waited=true", "pipeline.wrong_path_jalr_pair=true", "pipeline.fence_i_load_redo=true", "pipeline.amo_hit_passes=true", "pipeline.amo_fill_first=true", "pipeline.replay_shift_wait=true", "pipeline.wrong_path_use_split=true", "pipeline.fence_i_use_overlap=true", "pipeline.fence_i_csr_refetch_any=true", "pipeline.fence_i_csr_refetch_next=true", "pipeline.fence_i_csr_refetch_load=true",
  "pipeline.csr_penalty=10", "pipeline.fence_i_penalty=11", "pipeline.trap_penalty=12",
  "pipeline.mret_penalty=13", "pipeline.split_fetch_penalty=14",
  "icache.enabled=no", "icache.size=16K", "icache.ways=4", "icache.line=64", "icache.replacement=random",
  "icache.seed=12345", "icache.refill_cycles=5", "icache.flush_cycles=9", "icache.fence_i_flush=yes",
  "dcache.enabled=0", "dcache.size=64KiB", "dcache.ways=8", "dcache.line=16", "dcache.replacement=fifo",
  "dcache.seed=0xdeadbeef", "dcache.write_policy=write-through", "dcache.write_buffer=7", "dcache.write_buffer_late_ready=true", "dcache.store_load_replay=5", "dcache.replay_decode_wait=2", "dcache.replay_refill_line=true", "dcache.refill_refetch=true", "dcache.refill_refetch_wrong_path=true", "dcache.refill_refetch_wait=true", "dcache.refill_refetch_store=true", "dcache.refill_refetch_jump=true", "dcache.refill_refetch_early_jump=true", "dcache.redo_refill_wait=true", "dcache.next_fill=true", "dcache.redo_refill_words=true", "dcache.redo_words_free=true", "dcache.redo_words_store=true", "dcache.next_fill_load=true", "dcache.two_refill_after=true", "dcache.seq_div=true", "dcache.seq_covered=true", "dcache.seq_sc=true", "dcache.seq_alu=true", "dcache.refill_cycles=6",
  "memory.type=sram", "memory.bus_bytes=8", "memory.fetch_port=true", "memory.device_bus=true", "memory.device_read_cycles=1", "memory.exit_ack_cycles=2", "memory.read_first_ns=12.5", "memory.read_beat_ns=2.5",
  "memory.write_ns=3.25", "memory.sdram_row_bytes=1K", "memory.sdram_banks=8", "memory.sdram_row_miss_ns=0.1",
  "memory.sram_base=0x90000000", "memory.sram_size=64K", "memory.wait_states=2",
  "energy.nominal_voltage=1.1", "energy.core_pj_per_cycle=41.5", "energy.icache_pj_per_access=3",
  "energy.dcache_pj_per_access=4", "energy.mem_pj_per_read_beat=99", "energy.mem_pj_per_write_beat=101",
  "energy.static_mw=0.3",
  "dvfs.pll_relock_cycles=250", "dvfs.min_mhz=2.5", "dvfs.max_mhz=900", "dvfs.min_voltage=0.7",
  "dvfs.max_voltage=1.3", "dvfs.points=400:1.1, 250:1",
  "pmu.counters=7", "pmu.absent=illegal",
};
#define N_EVERY (sizeof every_key / sizeof every_key[0])

static void test_set(void) {
  core_model m, def;
  char err[1024] = "";
  core_model_default(&def);

  /* each key reaches exactly one field, a different one each time */
  int total = 0;
  m = def;
  for (size_t i = 0; i < N_EVERY; i++) {
    core_model before = m;
    int rc = core_model_set(&m, every_key[i], err, sizeof err);
    CHECK(rc == 0, "%s: %s", every_key[i], err);
    CHECK(count_differences(&before, &m) == 1, "%s changed %d fields", every_key[i],
          count_differences(&before, &m));
    total++;
  }
  CHECK(core_model_validate(&m, err, sizeof err) == 0, "%s", err);
  /* all fields but icache.write_policy/write_buffer (no keys: an I-cache is never written) changed */
  CHECK(count_differences(&def, &m) == total, "%d of %d fields changed", count_differences(&def, &m), total);

  /* the values */
  core_model_default(&m);
  CHECK(core_model_set(&m, "icache.size=8K", err, sizeof err) == 0 && m.icache.size == 8192, "%s", err);
  CHECK(core_model_set(&m, "pipeline.cpi.load=2", err, sizeof err) == 0 && m.cpi_load == 2, "%s", err);
  CHECK(core_model_set(&m, " dcache.line = 64 ", err, sizeof err) == 0 && m.dcache.line == 64, "%s", err);
  CHECK(core_model_set(&m, "dcache.replacement=round-robin", err, sizeof err) == 0 &&
            m.dcache.replacement == REPL_LRR,
        "%s", err);
  CHECK(core_model_set(&m, "dcache.replacement=LRU", err, sizeof err) == 0 && m.dcache.replacement == REPL_LRU,
        "%s", err);
  CHECK(core_model_set(&m, "icache.size=1M", err, sizeof err) == 0 && m.icache.size == 1048576, "%s", err);
  CHECK(core_model_set(&m, "icache.size=16k", err, sizeof err) == 0 && m.icache.size == 16384, "%s", err);
  CHECK(core_model_set(&m, "icache.size=0x2000", err, sizeof err) == 0 && m.icache.size == 8192, "%s", err);
  CHECK(core_model_set(&m, "icache.enabled=yes", err, sizeof err) == 0 && m.icache.enabled, "%s", err);
  CHECK(core_model_set(&m, "icache.enabled=FALSE", err, sizeof err) == 0 && !m.icache.enabled, "%s", err);
  CHECK(core_model_set(&m, "core.frequency_mhz=250", err, sizeof err) == 0 && m.frequency_mhz == 250, "%s", err);
  CHECK(core_model_set(&m, "core.voltage=1e0", err, sizeof err) == 0 && m.voltage == 1.0, "%s", err);
  CHECK(core_model_set(&m, "pipeline.mul_latency=0", err, sizeof err) == 0 && m.mul_latency == 0, "%s", err);
  CHECK(core_model_set(&m, "core.description=", err, sizeof err) == 0 && m.description[0] == '\0', "%s", err);

  /* the errors */
  core_model_default(&m);
  CHECK(core_model_set(&m, "icache.size=3000", err, sizeof err) != 0, "accepted");
  CHECK(!strcmp(err, "--set icache.size=3000: size must be a power of two from 4 to 64M "
                     "(bytes; 4096, 4K and 4KiB are the same), not '3000'"),
        "%s", err);
  EXPECT_SET_ERROR("icache.size=3000", "--set icache.size=3000: size must be a power of two");
  EXPECT_SET_ERROR("icache.size=2", "size must be a power of two from 4 to 64M");
  EXPECT_SET_ERROR("icache.size=4X", "size must be a power of two from 4 to 64M");
  EXPECT_SET_ERROR("icache.size=-4K", "not '-4K'");
  EXPECT_SET_ERROR("icache.size=99999999999999999999999", "size must be");
  EXPECT_SET_ERROR("icache.ways=3", "--set icache.ways=3: ways must be a power of two from 1 to 65536, not '3'");
  EXPECT_SET_ERROR("icache.line=2", "line must be a power of two from 4 to 4K");
  EXPECT_SET_ERROR("pipeline.cpi.load=abc",
                   "--set pipeline.cpi.load=abc: cpi.load must be an integer from 1 to 1000, not 'abc'");
  EXPECT_SET_ERROR("pipeline.cpi.load=0", "cpi.load must be an integer from 1 to 1000, not '0'");
  EXPECT_SET_ERROR("pipeline.cpi.load=1.5", "not '1.5'");
  EXPECT_SET_ERROR("pipeline.cpi.load=", "not ''");
  EXPECT_SET_ERROR("pipeline.load_use_penalty=256", "load_use_penalty must be an integer from 0 to 255");
  EXPECT_SET_ERROR("pipeline.sc_use_penalty=256", "sc_use_penalty must be an integer from 0 to 255");
  EXPECT_SET_ERROR("pipeline.amo_penalty=1001", "amo_penalty must be an integer from 0 to 1000");
  EXPECT_SET_ERROR("core.frequency_mhz=0", "frequency_mhz must be a number greater than 0 and at most 100000");
  EXPECT_SET_ERROR("core.frequency_mhz=nan", "not 'nan'");
  EXPECT_SET_ERROR("core.voltage=-1", "voltage must be a number greater than 0");
  EXPECT_SET_ERROR("memory.read_first_ns=fast", "read_first_ns must be a number from 0 to 1000000, not 'fast'");
  EXPECT_SET_ERROR("dcache.replacement=lfu",
                   "--set dcache.replacement=lfu: replacement must be one of lru, lrr, fifo, round-robin or "
                   "random, not 'lfu'");
  EXPECT_SET_ERROR("dcache.write_policy=write-around", "write_policy must be one of write-back or write-through");
  EXPECT_SET_ERROR("pipeline.branch_predict=always", "branch_predict must be one of not-taken, backward-taken or taken");
  EXPECT_SET_ERROR("icache.enabled=maybe", "enabled must be true, false, yes, no, 1 or 0, not 'maybe'");
  EXPECT_SET_ERROR("dcache.write_buffer=65", "write_buffer must be an integer from 0 to 64");
  EXPECT_SET_ERROR("memory.sdram_banks=17", "sdram_banks must be an integer from 1 to 16");
  EXPECT_SET_ERROR("core.triggers=17", "--set core.triggers=17: triggers must be an integer from 0 to 16, not '17'");
  EXPECT_SET_ERROR("core.pmp_granularity=12", "pmp_granularity must be a power of two from 4");
  EXPECT_SET_ERROR("core.pmp_granularity=2", "pmp_granularity must be a power of two from 4");
  EXPECT_SET_ERROR("core.pmp_absent=maybe", "pmp_absent must be one of zero or illegal, not 'maybe'");
  EXPECT_SET_ERROR("core.name=", "name must be text of at most 63 characters");
  EXPECT_SET_ERROR("core.name=a;b", "not 'a;b'");
  EXPECT_SET_ERROR("icache.write_policy=write-through",
                   "--set icache.write_policy=write-through: unknown key icache.write_policy (expected one of: "
                   "enabled, size, ways, line, replacement, seed, refill_cycles, flush_cycles, fence_i_flush)");
  EXPECT_SET_ERROR("icache.sise=4K", "unknown key icache.sise");
  EXPECT_SET_ERROR("cache.size=4K",
                   "--set cache.size=4K: unknown section 'cache' (expected core, pipeline, icache, dcache, memory, "
                   "energy, dvfs or pmu)");
  EXPECT_SET_ERROR("icache", "--set icache: expected section.key=value (e.g. icache.size=8K)");
  EXPECT_SET_ERROR("size=4K", "expected section.key=value");
  EXPECT_SET_ERROR("", "expected section.key=value");
}

static void test_round_trip(void) {
  static char text[8192], again[8192];
  char err[1024] = "";
  core_model m, back;

  /* a model with every field changed */
  core_model_default(&m);
  for (size_t i = 0; i < N_EVERY; i++)
    core_model_set(&m, every_key[i], err, sizeof err);
  core_model_write(&m, text, sizeof text);
  const char *path = write_file("written.ini", text);
  core_model_default(&back);
  int rc = core_model_load(&back, path, NULL, err, sizeof err);
  CHECK(rc == 0, "%s\n%s", err, text);
  CHECK(first_difference(&m, &back) == NULL, "round trip differs in %s", first_difference(&m, &back));
  CHECK(!strcmp(back.path, path), "path %s", back.path);

  /* every key is written */
  int lines = 0;
  for (const char *p = text; (p = strstr(p, " = ")) != NULL; p++)
    lines++;
  CHECK(lines == (int)N_EVERY, "%d keys written, %zu known", lines, N_EVERY);
  CHECK(strstr(text, "\n[icache]\n") && strstr(text, "\n[dvfs]\n"), "sections");
  CHECK(strstr(text, "size = 16K\n") && strstr(text, "size = 64K\n"), "sizes written with K");
  CHECK(strstr(text, "replacement = lrr\n"), "fifo written as lrr");

  /* the shipped models and the default too; writing again gives the same text */
  static const char *const shipped[] = {"tally5", "tally5-wt", "sram", "picorv32"};
  for (size_t i = 0; i < 4; i++) {
    CHECK(load_model(&m, shipped[i], err, sizeof err) == 0, "%s", err);
    core_model_write(&m, text, sizeof text);
    path = write_file("written.ini", text);
    core_model_default(&back);
    CHECK(core_model_load(&back, path, NULL, err, sizeof err) == 0, "%s: %s", shipped[i], err);
    CHECK(first_difference(&m, &back) == NULL, "%s differs in %s", shipped[i], first_difference(&m, &back));
    core_model_write(&back, again, sizeof again);
    CHECK(!strcmp(strstr(text, "\n["), strstr(again, "\n[")), "%s: second write differs", shipped[i]);
  }

  /* awkward numbers survive exactly */
  core_model_default(&m);
  m.frequency_mhz = 1.0 / 3.0;
  m.read_first_ns = 0.1 + 0.2;
  m.static_mw = 1e-300;
  m.dcache.seed = UINT32_MAX;
  core_model_write(&m, text, sizeof text);
  path = write_file("written.ini", text);
  CHECK(core_model_load(&back, path, NULL, err, sizeof err) == 0, "%s", err);
  CHECK(first_difference(&m, &back) == NULL, "differs in %s", first_difference(&m, &back));

  /* a short buffer is cut, never overrun */
  char small[40];
  memset(small, 'x', sizeof small);
  core_model_write(&m, small, 20);
  CHECK(strlen(small) == 19 && small[20] == 'x', "small buffer: %zu", strlen(small));
  small[0] = 'y';
  core_model_write(&m, small, 0);
  CHECK(small[0] == 'y', "size 0 wrote");
}

static void test_file_errors(void) {
  /* line numbers count comments and blank lines */
  EXPECT_FILE_ERROR("; a model\n\n[icache]\nsise = 4K\n",
                    "4: [icache] sise: unknown key (expected one of: enabled, size, ways, line, replacement, seed, refill_cycles, "
                    "flush_cycles, fence_i_flush)");
  EXPECT_FILE_ERROR("[core]\nname = x\n[caches]\nsize = 4K\n",
                    "4: [caches] size: unknown section (expected core, pipeline, icache, dcache, memory, energy, "
                    "dvfs or pmu)");
  /* before a known [section] line the file is not a core model: nothing
   * of it is quoted (--core /proc/self/environ must not print it) */
  EXPECT_FILE_ERROR("name = x\n", "1: " "not a core model file (its first lines must be a [section] line, one of core, pipeline, icache, dcache, "
                    "memory, energy, dvfs or pmu, then key = value lines; nothing of the file is shown)");
  EXPECT_FILE_ERROR("HOME=/root\nSECRET=hunter2\n", "1: " "not a core model file (its first lines must be a [section] line, one of core, pipeline, icache, dcache, "
                    "memory, energy, dvfs or pmu, then key = value lines; nothing of the file is shown)");
  EXPECT_FILE_ERROR("; notes\n\nthe password is hunter2\n[core]\n", "3: " "not a core model file (its first lines must be a [section] line, one of core, pipeline, icache, dcache, "
                    "memory, energy, dvfs or pmu, then key = value lines; nothing of the file is shown)");
  EXPECT_FILE_ERROR("[secret hunter2]\nx = 1\n", "2: " "not a core model file (its first lines must be a [section] line, one of core, pipeline, icache, dcache, "
                    "memory, energy, dvfs or pmu, then key = value lines; nothing of the file is shown)");
  /* after one, a line with control characters is still not shown */
  EXPECT_FILE_ERROR("[core]\nname = x\nhunter2\x1b[0m\n",
                    "3: cannot read a line that is not text (expected [section], key = value, or a ; comment)");
  EXPECT_FILE_ERROR("[pipeline]\ncpi.alu = 1\ncpi.load = abc\n",
                    "3: [pipeline] cpi.load: 'abc' is not an integer (expected an integer from 1 to 1000)");
  EXPECT_FILE_ERROR("[pipeline]\ncpi.load = 0\n",
                    "2: [pipeline] cpi.load: 0 is out of range (expected an integer from 1 to 1000)");
  EXPECT_FILE_ERROR("[pipeline]\nbranch_penalty = 1001\n",
                    "2: [pipeline] branch_penalty: 1001 is out of range (expected an integer from 0 to 1000)");
  EXPECT_FILE_ERROR("[core]\nfrequency_mhz = 0\n",
                    "2: [core] frequency_mhz: 0 is out of range (expected a number greater than 0 and at most "
                    "100000)");
  EXPECT_FILE_ERROR("[memory]\nwrite_ns = 10ns\n",
                    "2: [memory] write_ns: '10ns' is not a number (expected a number from 0 to 1000000)");
  EXPECT_FILE_ERROR("[icache]\nreplacement = plru\n",
                    "2: [icache] replacement: 'plru' is not a valid choice (expected one of lru, lrr, fifo, "
                    "round-robin or random)");
  EXPECT_FILE_ERROR("[pipeline]\nshift = fast\n",
                    "2: [pipeline] shift: 'fast' is not a valid choice (expected one of barrel, two-stage or "
                    "serial)");
  EXPECT_FILE_ERROR("[memory]\ntype = dram\n",
                    "2: [memory] type: 'dram' is not a valid choice (expected one of sram or sdram)");
  EXPECT_FILE_ERROR("[dcache]\nenabled = perhaps\n",
                    "2: [dcache] enabled: 'perhaps' is not a boolean (expected true, false, yes, no, 1 or 0)");
  EXPECT_FILE_ERROR("[icache]\nsize = 3000\n",
                    "2: [icache] size: 3000 is not a power of two (expected a power of two from 4 to 64M (bytes; "
                    "4096, 4K and 4KiB are the same))");
  EXPECT_FILE_ERROR("[icache]\nsize = 4 parsecs\n",
                    "2: [icache] size: '4 parsecs' is not a size (expected a power of two from 4 to 64M (bytes; "
                    "4096, 4K and 4KiB are the same))");
  EXPECT_FILE_ERROR("[icache]\nways = 3\n",
                    "2: [icache] ways: 3 is not a power of two (expected a power of two from 1 to 65536)");
  EXPECT_FILE_ERROR("[core]\nname = a ;comment\nname = b\n", "3: [core] name: set twice (first on line 2)");
  EXPECT_FILE_ERROR("[core]\nname = \n",
                    "2: [core] name: the name is empty (expected text of at most 63 characters, without ';')");
  /* inih's own syntax errors */
  EXPECT_FILE_ERROR("[core]\nname = x\nthis is not a key\n",
                    "3: cannot read 'this is not a key' (expected [section], key = value, or a ; comment)");
  EXPECT_FILE_ERROR("[core\nname = x\n", "1: " "not a core model file (its first lines must be a [section] line, one of core, pipeline, icache, dcache, "
                    "memory, energy, dvfs or pmu, then key = value lines; nothing of the file is shown)");
  /* the first error wins, whichever kind */
  EXPECT_FILE_ERROR("[core]\nbogus\n[icache]\nsize = 3\n",
                    "2: cannot read 'bogus' (expected [section], key = value, or a ; comment)");
  EXPECT_FILE_ERROR("[icache]\nsize = 3\nbogus\nways = 3\n",
                    "2: [icache] size: 3 is out of range (expected a power of two from 4 to 64M (bytes; 4096, 4K "
                    "and 4KiB are the same))");
  /* a line too long for inih is an error, not two lines */
  {
    char big[600];
    snprintf(big, sizeof big, "[core]\ndescription = %0300d\nname = x\n", 7);
    core_model m;
    char err[1024];
    CHECK(load_text(&m, big, err, sizeof err) != 0 && strstr(err, "case.ini:2: line too long"), "%s", err);
    /* a long comment is still a comment */
    char longc[600];
    snprintf(longc, sizeof longc, "; %0400d\n[core]\nname = fine\n", 1);
    CHECK(load_text(&m, longc, err, sizeof err) == 0 && !strcmp(m.name, "fine"), "%s", err);
    /* the description's own limit */
    snprintf(big, sizeof big, "[core]\ndescription = %0181d\n", 5);
    CHECK(load_text(&m, big, err, sizeof err) != 0 && strstr(err, ":2: [core] description: the text is too long"),
          "%s", err);
  }
  /* a failed load leaves the model as it was */
  {
    core_model m, before;
    char err[512];
    core_model_default(&m);
    m.cpi_alu = 77;
    before = m;
    const char *path = write_file("half.ini", "[pipeline]\ncpi.alu = 2\ncpi.load = x\n");
    CHECK(core_model_load(&m, path, NULL, err, sizeof err) != 0, "loaded");
    CHECK(first_difference(&m, &before) == NULL && !strcmp(m.path, before.path), "model changed");
  }
}

static void test_file_forms(void) {
  core_model m;
  char err[1024] = "";
  /* indentation, inline comments, CRLF, a UTF-8 BOM, '#' comments, key: value */
  int rc = load_text(&m,
                     "\xEF\xBB\xBF# a model\r\n"
                     "[pipeline]\r\n"
                     "  cpi.load = 3   ; three\r\n"
                     "\tcpi.store = 4\r\n"
                     "    cpi.div=7\r\n"
                     "[icache]\r\n"
                     "size: 16KiB\r\n"
                     "  ways = 4\r\n",
                     err, sizeof err);
  CHECK(rc == 0, "%s", err);
  CHECK(m.cpi_load == 3 && m.cpi_store == 4 && m.cpi_div == 7, "%u %u %u", m.cpi_load, m.cpi_store, m.cpi_div);
  CHECK(m.icache.size == 16384 && m.icache.ways == 4, "%u %u", m.icache.size, m.icache.ways);
  /* a file without [core] name is named after the file, without description; other keys keep the defaults */
  core_model def;
  core_model_default(&def);
  CHECK(!strcmp(m.name, "case") && m.description[0] == '\0', "%s / %s", m.name, m.description);
  CHECK(m.cpi_alu == def.cpi_alu && m.dcache.size == def.dcache.size && m.frequency_mhz == def.frequency_mhz,
        "defaults");
  /* an empty file is the default under another name */
  rc = load_text(&m, "", err, sizeof err);
  CHECK(rc == 0, "%s", err);
  snprintf(m.name, sizeof m.name, "%s", def.name);
  snprintf(m.description, sizeof m.description, "%s", def.description);
  CHECK(first_difference(&m, &def) == NULL, "empty file differs in %s", first_difference(&m, &def));
}

static void test_load_errors(void) {
  core_model m;
  char err[1024] = "", want[1024];

  const char *missing = tmp_path("missing.ini");
  core_model_default(&m);
  CHECK(core_model_load(&m, missing, NULL, err, sizeof err) != 0, "loaded");
  snprintf(want, sizeof want, "%s: cannot open: No such file or directory", missing);
  CHECK(!strcmp(err, want), "%s", err);

  CHECK(core_model_load(&m, "nosuch/dir/model", cores_dir, err, sizeof err) != 0, "loaded");
  CHECK(!strcmp(err, "nosuch/dir/model: cannot open: No such file or directory"), "%s", err);

  /* a directory named like a model */
  mkdir(tmp_path("dir.ini"), 0700);
  CHECK(core_model_load(&m, tmp_path("dir.ini"), NULL, err, sizeof err) != 0 && strstr(err, "is a directory"),
        "%s", err);

  CHECK(core_model_load(&m, "nosuch", cores_dir, err, sizeof err) != 0, "loaded");
  CHECK(!strcmp(err, "unknown core model 'nosuch' (available: dsp500, picorv32, picorv32-fast, picorv32-ws1, picorv32-ws2, "
                     "picorv32-ws3, sram, tally5, tally5-wt, vexriscv, vexriscv-imac, vexriscv-min; or give a "
                     "path "
                     "to an .ini file)"),
        "%s", err);

  CHECK(core_model_load(&m, "tally5", tmp_path("empty-dir"), err, sizeof err) != 0, "loaded");
  snprintf(want, sizeof want,
           "unknown core model 'tally5' (no core models found in '%s'; or give a path to an .ini file)",
           tmp_path("empty-dir"));
  CHECK(!strcmp(err, want), "%s", err);

  CHECK(core_model_load(&m, "tally5", NULL, err, sizeof err) != 0 && strstr(err, "unknown core model 'tally5'"),
        "%s", err);
  CHECK(core_model_load(&m, "", cores_dir, err, sizeof err) != 0 && strstr(err, "no core model named"), "%s", err);

  /* a long message is cut to the buffer, NUL-terminated */
  char tiny[16];
  memset(tiny, 'x', sizeof tiny);
  CHECK(core_model_load(&m, "nosuch", cores_dir, tiny, 10) != 0 && strlen(tiny) == 9 && tiny[10] == 'x', "tiny");
}

static void test_validate(void) {
  core_model m;
  char err[1024] = "";

  /* [dvfs] points: pairs inside the PLL's and the regulator's ranges */
  static const char *const good_points[] = {"500:1.2,250:1.0", " 500:1.2  250:1 ", "1:0.5", ""};
  for (size_t i = 0; i < sizeof good_points / sizeof good_points[0]; i++) {
    core_model_default(&m);
    snprintf(m.dvfs_points, sizeof m.dvfs_points, "%s", good_points[i]);
    CHECK(core_model_validate(&m, err, sizeof err) == 0, "'%s': %s", good_points[i], err);
  }
  static const struct { const char *points, *part; } bad_points[] = {
      {"500", "expected MHZ:VOLTS pairs"},           {"500:", "expected MHZ:VOLTS pairs"},
      {"500:1.2;", "contains ';'"},      {"2000:1.2", "2000:1.2 is outside the range 1-1000 MHz"},
      {"250:1.6", "250:1.6 is outside the range"},   {"1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1,9:1", "more than 8 points"},
  };
  for (size_t i = 0; i < sizeof bad_points / sizeof bad_points[0]; i++) {
    core_model_default(&m);
    snprintf(m.dvfs_points, sizeof m.dvfs_points, "%s", bad_points[i].points);
    CHECK(core_model_validate(&m, err, sizeof err) != 0 && strstr(err, bad_points[i].part), "'%s': %s",
          bad_points[i].points, err);
  }

  core_model_default(&m);
  m.icache.size = 1024;
  m.icache.ways = 64;
  CHECK(core_model_validate(&m, err, sizeof err) != 0, "accepted");
  CHECK(!strcmp(err, "core model tally5: [icache] size: 1K is smaller than ways x line = 64 x 32 = 2K "
                     "(expected size >= ways x line)"),
        "%s", err);
  /* a disabled cache's geometry is not used */
  m.icache.enabled = false;
  CHECK(core_model_validate(&m, err, sizeof err) == 0, "%s", err);

  core_model_default(&m);
  m.dcache.line = 48;
  CHECK(core_model_validate(&m, err, sizeof err) != 0 &&
            !strcmp(err, "core model tally5: [dcache] line: 48 is not a power of two (expected a power of two "
                         "from 4 to 4K (bytes; 4096, 4K and 4KiB are the same))"),
        "%s", err);

  core_model_default(&m);
  m.frequency_mhz = 0;
  CHECK(core_model_validate(&m, err, sizeof err) != 0 && strstr(err, "[core] frequency_mhz: 0 is out of range"),
        "%s", err);
  core_model_default(&m);
  m.voltage = -0.5;
  CHECK(core_model_validate(&m, err, sizeof err) != 0 && strstr(err, "[core] voltage: -0.5 is out of range"), "%s",
        err);
  core_model_default(&m);
  m.nominal_voltage = __builtin_nan("");
  CHECK(core_model_validate(&m, err, sizeof err) != 0 && strstr(err, "[energy] nominal_voltage"), "%s", err);
  core_model_default(&m);
  m.dcache.replacement = (cache_replacement)9;
  CHECK(core_model_validate(&m, err, sizeof err) != 0 && strstr(err, "[dcache] replacement: 9 is not a valid choice"),
        "%s", err);
  core_model_default(&m);
  m.name[0] = '\0';
  CHECK(core_model_validate(&m, err, sizeof err) != 0 && strstr(err, "[core] name: the name is empty"), "%s", err);
  core_model_default(&m);
  m.bus_bytes = 3;
  CHECK(core_model_validate(&m, err, sizeof err) != 0 && strstr(err, "[memory] bus_bytes: 3 is not a power of two"),
        "%s", err);
  core_model_default(&m);
  m.bus_bytes = 64;
  m.sdram_row_bytes = 32;
  CHECK(core_model_validate(&m, err, sizeof err) != 0 && strstr(err, "[memory] sdram_row_bytes: 32 is smaller"),
        "%s", err);
  m.memory = MEMORY_SRAM;
  CHECK(core_model_validate(&m, err, sizeof err) == 0, "%s", err);

  /* PMP: 0 or 16 entries (the spec's 0, 16 or 64; RV32 tally has no 64) */
  core_model_default(&m);
  CHECK(core_model_set(&m, "core.pmp_entries=3", err, sizeof err) == 0, "%s", err);
  CHECK(core_model_validate(&m, err, sizeof err) != 0 &&
            !strcmp(err, "core model tally5: [core] pmp_entries = 3: expected 0 or 16"),
        "%s", err);
  CHECK(core_model_set(&m, "core.pmp_entries=0", err, sizeof err) == 0 && core_model_validate(&m, err, sizeof err) == 0,
        "%s", err);

  /* a file can load and still not validate: validation is of the whole model, after --set */
  const char *path = write_file("geometry.ini", "[dcache]\nsize = 256\nways = 16\nline = 32\n");
  core_model_default(&m);
  CHECK(core_model_load(&m, path, NULL, err, sizeof err) == 0, "%s", err);
  CHECK(core_model_validate(&m, err, sizeof err) != 0 && strstr(err, "core model geometry: [dcache] size: 256"),
        "%s", err);
  CHECK(core_model_set(&m, "dcache.ways=8", err, sizeof err) == 0 && core_model_validate(&m, err, sizeof err) == 0,
        "%s", err);
}

static void test_list(void) {
  char names[16][64];
  size_t n = core_model_list(cores_dir, names, 16);
  CHECK(n == 12, "%zu models", n);
  if (n == 12)
    CHECK(!strcmp(names[0], "dsp500") && !strcmp(names[1], "picorv32") && !strcmp(names[2], "picorv32-fast") &&
              !strcmp(names[3], "picorv32-ws1") && !strcmp(names[4], "picorv32-ws2") &&
              !strcmp(names[5], "picorv32-ws3") && !strcmp(names[6], "sram") && !strcmp(names[7], "tally5") &&
              !strcmp(names[8], "tally5-wt") && !strcmp(names[9], "vexriscv") && !strcmp(names[10], "vexriscv-imac") &&
              !strcmp(names[11], "vexriscv-min"),
          "%s %s %s %s %s %s %s %s %s %s %s %s", names[0], names[1], names[2], names[3], names[4], names[5],
          names[6], names[7], names[8], names[9], names[10], names[11]);

  /* a second folder: its own models join, duplicates once, non-models skipped */
  mkdir(tmp_path("more"), 0700);
  write_file("more/alpha.ini", "[core]\nname = alpha\n");
  write_file("more/tally5.ini", "[core]\nname = shadow\n");
  write_file("more/notes.txt", "not a model\n");
  write_file("more/.hidden.ini", "[core]\n");
  write_file("more/.ini", "[core]\n");
  mkdir(tmp_path("more/folder.ini"), 0700);
  char dirs[1024];
  snprintf(dirs, sizeof dirs, "%s:%s", tmp_path("more"), cores_dir);
  n = core_model_list(dirs, names, 16);
  CHECK(n == 13, "%zu models", n);
  if (n == 13)
    CHECK(!strcmp(names[0], "alpha") && !strcmp(names[9], "tally5-wt") && !strcmp(names[12], "vexriscv-min"),
          "%s .. %s .. %s", names[0], names[9], names[12]);
  CHECK(core_model_list(dirs, names, 2) == 2, "max not kept");
  CHECK(core_model_list(NULL, names, 16) == 0, "NULL dirs");
  CHECK(core_model_list("/nonexistent/dir", names, 16) == 0, "missing dir");

  /* the first folder that has the name wins */
  core_model m;
  char err[512];
  core_model_default(&m);
  CHECK(core_model_load(&m, "tally5", dirs, err, sizeof err) == 0 && !strcmp(m.name, "shadow"), "%s %s", err,
        m.name);
  core_model_default(&m);
  CHECK(core_model_load(&m, "alpha", dirs, err, sizeof err) == 0 && !strcmp(m.name, "alpha"), "%s", err);
  CHECK(core_model_load(&m, "picorv32", dirs, err, sizeof err) == 0 && !strcmp(m.name, "picorv32"), "%s", err);
  CHECK(core_model_load(&m, "folder", dirs, err, sizeof err) != 0 && strstr(err, "available: alpha, dsp500, picorv32"),
        "%s", err);
}

static void remove_tree(const char *path) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", path);
}

int main(int argc, char **argv) {
  if (argc > 1)
    cores_dir = argv[1];
  const char *base = getenv("TMPDIR");
  snprintf(tmpdir, sizeof tmpdir, "%s/test_core_model.XXXXXX", base && *base ? base : "/tmp");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 2;
  }
  mkdir(tmp_path("empty-dir"), 0700);

  test_default();
  test_shipped();
  test_tally5_is_default();
  test_variants();
  test_picorv32();
  test_vexriscv_min();
  test_fence_i_late_flush();
  test_set();
  test_round_trip();
  test_file_errors();
  test_file_forms();
  test_load_errors();
  test_validate();
  test_list();

  remove_tree(tmpdir);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
