/*
 * Debug triggers (Sdtrig 1.0, type 2 "mcontrol" address triggers) and
 * physical memory protection (the privileged spec's PMP) for a hart with
 * machine mode only. cpu.h says how they stay out of the hot loop.
 *
 * Triggers: tselect (0x7a0), tdata1 (0x7a1), tdata2 (0x7a2), tdata3
 * (0x7a3, reads 0), tinfo (0x7a4: types 2 and 15, version 1). A type-2
 * trigger matches on execute (the instruction's address), load or store
 * (the address of any byte the access touches), compared with tdata2 by
 * match 0 (equal), 2 (>=) or 3 (<); chain joins a trigger to the next
 * (the chain fires when all of them match, with the last one's action).
 * It fires before the instruction: action 0 raises a breakpoint exception
 * (mcause 3, mtval the matching address), and only while mstatus.MIE is 1
 * (the spec's answer to re-entrancy for a hart without tcontrol); action 1
 * (enter debug mode, a trigger the debugger owns: dmode 1) stops the run
 * for the debugger. hit is set when a trigger fires. Not supported, read
 * back as 0 (WARL): select (data match), timing 1 (after), sizelo, the
 * NAPOT and mask matches (maskmax 0), the s and u bits.
 *
 * PMP: pmpcfg0-3 (0x3a0-0x3a3) and pmpaddr0-15 (0x3b0-0x3bf); OFF, TOR,
 * NA4 and NAPOT; granularity 2^(G+2) bytes (NA4 is not selectable when
 * G >= 1 and writes as OFF); a locked entry ignores writes to its cfg and
 * address (and to the address below it when it is TOR). In machine mode
 * only locked entries are enforced: the lowest-numbered entry that matches
 * any byte of an access decides, and must match all of them.
 */
#include <string.h>

#include "cpu.h"

#define TDATA1_TYPE_SHIFT 28
#define TYPE_MCONTROL 2u
#define TYPE_DISABLED 15u
#define MC_DMODE (1u << 27)
#define MC_HIT (1u << 20)
#define MC_ACTION_SHIFT 12
#define MC_ACTION (15u << MC_ACTION_SHIFT)
#define MC_CHAIN (1u << 11)
#define MC_MATCH_SHIFT 7
#define MC_MATCH (15u << MC_MATCH_SHIFT)
#define MC_M (1u << 6)
#define MC_EXECUTE (1u << 2)
#define MC_STORE (1u << 1)
#define MC_LOAD (1u << 0)
#define TINFO_VALUE (1u << 24 | 1u << TYPE_DISABLED | 1u << TYPE_MCONTROL)
#define TDATA1_RESET (TYPE_MCONTROL << TDATA1_TYPE_SHIFT)

#define PMP_R 0x01u
#define PMP_W 0x02u
#define PMP_X 0x04u
#define PMP_A 0x18u
#define PMP_L 0x80u
enum { PMP_OFF = 0, PMP_TOR = 1, PMP_NA4 = 2, PMP_NAPOT = 3 };

static unsigned pmp_mode(uint8_t cfg) { return (cfg & PMP_A) >> 3; }

static void update_guard(core_cpu *cpu) {
  bool on = false;
  for (unsigned i = 0; i < cpu->n_triggers && !on; i++) {
    uint32_t t = cpu->trig[i].tdata1;
    on = t >> TDATA1_TYPE_SHIFT == TYPE_MCONTROL && (t & MC_M) && (t & (MC_EXECUTE | MC_LOAD | MC_STORE));
  }
  for (unsigned i = 0; i < cpu->pmp_entries && !on; i++)
    on = (cpu->pmpcfg[i] & PMP_L) && pmp_mode(cpu->pmpcfg[i]) != PMP_OFF;
  cpu->guard = on;
}

void core_guard_reset(core_cpu *cpu) {
  cpu->tselect = 0;
  for (unsigned i = 0; i < CORE_TRIGGERS_MAX; i++)
    cpu->trig[i] = (core_trigger){i < cpu->n_triggers ? TDATA1_RESET : 0, 0};
  memset(cpu->pmpcfg, 0, sizeof cpu->pmpcfg);
  memset(cpu->pmpaddr, 0, sizeof cpu->pmpaddr);
  memset(&cpu->debug_hit, 0, sizeof cpu->debug_hit);
  cpu->debug_skip = false;
  update_guard(cpu);
}

