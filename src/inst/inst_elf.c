/*
 * Reading the program to instrument: the whole file into memory (the output
 * is a patched copy of it), its PT_LOAD segments, its executable sections
 * (the only bytes decoded as instructions: tally.ld puts .rodata in the same
 * segment as .text), its function symbols and its source lines. Every
 * offset and size read from the file is checked against the file, since
 * the input is untrusted.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst_impl.h"

int inst_fail(tally_error *err, int code, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return code;
}

static int slurp(tally_inst *ti, const char *path, tally_error *err) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return inst_fail(err, TALLY_INST_EINPUT, "%s: cannot open: %s", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  for (;;) {
    if (!buf) {
      fclose(f);
      return inst_fail(err, TALLY_INST_EINPUT, "%s: out of memory reading it", path);
    }
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap)
      break;
    cap *= 2;
    uint8_t *nb = realloc(buf, cap);
    if (!nb)
      free(buf);
    buf = nb;
  }
  bool bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    return inst_fail(err, TALLY_INST_EINPUT, "%s: read error", path);
  }
  ti->file = buf;
  ti->file_size = n;
  return 0;
}

static bool in_file(const tally_inst *ti, uint64_t off, uint64_t size) {
  return off <= ti->file_size && size <= ti->file_size - off;
}

static int read_segments(tally_inst *ti, Elf *e, tally_error *err) {
  size_t n;
  if (elf_getphdrnum(e, &n) != 0)
    return inst_fail(err, TALLY_INST_EINPUT, "%s: cannot read program headers: %s", ti->path, elf_errmsg(-1));
  ti->segs = calloc(n ? n : 1, sizeof *ti->segs);
  for (size_t i = 0; i < n; i++) {
    GElf_Phdr ph;
    if (!gelf_getphdr(e, (int)i, &ph))
      return inst_fail(err, TALLY_INST_EINPUT, "%s: program header %zu unreadable", ti->path, i);
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
      continue;
    if (ph.p_filesz > ph.p_memsz || !in_file(ti, ph.p_offset, ph.p_filesz))
      return inst_fail(err, TALLY_INST_EINPUT, "%s: segment %zu (file bytes 0x%llx+0x%llx) is truncated or malformed",
                       ti->path, i, (unsigned long long)ph.p_offset, (unsigned long long)ph.p_filesz);
    ti->segs[ti->nsegs++] = (inst_seg){(uint32_t)ph.p_offset, (uint32_t)ph.p_vaddr, (uint32_t)ph.p_paddr,
                                       (uint32_t)ph.p_filesz, (uint32_t)ph.p_memsz, (uint32_t)ph.p_flags,
                                       (uint32_t)ph.p_align};
  }
  if (ti->nsegs == 0)
    return inst_fail(err, TALLY_INST_EINPUT, "%s: no loadable segments", ti->path);
  for (size_t i = 0; i < ti->nsegs; i++)
    for (size_t j = i + 1; j < ti->nsegs; j++) {
      const inst_seg *a = &ti->segs[i], *b = &ti->segs[j];
      if ((uint64_t)a->vaddr < (uint64_t)b->vaddr + b->memsz && (uint64_t)b->vaddr < (uint64_t)a->vaddr + a->memsz)
        return inst_fail(err, TALLY_INST_EINPUT, "%s: segments overlap: 0x%08x-0x%08x and 0x%08x-0x%08x", ti->path,
                         a->vaddr, a->vaddr + a->memsz, b->vaddr, b->vaddr + b->memsz);
    }
  return 0;
}

/* The trampoline hole target/tally.ld reserves (.tally_inst_hole): usable
 * when it is non-empty, word-aligned and in no loaded segment (the
 * trampolines become a segment of their own there). */
static void read_hole(tally_inst *ti, const GElf_Shdr *sh) {
  uint64_t lo = sh->sh_addr, hi = sh->sh_addr + sh->sh_size;
  if (sh->sh_size == 0) {
    ti->no_hole_why = "its trampoline hole (.tally_inst_hole) is empty";
    return;
  }
  if ((lo & 3) || hi > 0xffffffffull) {
    ti->no_hole_why = "its trampoline hole (.tally_inst_hole) is misaligned";
    return;
  }
  for (size_t i = 0; i < ti->nsegs; i++)
    if (ti->segs[i].vaddr < hi && (uint64_t)ti->segs[i].vaddr + ti->segs[i].memsz > lo) {
      ti->no_hole_why = "its trampoline hole (.tally_inst_hole) lies inside a loaded segment";
      return;
    }
  ti->hole_lo = (uint32_t)lo;
  ti->hole_hi = (uint32_t)hi;
}

/* Executable sections with contents, checked to lie inside an executable
 * segment (so that patching their file bytes patches what is loaded). */
