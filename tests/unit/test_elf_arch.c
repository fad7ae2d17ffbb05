/*
 * unit.elf_arch: the RISC-V build attributes reader (loader_elf_arch,
 * src/loader/elf_load.c) on sections written here byte by byte after the
 * psABI's layout ('A'; a subsection: u32 length, "riscv"; a sub-subsection:
 * ULEB tag 1, u32 length; attributes: ULEB tag, then a ULEB for an even
 * tag or a string for an odd one; Tag_RISCV_arch = 5), and on every
 * damaged form of it: cut at every byte, lengths that overrun, a string
 * with no NUL. Damage gives false and "", never a read outside the bytes
 * (the test runs under ASan too).
 */
#include <stdlib.h>
#include <string.h>

#include "../../tests/check.h"
#include "loader/loader.h"

static size_t put32(unsigned char *b, uint32_t v) {
  b[0] = (unsigned char)v, b[1] = (unsigned char)(v >> 8), b[2] = (unsigned char)(v >> 16),
  b[3] = (unsigned char)(v >> 24);
  return 4;
}

/* 'A', one "riscv" subsection, a file sub-subsection: stack_align (4) 16,
 * arch (5) `arch`, priv_spec (8) 1. */
static size_t section(unsigned char *b, const char *arch) {
  size_t n = 0;
  b[n++] = 'A';
  size_t sub = n;
  n += 4;
  memcpy(b + n, "riscv", 6);
  n += 6;
  size_t file = n;
  b[n++] = 1;
  n += 4;
  b[n++] = 4, b[n++] = 16;
  b[n++] = 5;
  memcpy(b + n, arch, strlen(arch) + 1);
  n += strlen(arch) + 1;
  b[n++] = 8, b[n++] = 1;
  put32(b + sub, (uint32_t)(n - sub));
  put32(b + file + 1, (uint32_t)(n - file));
  return n;
}

int main(void) {
  unsigned char b[256];
  char out[128];
  const char *arch = "rv32i2p1_m2p0_a2p1_f2p2_d2p2_c2p0";
  size_t n = section(b, arch);
  CHECK(loader_elf_arch(b, n, out, sizeof out) && !strcmp(out, arch), "whole section: '%s'", out);
  /* every cut short of the arch string's NUL: false, nothing read past the cut */
  size_t arch_end = 1 + 4 + 6 + 1 + 4 + 2 + 1 + strlen(arch) + 1;
  for (size_t cut = 0; cut < n; cut++) {
    unsigned char *c = malloc(cut ? cut : 1);
    memcpy(c, b, cut);
    bool ok = loader_elf_arch(c, cut, out, sizeof out);
    CHECK(!ok && out[0] == '\0', "cut at %zu of %zu (arch ends at %zu): %d '%s'", cut, n, arch_end, ok, out);
    free(c);
  }
  /* a subsection length past the end, or below its own 4 bytes */
  unsigned char d[256];
  memcpy(d, b, n);
  put32(d + 1, 1000);
  CHECK(!loader_elf_arch(d, n, out, sizeof out), "subsection length past the end");
  put32(d + 1, 2);
  CHECK(!loader_elf_arch(d, n, out, sizeof out), "subsection length 2");
  /* a sub-subsection length past its subsection */
  memcpy(d, b, n);
  put32(d + 12, 1000);
  CHECK(!loader_elf_arch(d, n, out, sizeof out), "sub-subsection length past the end");
  /* another vendor's subsection only: no arch */
  memcpy(d, b, n);
  memcpy(d + 5, "gnu\0\0", 6);
  CHECK(!loader_elf_arch(d, n, out, sizeof out) && !out[0], "a 'gnu' subsection is not riscv's");
  /* not 'A' */
  memcpy(d, b, n);
  d[0] = 'B';
  CHECK(!loader_elf_arch(d, n, out, sizeof out), "format version 'B'");
  /* a long arch string is cut to the buffer, NUL-terminated */
  char small[8];
  CHECK(loader_elf_arch(b, n, small, sizeof small) && !strcmp(small, "rv32i2p"), "cut to the buffer: '%s'", small);
  printf("unit.elf_arch: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
