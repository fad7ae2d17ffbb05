/*
 * The translator's code cache: one mmap'd region per hart (jit.h says its
 * layout), written W^X. Where the host allows (memfd_create), the code is
 * mapped twice, executable at the region and writable at another address,
 * and no page is ever both: a finished translation is copied in through
 * the writable view, with no system call. Elsewhere the code pages are
 * executable, and writable only for the moment a translation is copied
 * in (mprotect). Full means flushed: the
 * block cache and every translation go together (core_block_flush), so no
 * patched jump can point at dropped code.
 */
#define _GNU_SOURCE /* memfd_create */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jit.h"
#include "jit_vex.h"

#if defined(__x86_64__) && defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>

bool core_jit_supported(void) { return true; }

/* Where the code region starts, modulo 2 MiB: measured, not derived.
 * Embench nsichneu's `tally profile --core tally5` (1 MiB of translated
 * code) took 1.05-1.25 s with the region starting 0x1c0000-0x80000 past a
 * 2 MiB boundary and 0.68-0.83 s at 0xc0000-0x180000 (setarch -R, the
 * phase scanned in steps of 256 KiB; bench/profile-speed.md, 2026-12-06
 * 18:10 UTC); left to mmap, the phase followed the other mappings and
 * differed from run to run. The middle of the fast window, fitted on that
 * one program; the host's PMU is not readable here, so which structure the
 * code collides with was not seen. */
#define JIT_REGION_ALIGN ((size_t)2 << 20)
#define JIT_REGION_PHASE ((size_t)0x120000)

/* The code part mapped twice from one memory file: executable in place,
 * writable at j->rw. Left as it was (j->rw NULL) when the host says no. */
