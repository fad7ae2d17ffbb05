/*
 * fuzz_replay: a libFuzzer target's LLVMFuzzerTestOneInput without
 * libFuzzer. Built with gcc against the ordinary library (the sanitizer
 * build gives both ASan and UBSan), so that CTest can run a short,
 * deterministic fuzz pass in every build in seconds; the clang/libFuzzer
 * build of the same target stays for long, coverage-guided runs.
 *
 *   fuzz_replay [--mutations N] [--seed S] PATH...     run the seeds, then N mutants
 *   fuzz_replay --seed S --write I OUT PATH...         write mutant I to OUT (to replay it alone)
 *
 * Each PATH is a seed file or a folder of them (taken in name order). Every
 * seed runs as it is; mutant i is seed i mod n with 1 to 4 edits drawn from
 * a generator seeded by (S, i) alone, so any one mutant can be made again
 * without the others. The edits favour the first 512 bytes (the ELF header
 * and the program and section header tables of small files) and the values
 * parsers mishandle: 0, all ones, sign bits, the file's size.
 *
 * A crash or a sanitizer report ends the process (its status fails the
 * test); before each input the driver names it on stderr only with -v.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_SEEDS 256
#define MAX_SEED_BYTES (4u << 20) /* seeds larger than this are refused: a short run wants small files */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct buf {
  uint8_t *p;
  size_t len, cap;
  char *name;
} buf;

typedef struct seeds {
  buf s[MAX_SEEDS];
  int n;
} seeds;

/* splitmix64: a small, well-mixed generator, one per mutant. */
static uint64_t next(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint64_t below(uint64_t *x, uint64_t n) { return n ? next(x) % n : 0; }

static int read_file(const char *path, buf *b) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "fuzz_replay: cannot open seed '%s': %s\n", path, strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)MAX_SEED_BYTES) {
    fprintf(stderr, "fuzz_replay: seed '%s' is not a regular file of at most %u bytes\n", path, MAX_SEED_BYTES);
    fclose(f);
    return -1;
  }
  b->len = (size_t)st.st_size;
  b->cap = b->len + 4096;
  b->p = malloc(b->cap);
  b->name = strdup(path);
  size_t got = b->p ? fread(b->p, 1, b->len, f) : 0;
  fclose(f);
  if (!b->p || !b->name || got != b->len) {
    fprintf(stderr, "fuzz_replay: cannot read seed '%s'\n", path);
    return -1;
  }
  return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A folder's regular files, in name order (readdir's order is the file
 * system's, not the same everywhere). */
static int add_dir(const char *dir, seeds *s) {
  DIR *d = opendir(dir);
  if (!d)
    return -1;
  char *names[MAX_SEEDS];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < MAX_SEEDS)
    if (e->d_name[0] != '.')
      names[n++] = strdup(e->d_name);
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, by_name);
  int rc = 0;
  for (int i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    if (rc == 0 && s->n == MAX_SEEDS) {
      fprintf(stderr, "fuzz_replay: more than %d seeds\n", MAX_SEEDS);
      rc = -1;
    }
    if (rc == 0)
      rc = read_file(path, &s->s[s->n++]);
    free(names[i]);
  }
  return rc;
}

static int add_path(const char *path, seeds *s) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "fuzz_replay: no seed file or folder '%s': %s\n", path, strerror(errno));
    return -1;
  }
  if (S_ISDIR(st.st_mode))
    return add_dir(path, s);
  if (s->n == MAX_SEEDS)
    return -1;
  return read_file(path, &s->s[s->n++]);
}

/* An offset to edit: half the time in the headers at the front. */
static size_t where(uint64_t *x, size_t len) {
  size_t front = len < 512 ? len : 512;
  return next(x) & 1 ? (size_t)below(x, front) : (size_t)below(x, len);
}

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

