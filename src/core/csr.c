/*
 * Machine-mode CSRs of an RV32IMAC hart with no S or U mode. Reads of the
 * counters are exact at the instruction that reads them (the fast loop syncs
 * its position before calling here). Unknown CSRs, and writes to read-only
 * ones, are illegal instructions. The hardware performance counters belong
 * to the timing model (src/timing/pmu.h); mcycle, minstret and their bits
 * of mcountinhibit are kept here, since they exist without a core model.
 */
#include "../timing/timing.h"
#include "cpu.h"

#define MISA_VALUE (1u << 30 | 1u << ('A' - 'A') | 1u << ('C' - 'A') | 1u << ('I' - 'A') | 1u << ('M' - 'A'))
#define MIE_WRITABLE (MIP_MSIP | MIP_MTIP | MIP_MEIP)

typedef enum { CSR_NONE, CSR_RO, CSR_RW } csr_access;

static csr_access csr_kind(const core_cpu *cpu, unsigned csr) {
  int guard;
  if (core_guard_csr_kind(cpu, csr, &guard)) /* triggers, PMP */
    return (csr_access)guard;
  if (cpu->tm) {
    switch (pmu_csr_access_of(&cpu->tm->pmu, csr)) {
    case PMU_ILLEGAL: return CSR_NONE;
    case PMU_READ_ONLY: return CSR_RO;
    case PMU_READ_WRITE: return CSR_RW;
    case PMU_NOT_MINE: break;
    }
  }
  switch (csr) {
  case 0x300: case 0x301: case 0x304: case 0x305: case 0x310: case 0x320:
  case 0x340: case 0x341: case 0x342: case 0x343: case 0x344:
  case 0xb00: case 0xb02: case 0xb80: case 0xb82:
    return CSR_RW;
  case 0xc00: case 0xc01: case 0xc02: case 0xc80: case 0xc81: case 0xc82:
  case 0xf11: case 0xf12: case 0xf13: case 0xf14: case 0xf15:
    return CSR_RO;
  default:
    break;
  }
  /* without a core model, hpm counters and events exist and read zero */
  if ((csr >= 0xb03 && csr <= 0xb1f) || (csr >= 0xb83 && csr <= 0xb9f) ||
      (csr >= 0x323 && csr <= 0x33f))
    return CSR_RW;
  if ((csr >= 0xc03 && csr <= 0xc1f) || (csr >= 0xc83 && csr <= 0xc9f))
    return CSR_RO;
  return CSR_NONE;
}

static uint64_t mcycle_now(const core_cpu *cpu) {
  if (cpu->mcountinhibit & INHIBIT_CY)
    return cpu->mcycle_frozen;
  return core_cycle_now(cpu) + (uint64_t)cpu->mcycle_adj;
}

static uint64_t minstret_now(const core_cpu *cpu) {
  if (cpu->mcountinhibit & INHIBIT_IR)
    return cpu->minstret_frozen;
  return core_instret_now(cpu) + (uint64_t)cpu->minstret_adj;
}

static bool pmu_on(const core_cpu *cpu) { return cpu->tm && cpu->tm->pmu.n; }

/* misa: the extensions of the core model ([core] isa); PicoRV32 has no A
 * (nor misa itself: only a debugger reads this there) */
static uint32_t misa_value(const core_cpu *cpu) {
  uint32_t v = MISA_VALUE;
  if (!cpu->tm)
    return v;
  core_isa isa = cpu->tm->model.isa;
  if (!(isa & ISA_EXT_M))
    v &= ~(1u << ('M' - 'A'));
  if (!(isa & ISA_EXT_A) || cpu->tm->pico)
    v &= ~(1u << ('A' - 'A'));
  if (!(isa & ISA_EXT_C))
    v &= ~(1u << ('C' - 'A'));
  return v;
}

