/*
 * matmul - integer matrix multiply C = A * B, n x n, 32-bit elements.
 *
 * Elements are 0..127. The textbook triple loop in i-k-j order (unit stride in the inner loop),
 * so it is all loads, multiply-accumulates and stores; in the rv32i flavour
 * every multiply is a call to libgcc's __mulsi3.
 *
 * Self-check: Freivalds' test with several pseudo-random vectors r:
 * A * (B * r) must equal C * r, an O(n^2) computation independent of the
 * product loop. A second check recomputes a few random elements of C as
 * dot products.
 *
 * Size parameter: n (default 96).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tally/target.h>

#define FREIVALDS_ROUNDS 3
#define SPOT_CHECKS 16

static __attribute__((noinline)) void fill_matrix(int32_t *m, size_t n, tally_rng *rng)
{
    for (size_t i = 0; i < n * n; i++)
        m[i] = (int32_t)(tally_rng_next(rng) & 0x7f);
}

static __attribute__((noinline)) void matmul(int32_t *restrict c, const int32_t *restrict a,
                                             const int32_t *restrict b, size_t n)
{
    memset(c, 0, n * n * sizeof *c);
    for (size_t i = 0; i < n; i++) {
        int32_t *crow = c + i * n;
        for (size_t k = 0; k < n; k++) {
            int32_t aik = a[i * n + k];
            const int32_t *brow = b + k * n;
            for (size_t j = 0; j < n; j++)
                crow[j] += aik * brow[j];
        }
    }
}

/* y = m * x (wrapping arithmetic: exact modulo 2^32 like the product). */
static __attribute__((noinline)) void matvec(uint32_t *y, const int32_t *m, const uint32_t *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t s = 0;
        for (size_t j = 0; j < n; j++)
            s += (uint32_t)m[i * n + j] * x[j];
        y[i] = s;
    }
}

static __attribute__((noinline)) int freivalds(const int32_t *a, const int32_t *b, const int32_t *c,
                                               size_t n, tally_rng *rng)
{
    uint32_t *r = calloc(n, sizeof *r), *br = calloc(n, sizeof *br);
    uint32_t *abr = calloc(n, sizeof *abr), *cr = calloc(n, sizeof *cr);
    int ok = r && br && abr && cr;
    for (int round = 0; ok && round < FREIVALDS_ROUNDS; round++) {
        for (size_t i = 0; i < n; i++)
            r[i] = tally_rng_next(rng) >> 16;
        matvec(br, b, r, n);
        matvec(abr, a, br, n);
        matvec(cr, c, r, n);
        ok = memcmp(abr, cr, n * sizeof *cr) == 0;
    }
    free(r);
    free(br);
    free(abr);
    free(cr);
    return ok;
}

int main(int argc, char **argv)
{
    size_t n = TALLY_ITERS(96);
    if (n > 1024) {
        printf("matmul: n is at most 1024\n");
        return 2;
    }
    int32_t *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b);
    int32_t *c = malloc(n * n * sizeof *c);
    if (!a || !b || !c) {
        printf("matmul: out of memory for n = %lu\n", (unsigned long)n);
        return 1;
    }
    tally_rng rng;
    tally_rng_seed(&rng, 0x3a7u);
    fill_matrix(a, n, &rng);
    fill_matrix(b, n, &rng);

    matmul(c, a, b, n);

    if (!freivalds(a, b, c, n, &rng)) {
        printf("matmul: FAIL Freivalds check: A(Br) != Cr\n");
        return 1;
    }
    for (int s = 0; s < SPOT_CHECKS; s++) {
        size_t i = tally_rng_next(&rng) % n, j = tally_rng_next(&rng) % n;
        int32_t dot = 0;
        for (size_t k = 0; k < n; k++)
            dot += a[i * n + k] * b[k * n + j];
        if (dot != c[i * n + j]) {
            printf("matmul: FAIL C[%lu][%lu] = %ld, dot product gives %ld\n", (unsigned long)i,
                   (unsigned long)j, (long)c[i * n + j], (long)dot);
            return 1;
        }
    }
    uint32_t sum = 0;
    for (size_t i = 0; i < n * n; i++)
        sum = sum * 31u + (uint32_t)c[i];
    printf("matmul: %lux%lu, Freivalds x%d ok, %d spot checks ok\n", (unsigned long)n,
           (unsigned long)n, FREIVALDS_ROUNDS, SPOT_CHECKS);
    printf("matmul: checksum %08lx\n", (unsigned long)sum);
    printf("matmul: OK\n");
    return 0;
}
