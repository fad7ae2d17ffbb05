/*
 * Exceptions, interrupts, mret and wfi: the machine-mode trap rules of the
 * privileged spec, for a hart with M-mode only.
 *
 * A trap the program cannot handle stops the run instead of spinning: its
 * vector is not in RAM (mtvec never set), or the trap happened on the very
 * first instruction of the handler (the handler itself is broken).
 */
#include "../timing/regions.h"
#include "../timing/timing.h"
#include "cpu.h"

static uint32_t vector_base(const core_cpu *cpu) { return cpu->mtvec & ~3u; }

static bool in_ram(const core_cpu *cpu, uint32_t addr) {
  return addr - cpu->ram_base < cpu->ram_size;
}

/* The trap's penalty goes to the trapping instruction (exceptions) or to
 * the handler's first instruction (interrupts); the profile's shadow stack
 * enters the handler. */
static void charge_trap(core_cpu *cpu, bool interrupt, uint32_t pc, uint32_t handler, uint32_t cause) {
  timing *tm = cpu->tm;
  timing_region_enter(tm, interrupt ? handler : pc); /* range counters (regions.h) */
  if (tm->prof) {
    core_fold_context(cpu); /* the context being left gets its counts (profile.h) */
    if (interrupt)
      tm->flow->trap(tm->prof, pc, handler, cpu->x[2], cause, tm->cycle);
    tm->prof_row = timing_row(tm, interrupt ? handler : pc);
  }
  if (cause == CAUSE_FETCH_MISALIGNED) /* a jump's (cpu.h, jump_align) */
    timing_jump_trap(tm, cpu->trap.insn);
  timing_trap(tm, interrupt);
  if (tm->prof && !interrupt)
    tm->flow->trap(tm->prof, pc, handler, cpu->x[2], cause, tm->cycle);
}

void core_raise(core_cpu *cpu, uint32_t cause, uint32_t tval, uint32_t pc) {
  bool interrupt = cause & (uint32_t)CAUSE_INTERRUPT;
  uint32_t base = vector_base(cpu);
  cpu->lr_valid = false;
  if (!interrupt) {
    cpu->trap = (core_trap_info){.cause = cause, .tval = tval, .pc = pc, .instret = cpu->instret};
    if (!core_fetch_insn(cpu, pc, &cpu->trap.insn))
      cpu->trap.insn = 0;
    if (!in_ram(cpu, base)) {
      core_set_stop(cpu, CORE_STOP_TRAP, "no trap handler (mtvec = 0x%08x)", cpu->mtvec);
      cpu->pc = pc;
      return;
    }
    if (pc == base) {
      core_set_stop(cpu, CORE_STOP_TRAP, "trap inside the trap handler's first instruction");
      cpu->pc = pc;
      return;
    }
  }
  cpu->traps++; /* what ends a step (core_step) */
  if (cpu->tm)
    charge_trap(cpu, interrupt, pc, base, cause);
  cpu->mepc = pc & ~1u;
  cpu->mcause = cause;
  cpu->mtval = tval;
  uint32_t s = cpu->mstatus;
  s = (s & ~MSTATUS_MPIE) | ((s & MSTATUS_MIE) ? MSTATUS_MPIE : 0);
  cpu->mstatus = (s & ~MSTATUS_MIE) | MSTATUS_MPP;
  cpu->pc = base;
  if (interrupt && (cpu->mtvec & 3u) == 1u)
    cpu->pc = base + 4u * (cause & 0x7fffffffu);
  /* taken between instructions: the cycle count is exact (the penalty in it) */
  if (interrupt && cpu->bus->interrupt_entry)
    cpu->bus->interrupt_entry(cpu, cause, cpu->tm ? cpu->tm->cycle : cpu->instret + cpu->idle_cycles);
}

uint32_t core_mip(const core_cpu *cpu) {
  uint32_t mip = cpu->mip_soft;
  if (core_mtime_now(cpu) >= cpu->mtimecmp)
    mip |= MIP_MTIP;
  return mip;
}

bool core_interrupt_due(const core_cpu *cpu) {
  return (cpu->mstatus & MSTATUS_MIE) && (core_mip(cpu) & cpu->mie);
}

bool core_take_interrupt(core_cpu *cpu) {
  if (!(cpu->mstatus & MSTATUS_MIE))
    return false;
  uint32_t pending = core_mip(cpu) & cpu->mie;
  static const uint8_t priority[] = {IRQ_MEI, IRQ_MSI, IRQ_MTI};
  for (unsigned i = 0; i < sizeof priority; i++) {
    if (pending & (1u << priority[i])) {
      core_raise(cpu, (uint32_t)CAUSE_INTERRUPT | priority[i], 0, cpu->pc);
      return true;
    }
  }
  return false;
}

void core_mret(core_cpu *cpu) {
  if (cpu->tm && cpu->tm->prof) {
    core_fold_context(cpu);
    cpu->tm->flow->trap_return(cpu->tm->prof, cpu->mepc, cpu->tm->cycle);
  }
  uint32_t s = cpu->mstatus;
  s = (s & ~MSTATUS_MIE) | ((s & MSTATUS_MPIE) ? MSTATUS_MIE : 0);
  cpu->mstatus = s | MSTATUS_MPIE | MSTATUS_MPP;
  cpu->pc = cpu->mepc;
}

/* The cycle count at which mtime reaches mtimecmp, or UINT64_MAX. */
uint64_t core_timer_due_cycle(const core_cpu *cpu) {
  __int128 ticks = (__int128)cpu->mtimecmp - cpu->mtime_adj;
  if (ticks <= 0)
    return 0;
  /* smallest cycle c with c * num / den >= ticks */
  __int128 c = (ticks * (__int128)cpu->tick_den + (__int128)cpu->tick_num - 1) / (__int128)cpu->tick_num;
  return c > (__int128)(UINT64_MAX / 2) ? UINT64_MAX : (uint64_t)c;
}

/* wfi sleeps until the timer interrupt (if enabled in mie) or the board's
 * next event (if external interrupts are enabled in mie), whichever comes
 * first: an event that raises no interrupt ends the sleep too (a wfi may
 * complete for any reason; programs wait in a loop). */
void core_wfi(core_cpu *cpu) {
  if (core_mip(cpu) & cpu->mie)
    return;
  if (cpu->mie & (MIP_MTIP | MIP_MEIP)) {
    uint64_t due = cpu->mie & MIP_MTIP ? core_timer_due_cycle(cpu) : UINT64_MAX, now = core_cycle_now(cpu);
    if ((cpu->mie & MIP_MEIP) && cpu->ext_due < due)
      due = cpu->ext_due;
    if (due != UINT64_MAX) {
      if (cpu->max_cycles && due > cpu->max_cycles) /* the run ends there: the sleep too */
        due = cpu->max_cycles;
      if (due > now) {
        if (cpu->tm && cpu->tm->prof && cpu->cur_blk)
          cpu->tm->prof_row = timing_row(cpu->tm, cpu->cur_blk->pcs[cpu->cur_op - cpu->cur_blk->ops]);
        if (cpu->tm) {
          timing_idle(cpu->tm, due - now);
          core_note_tail(cpu, SIG_WFI_IDLE, due - now);
        }
        else
          cpu->idle_cycles += due - now;
      }
      return;
    }
  }
  core_set_stop(cpu, CORE_STOP_HALT,
                "wfi with no enabled interrupt that could ever wake the hart (mie = 0x%08x)", cpu->mie);
}
