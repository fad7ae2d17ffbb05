/*
 * The GDB stub's parts (include/tally/gdb.h): the session every part works
 * on, the packet layer (gdb_packet.c), registers and CSRs (gdb_regs.c),
 * breakpoints and watchpoints (gdb_watch.c); running, monitor commands and
 * queries stay in gdb.c, listening in gdb_listen.c.
 */
#ifndef TALLY_DEBUG_GDB_IMPL_H
#define TALLY_DEBUG_GDB_IMPL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "mem_access.h"
#include "tally/gdb.h"

#define PACKET_MAX 4096      /* what qSupported announces */
#define MAX_BREAKPOINTS 64
#define MAX_HW_POINTS 16     /* at most one per trigger (cpu.h: CORE_TRIGGERS_MAX) */

/* A hardware breakpoint (Z1) or watchpoint (Z2 write, Z3 read, Z4 access):
 * the debug triggers it holds (gdb_watch.c). Every watchpoint kind fires on
 * the instruction whose access touches any watched byte, before it runs;
 * GDB itself looks at the value. */
typedef enum watch_kind { HW_BREAK = 1, WATCH_WRITE = 2, WATCH_READ = 3, WATCH_ACCESS = 4 } watch_kind;

typedef struct watch_point {
  watch_kind kind;
  uint32_t addr, len;
  unsigned trig, ntrig;  /* triggers trig .. trig + ntrig - 1 (a chain) */
} watch_point;

typedef struct gdb_session {
  tally_sim *sim;
  int fd;
  volatile sig_atomic_t *interrupted;
  uint32_t bp[MAX_BREAKPOINTS];
  int nbp;
  watch_point wp[MAX_HW_POINTS];
  int nwp;
  bool ended;          /* the program stopped for good (exit, trap, halt) */
  bool gone;           /* the client went away */
  bool detached;       /* GDB detached: the program runs on */
  tally_stop stop;
  bool hwbreak_ok;      /* GDB said hwbreak+ (qSupported): a Z1 stop says hwbreak */
  uint16_t csr[128];   /* the CSRs the target description offers */
  int ncsr;
  char in[PACKET_MAX + 1];
} gdb_session;

/* ---- the listener (gdb_listen.c) ---- */
/* Takes the next connection, waiting for it; -1 with err. */
int gdb_accept(tally_gdb *g, volatile sig_atomic_t *interrupted, tally_error *err);

/* ---- packets (gdb_packet.c) ---- */
int gdb_hexval(int c);
bool gdb_send_all(gdb_session *s, const void *buf, size_t n);
/* Sends "$data#cs". */
bool gdb_put_packet(gdb_session *s, const char *data);
/* The next packet's data into s->in; false when the client is gone. */
bool gdb_get_packet(gdb_session *s);
/* Text as console output ('O' packets). */
void gdb_console(gdb_session *s, const char *text);
void gdb_put_le32(char *out, uint32_t v);
bool gdb_get_le32(const char *in, uint32_t *v);
/* A hex number (up to 32 bits) at *p, which moves past it. */
bool gdb_parse_hex(const char **p, uint32_t *v);
/* "ADDR,LEN" */
bool gdb_parse_range(const char *p, uint32_t *addr, uint32_t *len, const char **end);

/* ---- registers (gdb_regs.c) ---- */
/* Chooses the CSRs offered (the PMU's when the core model has them). */
void gdb_regs_init(gdb_session *s);
size_t gdb_target_xml(const gdb_session *s, char *buf, size_t size);
void gdb_read_all_regs(gdb_session *s);
void gdb_write_all_regs(gdb_session *s, const char *hex);
void gdb_read_reg(gdb_session *s, const char *p);
void gdb_write_reg(gdb_session *s, const char *p);

/* ---- breakpoints and watchpoints (gdb_watch.c) ---- */
/* Z and z packets (after the letter). */
void gdb_breakpoint(gdb_session *s, const char *p, bool insert);
bool gdb_is_breakpoint(const gdb_session *s, uint32_t pc);
/* After a run or step that returned TALLY_STOP_LIMIT: when one of the
 * stub's triggers stopped it, the stop reply ("T05hwbreak:;",
 * "T05watch:ADDR;", rwatch, awatch) in out, and true. */
bool gdb_trigger_stop(gdb_session *s, char *out, size_t size);
/* Gives back every trigger the stub holds (the session's end). */
void gdb_release_triggers(gdb_session *s);

#endif
