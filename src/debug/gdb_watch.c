/*
 * Breakpoints and watchpoints (gdb_impl.h). The program's code is never
 * patched: the stub looks at the pc between instructions (Z0 and Z1 are
 * the same), and at what each instruction touches (Z2 write, Z3 read, Z4
 * access watchpoints), so none of them costs the program a cycle.
 *
 * Stop pcs: GDB 13 treats RISC-V watchpoints as reported after the access
 * (it does not step over the instruction again), so the stub stops after
 * the instruction that touched the watched bytes, with the pc on the next
 * one, as for write watchpoints.
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
  if (len > WATCH_MAX_LEN || s->nwp == MAX_WATCHPOINTS || !tally_read_mem(s->sim, addr, w.old, len)) {
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

mem_access gdb_watch_before(const gdb_session *s) {
  for (int i = 0; i < s->nwp; i++)
    if (s->wp[i].kind != WATCH_WRITE)
      return debug_mem_access(s->sim, tally_pc(s->sim));
  return (mem_access){0}; /* write watchpoints look at the bytes afterwards */
}

/* Whether watchpoint w fired on the instruction that just ran. A write
 * watchpoint's bytes are compared (and noted) whatever else fires, so
 * that a later change is measured from what they hold now. */
static bool fired(gdb_session *s, watch_point *w, const mem_access *a, bool retired) {
  if (w->kind == WATCH_WRITE) {
    unsigned char now[WATCH_MAX_LEN];
    if (!tally_read_mem(s->sim, w->addr, now, w->len) || !memcmp(now, w->old, w->len))
      return false;
    memcpy(w->old, now, w->len);
    return true;
  }
  if (!retired || !mem_access_overlaps(a, w->addr, w->len))
    return false;
  return w->kind == WATCH_ACCESS || mem_access_reads(a);
}

int gdb_watch_after(gdb_session *s, const mem_access *a, bool retired, char *out, size_t size) {
  static const char *const names[5] = {"", "", "watch", "rwatch", "awatch"};
  int hit = -1;
  for (int i = 0; i < s->nwp; i++)
    if (fired(s, &s->wp[i], a, retired) && hit < 0)
      hit = i;
  if (hit >= 0)
    snprintf(out, size, "T05%s:%08x;", names[s->wp[hit].kind], s->wp[hit].addr);
  return hit;
}