void core_guard_config(core_cpu *cpu, unsigned triggers, unsigned pmp_entries, unsigned pmp_granularity,
                       bool pmp_absent_zero) {
  cpu->n_triggers = (uint8_t)(triggers > CORE_TRIGGERS_MAX ? CORE_TRIGGERS_MAX : triggers);
  cpu->pmp_entries = (uint8_t)(pmp_entries > CORE_PMP_MAX ? CORE_PMP_MAX : pmp_entries);
  unsigned g = 0;
  while (g < 30 && (4u << g) < pmp_granularity)
    g++;
  cpu->pmp_g = (uint8_t)g;
  cpu->pmp_absent_zero = pmp_absent_zero;
  core_guard_reset(cpu);
}

bool core_guard_csr_kind(const core_cpu *cpu, unsigned csr, int *access) {
  if ((csr >= 0x3a0 && csr <= 0x3a3) || (csr >= 0x3b0 && csr <= 0x3bf)) {
    *access = cpu->pmp_entries || cpu->pmp_absent_zero ? 2 : 0;
    return true;
  }
  if (csr >= 0x7a0 && csr <= 0x7a4) {
    *access = cpu->n_triggers ? 2 : 0;
    return true;
  }
  return false;
}

/* pmpaddr as read: with G >= 2 NAPOT shows ones below bit G-1; with G >= 1
 * OFF and TOR show zeros in bits G-1..0. */
static uint32_t pmpaddr_read(const core_cpu *cpu, unsigned i) {
  uint32_t v = cpu->pmpaddr[i];
  unsigned g = cpu->pmp_g;
  if (g == 0)
    return v;
  if (pmp_mode(cpu->pmpcfg[i]) == PMP_NAPOT)
    return g >= 2 ? v | ((1u << (g - 1)) - 1) : v;
  return v & ~((1u << g) - 1);
}

uint32_t core_guard_csr_read(const core_cpu *cpu, unsigned csr) {
  if (csr >= 0x3a0 && csr <= 0x3a3) {
    if (!cpu->pmp_entries)
      return 0;
    unsigned b = (csr - 0x3a0) * 4;
    return (uint32_t)cpu->pmpcfg[b] | (uint32_t)cpu->pmpcfg[b + 1] << 8 | (uint32_t)cpu->pmpcfg[b + 2] << 16 |
           (uint32_t)cpu->pmpcfg[b + 3] << 24;
  }
  if (csr >= 0x3b0 && csr <= 0x3bf)
    return cpu->pmp_entries ? pmpaddr_read(cpu, csr - 0x3b0) : 0;
  switch (csr) {
  case 0x7a0: return cpu->tselect;
  case 0x7a1: return cpu->trig[cpu->tselect].tdata1;
  case 0x7a2: return cpu->trig[cpu->tselect].tdata2;
  case 0x7a4: return TINFO_VALUE;
  default: return 0; /* tdata3 */
  }
}

static bool pmp_locked(const core_cpu *cpu, unsigned i) { return (cpu->pmpcfg[i] & PMP_L) != 0; }

static void pmpcfg_write(core_cpu *cpu, unsigned i, uint8_t v) {
  if (pmp_locked(cpu, i))
    return;
  v &= PMP_L | PMP_A | PMP_X | PMP_W | PMP_R; /* bits 6:5 are reserved */
  if ((v & PMP_W) && !(v & PMP_R))
    v &= (uint8_t)~PMP_W; /* R=0 W=1 is reserved */
  if (cpu->pmp_g >= 1 && pmp_mode(v) == PMP_NA4)
    v &= (uint8_t)~PMP_A; /* NA4 is not selectable */
  cpu->pmpcfg[i] = v;
}

static void pmpaddr_write(core_cpu *cpu, unsigned i, uint32_t v) {
  if (pmp_locked(cpu, i))
    return;
  if (i + 1 < cpu->pmp_entries && pmp_locked(cpu, i + 1) && pmp_mode(cpu->pmpcfg[i + 1]) == PMP_TOR)
    return;
  if (cpu->pmp_g >= 2)
    v &= ~((1u << (cpu->pmp_g - 1)) - 1); /* bits below G-1 are not stored */
  cpu->pmpaddr[i] = v;
}

static uint32_t tdata1_legal(const core_cpu *cpu, uint32_t v, bool debugger) {
  uint32_t type = v >> TDATA1_TYPE_SHIFT;
  if (type != TYPE_MCONTROL)
    return TYPE_DISABLED << TDATA1_TYPE_SHIFT;
  uint32_t out = TYPE_MCONTROL << TDATA1_TYPE_SHIFT;
  bool dmode = debugger && (v & MC_DMODE);
  if (dmode)
    out |= MC_DMODE;
  out |= v & (MC_HIT | MC_M | MC_EXECUTE | MC_STORE | MC_LOAD);
  uint32_t action = (v & MC_ACTION) >> MC_ACTION_SHIFT;
  if (action == 1 && dmode)
    out |= 1u << MC_ACTION_SHIFT;
  uint32_t match = (v & MC_MATCH) >> MC_MATCH_SHIFT;
  if (match == 2 || match == 3)
    out |= match << MC_MATCH_SHIFT;
  if ((v & MC_CHAIN) && cpu->tselect + 1u < cpu->n_triggers)
    out |= MC_CHAIN;
  return out;
}

