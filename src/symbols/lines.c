/*
 * DWARF line tables -> one sorted pc -> file:line table. libdw decodes the
 * line programs of each compilation unit; here the rows of all units are
 * pooled, rows outside code are dropped, and each address keeps one row.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lines.h"
#include "../util/array.h"

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

void sym_lines_init(sym_lines *l) { *l = (sym_lines){0}; }

void sym_lines_free(sym_lines *l) {
  for (size_t i = 0; i < l->nfiles; i++)
    free(l->files[i]);
  free(l->files);
  free(l->v);
  *l = (sym_lines){0};
}

typedef struct raw_row {
  sym_line r;
  size_t order; /* position in the line program, for "the last row wins" */
} raw_row;

typedef struct code_range {
  uint32_t lo, hi;
} code_range;

typedef struct builder {
  sym_lines *l;
  raw_row *rows;
  size_t nrows, rows_cap;
  code_range *code; /* executable sections */
  size_t ncode;
  /* file name -> index, open addressing over l->files */
  uint32_t *slots; /* index + 1; 0 = empty */
  size_t nslots, files_cap;
} builder;

static uint64_t hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* The index of a file name, added if new; -1 when out of memory. */
static long file_index(builder *b, const char *name) {
  sym_lines *l = b->l;
  if ((l->nfiles + 1) * 2 > b->nslots) {
    size_t n = b->nslots ? b->nslots * 2 : 64;
    uint32_t *s = calloc(n, sizeof *s);
    if (!s)
      return -1;
    for (size_t i = 0; i < l->nfiles; i++) {
      size_t k = hash(l->files[i]) & (n - 1);
      while (s[k])
        k = (k + 1) & (n - 1);
      s[k] = (uint32_t)i + 1;
    }
    free(b->slots);
    b->slots = s;
    b->nslots = n;
  }
  size_t k = hash(name) & (b->nslots - 1);
  for (; b->slots[k]; k = (k + 1) & (b->nslots - 1))
    if (strcmp(l->files[b->slots[k] - 1], name) == 0)
      return b->slots[k] - 1;
  if (l->nfiles == b->files_cap) {
    size_t cap = b->files_cap ? b->files_cap * 2 : 32;
    char **f = realloc(l->files, cap * sizeof *f);
    if (!f)
      return -1;
    l->files = f;
    b->files_cap = cap;
  }
  char *copy = strdup(name);
  if (!copy)
    return -1;
  l->files[l->nfiles] = copy;
  b->slots[k] = (uint32_t)l->nfiles + 1;
  return (long)l->nfiles++;
}

/* Is addr in code (end markers may sit at a section's end)? */
static bool in_code(const builder *b, uint64_t addr, bool end) {
  for (size_t i = 0; i < b->ncode; i++)
    if (addr >= b->code[i].lo && (addr < b->code[i].hi || (end && addr == b->code[i].hi)))
      return true;
  return false;
}

static int find_code(builder *b, Elf *e) {
  size_t shnum = 0;
  if (elf_getshdrnum(e, &shnum) != 0)
    return -1;
  b->code = calloc(shnum ? shnum : 1, sizeof *b->code);
  if (!b->code)
    return -1;
  Elf_Scn *scn = NULL;
  while ((scn = elf_nextscn(e, scn))) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || !(sh.sh_flags & SHF_EXECINSTR) || !sh.sh_size ||
        sh.sh_addr > UINT32_MAX || b->ncode >= shnum)
      continue;
    uint64_t end = sh.sh_addr + sh.sh_size;
    b->code[b->ncode++] = (code_range){(uint32_t)sh.sh_addr, end > UINT32_MAX ? UINT32_MAX : (uint32_t)end};
  }
  return 0;
}

static bool has_section(Elf *e, const char *want) {
  size_t shstrndx;
  if (elf_getshdrstrndx(e, &shstrndx) != 0)
    return false;
  Elf_Scn *scn = NULL;
  while ((scn = elf_nextscn(e, scn))) {
    GElf_Shdr sh;
    const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
    if (name && (strcmp(name, want) == 0 || (name[0] == '.' && name[1] == 'z' && strcmp(name + 2, want + 1) == 0)))
      return true;
  }
  return false;
}