static int read_code(tally_inst *ti, Elf *e, tally_error *err) {
  size_t shstrndx;
  if (elf_getshdrstrndx(e, &shstrndx) != 0)
    return inst_fail(err, TALLY_INST_ECANNOT, "%s: no section headers: cannot tell code from data", ti->path);
  Elf_Scn *scn = NULL;
  while ((scn = elf_nextscn(e, scn))) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOBITS) {
      const char *hn = elf_strptr(e, shstrndx, sh.sh_name);
      if (hn && strcmp(hn, ".tally_inst_hole") == 0)
        read_hole(ti, &sh);
      continue;
    }
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR) || !sh.sh_size)
      continue;
    const char *name = elf_strptr(e, shstrndx, sh.sh_name);
    if (!in_file(ti, sh.sh_offset, sh.sh_size) || sh.sh_addr + sh.sh_size > 0xffffffffull)
      return inst_fail(err, TALLY_INST_EINPUT, "%s: section %s lies outside the file", ti->path, name ? name : "?");
    bool loaded = false;
    for (size_t i = 0; i < ti->nsegs; i++) {
      const inst_seg *s = &ti->segs[i];
      if (sh.sh_addr >= s->vaddr && sh.sh_addr + sh.sh_size <= (uint64_t)s->vaddr + s->filesz &&
          sh.sh_offset - s->offset == sh.sh_addr - s->vaddr)
        loaded = (s->flags & PF_X) != 0;
    }
    if (!loaded)
      return inst_fail(err, TALLY_INST_EINPUT, "%s: code section %s (0x%08llx) is not in an executable segment",
                       ti->path, name ? name : "?", (unsigned long long)sh.sh_addr);
    inst_code *nc = realloc(ti->code, (ti->ncode + 1) * sizeof *nc);
    if (!nc)
      return inst_fail(err, TALLY_INST_EINPUT, "out of memory");
    ti->code = nc;
    ti->code[ti->ncode++] = (inst_code){strdup(name ? name : "?"), (uint32_t)sh.sh_addr,
                                        (uint32_t)(sh.sh_addr + sh.sh_size), (uint32_t)sh.sh_offset};
  }
  if (!ti->hole_lo && !ti->no_hole_why)
    ti->no_hole_why = "it has no trampoline hole (.tally_inst_hole: link with target/tally.ld)";
  if (ti->ncode == 0)
    return inst_fail(err, TALLY_INST_ECANNOT, "%s: no executable section: nothing to instrument", ti->path);
  return 0;
}

/* Object symbols with a size that overlap an executable section: data
 * (picolibc.ld merges .rodata into the text; inst_code.c). */
static int read_objects(tally_inst *ti, Elf *e, tally_error *err) {
  Elf_Scn *scn = NULL;
  while ((scn = elf_nextscn(e, scn))) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
      continue;
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!data)
      continue;
    size_t n = data->d_size / sh.sh_entsize;
    for (size_t k = 0; k < n; k++) {
      GElf_Sym sym;
      if (!gelf_getsym(data, (int)k, &sym) || GELF_ST_TYPE(sym.st_info) != STT_OBJECT || !sym.st_size ||
          sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
        continue;
      uint64_t lo = sym.st_value, hi = sym.st_value + sym.st_size;
      bool in_code = false;
      for (size_t c = 0; c < ti->ncode; c++)
        in_code |= lo < ti->code[c].hi && hi > ti->code[c].lo;
      if (!in_code || hi > 0xffffffffull)
        continue;
      const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
      inst_obj *no = realloc(ti->objs, (ti->nobjs + 1) * sizeof *no);
      if (!no)
        return inst_fail(err, TALLY_INST_EINPUT, "out of memory");
      ti->objs = no;
      ti->objs[ti->nobjs++] = (inst_obj){strdup(name && *name ? name : "?"), (uint32_t)lo, (uint32_t)hi};
    }
  }
  return 0;
}

static int read_names(tally_inst *ti, Elf *e, tally_error *err) {
  sym_table_init(&ti->syms);
  sym_lines_init(&ti->lines);
  int r = sym_table_read_elf(&ti->syms, e, ti->path, err);
  if (r < 0)
    return TALLY_INST_EINPUT;
  ti->has_symtab = r == 1;
  if (sym_table_finish(&ti->syms) != 0)
    return inst_fail(err, TALLY_INST_EINPUT, "out of memory");
  tally_error ignored; /* damaged line tables cost FILE:LINE, not the rewrite */
  ti->has_lines = sym_lines_read_elf(&ti->lines, e, ti->path, &ignored) == 0 && ti->lines.n > 0;
  return 0;
}

int inst_elf_read(tally_inst *ti, const char *path, tally_error *err) {
  int rc = slurp(ti, path, err);
  if (rc)
    return rc;
  if (elf_version(EV_CURRENT) == EV_NONE)
    return inst_fail(err, TALLY_INST_EINPUT, "libelf: %s", elf_errmsg(-1));
  Elf *e = elf_memory((char *)ti->file, ti->file_size);
  if (!e)
    return inst_fail(err, TALLY_INST_EINPUT, "%s: cannot read as ELF: %s", path, elf_errmsg(-1));
  if (sym_elf_check(e, path, err) != 0) {
    elf_end(e);
    return TALLY_INST_EINPUT;
  }
  GElf_Ehdr eh;
  gelf_getehdr(e, &eh);
  ti->entry = (uint32_t)eh.e_entry;
  ti->rvc = (eh.e_flags & 1u) != 0; /* EF_RISCV_RVC */
  rc = read_segments(ti, e, err);
  if (!rc)
    rc = read_code(ti, e, err);
  if (!rc)
    rc = read_names(ti, e, err);
  if (!rc)
    rc = read_objects(ti, e, err);
  elf_end(e);
  return rc;
}
