/*
 * tally inst --show FILE PROG: prints a bbcount.out (written by the
 * shipped bbcount tool at the end of an instrumented run) as one line per
 * site: original address, function+offset from PROG's symbols, count.
 * A memtrace.out (its own magic) goes to inst_show_memtrace.c. The file
 * is the program's output, so it is checked like any input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tally/inst.h"

static uint32_t get32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int inst_show(const char *file, const char *prog);
int inst_show_memtrace(FILE *f, const char *file, const char *prog);

int inst_show(const char *file, const char *prog) {
  FILE *f = fopen(file, "rb");
  if (!f) {
    fprintf(stderr, "tally inst: %s: cannot open: %s\n", file, strerror(errno));
    return EXIT_NOINPUT;
  }
  unsigned char h[12];
  size_t got = fread(h, 1, 12, f);
  if (got >= 4 && memcmp(h, "TIMT", 4) == 0) {
    rewind(f);
    int rc = inst_show_memtrace(f, file, prog);
    fclose(f);
    return rc;
  }
  if (got != 12 || memcmp(h, "TIBB", 4) != 0 || get32(h + 4) != 1) {
    fprintf(stderr, "tally inst: %s: neither a bbcount.out (version 1) nor a memtrace.out file\n", file);
    fclose(f);
    return EXIT_DATAERR;
  }
  uint32_t n = get32(h + 8);
  tally_error err;
  tally_inst *ti;
  int rc = tally_inst_open(prog, &ti, &err);
  if (rc) {
    fprintf(stderr, "tally inst: %s\n", err.msg);
    fclose(f);
    return rc;
  }
  printf("%-10s  %-40s  %s\n", "address", "where", "count");
  for (uint32_t i = 0; i < n; i++) {
    unsigned char r[16];
    if (fread(r, 1, 16, f) != 16) {
      fprintf(stderr, "tally inst: %s: truncated after %u of %u records\n", file, i, n);
      rc = EXIT_DATAERR;
      break;
    }
    uint32_t pc = get32(r);
    if (!(get32(r + 4) & 1u)) /* the runtime's own site: not counted */
      continue;
    unsigned long long count = get32(r + 8) | (unsigned long long)get32(r + 12) << 32;
    char where[200];
    tally_inst_where(ti, pc, where, sizeof where);
    const char *sym = strchr(where, '(');
    printf("0x%08x  %-40.*s  %llu\n", pc, sym ? (int)strlen(sym + 1) - 1 : 1, sym ? sym + 1 : "-", count);
  }
  tally_inst_close(ti);
  fclose(f);
  return rc;
}
