/*
 * Writing the instrumented executable. The input file is copied byte for
 * byte, so every original section, symbol and segment stays where it was;
 * each site's instruction is overwritten in place with a same-length trap
 * (ebreak, or c.ebreak for a 2-byte instruction); the analysis image's
 * segments are appended as new PT_LOAD segments, with a new program
 * header table and a new section header table (the old ones plus
 * .tally_inst.* sections naming the analysis region) at the end; the entry
 * point becomes the runtime's start stub. The file is written to a
 * temporary name and renamed, so a failure leaves no output behind.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inst_impl.h"

#define EBREAK32 0x00100073u
#define EBREAK16 0x9002u

typedef struct buf {
  uint8_t *p;
  size_t n, cap;
} buf;

static bool grow(buf *b, size_t need) {
  if (need <= b->cap)
    return true;
  size_t cap = b->cap ? b->cap : 4096;
  while (cap < need)
    cap *= 2;
  uint8_t *np = realloc(b->p, cap);
  if (!np)
    return false;
  b->p = np;
  b->cap = cap;
  return true;
}

static bool put(buf *b, const void *data, size_t size) {
  if (!grow(b, b->n + size))
    return false;
  if (size)
    memcpy(b->p + b->n, data, size);
  b->n += size;
  return true;
}

static bool pad_to(buf *b, size_t off) {
  if (!grow(b, off))
    return false;
  if (off > b->n)
    memset(b->p + b->n, 0, off - b->n);
  b->n = off;
  return true;
}

/* The analysis image: its PT_LOAD segments and their bytes. */
typedef struct image {
  int fd;
  Elf *e;
  char *raw;
  size_t size;
  inst_seg segs[8];
  size_t nsegs;
  uint32_t entry;
} image;

static bool in_region(uint64_t lo, uint64_t hi, uint64_t rlo, uint64_t rhi) { return lo >= rlo && hi <= rhi; }

static int read_image(const tally_inst *ti, image *im, const char *path, tally_error *err) {
  im->fd = open(path, O_RDONLY | O_CLOEXEC);
  if (im->fd < 0)
    return inst_fail(err, TALLY_INST_ETOOLCHAIN, "%s: cannot open the linked analysis: %s", path, strerror(errno));
  im->e = elf_begin(im->fd, ELF_C_READ, NULL);
  im->raw = im->e ? elf_rawfile(im->e, &im->size) : NULL;
  GElf_Ehdr eh;
  if (!im->raw || !gelf_getehdr(im->e, &eh))
    return inst_fail(err, TALLY_INST_ETOOLCHAIN, "%s: the linker's output is not an ELF file", path);
  im->entry = (uint32_t)eh.e_entry;
  size_t n = 0;
  elf_getphdrnum(im->e, &n);
  for (size_t i = 0; i < n; i++) {
    GElf_Phdr ph;
    if (!gelf_getphdr(im->e, (int)i, &ph) || ph.p_type != PT_LOAD || ph.p_memsz == 0)
      continue;
    bool placed = in_region(ph.p_vaddr, ph.p_vaddr + ph.p_memsz, TALLY_INST_REGION_BASE,
                            (uint64_t)TALLY_INST_REGION_BASE + TALLY_INST_REGION_SIZE) ||
                  (ti->hole_lo && in_region(ph.p_vaddr, ph.p_vaddr + ph.p_memsz, ti->hole_lo, ti->hole_hi));
    if (im->nsegs == sizeof im->segs / sizeof im->segs[0] || !placed || ph.p_offset + ph.p_filesz > im->size)
      return inst_fail(err, TALLY_INST_ETOOLCHAIN,
                       "%s: the analysis image does not fit the analysis region 0x%08x-0x%08x (segment at 0x%08llx, "
                       "0x%llx bytes)", path, TALLY_INST_REGION_BASE, TALLY_INST_REGION_BASE + TALLY_INST_REGION_SIZE,
                       (unsigned long long)ph.p_vaddr, (unsigned long long)ph.p_memsz);
    im->segs[im->nsegs++] = (inst_seg){(uint32_t)ph.p_offset, (uint32_t)ph.p_vaddr, (uint32_t)ph.p_paddr,
                                       (uint32_t)ph.p_filesz, (uint32_t)ph.p_memsz, (uint32_t)ph.p_flags, 4096};
  }
  if (im->nsegs == 0)
    return inst_fail(err, TALLY_INST_ETOOLCHAIN, "%s: the analysis image has no loadable segment", path);
  if (im->entry != TALLY_INST_ENTRY)
    return inst_fail(err, TALLY_INST_ETOOLCHAIN, "%s: the runtime's entry is 0x%08x, not 0x%08x", path, im->entry,
                     TALLY_INST_ENTRY);
  return 0;
}

