/*
 * ELF32 little-endian RISC-V executables. Every PT_LOAD segment is checked
 * against the file and against RAM before any byte is copied; then the
 * segments are copied (file part) and zeroed (the rest of memsz).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "loader.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

static int fail(tally_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(tally_error *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
  return -1;
}

static const char *machine_name(unsigned m) {
  switch (m) {
  case 3: return "x86";
  case 40: return "ARM";
  case 62: return "x86-64";
  case 183: return "AArch64";
  case 8: return "MIPS";
  case 20: return "PowerPC";
  default: return "another architecture";
  }
}

static int check_header(Elf *e, const char *path, size_t file_size, tally_error *err) {
  if (elf_kind(e) != ELF_K_ELF)
    return fail(err, "%s: not an ELF file", path);
  const char *ident = elf_getident(e, NULL);
  if (!ident)
    return fail(err, "%s: truncated ELF header (%zu bytes)", path, file_size);
  if (ident[EI_CLASS] == ELFCLASS64)
    return fail(err, "%s: a 64-bit ELF; tally runs RV32 programs (build with -march=rv32imac -mabi=ilp32)", path);
  if (ident[EI_CLASS] != ELFCLASS32)
    return fail(err, "%s: unknown ELF class %d", path, ident[EI_CLASS]);
  if (ident[EI_DATA] != ELFDATA2LSB)
    return fail(err, "%s: big-endian ELF; RISC-V is little-endian", path);
  GElf_Ehdr eh;
  if (!gelf_getehdr(e, &eh))
    return fail(err, "%s: bad ELF header: %s", path, elf_errmsg(-1));
  if (eh.e_machine != EM_RISCV)
    return fail(err, "%s: built for %s (e_machine %u), not RISC-V", path, machine_name(eh.e_machine), eh.e_machine);
  if (eh.e_type != ET_EXEC)
    return fail(err, "%s: not an executable (e_type %u%s)", path, eh.e_type,
                eh.e_type == ET_REL ? ": an object file, link it first" : eh.e_type == ET_DYN ? ": position-independent/shared" : "");
  return 0;
}

/* Checks all PT_LOAD segments; returns how many there are, or -1. */
static int check_segments(Elf *e, const core_cpu *cpu, const char *board, const char *path, size_t file_size,
                          tally_error *err) {
  size_t n;
  if (elf_getphdrnum(e, &n) != 0)
    return fail(err, "%s: cannot read program headers: %s", path, elf_errmsg(-1));
  int loads = 0;
  uint64_t top = 0; /* the end of the highest segment */
  for (size_t i = 0; i < n; i++) {
    GElf_Phdr ph;
    if (!gelf_getphdr(e, (int)i, &ph))
      return fail(err, "%s: program header %zu unreadable: %s", path, i, elf_errmsg(-1));
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
      continue;
    loads++;
    if (ph.p_filesz > ph.p_memsz)
      return fail(err, "%s: segment %zu has file size 0x%llx larger than its memory size 0x%llx", path, i,
                  (unsigned long long)ph.p_filesz, (unsigned long long)ph.p_memsz);
    if (ph.p_offset > file_size || ph.p_filesz > file_size - ph.p_offset)
      return fail(err, "%s: truncated: segment %zu needs file bytes 0x%llx-0x%llx but the file has %zu bytes", path, i,
                  (unsigned long long)ph.p_offset, (unsigned long long)(ph.p_offset + ph.p_filesz), file_size);
    uint64_t lo = ph.p_paddr, hi = lo + ph.p_memsz;
    /* below RAM: linked for another memory map (picolibc's default layout
     * puts code at 0x10000000), which no RAM size fixes; above its end: a
     * larger RAM does */
    if (board && (lo < cpu->ram_base || hi > (uint64_t)cpu->ram_base + cpu->ram_size))
      return fail(err, "%s: segment %zu (0x%08llx-0x%08llx) is outside the RAM of board %s (0x%08x-0x%08llx): the "
                  "program is linked for another memory map; link it for this board, or run it on the board it "
                  "was linked for (--board, docs/boards.md)",
                  path, i, (unsigned long long)lo, (unsigned long long)hi, board, cpu->ram_base,
                  (unsigned long long)cpu->ram_base + cpu->ram_size);
    if (lo < cpu->ram_base)
      return fail(err, "%s: segment %zu (0x%08llx-0x%08llx) is below RAM (0x%08x-0x%08llx): the program is linked "
                  "for another memory map; link it for tally's board with target/tally.ld and target/crt0.S "
                  "(-nostartfiles -T target/tally.ld, as target/README.md shows)",
                  path, i, (unsigned long long)lo, (unsigned long long)hi, cpu->ram_base,
                  (unsigned long long)cpu->ram_base + cpu->ram_size);
    if (hi > top)
      top = hi;
  }
  if (top > (uint64_t)cpu->ram_base + cpu->ram_size)
    return fail(err, "%s: its segments end at 0x%08llx, beyond RAM (0x%08x-0x%08llx): give --ram-size %lluKi or more",
                path, (unsigned long long)top, cpu->ram_base, (unsigned long long)cpu->ram_base + cpu->ram_size,
                (unsigned long long)((top - cpu->ram_base + 4095) / 4096 * 4));
  if (loads == 0)
    return fail(err, "%s: no loadable segments", path);
  return loads;
}

