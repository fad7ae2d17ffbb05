/*
 * tally inst --show memtrace.out PROG: prints the memory-access trace the
 * shipped memtrace tool wrote (target/inst/memtrace.c has the layout), one
 * access a line, in program order:
 *
 *   0x80000354  crc32_update+0xe  r 0x80000c04/1
 *
 * the access written as `tally run --trace` writes its MEMORY field (r
 * load, w store, a atomic read-modify-write; address/size), so the two can
 * be compared line for line. The file is the program's output: its size
 * must be the header, whole records and at most one trailer; a run that
 * lost records or did not write the trailer is said on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tally/inst.h"

#define HEAD 16
#define REC 12
#define TAIL 16

int inst_show_memtrace(FILE *f, const char *file, const char *prog);

static uint32_t get32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The file's length, or -1. */
static long file_size(FILE *f) {
  if (fseek(f, 0, SEEK_END) != 0)
    return -1;
  long n = ftell(f);
  rewind(f);
  return n;
}

static bool read_header(FILE *f, const char *file) {
  unsigned char h[HEAD];
  if (fread(h, 1, HEAD, f) != HEAD || memcmp(h, "TIMT", 4) != 0 || get32(h + 4) != 1 || get32(h + 8) != REC) {
    fprintf(stderr, "tally inst: %s: not a memtrace.out file (version 1, %d-byte records)\n", file, REC);
    return false;
  }
  return true;
}

static void print_record(const tally_inst *ti, const unsigned char *r) {
  static const char kind[4] = {'?', 'r', 'w', 'a'};
  uint32_t pc = get32(r), ea = get32(r + 4), info = get32(r + 8);
  char where[200];
  tally_inst_where(ti, pc, where, sizeof where);
  const char *sym = strchr(where, '(');
  printf("0x%08x  %-40.*s  %c 0x%08x/%u\n", pc, sym ? (int)strlen(sym + 1) - 1 : 1, sym ? sym + 1 : "-",
         kind[(info >> 8) & 3], ea, info & 0xff);
}

/* Checks the trailer against the records read; 0 or EXIT_DATAERR. */
static int check_trailer(FILE *f, const char *file, unsigned long long nrec) {
  unsigned char t[TAIL];
  if (fread(t, 1, TAIL, f) != TAIL || memcmp(t, "TIME", 4) != 0) {
    fprintf(stderr, "tally inst: %s: bad trailer\n", file);
    return EXIT_DATAERR;
  }
  unsigned lost = get32(t + 4);
  unsigned long long made = get32(t + 8) | (unsigned long long)get32(t + 12) << 32;
  if (made != nrec + lost) {
    fprintf(stderr, "tally inst: %s: the trailer says %llu records were made and %u lost, but %llu are here\n", file,
            made, lost, nrec);
    return EXIT_DATAERR;
  }
  if (lost)
    fprintf(stderr, "tally inst: %s: %u of %llu records were lost (the file could not be written)\n", file, lost,
            made);
  return 0;
}

int inst_show_memtrace(FILE *f, const char *file, const char *prog) {
  long size = file_size(f);
  if (size < 0) {
    fprintf(stderr, "tally inst: %s: cannot seek: %s\n", file, strerror(errno));
    return EXIT_NOINPUT;
  }
  if (!read_header(f, file))
    return EXIT_DATAERR;
  long body = size - HEAD;
  bool trailer = body >= TAIL && (body - TAIL) % REC == 0;
  if (!trailer && body % REC != 0) {
    fprintf(stderr, "tally inst: %s: %ld bytes is not a header, whole records and a trailer (truncated?)\n", file,
            size);
    return EXIT_DATAERR;
  }
  unsigned long long nrec = (unsigned long long)(trailer ? body - TAIL : body) / REC;
  tally_error err;
  tally_inst *ti;
  int rc = tally_inst_open(prog, &ti, &err);
  if (rc) {
    fprintf(stderr, "tally inst: %s\n", err.msg);
    return rc;
  }
  printf("# memtrace: %llu accesses\n%-10s  %-40s  %s\n", nrec, "address", "where", "access");
  unsigned char r[REC];
  for (unsigned long long i = 0; i < nrec; i++) {
    if (fread(r, 1, REC, f) != REC) {
      fprintf(stderr, "tally inst: %s: read error: %s\n", file, strerror(errno));
      tally_inst_close(ti);
      return EXIT_DATAERR;
    }
    print_record(ti, r);
  }
  tally_inst_close(ti);
  if (!trailer) {
    fprintf(stderr, "tally inst: %s: no trailer: the run did not end through semihosting (the trace is what was "
                    "written before)\n", file);
    return 0;
  }
  return check_trailer(f, file, nrec);
}