static uint32_t csr_read(const core_cpu *cpu, unsigned csr) {
  int guard;
  if (core_guard_csr_kind(cpu, csr, &guard))
    return core_guard_csr_read(cpu, csr);
  if (cpu->tm && pmu_csr_access_of(&cpu->tm->pmu, csr) != PMU_NOT_MINE && csr != PMU_CSR_INHIBIT)
    return pmu_csr_read(&cpu->tm->pmu, csr);
  uint64_t cyc = mcycle_now(cpu);
  uint64_t ins = minstret_now(cpu);
  if (cpu->tm && cpu->tm->pico && (csr & 0xf7fu) <= 0xc02 && (csr & 0xf7fu) >= 0xc00) {
    /* PicoRV32's counters (its only CSRs) count from reset: the cycles
     * before the first instruction's launch (its fetch: 3 + W) and the
     * one from the launch to ld_rs1, where the read is; instret counts
     * the reading instruction. rdtime reads the cycle counter. */
    cyc += 4 + cpu->tm->model.wait_states;
    ins += 1;
    if ((csr & 0xf7fu) == 0xc01)
      csr -= 1;
  }
  switch (csr) {
  case 0x300: return cpu->mstatus;
  case 0x301: return misa_value(cpu);
  case 0x304: return cpu->mie;
  case 0x305: return cpu->mtvec;
  case 0x340: return cpu->mscratch;
  case 0x341: return cpu->mepc;
  case 0x342: return cpu->mcause;
  case 0x343: return cpu->mtval;
  case 0x344: return core_mip(cpu);
  case 0x320: return cpu->mcountinhibit | (pmu_on(cpu) ? pmu_csr_read(&cpu->tm->pmu, csr) : 0);
  case 0xb00: case 0xc00: return (uint32_t)cyc;
  case 0xb80: case 0xc80: return (uint32_t)(cyc >> 32);
  case 0xb02: case 0xc02: return (uint32_t)ins;
  case 0xb82: case 0xc82: return (uint32_t)(ins >> 32);
  case 0xc01: return (uint32_t)core_mtime_now(cpu);
  case 0xc81: return (uint32_t)(core_mtime_now(cpu) >> 32);
  default: return 0; /* mvendorid, marchid, mimpid, mhartid, hpm*, ... */
  }
}

/* A write to a counter sets the value it has after this instruction. */
static int64_t counter_adj(uint64_t now_after, uint64_t old_value, uint32_t v, bool high) {
  uint64_t want = high ? (old_value & 0xffffffffu) | (uint64_t)v << 32
                       : (old_value & ~(uint64_t)0xffffffffu) | v;
  return (int64_t)(want - now_after);
}

/* The cycle and instruction counts when the current instruction ends: a
 * CSR instruction ends its block, whose static cycles were charged on
 * entry; without a core model every instruction is one cycle. */
static uint64_t cycle_after(const core_cpu *cpu) { return cpu->tm ? cpu->tm->cycle : core_cycle_now(cpu) + 1; }
static uint64_t instret_after(const core_cpu *cpu) { return core_instret_now(cpu) + 1; }

/* When a write takes effect and what the counters read before it: for a
 * csr instruction, when it ends (cycle_after, instret_after); for a
 * debugger between two instructions, at once. */
typedef struct csr_moment {
  uint64_t cycle, instret;          /* the core's counts when the write takes effect */
  uint64_t mcycle_old, minstret_old; /* mcycle and minstret before it (unless inhibited) */
} csr_moment;

/* mcountinhibit's CY and IR bits take effect at the moment: an inhibit
 * freezes the value the counter has then, a resume counts on from it. */
