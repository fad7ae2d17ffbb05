/*
 * memtrace.c - the memory-access tracer shipped with `tally inst --tool
 * memtrace`: one record per data access the program makes (pc, effective
 * address, size, load/store/atomic), in program order, written at exit to
 * memtrace.out in the directory tally or QEMU runs in. `tally inst --show
 * memtrace.out PROG.elf` prints it.
 *
 * It is called before every load, store or atomic (`--points mem`, the
 * tool's default; `load` or `store` for one kind) with
 * tally_memtrace_hit(site, ea): ea is worked out by the runtime from the
 * registers before the instruction, so an access that faults is recorded
 * too (it was attempted, as tally's --trace shows it). The size and kind
 * come from the site's decoded instruction (rt.h, kinds.h: this tool is
 * part of the runtime, which tells it what it replaced).
 *
 * Records collect in a buffer in the analysis region; when it is full it
 * is written out through semihosting, so a trace of any length is kept
 * whole. The file is opened at the first flush (at exit, for a short
 * trace), so the program's own file handles are the ones it had until
 * then. If the file cannot be created (tally without --semihost-files rw)
 * or written, the records are counted as lost and that is said on the
 * console; a written file's trailer has the count, so a reader never takes
 * a partial trace for a whole one.
 *
 * memtrace.out, little-endian (docs/tally-inst.md):
 *   header  "TIMT", u32 version 1, u32 record size 12, u32 0
 *   records { u32 pc, u32 ea, u8 size (1, 2, 4), u8 access (1 load,
 *             2 store, 3 atomic read-modify-write; lr.w is a load, sc.w a
 *             store), u16 0 }
 *   trailer "TIME", u32 records lost, u64 records made
 * A file without a trailer is a run that did not end through semihosting.
 */
#include <tally/inst.h>

#include "kinds.h"
#include "rt.h"

void tally_memtrace_hit(unsigned site, unsigned ea);

#define BUF 4096u /* records between two writes: 48 KiB */
#define REC 12u

struct memtrace_state {
  int fd;     /* 0: not opened yet, -1: could not be, else the handle + 1 */
  unsigned n; /* records in buf */
  unsigned lost;
  unsigned long long made;
  unsigned char buf[BUF * REC];
};

static struct memtrace_state mt;

static void put32(unsigned char *p, unsigned v) {
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

/* Size and access kind of a decoded load/store/atomic; 0 when none. */
static unsigned access_of(unsigned kind, unsigned *size) {
  *size = 4;
  switch (kind) {
  case K_LB: case K_LBU: *size = 1; return 1;
  case K_LH: case K_LHU: *size = 2; return 1;
  case K_LW: case K_LR_W: return 1;
  case K_SB: *size = 1; return 2;
  case K_SH: *size = 2; return 2;
  case K_SW: case K_SC_W: return 2;
  default: return kind >= K_AMOSWAP && kind <= K_AMOMAXU ? 3 : 0;
  }
}

static int open_out(void) {
  if (mt.fd == 0) {
    int fd = tally_inst_file_open("memtrace.out");
    mt.fd = fd < 0 ? -1 : fd + 1;
    if (fd < 0) {
      tally_inst_print("memtrace: cannot create memtrace.out (on tally: run with --semihost-files rw)\n");
      return -1;
    }
    unsigned char h[16] = {'T', 'I', 'M', 'T'};
    put32(h + 4, 1);
    put32(h + 8, REC);
    put32(h + 12, 0);
    if (tally_inst_file_write(fd, h, sizeof h) != 0)
      mt.fd = -1;
  }
  return mt.fd > 0 ? mt.fd - 1 : -1;
}

static void flush(void) {
  int fd = mt.n ? open_out() : -1;
  if (mt.n && (fd < 0 || tally_inst_file_write(fd, mt.buf, mt.n * REC) != 0))
    mt.lost += mt.n;
  mt.n = 0;
}

void tally_memtrace_hit(unsigned site, unsigned ea) {
  unsigned size, acc = access_of(__tally_inst_sites[site].kind, &size);
  if (!acc) /* asked for at an instruction that touches no data */
    return;
  if (mt.n == BUF)
    flush();
  unsigned char *r = mt.buf + REC * mt.n++;
  put32(r, tally_inst_site_pc[site]);
  put32(r + 4, ea);
  put32(r + 8, size | acc << 8);
  mt.made++;
}

void tally_inst_fini(void) {
  flush();
  int fd = open_out(); /* an empty trace still gets its file */
  if (fd >= 0) {
    unsigned char t[16] = {'T', 'I', 'M', 'E'};
    put32(t + 4, mt.lost);
    put32(t + 8, (unsigned)mt.made);
    put32(t + 12, (unsigned)(mt.made >> 32));
    tally_inst_file_write(fd, t, sizeof t);
    tally_inst_file_close(fd);
  }
  if (mt.lost) {
    char line[64] = "memtrace: ", *p = line + 10, digits[12];
    int k = 0;
    for (unsigned v = mt.lost; v || !k; v /= 10u)
      digits[k++] = (char)('0' + v % 10u);
    while (k)
      *p++ = digits[--k];
    const char *tail = " records lost (memtrace.out could not be written)\n";
    while ((*p++ = *tail++))
      ;
    tally_inst_print(line);
    tally_inst_output_lost();
  }
}
