/*
 * heapsort - sorts pseudo-random 32-bit keys with heapsort.
 *
 * Builds a max-heap bottom-up, then repeatedly moves the maximum to the
 * end and sifts the new root down. Several rounds sort fresh arrays.
 *
 * Self-check: the result must be in non-decreasing order, and it must be
 * a permutation of the input: an order-independent checksum (sum and xor
 * of a mixing function of every key) and the element count are taken
 * before and after the sort and must agree.
 *
 * Size parameter: keys per round (default 12000); four rounds.
 */
#include <stdint.h>
#include <stdio.h>
#include <tally/target.h>

#define ROUNDS 4

typedef struct {
    uint32_t sum, xor;
} multiset_sum_t;

static __attribute__((noinline)) multiset_sum_t multiset_sum(const uint32_t *a, size_t n)
{
    multiset_sum_t m = { 0, 0 };
    for (size_t i = 0; i < n; i++) {
        uint32_t h = tally_mix32(a[i]);
        m.sum += h;
        m.xor ^= h * 0x2545f491u + (a[i] >> 7);
    }
    return m;
}

/* Moves a[root] down until neither child is larger; the heap is a[0..n). */
static __attribute__((noinline)) void sift_down(uint32_t *a, size_t root, size_t n)
{
    uint32_t v = a[root];
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n)
            break;
        if (child + 1 < n && a[child + 1] > a[child])
            child++;
        if (a[child] <= v)
            break;
        a[root] = a[child];
        root = child;
    }
    a[root] = v;
}

static __attribute__((noinline)) void build_heap(uint32_t *a, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(a, i, n);
}

static __attribute__((noinline)) void heapsort(uint32_t *a, size_t n)
{
    if (n < 2)
        return;
    build_heap(a, n);
    for (size_t end = n - 1; end > 0; end--) {
        uint32_t t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_down(a, 0, end);
    }
}

static __attribute__((noinline)) int is_sorted(const uint32_t *a, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (a[i - 1] > a[i])
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    size_t n = TALLY_ITERS(12000);
    if (n > (8u << 20)) {
        printf("heapsort: at most %u keys\n", 8u << 20);
        return 2;
    }
    uint32_t *a = malloc(n * sizeof *a);
    if (!a) {
        printf("heapsort: out of memory for %lu keys\n", (unsigned long)n);
        return 1;
    }
    tally_rng rng;
    tally_rng_seed(&rng, 0x5eed1u);
    uint32_t check = 0;
    for (int round = 0; round < ROUNDS; round++) {
        /* Round 1 has many duplicate keys; the others are full range. */
        uint32_t mask = round == 1 ? 0x3ffu : 0xffffffffu;
        for (size_t i = 0; i < n; i++)
            a[i] = tally_rng_next(&rng) & mask;
        multiset_sum_t before = multiset_sum(a, n);
        heapsort(a, n);
        multiset_sum_t after = multiset_sum(a, n);
        if (!is_sorted(a, n)) {
            printf("heapsort: FAIL round %d: result not in order\n", round);
            return 1;
        }
        if (before.sum != after.sum || before.xor != after.xor) {
            printf("heapsort: FAIL round %d: result is not a permutation of the input\n", round);
            return 1;
        }
        check = tally_mix32(check ^ after.sum) ^ a[0] ^ a[n / 2] ^ a[n - 1];
    }
    printf("heapsort: %d rounds x %lu keys sorted, permutation checked\n", ROUNDS, (unsigned long)n);
    printf("heapsort: checksum %08lx\n", (unsigned long)check);
    printf("heapsort: OK\n");
    return 0;
}