static void copy_segments(Elf *e, core_cpu *cpu, const char *raw, loaded_image *img) {
  size_t n = 0;
  elf_getphdrnum(e, &n);
  img->code_lo = UINT32_MAX;
  img->code_hi = 0;
  for (size_t i = 0; i < n; i++) {
    GElf_Phdr ph;
    if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || ph.p_memsz == 0)
      continue;
    if (ph.p_flags & PF_X) {
      if (ph.p_paddr < img->code_lo) img->code_lo = (uint32_t)ph.p_paddr;
      if (ph.p_paddr + ph.p_memsz > img->code_hi) img->code_hi = (uint32_t)(ph.p_paddr + ph.p_memsz);
    }
    uint8_t *dst = cpu->ram + (ph.p_paddr - cpu->ram_base);
    memcpy(dst, raw + ph.p_offset, ph.p_filesz);
    memset(dst + ph.p_filesz, 0, ph.p_memsz - ph.p_filesz);
  }
}

/* Function symbols for reports (src/symbols), and HTIF's tohost/fromhost. */
static void read_symbols(Elf *e, const char *path, sym_table *syms, loaded_image *img) {
  tally_error ignored; /* a damaged symbol table costs names, not the run */
  sym_table_read_elf(syms, e, path, &ignored);
  sym_table_finish(syms);
  uint32_t v;
  if (sym_elf_symbol_value(e, "tohost", &v) == 0) {
    img->has_tohost = true;
    img->tohost = v;
  }
  img->fromhost = sym_elf_symbol_value(e, "fromhost", &v) == 0 ? v : 0;
}

static bool uleb(const unsigned char **p, const unsigned char *end, uint64_t *v) {
  *v = 0;
  for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
    unsigned char b = *(*p)++;
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80))
      return true;
  }
  return false;
}

/* The build attributes format (ARM's, which RISC-V's psABI takes): 'A',
 * then subsections (u32 length, vendor "riscv"), each of sub-subsections
 * (ULEB tag, u32 length; tag 1 = the whole file) of attributes: a ULEB tag
 * and a ULEB value for an even tag, a NUL-terminated string for an odd one.
 * Tag_RISCV_arch is 5. */
bool loader_elf_arch(const unsigned char *sec, size_t n, char *buf, size_t size) {
  buf[0] = '\0';
  if (n < 1 || sec[0] != 'A')
    return false;
  const unsigned char *p = sec + 1, *end = sec + n;
  while (end - p >= 4) {
    uint32_t len = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    if (len < 4 || len > (size_t)(end - p))
      return false;
    const unsigned char *sub = p + 4, *sub_end = p + len;
    p = sub_end;
    const unsigned char *nul = memchr(sub, 0, (size_t)(sub_end - sub));
    if (!nul || strcmp((const char *)sub, "riscv") != 0)
      continue;
    const unsigned char *q = nul + 1;
    while (q < sub_end) {
      uint64_t tag;
      const unsigned char *start = q;
      if (!uleb(&q, sub_end, &tag) || sub_end - q < 4)
        return false;
      uint32_t slen = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
      if (slen < (size_t)(q + 4 - start) || slen > (size_t)(sub_end - start))
        return false;
      const unsigned char *a = q + 4, *a_end = start + slen;
      q = a_end;
      if (tag != 1) /* attributes of sections or symbols: not the file's */
        continue;
      while (a < a_end) {
        uint64_t atag, v;
        if (!uleb(&a, a_end, &atag))
          return false;
        if (atag & 1) {
          const unsigned char *z = memchr(a, 0, (size_t)(a_end - a));
          if (!z)
            return false;
          if (atag == 5) {
            snprintf(buf, size, "%s", (const char *)a);
            return true;
          }
          a = z + 1;
        } else if (!uleb(&a, a_end, &v)) {
          return false;
        }
      }
    }
  }
  return false;
}