/* The code section holding pc and the file offset of pc. */
static uint32_t file_offset(const tally_inst *ti, uint32_t pc) {
  for (size_t i = 0; i < ti->ncode; i++)
    if (pc >= ti->code[i].lo && pc < ti->code[i].hi)
      return ti->code[i].offset + (pc - ti->code[i].lo);
  return 0; /* not reached: sites are decoded instructions */
}

/* jal x0, from -> to (in reach: inst_tramp.c checked). */
static uint32_t jal_x0(uint32_t from, uint32_t to) {
  uint32_t o = to - from;
  return ((o >> 20) & 1u) << 31 | ((o >> 1) & 0x3ffu) << 21 | ((o >> 11) & 1u) << 20 | ((o >> 12) & 0xffu) << 12 |
         0x6fu;
}

/* Each site's bytes become a trap of the same length, or a jump site's
 * jal (at the site, or at the block instruction that hosts it). */
static void patch_sites(const tally_inst *ti, uint8_t *out) {
  for (size_t s = 0; s < ti->nsites; s++) {
    const inst_site *site = &ti->sites[s];
    if (site->jump && !site->tramp) /* counted in another site's trampoline: its bytes stay */
      continue;
    uint32_t pc = site->jump ? site->host_pc : site->pc;
    unsigned len = site->jump ? 4u : ti->insns[site->insn].len;
    uint8_t *p = out + file_offset(ti, pc);
    uint32_t v = site->jump ? jal_x0(pc, site->tramp) : len == 2 ? EBREAK16 : EBREAK32;
    for (unsigned i = 0; i < len; i++)
      p[i] = (uint8_t)(v >> (8 * i));
  }
}

/* The analysis image's code symbols, renamed "inst.NAME", appended (as
 * global functions, so that the locals-first order holds) to copies of
 * the program's .symtab and .strtab: profiles of the output then name the
 * instrumentation's own functions. A stripped program gets none. */
static void add_symbols(const tally_inst *ti, const image *im, Elf32_Shdr *osh, unsigned shnum, unsigned text_shndx,
                        uint32_t text_lo, uint32_t text_hi, buf *b) {
  unsigned symi = 0;
  for (unsigned i = 1; i < shnum; i++)
    if (osh[i].sh_type == SHT_SYMTAB)
      symi = i;
  if (!symi || osh[symi].sh_link >= shnum || osh[symi].sh_entsize != sizeof(Elf32_Sym))
    return;
  Elf32_Shdr *sym = &osh[symi], *str = &osh[sym->sh_link];
  if (sym->sh_offset > ti->file_size || sym->sh_size > ti->file_size - sym->sh_offset ||
      str->sh_offset > ti->file_size || str->sh_size > ti->file_size - str->sh_offset)
    return;
  Elf_Scn *scn = NULL;
  Elf_Data *data = NULL;
  GElf_Shdr ash;
  while ((scn = elf_nextscn(im->e, scn)))
    if (gelf_getshdr(scn, &ash) && ash.sh_type == SHT_SYMTAB && (data = elf_getdata(scn, NULL)))
      break;
  if (!scn || !data)
    return;
  uint32_t str_off = (uint32_t)b->n;
  put(b, ti->file + str->sh_offset, str->sh_size);
  size_t nsyms = ash.sh_entsize ? ash.sh_size / ash.sh_entsize : 0;
  buf syms = {0};
  put(&syms, ti->file + sym->sh_offset, sym->sh_size);
  for (size_t i = 0; i < nsyms; i++) {
    GElf_Sym gs;
    const char *name;
    if (!gelf_getsym(data, (int)i, &gs) || !(name = elf_strptr(im->e, ash.sh_link, gs.st_name)) || !*name)
      continue;
    int type = GELF_ST_TYPE(gs.st_info);
    if ((type != STT_FUNC && type != STT_NOTYPE) || name[0] == '$' || strncmp(name, ".L", 2) == 0 ||
        gs.st_value < text_lo || gs.st_value >= text_hi)
      continue;
    Elf32_Sym ns = {.st_name = (uint32_t)(b->n - str_off), .st_value = (uint32_t)gs.st_value,
                    .st_size = (uint32_t)gs.st_size, .st_info = ELF32_ST_INFO(STB_GLOBAL, type),
                    .st_shndx = (Elf32_Half)text_shndx};
    put(b, "inst.", 5);
    put(b, name, strlen(name) + 1);
    put(&syms, &ns, sizeof ns);
  }
  str->sh_offset = str_off;
  str->sh_size = (uint32_t)(b->n - str_off);
  pad_to(b, (b->n + 3) & ~(size_t)3);
  sym->sh_offset = (uint32_t)b->n;
  sym->sh_size = (uint32_t)syms.n;
  put(b, syms.p, syms.n);
  free(syms.p);
}