void core_guard_csr_write(core_cpu *cpu, unsigned csr, uint32_t v, bool debugger) {
  if (csr >= 0x3a0 && csr <= 0x3a3) {
    if (!cpu->pmp_entries)
      return;
    for (unsigned k = 0; k < 4; k++)
      pmpcfg_write(cpu, (csr - 0x3a0) * 4 + k, (uint8_t)(v >> (8 * k)));
  } else if (csr >= 0x3b0 && csr <= 0x3bf) {
    if (!cpu->pmp_entries)
      return;
    pmpaddr_write(cpu, csr - 0x3b0, v);
  } else if (csr == 0x7a0) {
    if (v < cpu->n_triggers)
      cpu->tselect = v;
  } else if (csr == 0x7a1 || csr == 0x7a2) {
    core_trigger *t = &cpu->trig[cpu->tselect];
    if ((t->tdata1 & MC_DMODE) && !debugger)
      return; /* the debugger's trigger */
    if (csr == 0x7a1)
      t->tdata1 = tdata1_legal(cpu, v, debugger);
    else
      t->tdata2 = v;
  }
  update_guard(cpu);
}

/* ------------------------------------------------------------- matching */

/* Whether [addr, addr + len) and PMP entry i: 0 no byte, 1 some, 2 all. */
static int pmp_match(const core_cpu *cpu, unsigned i, uint64_t addr, uint64_t len) {
  uint64_t lo, hi; /* [lo, hi) */
  uint32_t a = pmpaddr_read(cpu, i);
  switch (pmp_mode(cpu->pmpcfg[i])) {
  case PMP_TOR:
    lo = i ? (uint64_t)(cpu->pmpaddr[i - 1] & ~((1u << cpu->pmp_g) - 1)) << 2 : 0;
    hi = (uint64_t)a << 2;
    break;
  case PMP_NA4:
    lo = (uint64_t)a << 2;
    hi = lo + 4;
    break;
  case PMP_NAPOT: {
    if (a == UINT32_MAX) { /* the whole 34-bit space */
      lo = 0;
      hi = (uint64_t)1 << 34;
    } else {
      uint64_t size = (uint64_t)8 << __builtin_ctz(~a); /* trailing ones */
      lo = ((uint64_t)a << 2) & ~(size - 1);
      hi = lo + size;
    }
    break;
  }
  default:
    return 0;
  }
  uint64_t end = addr + len;
  if (end <= lo || addr >= hi || lo >= hi)
    return 0;
  return addr >= lo && end <= hi ? 2 : 1;
}

bool core_pmp_allows(const core_cpu *cpu, uint32_t addr, uint32_t len, char what) {
  for (unsigned i = 0; i < cpu->pmp_entries; i++) {
    int m = pmp_match(cpu, i, addr, len);
    if (!m)
      continue;
    if (m == 1)
      return false; /* only part of the access */
    uint8_t c = cpu->pmpcfg[i];
    if (!(c & PMP_L))
      return true;  /* machine mode: unlocked entries do not bind */
    switch (what) {
    case 'r': return (c & PMP_R) != 0;
    case 'w': return (c & PMP_W) != 0;
    case 'x': return (c & PMP_X) != 0;
    default: return (c & PMP_R) && (c & PMP_W);
    }
  }
  return true;
}

/* Whether trigger t matches an access of kind ('x', 'r', 'w', 'a') to
 * [addr, addr + len); *at is the address that matched. */
static bool trigger_matches(const core_trigger *t, char kind, uint32_t addr, uint32_t len, uint32_t *at) {
  uint32_t d = t->tdata1;
  if (d >> TDATA1_TYPE_SHIFT != TYPE_MCONTROL || !(d & MC_M))
    return false;
  bool want = kind == 'x' ? (d & MC_EXECUTE) : kind == 'r' ? (d & MC_LOAD)
            : kind == 'w' ? (d & MC_STORE) : (d & (MC_LOAD | MC_STORE));
  if (!want)
    return false;
  uint64_t first = addr, last = (uint64_t)addr + len - 1, v = t->tdata2;
  switch ((d & MC_MATCH) >> MC_MATCH_SHIFT) {
  case 0:
    if (v < first || v > last) return false;
    *at = (uint32_t)v;
    return true;
  case 2:
    if (last < v) return false;
    *at = first >= v ? addr : (uint32_t)v;
    return true;
  case 3:
    if (first >= v) return false;
    *at = addr;
    return true;
  default:
    return false;
  }
}