/* One edit of m (m->cap leaves room to grow by up to 4 KiB in all). */
static void edit(uint64_t *x, buf *m) {
  static const uint8_t bytes[] = {0x00, 0xff, 0x7f, 0x80, 0x01, 0x20, 0x40};
  if (m->len == 0) {
    m->p[m->len++] = (uint8_t)next(x);
    return;
  }
  size_t at = where(x, m->len);
  switch (below(x, 7)) {
  case 0: /* flip one bit */
    m->p[at] ^= (uint8_t)(1u << below(x, 8));
    break;
  case 1: /* a byte parsers mishandle */
    m->p[at] = bytes[below(x, sizeof bytes)];
    break;
  case 2: { /* a 32-bit field (offsets, sizes, counts) set to an edge */
    uint32_t v[] = {0, 0xffffffffu, 0x7fffffffu, 0x80000000u, (uint32_t)m->len, (uint32_t)m->len + 1u,
                    (uint32_t)next(x)};
    at &= ~(size_t)3;
    if (at + 4 <= m->len)
      put32(m->p + at, v[below(x, sizeof v / sizeof *v)]);
    break;
  }
  case 3: /* cut the file short */
    m->len = (size_t)below(x, m->len);
    break;
  case 4: { /* copy a block over another place */
    size_t from = (size_t)below(x, m->len), n = (size_t)below(x, 64) + 1;
    if (from + n > m->len)
      n = m->len - from;
    if (at + n > m->len)
      n = m->len - at;
    memmove(m->p + at, m->p + from, n);
    break;
  }
  case 5: { /* insert random bytes */
    size_t n = (size_t)below(x, 32) + 1;
    if (m->len + n > m->cap)
      break;
    memmove(m->p + at + n, m->p + at, m->len - at);
    for (size_t i = 0; i < n; i++)
      m->p[at + i] = (uint8_t)next(x);
    m->len += n;
    break;
  }
  default: { /* delete a block */
    size_t n = (size_t)below(x, 32) + 1;
    if (at + n > m->len)
      n = m->len - at;
    memmove(m->p + at, m->p + at + n, m->len - at - n);
    m->len -= n;
    break;
  }
  }
}

/* Mutant i of the seeds into m (whose buffer is reused). */
static void mutant(const seeds *s, uint64_t seed, uint64_t i, buf *m) {
  const buf *from = &s->s[i % (uint64_t)s->n];
  uint64_t x = seed * 0x2545f4914f6cdd1dull ^ i;
  if (m->cap < from->len + 4096) {
    free(m->p);
    m->cap = from->len + 4096;
    m->p = malloc(m->cap);
  }
  memcpy(m->p, from->p, from->len);
  m->len = from->len;
  int edits = 1 + (int)below(&x, 4);
  for (int e = 0; e < edits; e++)
    edit(&x, m);
}

static int usage(void) {
  fprintf(stderr, "usage: fuzz_replay [-v] [--mutations N] [--seed S] PATH...\n"
                  "       fuzz_replay [--seed S] --write I OUT PATH...\n");
  return 64;
}

int main(int argc, char **argv) {
  uint64_t mutations = 1000, seed = 1, write_i = 0;
  const char *write_to = NULL;
  bool verbose = false;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    char *end = NULL;
    if (strcmp(argv[i], "-v") == 0)
      verbose = true;
    else if (strcmp(argv[i], "--mutations") == 0 && i + 1 < argc)
      mutations = strtoull(argv[++i], &end, 10);
    else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
      seed = strtoull(argv[++i], &end, 10);
    else if (strcmp(argv[i], "--write") == 0 && i + 2 < argc) {
      write_i = strtoull(argv[++i], &end, 10);
      write_to = argv[++i];
    } else
      return usage();
    if (end && *end)
      return usage();
  }
  if (i == argc)
    return usage();
  static seeds s;
  for (; i < argc; i++)
    if (add_path(argv[i], &s) != 0)
      return 66;
  if (s.n == 0) {
    fprintf(stderr, "fuzz_replay: no seed files\n");
    return 66;
  }
  buf m = {0};
  if (write_to) {
    mutant(&s, seed, write_i, &m);
    FILE *f = fopen(write_to, "wb");
    if (!f || fwrite(m.p, 1, m.len, f) != m.len || fclose(f) != 0) {
      fprintf(stderr, "fuzz_replay: cannot write '%s'\n", write_to);
      return 73;
    }
    free(m.p);
    return 0;
  }
  for (int k = 0; k < s.n; k++) {
    if (verbose)
      fprintf(stderr, "seed %s\n", s.s[k].name);
    LLVMFuzzerTestOneInput(s.s[k].p, s.s[k].len);
  }
  for (uint64_t k = 0; k < mutations; k++) {
    if (verbose)
      fprintf(stderr, "mutant %llu (--seed %llu --write %llu OUT)\n", (unsigned long long)k,
              (unsigned long long)seed, (unsigned long long)k);
    mutant(&s, seed, k, &m);
    LLVMFuzzerTestOneInput(m.p, m.len);
  }
  printf("%d seeds and %llu mutants (seed %llu) ran\n", s.n, (unsigned long long)mutations,
         (unsigned long long)seed);
  for (int k = 0; k < s.n; k++) {
    free(s.s[k].p);
    free(s.s[k].name);
  }
  free(m.p);
  return 0;
}
