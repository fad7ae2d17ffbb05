/*
 * Breakpoints and watchpoints (gdb_impl.h).
 *
 * Software breakpoints (Z0) patch no code: the stub looks at the pc
 * between instructions, stepping the program while any is set.
 *
 * Hardware breakpoints (Z1) and watchpoints (Z2 write, Z3 read, Z4
 * access) are the core's debug triggers (Sdtrig type 2, docs/tally-gdb.md),
 * set through the CSRs as a debug module would: dmode = 1 (the program
 * cannot change them), action 1 (enter debug mode: the run stops before
 * the instruction, tally_trigger_stopped). The program runs at its own
 * pace between them: nothing is stepped, and the core checks each
 * instruction only while a trigger is armed. A breakpoint or a one-byte
 * watchpoint takes one trigger (address equal); a longer watchpoint two
 * neighbouring ones chained (>= addr, < addr + len). When the core has no
 * free trigger left (or none at all: [core] triggers = 0), Z1-Z4 fail and
 * GDB says it cannot insert them.
 *
 * Stop pcs: GDB treats RISC-V watchpoints as "non-steppable" (the debug
 * spec's triggers fire before the access): told of a hit, it takes the
 * watchpoints out, steps the instruction itself and then shows the stop,
 * with the pc on the instruction after the access, and for `watch` only
 * when the value changed.
 */
#include <stdio.h>
#include <string.h>

#include "gdb_impl.h"

#define CSR_TSELECT 0x7a0
#define CSR_TDATA1 0x7a1
#define CSR_TDATA2 0x7a2
#define MC_TYPE2 (2u << 28)
#define MC_DMODE (1u << 27)
#define MC_ACTION_DEBUG (1u << 12)
#define MC_CHAIN (1u << 11)
#define MC_MATCH_GE (2u << 7)
#define MC_MATCH_LT (3u << 7)
#define MC_M (1u << 6)
#define MC_EXECUTE (1u << 2)
#define MC_STORE (1u << 1)
#define MC_LOAD (1u << 0)

bool gdb_is_breakpoint(const gdb_session *s, uint32_t pc) {
  for (int i = 0; i < s->nbp; i++)
    if (s->bp[i] == pc)
      return true;
  return false;
}

/* ------------------------------------------------------------- triggers */

/* Trigger i's tdata1 (tselect is the program's again after); false when
 * there is no trigger i. */
static bool trigger_read(gdb_session *s, unsigned i, uint32_t *tdata1) {
  uint32_t saved, now;
  if (!tally_csr_read(s->sim, CSR_TSELECT, &saved))
    return false;
  bool ok = tally_csr_write(s->sim, CSR_TSELECT, i) && tally_csr_read(s->sim, CSR_TSELECT, &now) && now == i &&
            tally_csr_read(s->sim, CSR_TDATA1, tdata1);
  tally_csr_write(s->sim, CSR_TSELECT, saved);
  return ok;
}

static void trigger_write(gdb_session *s, unsigned i, uint32_t tdata1, uint32_t tdata2) {
  uint32_t saved;
  if (!tally_csr_read(s->sim, CSR_TSELECT, &saved))
    return;
  tally_csr_write(s->sim, CSR_TSELECT, i);
  tally_csr_write(s->sim, CSR_TDATA1, MC_TYPE2 | MC_DMODE); /* off while tdata2 changes */
  tally_csr_write(s->sim, CSR_TDATA2, tdata2);
  tally_csr_write(s->sim, CSR_TDATA1, tdata1);
  tally_csr_write(s->sim, CSR_TSELECT, saved);
}

/* Free: no access kind enabled, and not the stub's own (a dmode trigger
 * of an earlier session left behind would be dmode with nothing on). */
static bool trigger_free(gdb_session *s, unsigned i) {
  uint32_t d;
  if (!trigger_read(s, i, &d))
    return false;
  for (int k = 0; k < s->nwp; k++)
    if (i >= s->wp[k].trig && i < s->wp[k].trig + s->wp[k].ntrig)
      return false;
  return (d & (MC_EXECUTE | MC_STORE | MC_LOAD)) == 0;
}

/* The first run of n free neighbouring triggers, or -1. */
static int find_free(gdb_session *s, unsigned n) {
  for (unsigned i = 0; i < 64; i++) {
    uint32_t d;
    if (!trigger_read(s, i, &d))
      return -1; /* past the last trigger */
    unsigned k = 0;
    while (k < n && trigger_free(s, i + k))
      k++;
    if (k == n)
      return (int)i;
  }
  return -1;
}

