/*
 * Breakpoints and watchpoints (gdb_impl.h). The program's code is never
 * patched: the stub looks at the pc between instructions (Z0 and Z1 are
 * the same), and at what each instruction touches (Z2 write, Z3 read, Z4
 * access watchpoints), so none of them costs the program a cycle.
 *
 * Stop pcs: GDB treats RISC-V watchpoints as "non-steppable" (the debug
 * spec's triggers fire before the access): told of a hit, it takes the
 * watchpoints out, steps the instruction itself and then shows the stop,
 * with the pc on the instruction after the access, and for `watch` only
 * when the value changed. So the stub reports a hit before the
 * instruction that will touch the watched bytes runs (worked out from its
 * bits, mem_access.h), and a resume from that very point runs it.
 */
#include <stdio.h>
#include <string.h>

#include "gdb_impl.h"

bool gdb_is_breakpoint(const gdb_session *s, uint32_t pc) {
  for (int i = 0; i < s->nbp; i++)
    if (s->bp[i] == pc)
      return true;
  return false;
}

/* Z2..Z4/z2..z4 ",ADDR,LEN" */
static void watchpoint(gdb_session *s, watch_kind kind, const char *p, bool insert) {
  uint32_t addr, len;
  if (*p++ != ',' || !gdb_parse_range(p, &addr, &len, NULL) || len == 0) {
    gdb_put_packet(s, "E01");
    return;
  }
  for (int i = 0; i < s->nwp; i++)
    if (s->wp[i].kind == kind && s->wp[i].addr == addr && s->wp[i].len == len) {
      if (!insert)
        s->wp[i] = s->wp[--s->nwp];
      gdb_put_packet(s, "OK");
      return;
    }
  if (!insert) {
    gdb_put_packet(s, "OK");
    return;
  }
  watch_point w = {.kind = kind, .addr = addr, .len = len};
  unsigned char probe[WATCH_MAX_LEN];
  if (len > WATCH_MAX_LEN || s->nwp == MAX_WATCHPOINTS || !tally_read_mem(s->sim, addr, probe, len)) {
    gdb_put_packet(s, "E01"); /* GDB then watches by stepping itself (or says it cannot) */
    return;
  }
  s->wp[s->nwp++] = w;
  gdb_put_packet(s, "OK");
}

void gdb_breakpoint(gdb_session *s, const char *p, bool insert) {
  if (p[0] >= '2' && p[0] <= '4') {
    watchpoint(s, (watch_kind)(p[0] - '0'), p + 1, insert);
    return;
  }
  if (p[0] != '0' && p[0] != '1') {
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

int gdb_watch_hit(gdb_session *s, char *out, size_t size) {
  static const char *const names[5] = {"", "", "watch", "rwatch", "awatch"};
  uint32_t pc = tally_pc(s->sim);
  uint64_t at = tally_instret(s->sim);
  if (s->watch_reported && s->watch_pc == pc && s->watch_instret == at)
    return -1; /* it stopped here already: resuming runs the access */
  mem_access a = debug_mem_access(s->sim, pc);
  for (int i = 0; i < s->nwp; i++) {
    const watch_point *w = &s->wp[i];
    bool kind_ok = w->kind == WATCH_ACCESS || (w->kind == WATCH_READ ? mem_access_reads(&a) : mem_access_writes(&a));
    if (kind_ok && mem_access_overlaps(&a, w->addr, w->len)) {
      snprintf(out, size, "T05%s:%08x;", names[w->kind], w->addr);
      s->watch_reported = true;
      s->watch_pc = pc;
      s->watch_instret = at;
      return i;
    }
  }
  return -1;
}
