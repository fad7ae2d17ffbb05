/*
 * bbcount.c - the basic-block counter shipped with `tally inst --tool
 * bbcount`: one call per site (tally_bbcount_hit(site)), one 64-bit count
 * per site, written at exit to bbcount.out in the directory tally or QEMU
 * runs in. `tally inst --show bbcount.out PROG.elf` prints it.
 *
 * bbcount.out, little-endian: "TIBB", u32 version (1), u32 site count n,
 * then n records of { u32 original pc, u32 flags, u64 count }; flags bit 0
 * says the site was counted (a site the runtime needs for itself, with no
 * call, has 0 and count 0).
 */
#include <tally/inst.h>

void tally_bbcount_hit(unsigned site);

void tally_bbcount_hit(unsigned site) { tally_inst_site_scratch[site]++; }

#define CHUNK 256 /* records per semihosting write */

static void put32(unsigned char *p, unsigned v) {
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

void tally_inst_fini(void) {
  static unsigned char buf[CHUNK * 16];
  int fd = tally_inst_file_open("bbcount.out");
  if (fd < 0) { /* tally lets programs write host files only with --semihost-files rw */
    tally_inst_print("bbcount: cannot create bbcount.out (on tally: run with --semihost-files rw)\n");
    return;
  }
  unsigned n = tally_inst_nsites;
  buf[0] = 'T', buf[1] = 'I', buf[2] = 'B', buf[3] = 'B';
  put32(buf + 4, 1);
  put32(buf + 8, n);
  tally_inst_file_write(fd, buf, 12);
  for (unsigned i = 0; i < n; i += CHUNK) {
    unsigned m = n - i < CHUNK ? n - i : CHUNK;
    for (unsigned j = 0; j < m; j++) {
      unsigned char *r = buf + 16 * j;
      unsigned long long c = tally_inst_site_scratch[i + j];
      put32(r, tally_inst_site_pc[i + j]);
      put32(r + 4, tally_inst_site_ncalls[i + j] ? 1u : 0u);
      put32(r + 8, (unsigned)c);
      put32(r + 12, (unsigned)(c >> 32));
    }
    tally_inst_file_write(fd, buf, 16 * m);
  }
  tally_inst_file_close(fd);
}