static void write_inhibit(core_cpu *cpu, uint32_t v, const csr_moment *m) {
  uint32_t now = v & (INHIBIT_CY | INHIBIT_IR), was = cpu->mcountinhibit;
  uint64_t cyc = m->cycle, ins = m->instret;
  if ((now ^ was) & INHIBIT_CY) {
    if (now & INHIBIT_CY)
      cpu->mcycle_frozen = cyc + (uint64_t)cpu->mcycle_adj;
    else
      cpu->mcycle_adj = (int64_t)(cpu->mcycle_frozen - cyc);
  }
  if ((now ^ was) & INHIBIT_IR) {
    if (now & INHIBIT_IR)
      cpu->minstret_frozen = ins + (uint64_t)cpu->minstret_adj;
    else
      cpu->minstret_adj = (int64_t)(cpu->minstret_frozen - ins);
  }
  cpu->mcountinhibit = now;
  if (pmu_on(cpu))
    pmu_csr_write(&cpu->tm->pmu, PMU_CSR_INHIBIT, v);
}

/* Replaces the low or high half of a 64-bit counter value. */
static uint64_t with_half(uint64_t old, uint32_t v, bool high) {
  return high ? (old & 0xffffffffu) | (uint64_t)v << 32 : (old & ~(uint64_t)0xffffffffu) | v;
}

static void csr_write(core_cpu *cpu, unsigned csr, uint32_t v, const csr_moment *m, bool debugger) {
  int guard;
  if (core_guard_csr_kind(cpu, csr, &guard)) {
    core_guard_csr_write(cpu, csr, v, debugger);
    return;
  }
  if (cpu->tm && pmu_csr_access_of(&cpu->tm->pmu, csr) != PMU_NOT_MINE && csr != PMU_CSR_INHIBIT) {
    pmu_csr_write(&cpu->tm->pmu, csr, v);
    return;
  }
  switch (csr) {
  case 0x300: cpu->mstatus = (v & (MSTATUS_MIE | MSTATUS_MPIE)) | MSTATUS_MPP; break;
  case 0x304: cpu->mie = v & MIE_WRITABLE; break;
  case 0x305: cpu->mtvec = v & ~2u; break; /* modes 0 (direct) and 1 (vectored) */
  case 0x340: cpu->mscratch = v; break;
  case 0x341: cpu->mepc = v & ~1u; break;
  case 0x342: cpu->mcause = v; break;
  case 0x343: cpu->mtval = v; break;
  case 0x320: write_inhibit(cpu, v, m); break;
  case 0xb00: case 0xb80: {
    if (cpu->mcountinhibit & INHIBIT_CY) {
      cpu->mcycle_frozen = with_half(cpu->mcycle_frozen, v, csr == 0xb80);
      break;
    }
    cpu->mcycle_adj = counter_adj(m->cycle, m->mcycle_old, v, csr == 0xb80);
    break;
  }
  case 0xb02: case 0xb82: {
    if (cpu->mcountinhibit & INHIBIT_IR) {
      cpu->minstret_frozen = with_half(cpu->minstret_frozen, v, csr == 0xb82);
      break;
    }
    cpu->minstret_adj = counter_adj(m->instret, m->minstret_old, v, csr == 0xb82);
    break;
  }
  default: break; /* WARL fields hardwired: misa, mip, hpm without a core model */
  }
}

bool core_csr_peek(const core_cpu *cpu, unsigned csr, uint32_t *v) {
  csr &= 0xfff;
  if (csr_kind(cpu, csr) == CSR_NONE)
    return false;
  /* the hpm counters are exact only inside a PMU step (pmu.h) */
  if (cpu->tm && pmu_csr_access_of(&cpu->tm->pmu, csr) != PMU_NOT_MINE && csr != PMU_CSR_INHIBIT &&
      (csr & ~0x1fu) != 0x320)
    return false;
  *v = csr_read(cpu, csr);
  return true;
}

/* Between two instructions the core's counts are its totals so far. */
static csr_moment moment_between(const core_cpu *cpu) {
  uint64_t cyc = cpu->tm ? cpu->tm->cycle : cpu->instret + cpu->idle_cycles;
  return (csr_moment){cyc, cpu->instret, cyc + (uint64_t)cpu->mcycle_adj, cpu->instret + (uint64_t)cpu->minstret_adj};
}

/* The PMU reads and writes at an instruction boundary whose totals it is
 * handed, as it does around a stepped instruction (pmu.h): a boundary is
 * a step of no cycles. */