/* Section names added after the original ones in a new .shstrtab. */
static const char *const new_names[] = {".tally_inst.text", ".tally_inst.data", ".tally_inst.bss", ".tally_inst.tramp"};

static int compose(const tally_inst *ti, const image *im, buf *b, tally_error *err) {
  Elf32_Ehdr eh;
  memcpy(&eh, ti->file, sizeof eh);
  if (eh.e_shnum == 0 || eh.e_shstrndx >= eh.e_shnum || eh.e_shentsize != sizeof(Elf32_Shdr) ||
      eh.e_phentsize != sizeof(Elf32_Phdr) || eh.e_shoff > ti->file_size ||
      (size_t)eh.e_shnum * sizeof(Elf32_Shdr) > ti->file_size - eh.e_shoff || eh.e_phoff > ti->file_size ||
      (size_t)eh.e_phnum * sizeof(Elf32_Phdr) > ti->file_size - eh.e_phoff)
    return inst_fail(err, TALLY_INST_EINPUT, "%s: section or program header table malformed (or extended numbering)",
                     ti->path);
  Elf32_Shdr strsh0;
  memcpy(&strsh0, ti->file + eh.e_shoff + (size_t)eh.e_shstrndx * sizeof strsh0, sizeof strsh0);
  if (strsh0.sh_offset > ti->file_size || strsh0.sh_size > ti->file_size - strsh0.sh_offset)
    return inst_fail(err, TALLY_INST_EINPUT, "%s: section name table lies outside the file", ti->path);
  if (!put(b, ti->file, ti->file_size))
    return inst_fail(err, TALLY_INST_ETOOLCHAIN, "out of memory");
  patch_sites(ti, b->p);

  /* analysis segments, each at an offset congruent to its address */
  uint32_t seg_off[8];
  for (size_t i = 0; i < im->nsegs; i++) {
    const inst_seg *s = &im->segs[i];
    size_t off = (b->n + 4095) & ~(size_t)4095;
    off += s->vaddr & 4095u;
    if (!pad_to(b, off) || !put(b, im->raw + s->offset, s->filesz))
      return inst_fail(err, TALLY_INST_ETOOLCHAIN, "out of memory");
    seg_off[i] = (uint32_t)off;
  }

  /* new .shstrtab: the old one plus our names */
  Elf32_Shdr *osh = (Elf32_Shdr *)calloc(eh.e_shnum ? eh.e_shnum : 1, sizeof *osh);
  if (!osh)
    return inst_fail(err, TALLY_INST_ETOOLCHAIN, "out of memory");
  memcpy(osh, ti->file + eh.e_shoff, (size_t)eh.e_shnum * sizeof *osh);
  /* where the analysis code's section will be among the new headers */
  unsigned text_shndx = 0, next = eh.e_shnum;
  uint32_t text_lo = 0, text_hi = 0;
  for (size_t i = 0; i < im->nsegs; i++) {
    const inst_seg *s = &im->segs[i];
    if ((s->flags & PF_X) && s->filesz && !text_shndx)
      text_shndx = next, text_lo = s->vaddr, text_hi = s->vaddr + s->filesz;
    next += (s->filesz ? 1u : 0u) + (s->memsz > s->filesz ? 1u : 0u);
  }
  if (text_shndx)
    add_symbols(ti, im, osh, eh.e_shnum, text_shndx, text_lo, text_hi, b);
  Elf32_Shdr *strsh = &osh[eh.e_shstrndx];
  uint32_t str_off = (uint32_t)b->n, name_off[4];
  put(b, ti->file + strsh->sh_offset, strsh->sh_size);
  for (int i = 0; i < 4; i++) {
    name_off[i] = (uint32_t)(b->n - str_off);
    put(b, new_names[i], strlen(new_names[i]) + 1);
  }
  strsh->sh_offset = str_off;
  strsh->sh_size = (uint32_t)(b->n - str_off);

  /* section headers: the old ones, then one per analysis segment part */
  pad_to(b, (b->n + 3) & ~(size_t)3);
  uint32_t shoff = (uint32_t)b->n;
  put(b, osh, (size_t)eh.e_shnum * sizeof *osh);
  free(osh);
  unsigned nsh = eh.e_shnum;
  for (size_t i = 0; i < im->nsegs; i++) {
    const inst_seg *s = &im->segs[i];
    bool x = s->flags & PF_X, tramp = s->vaddr < TALLY_INST_REGION_BASE;
    Elf32_Shdr sh = {.sh_name = name_off[tramp ? 3 : x ? 0 : 1], .sh_type = SHT_PROGBITS,
                     .sh_flags = SHF_ALLOC | (x ? SHF_EXECINSTR : SHF_WRITE), .sh_addr = s->vaddr,
                     .sh_offset = seg_off[i], .sh_size = s->filesz, .sh_addralign = 4};
    if (s->filesz)
      put(b, &sh, sizeof sh), nsh++;
    if (s->memsz > s->filesz) {
      sh.sh_name = name_off[2];
      sh.sh_type = SHT_NOBITS;
      sh.sh_addr = s->vaddr + s->filesz;
      sh.sh_offset = seg_off[i] + s->filesz;
      sh.sh_size = s->memsz - s->filesz;
      put(b, &sh, sizeof sh), nsh++;
    }
  }

  /* program headers: the old ones, then the analysis segments */
  uint32_t phoff = (uint32_t)b->n;
  put(b, ti->file + eh.e_phoff, (size_t)eh.e_phnum * eh.e_phentsize);
  for (size_t i = 0; i < im->nsegs; i++) {
    const inst_seg *s = &im->segs[i];
    Elf32_Phdr ph = {PT_LOAD, seg_off[i], s->vaddr, s->paddr, s->filesz, s->memsz, s->flags, 4096};
    put(b, &ph, sizeof ph);
  }
  if (!grow(b, b->n))
    return inst_fail(err, TALLY_INST_ETOOLCHAIN, "out of memory");
  eh.e_entry = im->entry;
  eh.e_phoff = phoff;
  eh.e_phnum = (Elf32_Half)(eh.e_phnum + im->nsegs);
  eh.e_shoff = shoff;
  eh.e_shnum = (Elf32_Half)nsh;
  memcpy(b->p, &eh, sizeof eh);
  return 0;
}

