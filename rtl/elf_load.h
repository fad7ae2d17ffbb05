// elf_load.h -- the testbenches' ELF loader (rtl/soc/tb.cpp,
// rtl/cores/picorv32/tb.cpp): copies an ELF32 program's PT_LOAD segments
// into a RAM of 32-bit little-endian words, Verilator's array of the
// design's memory.
#ifndef TALLY_RTL_ELF_LOAD_H
#define TALLY_RTL_ELF_LOAD_H

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

// Loads PATH into MEM, WORDS words at BASE. False, with the reason on
// stderr, when the file cannot be read, is not a little-endian ELF32 file
// or has a segment outside the RAM.
template <class Mem>
static bool elf_load(const char *path, uint32_t base, uint32_t words, Mem &mem) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "tb: %s: %s\n", path, strerror(errno));
    return false;
  }
  std::vector<uint8_t> d;
  uint8_t buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) d.insert(d.end(), buf, buf + n);
  fclose(f);
  auto u16 = [&](size_t o) { return (uint32_t)d[o] | (uint32_t)d[o + 1] << 8; };
  auto u32 = [&](size_t o) { return u16(o) | u16(o + 2) << 16; };
  if (d.size() < 52 || memcmp(d.data(), "\x7f" "ELF\x01\x01", 6) != 0) {
    fprintf(stderr, "tb: %s: not a little-endian ELF32 file\n", path);
    return false;
  }
  uint32_t phoff = u32(28), phentsize = u16(42), phnum = u16(44);
  for (uint32_t i = 0; i < phnum; i++) {
    size_t p = phoff + (size_t)i * phentsize;
    if (p + 32 > d.size()) {
      fprintf(stderr, "tb: %s: program header %u outside the file\n", path, i);
      return false;
    }
    if (u32(p) != 1) continue;  // PT_LOAD
    uint32_t off = u32(p + 4), paddr = u32(p + 12), filesz = u32(p + 16);
    if (off + (size_t)filesz > d.size()) {
      fprintf(stderr, "tb: %s: segment %u outside the file\n", path, i);
      return false;
    }
    for (uint32_t b = 0; b < filesz; b++) {
      uint32_t a = paddr + b - base;
      if (paddr + b < base || a / 4 >= words) {
        fprintf(stderr, "tb: %s: segment %u at 0x%08x is outside the RAM (%u KiB at 0x%08x)\n", path, i,
                paddr + b, words / 256, base);
        return false;
      }
      uint32_t w = mem[a / 4];
      mem[a / 4] = (w & ~(0xffu << 8 * (a % 4))) | (uint32_t)d[off + b] << 8 * (a % 4);
    }
  }
  return true;
}

#endif
