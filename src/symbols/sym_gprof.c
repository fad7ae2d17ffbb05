/*
 * A copy of a program for gprof (tally_export_gprof_elf): the same file
 * with a string table gprof reads right.
 *
 * gprof keeps a static function whose name has a '.' only as `.N`,
 * `.clone.N` or `.constprop.N` (GCC's clones: med3.constprop.0). Its test
 * (binutils gprof/corefile.c, core_sym_class, up to 2.40 at least) walks
 * such a name to its NUL and then steps past it, going on through the next
 * string of the string table as if it were part of the name: a '$' there,
 * or a '.' not followed by digits, drops the symbol, and its time and
 * calls go to the function before it. In a RISC-V program the next string
 * is very often "$x", the mapping symbol the assembler puts at every
 * function, so gprof drops nearly every clone.
 *
 * The copy adds, after the old string table, each such name again followed
 * by two NULs (gprof's walk then ends on the second), points the symbols at
 * them, and moves the string table's section to that new end of the file.
 * Nothing else changes: not a byte of code, data or the other sections.
 * ELF32 little-endian only (RV32).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tally/export.h"

#define MAX_FILE (512u << 20)
#define SHT_SYMTAB_ 2
#define STT_FUNC_ 2

/* A local function symbol with a name in the table: gprof's name test is
 * for those only (global ones it keeps whatever their name). */
static const char *local_function_name(const unsigned char *sym, const char *strtab, uint32_t strsize) {
  uint32_t name = (uint32_t)sym[0] | (uint32_t)sym[1] << 8 | (uint32_t)sym[2] << 16 | (uint32_t)sym[3] << 24;
  if ((sym[12] & 0xf) != STT_FUNC_ || (sym[12] >> 4) != 0 || name == 0 || name >= strsize ||
      !memchr(strtab + name, 0, strsize - name))
    return NULL;
  return strtab + name;
}

static uint32_t rd32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint16_t rd16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static void wr32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16);
  p[3] = (unsigned char)(v >> 24);
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* gprof's name test, walked as gprof walks it over the string table from
 * `name` (bounded by `end`; running off the table counts as dropped):
 * true when it keeps the symbol. */
static bool gprof_keeps(const char *name, const char *end) {
  for (const char *c = name; c < end && *c; ++c) {
    if (*c == '$')
      return false;
    while (c < end && *c == '.') {
      bool digit_seen = false;
      size_t left = (size_t)(end - c);
      if (left > 7 && strnlen(c, left) > 7 && strncmp(c, ".clone.", 7) == 0)
        c += 6;
      else if (left > 11 && strnlen(c, left) > 11 && strncmp(c, ".constprop.", 11) == 0)
        c += 10;
      for (c++; c < end && *c; c++) {
        if (digit_seen && *c == '.')
          break;
        if (is_digit(*c))
          digit_seen = true;
        else
          return false;
      }
      if (c >= end)
        return false;
    }
    if (c >= end)
      return false;
    /* on a NUL here the for's ++c steps past it, onto the next string,
     * and the walk goes on there, as gprof's does */
  }
  return true;
}

/* The same test on the name alone (what gprof means to do). */
static bool gprof_means_to_keep(const char *name) {
  size_t n = strlen(name);
  char *copy = malloc(n + 2);
  if (!copy)
    return false;
  memcpy(copy, name, n + 1);
  copy[n + 1] = '\0'; /* a second NUL ends gprof's walk */
  bool keep = gprof_keeps(copy, copy + n + 2);
  free(copy);
  return keep;
}

static int fail(tally_error *err, tally_errcode code, const char *fmt, const char *a, const char *b) {
  snprintf(err->msg, sizeof err->msg, fmt, a, b);
  err->code = code;
  return -1;
}