/* The program's ISA as its build attributes give it (img->arch). */
static void read_arch(Elf *e, loaded_image *img) {
  size_t shstrndx;
  if (elf_getshdrstrndx(e, &shstrndx) != 0)
    return;
  for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
    GElf_Shdr sh;
    const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
    if (!name || strcmp(name, ".riscv.attributes") != 0 || sh.sh_type == SHT_NOBITS)
      continue;
    Elf_Data *d = elf_rawdata(scn, NULL);
    if (d && d->d_buf)
      loader_elf_arch(d->d_buf, d->d_size, img->arch, sizeof img->arch);
    return;
  }
}

int loader_elf(core_cpu *cpu, const char *path, const char *board, sym_table *syms, loaded_image *img,
               tally_error *err) {
  *img = (loaded_image){0};
  if (elf_version(EV_CURRENT) == EV_NONE)
    return fail(err, "libelf: %s", elf_errmsg(-1));
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail(err, "%s: cannot open: %s", path, strerror(errno));
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  int rc = -1;
  size_t file_size = 0;
  const char *raw = e ? elf_rawfile(e, &file_size) : NULL;
  if (!e || !raw) {
    fail(err, "%s: cannot read as ELF: %s", path, elf_errmsg(-1));
  } else if (check_header(e, path, file_size, err) == 0 && check_segments(e, cpu, board, path, file_size, err) > 0) {
    GElf_Ehdr eh;
    gelf_getehdr(e, &eh);
    if ((uint32_t)eh.e_entry - cpu->ram_base >= cpu->ram_size) {
      fail(err, "%s: entry point 0x%08llx is outside RAM", path, (unsigned long long)eh.e_entry);
    } else {
      copy_segments(e, cpu, raw, img);
      if (img->code_lo >= img->code_hi) { /* no segment marked executable: take them all */
        img->code_lo = cpu->ram_base;
        img->code_hi = cpu->ram_base + cpu->ram_size;
      }
      img->entry = (uint32_t)eh.e_entry;
      read_symbols(e, path, syms, img);
      read_arch(e, img);
      rc = 0;
    }
  }
  if (e)
    elf_end(e);
  close(fd);
  return rc;
}

bool loader_elf_instrumented(const char *path) {
  if (elf_version(EV_CURRENT) == EV_NONE)
    return false;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  size_t shstrndx;
  bool yes = false;
  if (e && elf_kind(e) == ELF_K_ELF && elf_getshdrstrndx(e, &shstrndx) == 0)
    for (Elf_Scn *scn = elf_nextscn(e, NULL); scn && !yes; scn = elf_nextscn(e, scn)) {
      GElf_Shdr sh;
      const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
      yes = name && strcmp(name, ".tally_inst.text") == 0;
    }
  if (e)
    elf_end(e);
  close(fd);
  return yes;
}

uint64_t loader_elf_ram_needed(const char *path, uint32_t ram_base) {
  if (elf_version(EV_CURRENT) == EV_NONE)
    return 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  uint64_t top = 0;
  size_t n = 0;
  if (e && elf_kind(e) == ELF_K_ELF && elf_getphdrnum(e, &n) == 0) {
    for (size_t i = 0; i < n; i++) {
      GElf_Phdr ph;
      if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || ph.p_memsz == 0 || ph.p_paddr < ram_base)
        continue;
      uint64_t end = ph.p_paddr + ph.p_memsz - ram_base;
      if (end > top)
        top = end;
    }
  }
  if (e)
    elf_end(e);
  close(fd);
  return (top + (1u << 20) - 1) & ~(uint64_t)((1u << 20) - 1);
}