/* libdw reads a string in .debug_str or .debug_line_str up to its NUL
 * without looking at the section's end (elfutils 0.188: a heap overflow
 * under ASan, garbage file names without): a string section must end with
 * a NUL byte before libdw is given the file. NULL when all are sound, else
 * the name of the first that is not. */
static const char *unterminated_string_section(Elf *e) {
  static const char *const names[] = {".debug_str", ".debug_line_str"};
  size_t shstrndx;
  if (elf_getshdrstrndx(e, &shstrndx) != 0)
    return NULL; /* libdw will say the headers are damaged */
  Elf_Scn *scn = NULL;
  while ((scn = elf_nextscn(e, scn))) {
    GElf_Shdr sh;
    const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
    if (!name)
      continue;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
      if (strcmp(name, names[i]) != 0)
        continue;
      if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
        return names[i]; /* cannot be unpacked: not sound either */
      Elf_Data *d = elf_getdata(scn, NULL);
      if (d && d->d_size > 0 && (!d->d_buf || ((const char *)d->d_buf)[d->d_size - 1] != '\0'))
        return names[i];
    }
  }
  return NULL;
}

static int add_row(builder *b, const sym_line *r) {
  if (b->nrows == b->rows_cap) {
    size_t cap = b->rows_cap ? b->rows_cap * 2 : 1024;
    raw_row *v = realloc(b->rows, cap * sizeof *v);
    if (!v)
      return -1;
    b->rows = v;
    b->rows_cap = cap;
  }
  b->rows[b->nrows] = (raw_row){*r, b->nrows};
  b->nrows++;
  return 0;
}

/* A row's source file as addr2line names it: libdw gives "dir/file"; a
 * relative one is relative to the unit's compilation directory. */
static const char *source_path(Dwarf_Line *ln, const char *comp_dir, char *buf, size_t size) {
  const char *src = dwarf_linesrc(ln, NULL, NULL);
  if (!src)
    return "??";
  if (src[0] == '/' || !comp_dir || !*comp_dir)
    return src;
  int n = snprintf(buf, size, "%s%s%s", comp_dir, comp_dir[strlen(comp_dir) - 1] == '/' ? "" : "/", src);
  return n > 0 && (size_t)n < size ? buf : src;
}

/* Adds one unit's rows; -1 on damaged DWARF (err set) or no memory. */
static int add_unit(builder *b, Dwarf_Die *cudie, const char *path, tally_error *err) {
  Dwarf_Lines *lines;
  size_t n;
  if (dwarf_getsrclines(cudie, &lines, &n) != 0) {
    if (!dwarf_hasattr(cudie, DW_AT_stmt_list))
      return 0; /* a unit without a line table */
    return fail(err, "%s: damaged DWARF line table (unit at offset 0x%llx): %s", path,
                (unsigned long long)dwarf_dieoffset(cudie), dwarf_errmsg(-1));
  }
  Dwarf_Attribute attr;
  const char *comp_dir = dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &attr));
  char path_buf[4096];
  for (size_t i = 0; i < n; i++) {
    Dwarf_Line *ln = dwarf_onesrcline(lines, i);
    Dwarf_Addr addr;
    int line = 0, col = 0;
    bool end = false;
    if (!ln || dwarf_lineaddr(ln, &addr) != 0 || dwarf_lineendsequence(ln, &end) != 0)
      continue;
    if (!end && dwarf_lineno(ln, &line) != 0)
      continue;
    if (dwarf_linecol(ln, &col) != 0 || col < 0)
      col = 0;
    if (addr > UINT32_MAX || !in_code(b, addr, end))
      continue; /* code the linker dropped, or a tombstone address */
    sym_line r = {.addr = (uint32_t)addr, .line = end || line < 0 ? 0 : (uint32_t)line, .column = (uint32_t)col};
    if (r.line) {
      long f = file_index(b, source_path(ln, comp_dir, path_buf, sizeof path_buf));
      if (f < 0)
        return fail(err, "%s: out of memory", path);
      r.file = (uint32_t)f;
    }
    if (add_row(b, &r) != 0)
      return fail(err, "%s: out of memory", path);
  }
  return 0;
}

