/*
 * The platform-level interrupt controller, at QEMU virt's layout (the RISC-V
 * PLIC specification's map): priorities at +0 (4 bytes a source), pending
 * bits at +0x1000, enable bits at +0x2000 (0x80 a context), threshold and
 * claim/complete at +0x200000 (0x1000 a context). Sources 1-95, priorities
 * 0-7, two contexts as QEMU virt gives hart 0 (M-mode, then S-mode); the
 * M-mode one drives mip.MEIP. Only 32-bit accesses; other offsets in the
 * window read 0 and ignore writes (as QEMU does).
 *
 * Gateways as the specification describes them: an edge (a scripted source)
 * makes a request unless one of that source is pending or in service (then
 * it is merged and counted); a level (the UART) makes one when it is high
 * and none is outstanding, and again at completion while it stays high.
 * Claims are not affected by the threshold, and a completion for a source
 * not enabled for the context is ignored (the specification's words; QEMU
 * differs on both: docs/boards.md).
 *
 * Every request remembers the cycle its line rose. Its latency is measured
 * when context 0 claims it: from that cycle to the cycle the first
 * instruction of the handler doing the claim began at (the last external
 * interrupt taken, if taken at or after the rise; else it was polled).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../timing/timing.h"
#include "board.h"

#define PRIORITY_END (PLIC_SOURCES * 4u)
#define PENDING_BASE 0x1000u
#define ENABLE_BASE 0x2000u
#define ENABLE_STRIDE 0x80u
#define CONTEXT_BASE 0x200000u
#define CONTEXT_STRIDE 0x1000u

static bool bit(const uint32_t *w, unsigned src) { return (w[src >> 5] >> (src & 31)) & 1u; }
static void set_bit(uint32_t *w, unsigned src, bool on) {
  uint32_t m = 1u << (src & 31);
  w[src >> 5] = on ? w[src >> 5] | m : w[src >> 5] & ~m;
}

/* Pending, enabled for ctx and above its threshold: what makes its EIP. */
static bool notifies(const plic_state *p, unsigned ctx, unsigned src) {
  return bit(p->pending, src) && bit(p->enable[ctx], src) && p->prio[src] > p->threshold[ctx];
}

/* mip.MEIP follows context 0's EIP. */
static void update(core_cpu *cpu) {
  const plic_state *p = &((board *)cpu->board)->plic;
  bool eip = false;
  for (unsigned s = 1; s < PLIC_SOURCES && !eip; s++)
    eip = notifies(p, 0, s);
  cpu->mip_soft = eip ? cpu->mip_soft | MIP_MEIP : cpu->mip_soft & ~MIP_MEIP;
}

/* The gateway forwards a request: the pending bit, and the cycle the
 * line rose for the latency. */
static void request(plic_state *p, unsigned src, uint64_t cycle) {
  irq_stat *st = &p->stat[src];
  set_bit(p->pending, src, true);
  st->requests++;
  if (!st->waiting) {
    st->waiting = true;
    st->since = cycle;
  }
}

void plic_edge(core_cpu *cpu, unsigned src, uint64_t cycle) {
  plic_state *p = &((board *)cpu->board)->plic;
  p->stat[src].rises++;
  if (bit(p->pending, src) || bit(p->claimed, src)) {
    p->stat[src].merged++;
    return;
  }
  request(p, src, cycle);
  update(cpu);
}

void plic_level(core_cpu *cpu, unsigned src, bool high, uint64_t cycle) {
  plic_state *p = &((board *)cpu->board)->plic;
  bool was = bit(p->level, src);
  set_bit(p->level, src, high);
  if (high && !was)
    p->stat[src].rises++;
  if (high && !bit(p->pending, src) && !bit(p->claimed, src)) {
    request(p, src, cycle);
    update(cpu);
  }
}

static void note_latency(irq_stat *st, uint64_t rise, uint64_t lat) {
  if (st->nlat == st->cap) {
    size_t cap = st->cap ? st->cap * 2 : 64;
    uint64_t *n = realloc(st->lat, cap * sizeof *n);
    if (!n)
      return; /* out of memory: the latency is not listed */
    st->lat = n;
    uint64_t *r = realloc(st->rise, cap * sizeof *r);
    if (!r)
      return;
    st->rise = r;
    st->cap = cap;
  }
  st->rise[st->nlat] = rise;
  st->lat[st->nlat++] = lat;
}

/* The highest-priority pending source enabled for ctx (priority 0 never
 * is one; ties go to the lowest id), whatever the threshold. */
static unsigned claim(core_cpu *cpu, unsigned ctx) {
  plic_state *p = &((board *)cpu->board)->plic;
  unsigned best = 0, best_prio = 0;
  for (unsigned s = 1; s < PLIC_SOURCES; s++)
    if (bit(p->pending, s) && bit(p->enable[ctx], s) && p->prio[s] > best_prio) {
      best = s;
      best_prio = p->prio[s];
    }
  if (best) {
    set_bit(p->pending, best, false);
    set_bit(p->claimed, best, true);
    irq_stat *st = &p->stat[best];
    if (st->waiting) {
      st->waiting = false;
      if (ctx == 0 && p->entered && p->entry_cycle >= st->since)
        note_latency(st, st->since, p->entry_cycle - st->since);
      else
        st->polled++; /* no interrupt taken for it since it rose */
    }
    update(cpu);
  }
  return best;
}

