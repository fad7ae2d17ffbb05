/*
 * Function symbols from an ELF symbol table (libelf/gelf). Only what lies
 * in executable sections counts; every index and offset read from the file
 * is checked, so a damaged or hostile file loses symbols, never memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symtab.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

static int fail(tally_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(tally_error *err, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return -1;
}

int sym_elf_check(Elf *e, const char *path, tally_error *err) {
  if (elf_kind(e) != ELF_K_ELF)
    return fail(err, "%s: not an ELF file", path);
  const char *ident = elf_getident(e, NULL);
  if (!ident)
    return fail(err, "%s: truncated ELF header", path);
  if (ident[EI_CLASS] != ELFCLASS32)
    return fail(err, "%s: not a 32-bit ELF file; tally reads RV32 programs", path);
  if (ident[EI_DATA] != ELFDATA2LSB)
    return fail(err, "%s: big-endian ELF; RISC-V is little-endian", path);
  GElf_Ehdr eh;
  if (!gelf_getehdr(e, &eh))
    return fail(err, "%s: bad ELF header: %s", path, elf_errmsg(-1));
  if (eh.e_machine != EM_RISCV)
    return fail(err, "%s: not a RISC-V program (e_machine %u)", path, eh.e_machine);
  if (eh.e_type != ET_EXEC)
    return fail(err, "%s: not an executable (e_type %u)%s", path, eh.e_type,
                eh.e_type == ET_REL ? ": an object file, link it first" : "");
  return 0;
}

/* The symbol table's extended section index table (SHT_SYMTAB_SHNDX), if any. */
static Elf_Data *shndx_data(Elf *e, size_t symtab_index) {
  Elf_Scn *scn = NULL;
  while ((scn = elf_nextscn(e, scn))) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB_SHNDX && sh.sh_link == symtab_index)
      return elf_getdata(scn, NULL);
  }
  return NULL;
}

/* Calls fn for every symbol of every SHT_SYMTAB with its name, section
 * index (extended indexes resolved) and the symbol. Returns how many symbol
 * tables there were. */
typedef int (*sym_visit)(void *ctx, const char *name, size_t shndx, const GElf_Sym *s);
static int each_symbol(Elf *e, sym_visit fn, void *ctx) {
  int tables = 0;
  Elf_Scn *scn = NULL;
  while ((scn = elf_nextscn(e, scn))) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
      continue;
    tables++;
    Elf_Data *d = elf_getdata(scn, NULL);
    if (!d || sh.sh_entsize == 0)
      continue;
    Elf_Data *x = shndx_data(e, elf_ndxscn(scn));
    size_t count = d->d_size / sh.sh_entsize;
    for (size_t i = 0; i < count && i <= INT32_MAX; i++) {
      GElf_Sym s;
      GElf_Word xndx = 0;
      if (!gelf_getsymshndx(d, x, (int)i, &s, &xndx))
        continue;
      const char *name = elf_strptr(e, sh.sh_link, s.st_name);
      if (!name || !*name)
        continue;
      size_t shndx = s.st_shndx == SHN_XINDEX ? xndx : s.st_shndx;
      if (fn(ctx, name, shndx, &s) != 0)
        return tables;
    }
  }
  return tables;
}

typedef struct read_ctx {
  sym_table *t;
  int *secmap; /* ELF section index -> sym_table section, -1 = not executable */
  size_t shnum;
  bool oom;
} read_ctx;

static bool is_code_name(const char *name) {
  /* $x/$d: RISC-V mapping symbols ($xrv32i2p0_m2p0... included); .L: assembler-local labels */
  return name[0] != '$' && strncmp(name, ".L", 2) != 0;
}

