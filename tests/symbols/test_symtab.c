/*
 * Unit tests of src/symbols: the range rules of sym_table_finish, lookups
 * at every edge, the primary-name order, map-file errors with their line
 * numbers, every truncation of a real map file, and random symbol sets
 * checked against a linear search.
 *
 * usage: test_symtab [REAL.map]   (the truncation test needs a real map)
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/lines.h"
#include "symbols/symtab.h"

static int passed, failed;

static void check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(bool ok, const char *fmt, ...) {
  if (ok) {
    passed++;
    return;
  }
  failed++;
  va_list ap;
  va_start(ap, fmt);
  printf("FAIL: ");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
}

static const char *name_at(const sym_table *t, uint32_t pc) {
  const sym_entry *e = sym_table_lookup(t, pc);
  return e ? e->name : "(none)";
}

static bool is_label(const sym_table *t, const char *name, uint32_t addr) {
  for (size_t i = 0; i < t->nlabels; i++)
    if (strcmp(t->labels[i].name, name) == 0 && t->labels[i].addr == addr)
      return true;
  return false;
}

/* Every range rule, on one section [0x1000, 0x1100). */
static void test_ranges(void) {
  sym_table t;
  sym_table_init(&t);
  int s = sym_table_add_section(&t, ".text", 0x1000, 0x1100);
  int other = sym_table_add_section(&t, ".text2", 0x2000, 0x2010);
  sym_table_add_sym(&t, 0x1000, 0x10, "a", SYM_FUNC | SYM_GLOBAL, s);
  sym_table_add_sym(&t, 0x1000, 0, "a_label", SYM_GLOBAL, s);     /* alias without size */
  sym_table_add_sym(&t, 0x1008, 0, "inside_a", 0, s);              /* label inside a */
  sym_table_add_sym(&t, 0x1010, 0, "b", SYM_FUNC | SYM_GLOBAL, s); /* no size: to c */
  sym_table_add_sym(&t, 0x1020, 0x18, "c", SYM_FUNC, s);           /* declared past d: clipped */
  sym_table_add_sym(&t, 0x1030, 0x8, "d", SYM_FUNC, s);            /* then a gap to e */
  sym_table_add_sym(&t, 0x1040, 0, "e", 0, s);                     /* no size, last: to the section end */
  sym_table_add_sym(&t, 0x1100, 0, "end", SYM_GLOBAL, s);          /* at the section end: empty */
  sym_table_add_sym(&t, 0x2000, 0x100, "long", SYM_FUNC, other);   /* size past its section */
  sym_table_add_sym(&t, 0x2000, 0, "", SYM_FUNC, other);           /* an empty name is still a name */
  check(sym_table_finish(&t) == 0, "finish");

  check(t.n == 6, "6 functions, got %zu", t.n);
  const sym_entry *a = sym_table_find(&t, "a_label");
  check(a && strcmp(a->name, "a") == 0 && a->naliases == 1 && a->lo == 0x1000 && a->hi == 0x1010,
        "a [a_label] = [0x1000, 0x1010)");
  check(is_label(&t, "inside_a", 0x1008), "inside_a is a label");
  check(is_label(&t, "end", 0x1100), "end is a label");
  const sym_entry *b = sym_table_find(&t, "b"), *c = sym_table_find(&t, "c"), *d = sym_table_find(&t, "d");
  check(b && b->hi == 0x1020, "b reaches to c");
  check(c && c->hi == 0x1030 && (c->flags & SYM_CLIPPED) && c->size == 0x18, "c clipped at d, declared size kept");
  check(d && d->hi == 0x1038 && !(d->flags & SYM_CLIPPED), "d declared");
  const sym_entry *e = sym_table_find(&t, "e");
  check(e && e->hi == 0x1100, "e reaches to the section end");
  const sym_entry *l = sym_table_find(&t, "long");
  check(l && l->hi == 0x2010 && (l->flags & SYM_CLIPPED), "long clipped at its section end");
  check(strcmp(sym_section_name(&t, l), ".text2") == 0, "section name");
  check(sym_table_find(&t, "nope") == NULL, "find of an unknown name");

  struct { uint32_t pc; const char *name; } want[] = {
    {0x0fff, "(none)"}, {0x1000, "a"},    {0x1008, "a"},      {0x100f, "a"},      {0x1010, "b"},
    {0x101f, "b"},      {0x1020, "c"},    {0x102f, "c"},      {0x1030, "d"},      {0x1037, "d"},
    {0x1038, "(none)"}, {0x103f, "(none)"}, {0x1040, "e"},    {0x10ff, "e"},      {0x1100, "(none)"},
    {0x1fff, "(none)"}, {0x2000, "long"}, {0x200f, "long"},   {0x2010, "(none)"}, {0xffffffff, "(none)"},
    {0, "(none)"},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
    check(strcmp(name_at(&t, want[i].pc), want[i].name) == 0, "lookup 0x%x: %s, expected %s", want[i].pc,
          name_at(&t, want[i].pc), want[i].name);
  /* the law: a lookup never returns a function that does not contain pc */
  for (uint32_t pc = 0xf00; pc < 0x2100; pc++) {
    const sym_entry *f = sym_table_lookup(&t, pc);
    if (f && !(f->lo <= pc && pc < f->hi)) {
      check(false, "lookup 0x%x returned %s [0x%x, 0x%x)", pc, f->name, f->lo, f->hi);
      break;
    }
  }
  sym_table_free(&t);
  check(t.n == 0 && t.v == NULL, "free empties the table");
}

/* Which of several names at one address is the primary. */
static void test_primary(void) {
  struct { const char *a; unsigned fa; uint32_t sa; const char *b; unsigned fb; uint32_t sb; const char *want; } cases[] = {
    {"sized", SYM_FUNC, 8, "unsized", SYM_FUNC | SYM_GLOBAL, 0, "sized"},
    {"func", SYM_FUNC, 0, "label", SYM_GLOBAL, 0, "func"},
    {"global", SYM_FUNC | SYM_GLOBAL, 4, "local", SYM_FUNC, 4, "global"},
    {"weak", SYM_FUNC | SYM_GLOBAL | SYM_WEAK, 4, "strong", SYM_FUNC | SYM_GLOBAL, 4, "strong"},
    {"__memcpy", SYM_FUNC | SYM_GLOBAL, 4, "memcpy", SYM_FUNC | SYM_GLOBAL, 4, "memcpy"},
    {"zeta", SYM_FUNC | SYM_GLOBAL, 4, "alpha", SYM_FUNC | SYM_GLOBAL, 4, "alpha"},
    {"script", SYM_GLOBAL | SYM_ASSIGNED, 0, "listed", SYM_GLOBAL, 0, "listed"},
    {"a_hidden", SYM_FUNC | SYM_GLOBAL | SYM_HIDDEN, 4, "b_exported", SYM_FUNC | SYM_GLOBAL, 4, "b_exported"},
    {"local", SYM_FUNC, 4, "hidden_global", SYM_FUNC | SYM_GLOBAL | SYM_HIDDEN, 4, "hidden_global"},
    /* libgcc: both hidden, one made from the other by a prefix */
    {"__hidden___udivsi3", SYM_FUNC | SYM_GLOBAL | SYM_HIDDEN, 72, "__udivsi3", SYM_FUNC | SYM_GLOBAL | SYM_HIDDEN, 72,
     "__udivsi3"},
    {"__GI_memcpy", SYM_FUNC | SYM_GLOBAL, 4, "memcpy", SYM_FUNC | SYM_GLOBAL, 4, "memcpy"},
    /* the prefix rule never overrides a better rank */
    {"xmemcpy", SYM_FUNC | SYM_GLOBAL, 4, "memcpy", SYM_FUNC | SYM_GLOBAL | SYM_WEAK, 4, "xmemcpy"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    for (int order = 0; order < 2; order++) {
      sym_table t;
      sym_table_init(&t);
      int s = sym_table_add_section(&t, ".text", 0x100, 0x200);
      if (order == 0) {
        sym_table_add_sym(&t, 0x100, cases[i].sa, cases[i].a, cases[i].fa, s);
        sym_table_add_sym(&t, 0x100, cases[i].sb, cases[i].b, cases[i].fb, s);
      } else {
        sym_table_add_sym(&t, 0x100, cases[i].sb, cases[i].b, cases[i].fb, s);
        sym_table_add_sym(&t, 0x100, cases[i].sa, cases[i].a, cases[i].fa, s);
      }
      sym_table_finish(&t);
      check(t.n == 1 && strcmp(t.v[0].name, cases[i].want) == 0 && t.v[0].naliases == 1,
            "%s vs %s: primary %s, expected %s", cases[i].a, cases[i].b, t.n ? t.v[0].name : "-", cases[i].want);
      sym_table_free(&t);
    }
  }
  /* three names: the first (alphabetically) of those not made from another:
   * aaudiv is made from udiv, so b */
  {
    const char *names[] = {"aaudiv", "b", "udiv"};
    for (int rot = 0; rot < 3; rot++) {
      sym_table t;
      sym_table_init(&t);
      for (int k = 0; k < 3; k++)
        sym_table_add(&t, 0x100, 4, names[(k + rot) % 3]);
      sym_table_finish(&t);
      check(t.n == 1 && strcmp(t.v[0].name, "b") == 0 && t.v[0].naliases == 2,
            "aaudiv, b, udiv (rotation %d): primary %s, expected b", rot,
            t.n ? t.v[0].name : "-");
      sym_table_free(&t);
    }
  }
  /* the same name twice at one address is one name; aliases are sorted */
  sym_table t;
  sym_table_init(&t);
  sym_table_add(&t, 0x100, 4, "f");
  sym_table_add(&t, 0x100, 4, "f");
  sym_table_add(&t, 0x100, 4, "h");
  sym_table_add(&t, 0x100, 4, "g");
  sym_table_finish(&t);
  check(t.n == 1 && t.v[0].naliases == 2 && strcmp(t.v[0].aliases[0], "g") == 0 && strcmp(t.v[0].aliases[1], "h") == 0,
        "duplicates merged, aliases sorted");
  /* finishing again after adding more merges into the existing functions */
  sym_table_add(&t, 0x100, 0, "later_alias");
  sym_table_add(&t, 0x200, 0, "later");
  sym_table_finish(&t);
  check(t.n == 2 && t.v[0].naliases == 3 && sym_table_find(&t, "later_alias") == &t.v[0], "second finish merges");
  check(t.v[1].lo == 0x200 && t.v[1].hi == 0xffffffffu, "no section: the last reaches the end of the address space");
  sym_table_free(&t);
  /* a size that passes 2^32 */
  sym_table_init(&t);
  sym_table_add(&t, 0xfffffff0u, 0x100, "top");
  sym_table_finish(&t);
  check(t.n == 1 && t.v[0].hi == 0xffffffffu && sym_table_lookup(&t, 0xfffffffeu) == &t.v[0], "range clamped at 2^32");
  sym_table_free(&t);
  /* an empty table */
  sym_table_init(&t);
  check(sym_table_finish(&t) == 0 && sym_table_lookup(&t, 0x80000000u) == NULL, "empty table");
  sym_table_free(&t);
}

/* Random symbol sets against a linear search over the same rules' outcome. */
static uint32_t rng = 12345;
static uint32_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static void test_random(void) {
  int bad = 0;
  for (int round = 0; round < 300 && !bad; round++) {
    sym_table t;
    sym_table_init(&t);
    int nsec = 1 + (int)(next_rand() % 3);
    for (int k = 0; k < nsec; k++)
      sym_table_add_section(&t, ".text", 0x1000u * (uint32_t)(k + 1), 0x1000u * (uint32_t)(k + 1) + 0x200);
    int nsym = (int)(next_rand() % 40);
    char name[32];
    for (int i = 0; i < nsym; i++) {
      int k = (int)(next_rand() % (uint32_t)nsec);
      uint32_t addr = 0x1000u * (uint32_t)(k + 1) + (next_rand() % 0x210);
      uint32_t size = next_rand() % 3 ? 0 : next_rand() % 0x80;
      snprintf(name, sizeof name, "s%d", i);
      sym_table_add_sym(&t, addr, size, name, next_rand() & 3, k);
    }
    sym_table_finish(&t);
    /* every name once, as a function, an alias or a label */
    size_t names = t.nlabels;
    for (size_t i = 0; i < t.n; i++)
      names += 1 + t.v[i].naliases;
    if (names != (size_t)nsym) {
      check(false, "round %d: %d names in, %zu out", round, nsym, names);
      bad = 1;
    }
    for (size_t i = 0; i < t.n && !bad; i++) {
      const sym_entry *e = &t.v[i];
      const sym_section *sec = &t.sections[e->section];
      if (e->lo >= e->hi || (i + 1 < t.n && e->hi > t.v[i + 1].lo) || e->lo < sec->lo || e->hi > sec->hi ||
          (e->size && e->hi > e->lo + e->size) || (e->size && !(e->flags & SYM_CLIPPED) && e->hi != e->lo + e->size)) {
        check(false, "round %d: bad range %s [0x%x, 0x%x) size 0x%x", round, e->name, e->lo, e->hi, e->size);
        bad = 1;
      }
    }
    for (uint32_t pc = 0xff0; pc < 0x1000u * (uint32_t)(nsec + 1) && !bad; pc++) {
      const sym_entry *want = NULL;
      for (size_t i = 0; i < t.n; i++)
        if (t.v[i].lo <= pc && pc < t.v[i].hi)
          want = &t.v[i];
      if (sym_table_lookup(&t, pc) != want) {
        check(false, "round %d: lookup 0x%x differs from a linear search", round, pc);
        bad = 1;
      }
    }
    sym_table_free(&t);
  }
  check(!bad, "300 random symbol sets");
}

/* ---- map files ---- */

static const char MAP_HEAD[] = "Memory Configuration\n\nName Origin Length Attributes\n\n"
                               "Linker script and memory map\n\n";
static const char MAP_TEXT[] =
  "LOAD a.o\n"                                                               /* 7 */
  "                0x80000010                        alias = f\n"            /* 8 */
  "\n"                                                                       /* 9 */
  ".text           0x80000000       0x40\n"                                  /* 10 */
  " *(.text .text.*)\n"                                                      /* 11 */
  " .text          0x80000000       0x10 a.o\n"                              /* 12 */
  "                0x80000000                start\n"                        /* 13 */
  " .text.f        0x80000010       0x10 a.o\n"                              /* 14 */
  "                0x80000010                f\n"                            /* 15 */
  " .text.a_rather_long_name\n"                                              /* 16 */
  "                0x80000020       0x10 a.o\n"                              /* 17 */
  " *fill*         0x80000030        0x4 \n"                                 /* 18 */
  " .text.unlikely.f\n"                                                      /* 19 */
  "                0x80000034        0xc a.o\n"                              /* 20 */
  "                0x80000040                        __text_end = .\n"       /* 21 */
  "\n"                                                                       /* 22 */
  ".data           0x80001000        0x4\n"                                  /* 23 */
  " .data          0x80001000        0x4 a.o\n"                              /* 24 */
  "                0x80001000                counter\n"                      /* 25 */
  "OUTPUT(a.elf elf32-littleriscv)\n";                                       /* 26 */

static int read_map_text(const char *text, sym_table *t, tally_error *err) {
  FILE *f = fmemopen((void *)text, strlen(text), "r");
  if (!f)
    return -2;
  int rc = sym_table_read_map(t, f, "x.map", err);
  fclose(f);
  if (rc == 0)
    sym_table_finish(t);
  return rc;
}

static char *map_with(const char *find, const char *replace) {
  static char buf[4096];
  char body[2048];
  snprintf(body, sizeof body, "%s", MAP_TEXT);
  if (find) {
    char *at = strstr(body, find);
    if (!at)
      return NULL;
    snprintf(buf, sizeof buf, "%s%.*s%s%s", MAP_HEAD, (int)(at - body), body, replace, at + strlen(find));
  } else {
    snprintf(buf, sizeof buf, "%s%s", MAP_HEAD, body);
  }
  return buf;
}

static void test_map_good(void) {
  sym_table t;
  tally_error err = {0};
  sym_table_init(&t);
  int rc = read_map_text(map_with(NULL, NULL), &t, &err);
  check(rc == 0, "the sample map reads: %s", err.msg);
  const sym_entry *start = sym_table_find(&t, "start"), *f = sym_table_find(&t, "f"),
                  *lng = sym_table_find(&t, "a_rather_long_name"), *cold = sym_table_find(&t, "f.cold");
  check(t.n == 4, "4 functions, got %zu", t.n);
  check(start && start->lo == 0x80000000 && start->hi == 0x80000010, "start: its input section");
  check(f && f->lo == 0x80000010 && f->hi == 0x80000020 && f->naliases == 1 && strcmp(f->aliases[0], "alias") == 0,
        "f with the script's alias");
  check(lng && lng->lo == 0x80000020 && lng->hi == 0x80000030 && (lng->flags & SYM_SECNAME),
        "a wrapped input section without symbols is named after itself");
  check(cold && cold->lo == 0x80000034 && cold->hi == 0x80000040, ".text.unlikely.f is f.cold, as f exists");
  check(sym_table_find(&t, "counter") == NULL && sym_table_find(&t, "__text_end") == NULL, "data and end symbols left out");
  check(sym_table_lookup(&t, 0x80000030) == NULL, "fill belongs to no function");
  sym_table_free(&t);
}

static void test_map_errors(void) {
  struct { const char *find, *replace, *want; } cases[] = {
    {" .text.f        0x80000010", " .text.f        0x8000zz10", "x.map:14: address '0x8000zz10' does not parse"},
    {"0x80000010                f\n", "0x1080000010                f\n", "x.map:15: address 0x1080000010 does not fit in 32 bits"},
    {"0x80000010                f\n", "0x80000030                f\n", "x.map:15: symbol f at 0x80000030 lies outside its input section .text.f"},
    {" .text.f        0x80000010", " .text.f        0x80000008", "x.map:14: input section .text.f (0x80000008-0x80000018) overlaps .text (0x80000000-0x80000010) from line 12"},
    {"                0x80000020       0x10 a.o\n", "", "x.map:16: input section .text.a_rather_long_name is not followed by its address and size"},
    {"                0x80000020       0x10 a.o\n", "\n", "x.map:16: input section .text.a_rather_long_name is not followed"},
    {"OUTPUT(a.elf elf32-littleriscv)\n", "", "x.map:25: the memory map ends before its OUTPUT(...) line"},
    {"OUTPUT(a.elf elf32-littleriscv)\n", "OUTPUT(a.elf elf32-lit", "x.map:26: the memory map ends before its OUTPUT(...) line"},
    {"LOAD a.o\n", "LOAD a.o\n    hello world\n", "x.map:8: unrecognised line 'hello world'"},
    {"LOAD a.o\n", "LOAD a.o\n hello world\n", "x.map:8: input section hello: expected its address and size, found 'world'"},
    {"LOAD a.o\n", "LOAD a.o\nbogus words\n", "x.map:8: output section bogus: expected its address, found 'words'"},
    {"LOAD a.o\n", "LOAD a.o\n                0x80000000\n", "x.map:8: line ends after the address 0x80000000"},
    {"LOAD a.o\n", "LOAD a.o\n                0x\n", "x.map:8: address '0x' has no digits"},
    {"LOAD a.o\n", "LOAD a.o\n                0x12345678123456789 x\n", "x.map:8: address '0x12345678123456789' does not parse"},
    {"LOAD a.o\n", "LOAD \x01\x02\n", "x.map:7: binary data (byte 0x01)"},
    {" .text.f        0x80000010       0x10", " .text.f        0xfffffff8       0x10", "x.map:14: input section .text.f at 0xfffffff8 with size 0x10 runs past the end"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *text = map_with(cases[i].find, cases[i].replace);
    if (!text) {
      check(false, "case %zu: '%s' not in the sample", i, cases[i].find);
      continue;
    }
    sym_table t;
    tally_error err = {0};
    sym_table_init(&t);
    int rc = read_map_text(text, &t, &err);
    check(rc == -1 && strncmp(err.msg, cases[i].want, strlen(cases[i].want)) == 0, "map error %zu: got '%s', expected '%s...'",
          i, rc == -1 ? err.msg : "(no error)", cases[i].want);
    sym_table_free(&t);
  }
  struct { const char *text, *want; } whole[] = {
    {"", "x.map:1: empty file"},
    {"just some text\nand more\n", "x.map:2: no 'Linker script and memory map' section"},
    {"             VMA              LMA     Size Align Out     In      Symbol\n", "x.map:1: an LLVM lld map file"},
    {"Linker script and memory map\n", "x.map:1: the memory map ends before its OUTPUT(...) line"},
  };
  for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
    sym_table t;
    tally_error err = {0};
    sym_table_init(&t);
    int rc = read_map_text(whole[i].text, &t, &err);
    check(rc == -1 && strncmp(err.msg, whole[i].want, strlen(whole[i].want)) == 0, "whole-file error %zu: got '%s'", i,
          rc == -1 ? err.msg : "(no error)");
    sym_table_free(&t);
  }
}

/* Every prefix of a real map (each line end, and every 7th byte) is read
 * or refused with NAME:LINE:, never anything else; only the whole file
 * (or the whole file minus what follows its OUTPUT line) reads. */
static void test_map_truncations(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    check(false, "cannot open %s", path);
    return;
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  rewind(f);
  char *text = malloc((size_t)size + 1);
  if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) {
    check(false, "cannot read %s", path);
    fclose(f);
    free(text);
    return;
  }
  fclose(f);
  text[size] = '\0';
  const char *output = strstr(text, "\nOUTPUT(");
  long complete_from = output ? (long)(strchr(output + 1, ')') - text) + 1 : size;
  int tried = 0, ok = 0, odd = 0;
  for (long cut = 1; cut <= size; cut++) {
    if (cut % 7 != 0 && text[cut - 1] != '\n' && cut != size)
      continue;
    tried++;
    FILE *m = fmemopen(text, (size_t)cut, "r");
    if (!m)
      continue;
    sym_table t;
    tally_error err = {0};
    sym_table_init(&t);
    int rc = sym_table_read_map(&t, m, "real.map", &err);
    fclose(m);
    unsigned line;
    bool named = sscanf(err.msg, "real.map:%u:", &line) == 1 && line >= 1;
    if (rc == 0)
      ok++;
    if ((rc == 0) != (cut >= complete_from) || (rc != 0 && !named)) {
      if (odd++ < 5)
        printf("  cut at %ld of %ld: rc %d '%s'\n", cut, size, rc, err.msg);
    }
    sym_table_free(&t);
  }
  free(text);
  check(odd == 0, "%d of %d truncations of %s behaved unexpectedly", odd, tried, path);
  check(ok >= 1, "the whole map reads");
}

/* Random damage to a real map (bytes changed, lines dropped or repeated):
 * each result is either a table whose ranges keep the laws or an error
 * naming the file and a line. Run under the sanitizers, this is the
 * parser's memory-safety test. */
static void test_map_mutations(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  rewind(f);
  char *text = malloc((size_t)size + 1), *copy = malloc((size_t)size * 2 + 64);
  if (!text || !copy || fread(text, 1, (size_t)size, f) != (size_t)size) {
    fclose(f);
    free(text);
    free(copy);
    return;
  }
  fclose(f);
  static const char alphabet[] = " \n0x.:()*=abcdef0123456789\t\r\0\x80";
  int refused = 0, read = 0, bad = 0;
  for (int round = 0; round < 2000; round++) {
    size_t n = (size_t)size;
    memcpy(copy, text, n);
    int edits = 1 + (int)(next_rand() % 4);
    for (int k = 0; k < edits; k++) {
      size_t at = next_rand() % n;
      switch (next_rand() % 3) {
      case 0: copy[at] = alphabet[next_rand() % (sizeof alphabet - 1)]; break;
      case 1: { /* drop up to 80 bytes */
        size_t len = 1 + next_rand() % 80;
        if (at + len > n) len = n - at;
        memmove(copy + at, copy + at + len, n - at - len);
        n -= len;
        break;
      }
      default: { /* repeat up to 80 bytes */
        size_t len = 1 + next_rand() % 80;
        if (at + len > n) len = n - at;
        if (n + len > (size_t)size * 2 + 64) break;
        memmove(copy + at + len, copy + at, n - at);
        n += len;
        break;
      }
      }
      if (n == 0)
        break;
    }
    if (n == 0)
      continue;
    FILE *m = fmemopen(copy, n, "r");
    if (!m)
      continue;
    sym_table t;
    tally_error err = {0};
    sym_table_init(&t);
    int rc = sym_table_read_map(&t, m, "m.map", &err);
    fclose(m);
    if (rc == 0 && sym_table_finish(&t) == 0) {
      read++;
      for (size_t i = 0; i < t.n; i++)
        if (t.v[i].lo >= t.v[i].hi || (i + 1 < t.n && t.v[i].hi > t.v[i + 1].lo))
          bad++;
    } else {
      refused++;
      unsigned line;
      if (sscanf(err.msg, "m.map:%u: ", &line) != 1 || strlen(err.msg) < 12) {
        if (bad++ < 5)
          printf("  odd error: '%s'\n", err.msg);
      }
    }
    sym_table_free(&t);
  }
  free(text);
  free(copy);
  printf("  2000 damaged maps: %d read, %d refused\n", read, refused);
  check(bad == 0 && read + refused > 1900, "2000 damaged maps: %d read, %d refused, %d bad", read, refused, bad);
}

/* ---- line tables ---- */

static void test_lines(void) {
  sym_line rows[] = {
    {0x100, 10, 0, 1}, {0x104, 11, 0, 0}, {0x110, 0, 0, 0}, /* sequence 1 ends at 0x110 */
    {0x200, 20, 1, 0}, {0x208, 0, 0, 0},
  };
  char *files[] = {(char *)"a.c", (char *)"b.h"};
  sym_lines l = {.v = rows, .n = 5, .files = files, .nfiles = 2};
  struct { uint32_t pc; uint32_t line; } want[] = {
    {0xff, 0}, {0x100, 10}, {0x103, 10}, {0x104, 11}, {0x10f, 11}, {0x110, 0},
    {0x1ff, 0}, {0x200, 20}, {0x207, 20}, {0x208, 0}, {0xffffffff, 0},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const sym_line *r = sym_lines_lookup(&l, want[i].pc);
    check((r ? r->line : 0) == want[i].line, "line of 0x%x: %u, expected %u", want[i].pc, r ? r->line : 0, want[i].line);
  }
  const sym_line *r = sym_lines_lookup(&l, 0x204);
  check(r && strcmp(sym_lines_file(&l, r), "b.h") == 0 && sym_lines_end(&l, r) == 0x208, "file and end of a row");
  sym_lines empty;
  sym_lines_init(&empty);
  check(sym_lines_lookup(&empty, 0x100) == NULL, "an empty line table");
  tally_error err = {0};
  check(sym_lines_read_file(&empty, "/nonexistent/x.elf", &err) == -1 && strstr(err.msg, "cannot open"),
        "a missing file: %s", err.msg);
  sym_lines_free(&empty);
}

int main(int argc, char **argv) {
  test_ranges();
  test_primary();
  test_random();
  test_map_good();
  test_map_errors();
  if (argc > 1) {
    test_map_truncations(argv[1]);
    test_map_mutations(argv[1]);
  }
  test_lines();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
