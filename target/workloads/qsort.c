/*
 * qsort - quicksort of pseudo-random keys, then binary searches in the
 * sorted array.
 *
 * Quicksort with median-of-three pivots and Hoare partitioning, recursing
 * into the smaller part and looping on the larger; small ranges are
 * finished by insertion sort. The keys are all even; the searches look
 * up every key (each must be found, at a position holding that key) and
 * the same number of odd values (none may be found).
 *
 * Self-check: order, permutation checksum (sum and xor of a mixing
 * function of every key, before and after), and the search results above.
 *
 * Size parameter: keys (default 25000).
 */
#include <stdint.h>
#include <stdio.h>
#include <tally/target.h>

#define SMALL 12

static __attribute__((noinline)) void insertion_sort(uint32_t *a, long lo, long hi)
{
    for (long i = lo + 1; i <= hi; i++) {
        uint32_t v = a[i];
        long j = i - 1;
        while (j >= lo && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

static inline void swap(uint32_t *a, long i, long j)
{
    uint32_t t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* Hoare partition around the median of a[lo], a[mid], a[hi]; returns p with
 * a[lo..p] <= pivot <= a[p+1..hi]. */
static __attribute__((noinline)) long partition(uint32_t *a, long lo, long hi)
{
    long mid = lo + (hi - lo) / 2;
    if (a[mid] < a[lo])
        swap(a, mid, lo);
    if (a[hi] < a[lo])
        swap(a, hi, lo);
    if (a[hi] < a[mid])
        swap(a, hi, mid);
    uint32_t pivot = a[mid];
    long i = lo - 1, j = hi + 1;
    for (;;) {
        do
            i++;
        while (a[i] < pivot);
        do
            j--;
        while (a[j] > pivot);
        if (i >= j)
            return j;
        swap(a, i, j);
    }
}

static __attribute__((noinline)) void quicksort(uint32_t *a, long lo, long hi)
{
    while (hi - lo >= SMALL) {
        long p = partition(a, lo, hi);
        if (p - lo < hi - p) {
            quicksort(a, lo, p);
            lo = p + 1;
        } else {
            quicksort(a, p + 1, hi);
            hi = p;
        }
    }
    insertion_sort(a, lo, hi);
}

/* Index of the first element == key, or -1. */
static __attribute__((noinline)) long binary_search(const uint32_t *a, long n, uint32_t key)
{
    long lo = 0, hi = n;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && a[lo] == key ? lo : -1;
}

static void multiset_sum(const uint32_t *a, long n, uint32_t *sum, uint32_t *xr)
{
    *sum = *xr = 0;
    for (long i = 0; i < n; i++) {
        uint32_t h = tally_mix32(a[i]);
        *sum += h;
        *xr ^= h + a[i];
    }
}

int main(int argc, char **argv)
{
    long n = (long)TALLY_ITERS(25000);
    if (n > (8l << 20)) {
        printf("qsort: at most %ld keys\n", 8l << 20);
        return 2;
    }
    uint32_t *a = malloc((size_t)n * sizeof *a), *orig = malloc((size_t)n * sizeof *a);
    if (!a || !orig) {
        printf("qsort: out of memory for %ld keys\n", n);
        return 1;
    }
    tally_rng rng;
    tally_rng_seed(&rng, 0x9507u);
    for (long i = 0; i < n; i++)
        a[i] = orig[i] = (tally_rng_next(&rng) % (uint32_t)(4 * n)) * 2;   /* even, some repeats */

    uint32_t s0, x0, s1, x1;
    multiset_sum(a, n, &s0, &x0);
    quicksort(a, 0, n - 1);
    multiset_sum(a, n, &s1, &x1);

    for (long i = 1; i < n; i++)
        if (a[i - 1] > a[i]) {
            printf("qsort: FAIL not in order at %ld\n", i);
            return 1;
        }
    if (s0 != s1 || x0 != x1) {
        printf("qsort: FAIL result is not a permutation of the input\n");
        return 1;
    }

    uint32_t check = s1;
    long found = 0, absent = 0;
    for (long i = 0; i < n; i++) {
        long at = binary_search(a, n, orig[i]);
        if (at < 0 || a[at] != orig[i] || (at > 0 && a[at - 1] == orig[i])) {
            printf("qsort: FAIL key %lu not found where it should be\n", (unsigned long)orig[i]);
            return 1;
        }
        found++;
        check = tally_mix32(check + (uint32_t)at);
        if (binary_search(a, n, orig[i] + 1) >= 0) {
            printf("qsort: FAIL odd value %lu found\n", (unsigned long)orig[i] + 1);
            return 1;
        }
        absent++;
    }
    printf("qsort: %ld keys sorted; %ld searches found, %ld absent values not found\n", n, found,
           absent);
    printf("qsort: checksum %08lx\n", (unsigned long)check);
    printf("qsort: OK\n");
    return 0;
}