static void arm(gdb_session *s, watch_point *w) {
  uint32_t what = w->kind == HW_BREAK ? MC_EXECUTE : w->kind == WATCH_WRITE ? MC_STORE
                : w->kind == WATCH_READ ? MC_LOAD : MC_STORE | MC_LOAD;
  uint32_t base = MC_TYPE2 | MC_DMODE | MC_ACTION_DEBUG | MC_M | what;
  if (w->ntrig == 1) {
    trigger_write(s, w->trig, base, w->addr);
    return;
  }
  trigger_write(s, w->trig + 1, base | MC_MATCH_LT, w->addr + w->len);
  trigger_write(s, w->trig, base | MC_MATCH_GE | MC_CHAIN, w->addr);
}

static void disarm(gdb_session *s, const watch_point *w) {
  for (unsigned k = 0; k < w->ntrig; k++)
    trigger_write(s, w->trig + k, MC_TYPE2, 0); /* type 2 with nothing enabled, dmode 0: the program's again */
}

void gdb_release_triggers(gdb_session *s) {
  for (int i = 0; i < s->nwp; i++)
    disarm(s, &s->wp[i]);
  s->nwp = 0;
}

/* Z1..Z4/z1..z4 ",ADDR,LEN" (for Z1, LEN is the instruction's kind) */
static void hw_point(gdb_session *s, watch_kind kind, const char *p, bool insert) {
  uint32_t addr, len;
  if (*p++ != ',' || !gdb_parse_range(p, &addr, &len, NULL) || (kind != HW_BREAK && len == 0)) {
    gdb_put_packet(s, "E01");
    return;
  }
  if (kind == HW_BREAK)
    len = 1;
  for (int i = 0; i < s->nwp; i++)
    if (s->wp[i].kind == kind && s->wp[i].addr == addr && s->wp[i].len == len) {
      if (!insert) {
        disarm(s, &s->wp[i]);
        s->wp[i] = s->wp[--s->nwp];
      }
      gdb_put_packet(s, "OK");
      return;
    }
  if (!insert) {
    gdb_put_packet(s, "OK");
    return;
  }
  /* a range that reaches the top of the address space needs no upper bound */
  unsigned n = len == 1 || (uint64_t)addr + len > UINT32_MAX ? 1 : 2;
  int first = s->nwp < MAX_HW_POINTS ? find_free(s, n) : -1;
  if (first < 0) {
    gdb_put_packet(s, "E0c"); /* ENOMEM: too few triggers; GDB says it cannot insert it */
    return;
  }
  watch_point w = {.kind = kind, .addr = addr, .len = len, .trig = (unsigned)first, .ntrig = n};
  if (n == 1 && len > 1) { /* up to the top: one ">= addr" trigger */
    trigger_write(s, w.trig, MC_TYPE2 | MC_DMODE | MC_ACTION_DEBUG | MC_M | MC_MATCH_GE |
                                 (kind == WATCH_WRITE ? MC_STORE : kind == WATCH_READ ? MC_LOAD : MC_STORE | MC_LOAD),
                  addr);
  } else {
    arm(s, &w);
  }
  s->wp[s->nwp++] = w;
  gdb_put_packet(s, "OK");
}

void gdb_breakpoint(gdb_session *s, const char *p, bool insert) {
  if (p[0] >= '1' && p[0] <= '4') {
    hw_point(s, (watch_kind)(p[0] - '0'), p + 1, insert);
    return;
  }
  if (p[0] != '0') {
    gdb_put_packet(s, "");
    return;
  }
  uint32_t addr;
  p += 1;
  if (*p++ != ',' || !gdb_parse_hex(&p, &addr)) {
    gdb_put_packet(s, "E01");
    return;
  }
  for (int i = 0; i < s->nbp; i++)
    if (s->bp[i] == addr) {
      if (!insert)
        s->bp[i] = s->bp[--s->nbp];
      gdb_put_packet(s, "OK");
      return;
    }
  if (insert) {
    if (s->nbp == MAX_BREAKPOINTS) {
      gdb_put_packet(s, "E0c"); /* ENOMEM */
      return;
    }
    s->bp[s->nbp++] = addr;
  }
  gdb_put_packet(s, "OK");
}

bool gdb_trigger_stop(gdb_session *s, char *out, size_t size) {
  static const char *const names[5] = {"", "hwbreak", "watch", "rwatch", "awatch"};
  tally_trigger_hit h;
  if (!tally_trigger_stopped(s->sim, &h))
    return false;
  for (int i = 0; i < s->nwp; i++) {
    const watch_point *w = &s->wp[i];
    if (h.trigger < w->trig || h.trigger >= w->trig + w->ntrig)
      continue;
    if (w->kind == HW_BREAK)
      snprintf(out, size, s->hwbreak_ok ? "T05hwbreak:;" : "T05");
    else
      snprintf(out, size, "T05%s:%08x;", names[w->kind], w->addr);
    return true;
  }
  snprintf(out, size, "T05"); /* a trigger GDB set itself through the CSRs */
  return true;
}