static int by_addr_order(const void *a, const void *b) {
  const raw_row *x = a, *y = b;
  if (x->r.addr != y->r.addr)
    return x->r.addr < y->r.addr ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

/* One row per address (the last real row there, else the end marker),
 * without rows that repeat the previous one. */
static int collapse(builder *b) {
  sort_array(b->rows, b->nrows, sizeof *b->rows, by_addr_order);
  sym_lines *l = b->l;
  l->v = malloc((b->nrows ? b->nrows : 1) * sizeof *l->v);
  if (!l->v)
    return -1;
  size_t n = 0;
  for (size_t i = 0; i < b->nrows;) {
    size_t j = i;
    const sym_line *pick = &b->rows[i].r;
    for (; j < b->nrows && b->rows[j].r.addr == b->rows[i].r.addr; j++)
      if (b->rows[j].r.line || !pick->line)
        pick = &b->rows[j].r;
    const sym_line *prev = n ? &l->v[n - 1] : NULL;
    bool same = prev && prev->line == pick->line && (!pick->line || (prev->file == pick->file && prev->column == pick->column));
    if (!same && (pick->line || n)) /* leading end markers say nothing */
      l->v[n++] = *pick;
    i = j;
  }
  l->n = n;
  return 0;
}

int sym_lines_read_elf(sym_lines *l, Elf *e, const char *path, tally_error *err) {
  sym_lines_free(l);
  if (!has_section(e, ".debug_line"))
    return 0; /* built without -g */
  const char *bad = unterminated_string_section(e);
  if (bad)
    return fail(err, "%s: damaged DWARF: section %s does not end with a NUL byte (its last string runs off the end)",
                path, bad);
  builder b = {.l = l};
  if (find_code(&b, e) != 0) {
    free(b.code);
    return fail(err, "%s: cannot read section headers: %s", path, elf_errmsg(-1));
  }
  int rc = 0;
  Dwarf *dw = dwarf_begin_elf(e, DWARF_C_READ, NULL);
  if (!dw) {
    rc = fail(err, "%s: cannot read DWARF: %s", path, dwarf_errmsg(-1));
  } else {
    Dwarf_CU *cu = NULL;
    Dwarf_Die cudie;
    uint8_t unit_type;
    int r;
    while (rc == 0 && (r = dwarf_get_units(dw, cu, &cu, NULL, &unit_type, &cudie, NULL)) == 0)
      if (unit_type == DW_UT_compile || unit_type == DW_UT_partial || unit_type == DW_UT_skeleton)
        rc = add_unit(&b, &cudie, path, err);
    if (rc == 0 && r < 0)
      rc = fail(err, "%s: damaged DWARF unit headers: %s", path, dwarf_errmsg(-1));
    dwarf_end(dw);
  }
  if (rc == 0 && collapse(&b) != 0)
    rc = fail(err, "%s: out of memory", path);
  free(b.rows);
  free(b.code);
  free(b.slots);
  if (rc != 0)
    sym_lines_free(l);
  return rc;
}

int sym_lines_read_file(sym_lines *l, const char *path, tally_error *err) {
  if (elf_version(EV_CURRENT) == EV_NONE)
    return fail(err, "libelf: %s", elf_errmsg(-1));
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail(err, "%s: cannot open: %s", path, strerror(errno));
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  int rc = e && elf_kind(e) == ELF_K_ELF ? sym_lines_read_elf(l, e, path, err) : fail(err, "%s: not an ELF file", path);
  if (e)
    elf_end(e);
  close(fd);
  return rc;
}

const sym_line *sym_lines_lookup(const sym_lines *l, uint32_t pc) {
  size_t lo = 0, hi = l->n;
  while (lo < hi) { /* first row with addr > pc */
    size_t mid = lo + (hi - lo) / 2;
    if (l->v[mid].addr <= pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0 || l->v[lo - 1].line == 0)
    return NULL;
  return &l->v[lo - 1];
}

uint32_t sym_lines_end(const sym_lines *l, const sym_line *r) {
  size_t i = (size_t)(r - l->v);
  return i + 1 < l->n ? l->v[i + 1].addr : r->addr + 1;
}