/* The triggers of one access, chains whole. Returns true when the
 * instruction must not run. */
static bool fire_triggers(core_cpu *cpu, char kind, uint32_t addr, uint32_t len, bool skip_debug) {
  int exc = -1;
  uint32_t exc_at = 0;
  for (unsigned i = 0; i < cpu->n_triggers;) {
    unsigned j = i;
    while (j + 1 < cpu->n_triggers && (cpu->trig[j].tdata1 & MC_CHAIN))
      j++;
    bool all = true;
    uint32_t at = addr;
    for (unsigned k = i; k <= j && all; k++) {
      uint32_t a;
      all = trigger_matches(&cpu->trig[k], kind, addr, len, &a);
      if (all && k == i)
        at = a;
    }
    if (all) {
      uint32_t action = (cpu->trig[j].tdata1 & MC_ACTION) >> MC_ACTION_SHIFT;
      if (action == 1 && !skip_debug) {
        for (unsigned k = i; k <= j; k++)
          cpu->trig[k].tdata1 |= MC_HIT;
        cpu->debug_hit = (core_debug_hit){true, j, kind, cpu->pc, at, cpu->instret};
        cpu->debug_skip = true;
        core_set_stop(cpu, CORE_STOP_LIMIT, "debug trigger %u", j);
        return true;
      }
      if (action == 0 && (cpu->mstatus & MSTATUS_MIE) && exc < 0) {
        for (unsigned k = i; k <= j; k++)
          cpu->trig[k].tdata1 |= MC_HIT;
        exc = (int)j;
        exc_at = at;
      }
    }
    i = j + 1;
  }
  if (exc >= 0) {
    core_raise(cpu, CAUSE_BREAKPOINT, exc_at, cpu->pc);
    return true;
  }
  return false;
}

bool core_guard_check(core_cpu *cpu) {
  uint32_t pc = cpu->pc;
  bool skip = cpu->debug_skip && cpu->debug_hit.pc == pc && cpu->debug_hit.instret == cpu->instret;
  cpu->debug_skip = false;
  if (cpu->n_triggers && fire_triggers(cpu, 'x', pc, 1, skip))
    return true;
  uint32_t bits;
  uint16_t lo;
  if (!core_read_mem(cpu, pc, &lo, 2))
    return false; /* the fetch faults as it runs */
  unsigned len = isa_insn_len(lo);
  if (!core_pmp_allows(cpu, pc, len, 'x')) {
    core_raise(cpu, CAUSE_FETCH_ACCESS, pc, pc);
    return true;
  }
  if (!core_fetch_insn(cpu, pc, &bits))
    return false;
  isa_insn in;
  isa_decode(bits, &in);
  uint32_t base = cpu->x[in.rs1], addr = base + (uint32_t)in.imm, size;
  char kind;
  switch (in.kind) {
  case K_LB: case K_LBU: kind = 'r'; size = 1; break;
  case K_LH: case K_LHU: kind = 'r'; size = 2; break;
  case K_LW: kind = 'r'; size = 4; break;
  case K_SB: kind = 'w'; size = 1; break;
  case K_SH: kind = 'w'; size = 2; break;
  case K_SW: kind = 'w'; size = 4; break;
  case K_LR_W: kind = 'r'; size = 4; addr = base; break;
  case K_SC_W: kind = 'w'; size = 4; addr = base; break;
  case K_AMOSWAP: case K_AMOADD: case K_AMOXOR: case K_AMOAND: case K_AMOOR:
  case K_AMOMIN: case K_AMOMAX: case K_AMOMINU: case K_AMOMAXU:
    kind = 'a'; size = 4; addr = base; break;
  default:
    return false;
  }
  if (cpu->n_triggers && fire_triggers(cpu, kind, addr, size, skip))
    return true;
  bool atomic = in.kind == K_LR_W || in.kind == K_SC_W || kind == 'a';
  if (atomic && (addr & 3))
    return false; /* misaligned: that exception comes first */
  if (!core_pmp_allows(cpu, addr, size, kind)) {
    bool load = kind == 'r';
    core_raise(cpu, load ? CAUSE_LOAD_ACCESS : CAUSE_STORE_ACCESS, addr, pc);
    return true;
  }
  return false;
}