int tally_export_gprof_elf(const char *elf, const char *out, char *names, size_t size, tally_error *err) {
  if (names && size)
    names[0] = '\0';
  FILE *f = fopen(elf, "rb");
  if (!f)
    return fail(err, TALLY_E_INPUT, "%s: cannot open: %s", elf, strerror(errno));
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 52 || (uint64_t)st.st_size > MAX_FILE) {
    fclose(f);
    return fail(err, TALLY_E_INPUT, "%s: %s", elf, "not a regular file of an ELF's size");
  }
  size_t len = (size_t)st.st_size;
  unsigned char *b = malloc(len);
  bool read_ok = b && fread(b, 1, len, f) == len;
  fclose(f);
  if (!read_ok) {
    free(b);
    return fail(err, TALLY_E_INPUT, "%s: %s", elf, "cannot read");
  }
  int rc = -1;
  unsigned char *nb = NULL;
  if (memcmp(b, "\177ELF", 4) != 0 || b[4] != 1 || b[5] != 1) {
    fail(err, TALLY_E_INPUT, "%s: %s", elf, "not a 32-bit little-endian ELF file (an RV32 program)");
    goto out;
  }
  uint32_t shoff = rd32(b + 32);
  uint16_t shentsize = rd16(b + 46), shnum = rd16(b + 48);
  if (shentsize < 40 || shoff > len || (uint64_t)shnum * shentsize > len - shoff) {
    fail(err, TALLY_E_INPUT, "%s: %s", elf, "its section headers lie outside the file");
    goto out;
  }
  /* the symbol table and its string table */
  const unsigned char *symsh = NULL;
  for (unsigned i = 0; i < shnum && !symsh; i++)
    if (rd32(b + shoff + (size_t)i * shentsize + 4) == SHT_SYMTAB_)
      symsh = b + shoff + (size_t)i * shentsize;
  uint32_t link = symsh ? rd32(symsh + 24) : 0;
  if (!symsh || link == 0 || link >= shnum) {
    fail(err, TALLY_E_INPUT, "%s: %s", elf, "no symbol table (a stripped program): gprof could name nothing");
    goto out;
  }
  unsigned char *strsh = b + shoff + (size_t)link * shentsize;
  uint32_t symoff = rd32(symsh + 16), symsize = rd32(symsh + 20);
  uint32_t stroff = rd32(strsh + 16), strsize = rd32(strsh + 20);
  if (symoff > len || symsize > len - symoff || stroff > len || strsize > len - stroff || strsize == 0) {
    fail(err, TALLY_E_INPUT, "%s: %s", elf, "its symbol or string table lies outside the file");
    goto out;
  }
  const char *strtab = (const char *)b + stroff, *strend = strtab + strsize;
  /* the names gprof drops against its own rule, and the room they need */
  size_t extra = 0, nfixed = 0, used = 0;
  for (uint32_t s = 0; s + 16 <= symsize; s += 16) {
    const char *n = local_function_name(b + symoff + s, strtab, strsize);
    if (!n || !strchr(n, '.') || gprof_keeps(n, strend) || !gprof_means_to_keep(n))
      continue;
    extra += strlen(n) + 2;
    nfixed++;
    if (names && size && used + strlen(n) + 3 < size)
      used += (size_t)snprintf(names + used, size - used, "%s%s", used ? ", " : "", n);
  }
  if (!out) {
    rc = (int)nfixed;
    goto out;
  }
  size_t newstr = strsize + extra;
  if (len + newstr > MAX_FILE + (64u << 20)) {
    fail(err, TALLY_E_INPUT, "%s: %s", elf, "too large");
    goto out;
  }
  if (!(nb = malloc(len + newstr))) {
    fail(err, TALLY_E_INTERNAL, "%s%s", "out of memory", "");
    goto out;
  }
  memcpy(nb, b, len);
  memcpy(nb + len, strtab, strsize);
  size_t at = strsize;
  for (uint32_t s = 0; s + 16 <= symsize && nfixed; s += 16) {
    unsigned char *sym = nb + symoff + s;
    const char *n = local_function_name(b + symoff + s, strtab, strsize);
    if (!n || !strchr(n, '.') || gprof_keeps(n, strend) || !gprof_means_to_keep(n))
      continue;
    size_t l = strlen(n);
    memcpy(nb + len + at, n, l);
    nb[len + at + l] = nb[len + at + l + 1] = 0;
    wr32(sym, (uint32_t)at);
    at += l + 2;
  }
  unsigned char *nstrsh = nb + shoff + (size_t)link * shentsize;
  wr32(nstrsh + 16, (uint32_t)len);
  wr32(nstrsh + 20, (uint32_t)newstr);
  FILE *o = fopen(out, "wb");
  if (!o) {
    fail(err, TALLY_E_CREATE, "%s: cannot create: %s", out, strerror(errno));
    goto out;
  }
  bool ok = fwrite(nb, 1, len + newstr, o) == len + newstr;
  if (fclose(o) != 0 || !ok) {
    fail(err, TALLY_E_CREATE, "%s: cannot write: %s", out, strerror(errno));
    goto out;
  }
  rc = (int)nfixed;
out:
  free(b);
  free(nb);
  return rc;
}