static int write_atomic(const char *out, const buf *b, tally_error *err) {
  size_t len = strlen(out);
  char *tmp = malloc(len + 16);
  if (!tmp)
    return inst_fail(err, TALLY_INST_ETOOLCHAIN, "out of memory");
  snprintf(tmp, len + 16, "%s.tmpXXXXXX", out);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    int e = errno;
    free(tmp);
    return inst_fail(err, TALLY_INST_ETOOLCHAIN, "%s: cannot create: %s", out, strerror(e));
  }
  fchmod(fd, 0755);
  size_t done = 0;
  while (done < b->n) {
    ssize_t w = write(fd, b->p + done, b->n - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      break;
    done += (size_t)w;
  }
  int e = done == b->n ? 0 : errno;
  if (close(fd) != 0 && !e)
    e = errno;
  if (!e && rename(tmp, out) != 0)
    e = errno;
  if (e)
    unlink(tmp);
  free(tmp);
  return e ? inst_fail(err, TALLY_INST_ETOOLCHAIN, "%s: cannot write: %s", out, strerror(e)) : 0;
}

int inst_write_output(const tally_inst *ti, const char *analysis_elf, const char *out, tally_inst_summary *sum,
                      tally_error *err) {
  image im = {.fd = -1};
  buf b = {0};
  int rc = read_image(ti, &im, analysis_elf, err);
  if (!rc)
    rc = compose(ti, &im, &b, err);
  if (!rc) {
    for (size_t i = 0; i < im.nsegs; i++) {
      const inst_seg *s = &im.segs[i];
      if (s->vaddr < TALLY_INST_REGION_BASE)
        sum->tramp_bytes += s->memsz;
      else if (s->flags & PF_X)
        sum->region_code += s->memsz;
      else
        sum->region_data += s->memsz;
    }
    sum->in_size = ti->file_size;
    sum->out_size = b.n;
  }
  if (!rc)
    rc = write_atomic(out, &b, err);
  if (im.e)
    elf_end(im.e);
  if (im.fd >= 0)
    close(im.fd);
  free(b.p);
  return rc;
}