static void complete(core_cpu *cpu, unsigned ctx, uint32_t id) {
  plic_state *p = &((board *)cpu->board)->plic;
  if (id == 0 || id >= PLIC_SOURCES || !bit(p->enable[ctx], id))
    return; /* silently ignored (the specification) */
  set_bit(p->claimed, id, false);
  if (bit(p->level, id)) /* a level still high asks again */
    request(p, id, core_cycle_now(cpu));
  update(cpu);
}

bool plic_load(core_cpu *cpu, uint32_t off, unsigned size, uint32_t *val) {
  plic_state *p = &((board *)cpu->board)->plic;
  if (size != 4)
    return false;
  *val = 0;
  if (off < PRIORITY_END) {
    *val = p->prio[off >> 2]; /* source 0's reads 0 */
  } else if (off >= PENDING_BASE && off < PENDING_BASE + 4 * PLIC_WORDS) {
    *val = p->pending[(off - PENDING_BASE) >> 2];
  } else if (off >= ENABLE_BASE && off < ENABLE_BASE + ENABLE_STRIDE * PLIC_CONTEXTS) {
    uint32_t ctx = (off - ENABLE_BASE) / ENABLE_STRIDE, word = (off % ENABLE_STRIDE) >> 2;
    if (word < PLIC_WORDS)
      *val = p->enable[ctx][word];
  } else if (off >= CONTEXT_BASE && off < CONTEXT_BASE + CONTEXT_STRIDE * PLIC_CONTEXTS) {
    uint32_t ctx = (off - CONTEXT_BASE) / CONTEXT_STRIDE, reg = off % CONTEXT_STRIDE;
    if (reg == 0)
      *val = p->threshold[ctx];
    else if (reg == 4)
      *val = claim(cpu, ctx);
  }
  return true;
}

bool plic_store(core_cpu *cpu, uint32_t off, unsigned size, uint32_t val) {
  plic_state *p = &((board *)cpu->board)->plic;
  if (size != 4)
    return false;
  if (off < PRIORITY_END) {
    if (off >= 4) /* source 0 does not exist */
      p->prio[off >> 2] = (uint8_t)(val & PLIC_PRIO_MASK);
  } else if (off >= ENABLE_BASE && off < ENABLE_BASE + ENABLE_STRIDE * PLIC_CONTEXTS) {
    uint32_t ctx = (off - ENABLE_BASE) / ENABLE_STRIDE, word = (off % ENABLE_STRIDE) >> 2;
    if (word < PLIC_WORDS)
      p->enable[ctx][word] = word == 0 ? val & ~1u : val; /* source 0's bit is hardwired to 0 */
  } else if (off >= CONTEXT_BASE && off < CONTEXT_BASE + CONTEXT_STRIDE * PLIC_CONTEXTS) {
    uint32_t ctx = (off - CONTEXT_BASE) / CONTEXT_STRIDE, reg = off % CONTEXT_STRIDE;
    if (reg == 0)
      p->threshold[ctx] = (uint8_t)(val & PLIC_PRIO_MASK);
    else if (reg == 4)
      complete(cpu, ctx, val);
  }
  update(cpu);
  return true;
}


/* An external interrupt was taken: the cycle its handler began at, for
 * the latency of what the handler claims. */
void board_interrupt_entry(core_cpu *cpu, uint32_t cause, uint64_t handler_cycle) {
  board *b = cpu->board;
  if (cause != ((uint32_t)CAUSE_INTERRUPT | IRQ_MEI))
    return;
  b->plic.entered = true;
  b->plic.entry_cycle = handler_cycle;
}

const char *plic_why_waiting(const core_cpu *cpu, unsigned src, char *buf, size_t size) {
  const board *b = cpu->board;
  const plic_state *p = &b->plic;
  if (!p->stat[src].waiting)
    return NULL;
  const char *why;
  if (!bit(p->pending, src))
    why = "its request is no longer pending";
  else if (cpu->tm && cpu->tm->pico)
    why = "core model has no machine-mode interrupts (PicoRV32: mtvec, mie and mstatus are illegal)";
  else if (!bit(p->enable[0], src))
    why = "the program never enabled it in the PLIC (context 0's enable bit is 0)";
  else if (p->prio[src] == 0)
    why = "its PLIC priority is 0 (never interrupt)";
  else if (p->prio[src] <= p->threshold[0])
    why = "its PLIC priority is not above context 0's threshold";
  else if (!(cpu->mie & MIP_MEIP))
    why = "external interrupts are off in mie (MEIE is 0)";
  else if (!(cpu->mstatus & MSTATUS_MIE))
    why = "interrupts are off in mstatus (MIE is 0)";
  else if (p->entered && p->entry_cycle >= p->stat[src].since)
    why = "an interrupt was taken, but its handler never claimed it";
  else
    why = "the run ended before the next instruction boundary";
  snprintf(buf, size, "%s", why);
  return buf;
}
