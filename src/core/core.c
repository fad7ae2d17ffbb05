/*
 * Creating, resetting and freeing a hart, and the exact-state helpers that
 * slow paths use while the fast loop is in the middle of a block.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../timing/timing.h"
#include "cpu.h"
#include "ctx_count.h"
#include "jit.h"

#define HASH_BUCKETS (1u << 16)
#define CORE_FUNCTIONAL_MHZ 100 /* with QEMU virt's 10 MHz CLINT timebase */
#define CORE_FUNCTIONAL_TRIGGERS 4 /* and 16 PMP entries of 4 bytes, as the default core model */

/* No board: nothing outside RAM (cpu.h, core_bus). */
static bool no_load(core_cpu *cpu, uint32_t addr, unsigned size, uint32_t *val) {
  (void)cpu, (void)addr, (void)size, (void)val;
  return false;
}
static bool no_store(core_cpu *cpu, uint32_t addr, unsigned size, uint32_t val) {
  (void)cpu, (void)addr, (void)size, (void)val;
  return false;
}
static void no_watch(core_cpu *cpu, uint32_t addr, unsigned size) { (void)cpu, (void)addr, (void)size; }
static void no_semihost(core_cpu *cpu) { core_set_stop(cpu, CORE_STOP_ERROR, "a semihosting call with no board"); }
static const core_bus no_devices = {no_load, no_store, no_watch, no_semihost, NULL, NULL};