static int add_symbol(void *p, const char *name, size_t shndx, const GElf_Sym *s) {
  read_ctx *c = p;
  int type = GELF_ST_TYPE(s->st_info), bind = GELF_ST_BIND(s->st_info);
  if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE)
    return 0;
  if (shndx == SHN_UNDEF || shndx >= c->shnum || (s->st_shndx >= SHN_LORESERVE && s->st_shndx != SHN_XINDEX))
    return 0;
  int sec = c->secmap[shndx];
  if (sec < 0 || !is_code_name(name))
    return 0;
  const sym_section *ss = &c->t->sections[sec];
  if (s->st_value < ss->lo || s->st_value > ss->hi)
    return 0;
  unsigned flags = 0;
  if (type != STT_NOTYPE)
    flags |= SYM_FUNC;
  if (bind == STB_GLOBAL || bind == STB_WEAK || bind == STB_GNU_UNIQUE)
    flags |= SYM_GLOBAL;
  if (bind == STB_WEAK)
    flags |= SYM_WEAK;
  int vis = GELF_ST_VISIBILITY(s->st_other);
  if (vis == STV_HIDDEN || vis == STV_INTERNAL)
    flags |= SYM_HIDDEN;
  uint32_t size = s->st_size > UINT32_MAX ? UINT32_MAX : (uint32_t)s->st_size;
  if (sym_table_add_sym(c->t, (uint32_t)s->st_value, size, name, flags, sec) != 0) {
    c->oom = true;
    return 1;
  }
  return 0;
}

int sym_table_read_elf(sym_table *t, Elf *e, const char *path, tally_error *err) {
  size_t shnum = 0, shstrndx = 0;
  if (elf_getshdrnum(e, &shnum) != 0 || elf_getshdrstrndx(e, &shstrndx) != 0)
    return fail(err, "%s: cannot read section headers: %s", path, elf_errmsg(-1));
  read_ctx c = {.t = t, .shnum = shnum};
  c.secmap = malloc((shnum ? shnum : 1) * sizeof *c.secmap);
  if (!c.secmap)
    return fail(err, "%s: out of memory", path);
  for (size_t i = 0; i < shnum; i++)
    c.secmap[i] = -1;
  Elf_Scn *scn = NULL;
  while ((scn = elf_nextscn(e, scn))) {
    GElf_Shdr sh;
    size_t idx = elf_ndxscn(scn);
    if (!gelf_getshdr(scn, &sh) || idx >= shnum)
      continue;
    if (!(sh.sh_flags & SHF_ALLOC) || !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_size == 0 || sh.sh_addr > UINT32_MAX)
      continue;
    const char *name = elf_strptr(e, shstrndx, sh.sh_name);
    uint64_t end = sh.sh_addr + sh.sh_size;
    c.secmap[idx] = sym_table_add_section(t, name ? name : "?", (uint32_t)sh.sh_addr,
                                          end > UINT32_MAX ? UINT32_MAX : (uint32_t)end);
    if (c.secmap[idx] < 0)
      c.oom = true;
  }
  int tables = c.oom ? 0 : each_symbol(e, add_symbol, &c);
  free(c.secmap);
  if (c.oom)
    return fail(err, "%s: out of memory reading symbols", path);
  return tables > 0 ? 1 : 0;
}

typedef struct find_ctx {
  const char *name;
  uint32_t value;
  bool found;
} find_ctx;

static int match_name(void *p, const char *name, size_t shndx, const GElf_Sym *s) {
  find_ctx *c = p;
  if (shndx == SHN_UNDEF || strcmp(name, c->name) != 0)
    return 0;
  c->value = (uint32_t)s->st_value;
  c->found = true;
  return 1;
}

int sym_elf_symbol_value(Elf *e, const char *name, uint32_t *value) {
  find_ctx c = {.name = name};
  each_symbol(e, match_name, &c);
  if (c.found)
    *value = c.value;
  return c.found ? 0 : -1;
}

int sym_table_read_elf_file(sym_table *t, const char *path, bool *has_symtab, tally_error *err) {
  if (elf_version(EV_CURRENT) == EV_NONE)
    return fail(err, "libelf: %s", elf_errmsg(-1));
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail(err, "%s: cannot open: %s", path, strerror(errno));
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  int rc = -1;
  if (!e)
    fail(err, "%s: cannot read as ELF: %s", path, elf_errmsg(-1));
  else if (sym_elf_check(e, path, err) == 0 && (rc = sym_table_read_elf(t, e, path, err)) >= 0) {
    if (has_symtab)
      *has_symtab = rc == 1;
    rc = sym_table_finish(t) == 0 ? 0 : fail(err, "%s: out of memory", path);
  }
  if (e)
    elf_end(e);
  close(fd);
  return rc;
}
