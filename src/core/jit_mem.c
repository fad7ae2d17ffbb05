/*
 * The translator's code cache: one mmap'd region per hart (jit.h says its
 * layout), written W^X: code pages are executable, and writable only for
 * the moment a finished translation is copied in. Full means flushed: the
 * block cache and every translation go together (core_block_flush), so no
 * chaining slot can point at dropped code.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jit.h"

#if defined(__x86_64__) && defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>

bool core_jit_supported(void) { return true; }

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
  j->slots_cap = (uint32_t)(j->code_size / 16);
  size_t data = j->slots_cap * sizeof(void *) + JIT_TARGETS * sizeof(jit_target);
  j->region_size = j->code_size + ((data + j->page - 1) & ~(j->page - 1));
  void *r = mmap(NULL, j->region_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  j->scratch = malloc(JIT_BLOCK_MAX_CODE);
  if (r == MAP_FAILED || !j->scratch) {
    if (r != MAP_FAILED)
      munmap(r, j->region_size);
    free(j->scratch);
    free(j);
    return NULL;
  }
  j->region = r;
  j->slots = (const void **)(j->region + j->code_size);
  j->targets = (jit_target *)(j->slots + j->slots_cap);
  if (!core_jit_write_stubs(j) || mprotect(j->region, j->code_size, PROT_READ | PROT_EXEC) != 0) {
    core_jit_free(j);
    return NULL;
  }
  core_jit_flush(j);
  return j;
}

void core_jit_free(core_jit *j) {
  if (!j)
    return;
  munmap(j->region, j->region_size);
  free(j->scratch);
  free(j);
}

void core_jit_flush(core_jit *j) {
  size_t used = j->code_next ? (size_t)(j->code_next - j->region) - j->page : 0;
  if (used > j->code_bytes_max)
    j->code_bytes_max = used;
  j->code_next = j->region + j->page; /* the stubs keep the first page */
  j->slots_next = 0;
  for (uint32_t i = 0; i < JIT_TARGETS; i++)
    j->targets[i] = (jit_target){.pc = 1};
}

bool core_jit_commit(core_jit *j, const uint8_t *code, size_t n) {
  uint8_t *end = j->region + j->code_size;
  if (n > (size_t)(end - j->code_next))
    return false;
  uintptr_t lo = (uintptr_t)j->code_next & ~(uintptr_t)(j->page - 1);
  uintptr_t hi = ((uintptr_t)j->code_next + n + j->page - 1) & ~(uintptr_t)(j->page - 1);
  if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) != 0)
    return false;
  memcpy(j->code_next, code, n);
  if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_EXEC) != 0)
    return false;
  j->code_next += (n + 15) & ~(size_t)15;
  if (j->code_next > end)
    j->code_next = end;
  return true;
}

const void **core_jit_slots(core_jit *j) {
  if (j->slots_next + 2 > j->slots_cap)
    return NULL;
  const void **s = j->slots + j->slots_next;
  j->slots_next += 2;
  s[0] = s[1] = j->miss;
  return s;
}

#else /* no translator on this host: the interpreter runs everything */

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
const void **core_jit_slots(core_jit *j) {
  (void)j;
  return NULL;
}
#endif