core_cpu *core_new(uint32_t ram_base, uint32_t ram_size) {
  core_cpu *cpu = calloc(1, sizeof *cpu);
  if (!cpu)
    return NULL;
  cpu->ram_base = ram_base;
  cpu->ram_size = ram_size;
  cpu->bus = &no_devices;
  cpu->ext_due = UINT64_MAX;
  /* mmap gives zero pages lazily: a 128 MiB board costs only what it touches */
  void *ram = mmap(NULL, ram_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  cpu->ram = ram == MAP_FAILED ? NULL : ram;
  cpu->watch = calloc((ram_size >> WATCH_SHIFT) + 1, 1);
  cpu->code_span = calloc((ram_size >> WATCH_SHIFT) + 1, sizeof *cpu->code_span);
  cpu->ctx_counts = core_ctx_counts_new();
  cpu->hash = calloc(HASH_BUCKETS, sizeof *cpu->hash);
  cpu->hash_mask = HASH_BUCKETS - 1;
  if (!cpu->ram || !cpu->watch || !cpu->code_span || !cpu->hash || !cpu->ctx_counts) {
    core_free(cpu);
    return NULL;
  }
  core_guard_config(cpu, CORE_FUNCTIONAL_TRIGGERS, CORE_PMP_MAX, 4, true);
  core_reset(cpu, ram_base);
  return cpu;
}

void core_free(core_cpu *cpu) {
  if (!cpu)
    return;
  core_block_flush(cpu);
  free(cpu->arena);
  core_jit_free(cpu->jit);
  timing_free(cpu->tm);
  if (cpu->ram)
    munmap(cpu->ram, cpu->ram_size);
  free(cpu->watch);
  free(cpu->code_span);
  free(cpu->hash);
  free(cpu->cached);
  free(cpu->singles);
  free(cpu->dirty);
  core_ctx_counts_free(cpu->ctx_counts);
  free(cpu);
}

void core_reset(core_cpu *cpu, uint32_t entry) {
  memset(cpu->x, 0, sizeof cpu->x);
  cpu->pc = entry;
  cpu->instret = 0;
  cpu->traps = 0;
  cpu->horizon = UINT64_MAX;
  cpu->mstatus = MSTATUS_MPP;
  cpu->mie = cpu->mtvec = cpu->mscratch = cpu->mepc = cpu->mcause = cpu->mtval = 0;
  cpu->mip_soft = 0;
  cpu->mcycle_adj = cpu->minstret_adj = 0;
  cpu->mcountinhibit = 0;
  cpu->mcycle_frozen = cpu->minstret_frozen = 0;
  cpu->idle_cycles = 0;
  cpu->untimed_csr = cpu->untimed_pc = 0;
  cpu->mtimecmp = UINT64_MAX;
  cpu->mtime_adj = 0;
  cpu->tick_num = 10000; /* 10 MHz timebase over the clock in kHz */
  cpu->tick_den = (uint64_t)((cpu->tm ? cpu->tm->freq_mhz : CORE_FUNCTIONAL_MHZ) * 1000 + 0.5);
  cpu->lr_valid = false;
  cpu->stop = CORE_RUNNING;
  cpu->exit_code = 0;
  cpu->stop_detail[0] = '\0';
  cpu->flush_pending = true;
  core_guard_reset(cpu);
}

uint64_t core_instret_now(const core_cpu *cpu) {
  if (!cpu->cur_blk)
    return cpu->instret;
  /* the block was charged in full on entry */
  uint32_t idx = (uint32_t)(cpu->cur_op - cpu->cur_blk->ops);
  return cpu->instret - (cpu->cur_blk->n_insns - cpu->cur_blk->insn_idx[idx]);
}

/* Cycles before the current instruction starts. */
uint64_t core_cycle_now(const core_cpu *cpu) {
  if (!cpu->tm)
    return core_instret_now(cpu) + cpu->idle_cycles;
  if (!cpu->cur_blk || !cpu->cur_blk->timing)
    return cpu->tm->cycle;
  const block_timing *bt = cpu->cur_blk->timing;
  uint32_t idx = (uint32_t)(cpu->cur_op - cpu->cur_blk->ops);
  /* an instruction's fetch stall is its own first part: it starts where
   * its first fetch op does, or where a miss of one of them noted
   * (timing.h, insn_start) */
  const core_op *ops = cpu->cur_blk->ops;
  if (idx > 0 && ops[idx - 1].kind == K_IFETCH) {
    uint32_t first = idx - 1;
    if (first > 0 && ops[first - 1].kind == K_IFETCH)
      first--;   /* an instruction across two lines has two fetch ops */
    const core_op *noted = cpu->tm->insn_start_op;
    if (noted >= ops + first && noted < ops + idx)
      return cpu->tm->insn_start;
    return cpu->tm->cycle - bt->static_cycles + bt->ops[first].end;
  }
  uint32_t start = bt->ops[idx].end - bt->ops[idx].cycles;
  return cpu->tm->cycle - bt->static_cycles + start;
}

uint64_t core_mtime_now(const core_cpu *cpu) {
  unsigned __int128 t = (unsigned __int128)core_cycle_now(cpu) * cpu->tick_num / cpu->tick_den;
  return (uint64_t)t + (uint64_t)cpu->mtime_adj;
}

void core_set_timing(core_cpu *cpu, timing *tm) {
  core_block_flush(cpu); /* blocks built for the other mode must go */
  timing_free(cpu->tm);
  cpu->tm = tm;
  if (tm) { /* a context's table of records until it has one (ctx_count.h) */
    tm->ctx_tab_zero = cpu->ctx_counts->tab_zero;
    if (!tm->ctx_tab)
      tm->ctx_tab = tm->ctx_tab_zero;
  }
  cpu->jump_align = tm && !(tm->model.isa & ISA_EXT_C) ? 2u : 0u;
  if (tm)
    core_guard_config(cpu, tm->model.triggers, tm->model.pmp_entries, tm->model.pmp_granularity,
                      tm->model.pmp_absent == PMU_ABSENT_ZERO);
  else
    core_guard_config(cpu, CORE_FUNCTIONAL_TRIGGERS, CORE_PMP_MAX, 4, true);
  double mhz = tm ? tm->freq_mhz : CORE_FUNCTIONAL_MHZ;
  cpu->tick_num = 10000; /* 10 MHz timebase over the clock in kHz */
  cpu->tick_den = (uint64_t)(mhz * 1000 + 0.5);
}

bool core_set_engine(core_cpu *cpu, bool jit, size_t code_bytes) {
  if (jit == (cpu->jit != NULL))
    return true;
  core_block_flush(cpu); /* no block keeps code of the other engine */
  if (!jit) {
    core_jit_free(cpu->jit);
    cpu->jit = NULL;
    return true;
  }
  cpu->jit = core_jit_new(code_bytes);
  return cpu->jit != NULL;
}

void core_set_clock(core_cpu *cpu, double freq_mhz, double voltage) {
  if (!cpu->tm)
    return;
  uint64_t before = core_mtime_now(cpu);
  timing_set_clock(cpu->tm, freq_mhz, voltage);
  core_note_tail(cpu, SIG_STALL_DVFS, cpu->tm->model.pll_relock_cycles);
  cpu->flush_pending = true; /* static fetch costs depend on the clock */
  cpu->tick_den = (uint64_t)(freq_mhz * 1000 + 0.5);
  cpu->mtime_adj += (int64_t)(before - core_mtime_now(cpu));
}

void core_note_tail(core_cpu *cpu, uint8_t sig, uint64_t cycles) {
  cpu->tail_pc = cpu->cur_blk ? cpu->cur_blk->pcs[cpu->cur_op - cpu->cur_blk->ops] : cpu->pc;
  cpu->tail_sig = sig;
  cpu->tail_cycles = cycles;
}

bool core_poll_stop_request(core_cpu *cpu) {
  if (!atomic_load_explicit(&cpu->stop_request, memory_order_relaxed))
    return false;
  if (cpu->stop == CORE_RUNNING)
    core_set_stop(cpu, CORE_STOP_LIMIT, "stopped on request");
  cpu->horizon = 0; /* the next block does not fit: the loop returns */
  return true;
}

void core_set_stop(core_cpu *cpu, core_stop why, const char *fmt, ...) {
  cpu->stop = why;
  cpu->horizon = 0; /* from a device or host call: no further block fits, the loop returns */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cpu->stop_detail, sizeof cpu->stop_detail, fmt, ap);
  va_end(ap);
}