static void dual_map(core_jit *j) {
  int fd = memfd_create("tally-jit", MFD_CLOEXEC);
  if (fd < 0)
    return;
  if (ftruncate(fd, (off_t)j->code_size) == 0) {
    void *w = mmap(NULL, j->code_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (w != MAP_FAILED) {
      void *x = mmap(j->region, j->code_size, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_FIXED, fd, 0);
      if (x == (void *)j->region)
        j->rw = w;
      else
        munmap(w, j->code_size);
    }
  }
  close(fd);
}

/* perf (`perf report`) names samples in code without symbols from
 * /tmp/perf-PID.map: with $TALLY_PERF_MAP set (not empty), each
 * translation's parts are named there as they are made (jit.c), so a
 * profile of the host run shows which blocks, and which part of them,
 * the time went to. Code made again after a flush reuses the addresses,
 * so a run that flushes has more than one name there. */
static void open_perf_map(core_jit *j) {
  const char *want = getenv("TALLY_PERF_MAP");
  if (!want || !*want)
    return;
  char path[64];
  snprintf(path, sizeof path, "/tmp/perf-%ld.map", (long)getpid());
  j->perf_map = fopen(path, "a");
}

void core_jit_perf_name(core_jit *j, uintptr_t at, size_t n, const char *fmt, ...) {
  if (!j->perf_map || !n)
    return;
  fprintf(j->perf_map, "%lx %zx ", (unsigned long)at, n);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(j->perf_map, fmt, ap);
  va_end(ap);
  fputc('\n', j->perf_map);
}

/* An anonymous mapping of n bytes whose start lies JIT_REGION_PHASE bytes
 * past a 2 MiB boundary (the excess mapped around it is given back). */
static void *map_at_phase(size_t n) {
  size_t extra = JIT_REGION_ALIGN;
  uint8_t *m = mmap(NULL, n + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return MAP_FAILED;
  uintptr_t at = ((uintptr_t)m & ~(uintptr_t)(JIT_REGION_ALIGN - 1)) + JIT_REGION_PHASE;
  if (at < (uintptr_t)m)
    at += JIT_REGION_ALIGN;
  uint8_t *r = (uint8_t *)at;
  if (r > m)
    munmap(m, (size_t)(r - m));
  if (m + n + extra > r + n)
    munmap(r + n, (size_t)(m + n + extra - (r + n)));
  return r;
}

core_jit *core_jit_new(size_t code_bytes) {
  core_jit *j = calloc(1, sizeof *j);
  if (!j)
    return NULL;
  long pg = sysconf(_SC_PAGESIZE);
  j->page = pg > 0 ? (size_t)pg : 4096;
  if (!code_bytes)
    code_bytes = JIT_DEFAULT_CODE;
  /* room for the stubs and for one block of the largest size */
  size_t min = 2 * j->page + JIT_BLOCK_MAX_CODE;
  if (code_bytes < min)
    code_bytes = min;
  j->code_size = (code_bytes + j->page - 1) & ~(j->page - 1);
  size_t data = JIT_TARGETS * sizeof(jit_target);
  j->region_size = j->code_size + ((data + j->page - 1) & ~(j->page - 1));
  void *r = map_at_phase(j->region_size);
  j->scratch = malloc(JIT_BLOCK_MAX_CODE);
  if (r == MAP_FAILED || !j->scratch) {
    if (r != MAP_FAILED)
      munmap(r, j->region_size);
    free(j->scratch);
    free(j);
    return NULL;
  }
  j->region = r;
  open_perf_map(j);
  j->targets = (jit_target *)(j->region + j->code_size);
  if (!j->perf_map) /* perf reads the map for anonymous memory only, not a memory file's */
    dual_map(j);
  if (!core_jit_write_stubs(j) || (!j->rw && mprotect(j->region, j->code_size, PROT_READ | PROT_EXEC) != 0)) {
    core_jit_free(j);
    return NULL;
  }
  core_jit_perf_name(j, (uintptr_t)j->region, j->page, "jit_stubs");
  core_jit_flush(j);
  return j;
}

void core_jit_free(core_jit *j) {
  if (!j)
    return;
  if (j->perf_map) {
    fclose(j->perf_map);
    /* with $TALLY_PERF_MAP, the code region as it ends is written to
     * /tmp/perf-PID.bin (its first byte at the region's address, in the
     * map's first line), for `objdump -D -b binary -mi386:x86-64
     * --adjust-vma=ADDR` on a block the map names */
    char path[64];
    snprintf(path, sizeof path, "/tmp/perf-%ld.bin", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (f) {
      fprintf(stderr, "tally: jit code region at %lx written to %s\n", (unsigned long)(uintptr_t)j->region, path);
      size_t used = (size_t)(j->code_next - j->region); /* or the most used before a flush */
      if (used < j->code_bytes_max + j->page)
        used = j->code_bytes_max + j->page;
      fwrite(j->region, 1, used, f);
      fclose(f);
    }
  }
  munmap(j->region, j->region_size);
  if (j->rw)
    munmap(j->rw, j->code_size);
  free(j->scratch);
  free(j->sites);
  core_jvexmin_free(j);
  free(j);
}

void core_jit_flush(core_jit *j) {
  size_t used = j->code_next ? (size_t)(j->code_next - j->region) - j->page : 0;
  if (used > j->code_bytes_max)
    j->code_bytes_max = used;
  j->code_next = j->region + j->page; /* the stubs keep the first page */
  j->nsites = 0;
  j->fill_tm = NULL; /* its fill routines go with the code */
  core_jvexmin_forget(j); /* its replays name blocks of this code */
  for (uint32_t i = 0; i < JIT_TARGETS; i++)
    j->targets[i] = (jit_target){.pc = 1};
}

static bool copy_in_place(core_jit *j, const uint8_t *code, size_t n);

bool core_jit_commit(core_jit *j, const uint8_t *code, size_t n) {
  uint8_t *end = j->region + j->code_size;
  if (n > (size_t)(end - j->code_next))
    return false;
  if (j->rw) {
    memcpy(j->rw + (j->code_next - j->region), code, n);
  } else if (!copy_in_place(j, code, n)) {
    return false;
  }
  j->code_next += (n + 15) & ~(size_t)15;
  if (j->code_next > end)
    j->code_next = end;
  return true;
}

static bool copy_in_place(core_jit *j, const uint8_t *code, size_t n) {
  uintptr_t lo = (uintptr_t)j->code_next & ~(uintptr_t)(j->page - 1);
  uintptr_t hi = ((uintptr_t)j->code_next + n + j->page - 1) & ~(uintptr_t)(j->page - 1);
  if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) != 0)
    return false;
  memcpy(j->code_next, code, n);
  return mprotect((void *)lo, hi - lo, PROT_READ | PROT_EXEC) == 0;
}

bool core_jit_patch(core_jit *j, uint8_t *at, const void *target) {
  int32_t rel = (int32_t)((intptr_t)target - (intptr_t)(at + 4));
  return core_jit_write32(j, at, (uint32_t)rel);
}

bool core_jit_write32(core_jit *j, uint8_t *at, uint32_t v) {
  uint32_t rel = v;
  if (j->rw) {
    memcpy(j->rw + (at - j->region), &rel, 4);
    return true;
  }
  uintptr_t lo = (uintptr_t)at & ~(uintptr_t)(j->page - 1);
  uintptr_t hi = ((uintptr_t)at + 4 + j->page - 1) & ~(uintptr_t)(j->page - 1);
  if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) != 0)
    return false;
  memcpy(at, &rel, 4);
  return mprotect((void *)lo, hi - lo, PROT_READ | PROT_EXEC) == 0;
}

#else /* no translator on this host: the interpreter runs everything */

void core_jit_perf_name(core_jit *j, uintptr_t at, size_t n, const char *fmt, ...) {
  (void)j, (void)at, (void)n, (void)fmt;
}

bool core_jit_supported(void) { return false; }

core_jit *core_jit_new(size_t code_bytes) {
  (void)code_bytes;
  return NULL;
}
void core_jit_free(core_jit *j) { (void)j; }
void core_jit_flush(core_jit *j) { (void)j; }
bool core_jit_commit(core_jit *j, const uint8_t *code, size_t n) {
  (void)j, (void)code, (void)n;
  return false;
}
bool core_jit_patch(core_jit *j, uint8_t *at, const void *target) {
  (void)j, (void)at, (void)target;
  return false;
}
bool core_jit_write32(core_jit *j, uint8_t *at, uint32_t v) {
  (void)j, (void)at, (void)v;
  return false;
}
#endif
