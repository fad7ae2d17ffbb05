/* qsort, bsearch and memcpy for arrays that may be empty (README.md). */
#ifndef TALLY_UTIL_ARRAY_H
#define TALLY_UTIL_ARRAY_H

#include <stdlib.h>
#include <string.h>

typedef int (*array_cmp)(const void *, const void *);

/* An empty array may be NULL: C's functions require a valid pointer even
 * for zero elements, so the count decides first. */
static inline void sort_array(void *base, size_t n, size_t size, array_cmp cmp) {
  if (n > 1)
    qsort(base, n, size, cmp);
}

static inline void *search_array(const void *key, const void *base, size_t n, size_t size, array_cmp cmp) {
  return n ? bsearch(key, base, n, size, cmp) : NULL;
}

static inline void copy_array(void *dst, const void *src, size_t bytes) {
  if (bytes)
    memcpy(dst, src, bytes);
}

#endif