bool core_csr_debug_read(core_cpu *cpu, unsigned csr, const uint64_t *totals, uint32_t *v) {
  csr &= 0xfff;
  if (csr_kind(cpu, csr) == CSR_NONE)
    return false;
  if (cpu->tm)
    pmu_step_begin(&cpu->tm->pmu, totals);
  if ((csr & 0xf7fu) == 0xb00 || (csr & 0xf7fu) == 0xc00) { /* mcycle[h], cycle[h]: at the boundary */
    csr_moment m = moment_between(cpu);
    uint64_t c = cpu->mcountinhibit & INHIBIT_CY ? cpu->mcycle_frozen : m.mcycle_old;
    *v = csr & 0x80u ? (uint32_t)(c >> 32) : (uint32_t)c;
  } else if ((csr & 0xf7fu) == 0xb02 || (csr & 0xf7fu) == 0xc02) {
    csr_moment m = moment_between(cpu);
    uint64_t c = cpu->mcountinhibit & INHIBIT_IR ? cpu->minstret_frozen : m.minstret_old;
    *v = csr & 0x80u ? (uint32_t)(c >> 32) : (uint32_t)c;
  } else {
    *v = csr_read(cpu, csr);
  }
  if (cpu->tm)
    pmu_step_end(&cpu->tm->pmu, totals);
  return true;
}

bool core_csr_debug_write(core_cpu *cpu, unsigned csr, uint32_t v, const uint64_t *totals) {
  csr &= 0xfff;
  if (csr_kind(cpu, csr) != CSR_RW || (csr >> 10) == 3)
    return false;
  csr_moment m = moment_between(cpu);
  if (cpu->tm)
    pmu_step_begin(&cpu->tm->pmu, totals);
  csr_write(cpu, csr, v, &m, true);
  if (cpu->tm)
    pmu_step_end(&cpu->tm->pmu, totals);
  return true;
}

/* Without a core model: mcycle[h] and cycle[h] count instructions (and
 * wfi's idle cycles), the hpm counters read 0. */
static bool counts_no_cycles(unsigned csr) {
  unsigned c = csr & 0xf7fu; /* the high halves as the low */
  return c == 0xb00 || c == 0xc00 || (c >= 0xb03 && c <= 0xb1f) || (c >= 0xc03 && c <= 0xc1f);
}

bool core_csr_access(core_cpu *cpu, const core_op *op, uint32_t *rd_val) {
  unsigned csr = (unsigned)op->imm & 0xfff;
  csr_access acc = csr_kind(cpu, csr);
  bool imm_form = op->kind == K_CSRRWI || op->kind == K_CSRRSI || op->kind == K_CSRRCI;
  uint32_t src = imm_form ? op->rs1 : cpu->x[op->rs1];
  bool is_write = op->kind == K_CSRRW || op->kind == K_CSRRWI || op->rs1 != 0;
  if (acc == CSR_NONE || (is_write && (acc == CSR_RO || (csr >> 10) == 3)))
    return false;
  uint32_t old = csr_read(cpu, csr);
  if (!cpu->tm && !cpu->untimed_csr && counts_no_cycles(csr)) {
    cpu->untimed_csr = csr;
    cpu->untimed_pc = cpu->cur_blk ? cpu->cur_blk->pcs[cpu->cur_op - cpu->cur_blk->ops] : cpu->pc;
  }
  if (is_write) {
    uint32_t v = src;
    if (op->kind == K_CSRRS || op->kind == K_CSRRSI) v = old | src;
    if (op->kind == K_CSRRC || op->kind == K_CSRRCI) v = old & ~src;
    /* the writing instruction itself does not count in minstret */
    uint64_t ins = instret_after(cpu);
    csr_moment m = {cycle_after(cpu), ins, mcycle_now(cpu), ins - 1 + (uint64_t)cpu->minstret_adj};
    csr_write(cpu, csr, v, &m, false);
  }
  *rd_val = old;
  return true;
}
