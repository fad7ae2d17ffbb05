/*
 * spmv - sparse matrix times vector (compressed sparse rows) with random
 * column positions over a vector of 256 Ki words (1 MiB): every product
 * gathers a word from a random place in the vector, so almost every one
 * misses the data cache, and the matrix itself streams through memory. The
 * memory-bound heart of iterative solvers and graph ranking. A
 * compute-bound phase (building the matrix with a hash per entry) comes
 * first, so the program has phases of both kinds.
 *
 * Self-check, by a law that does not use the product's code: for any
 * vector x, 1^T (A x) = (A^T 1)^T x; the column sums A^T 1 are accumulated
 * while the matrix is built (a different order and a different loop), so
 * the sum of y must equal the dot product of the column sums with x, for
 * each of the iterations (x changes between them). Row 0 is also
 * recomputed by hand. Arithmetic is modulo 2^32, exact on both sides.
 *
 * Size parameter: products y = A x (default 2).
 */
#include <stdint.h>
#include <stdio.h>
#include <tally/target.h>

#define NCOL   (256u * 1024u)
#define NROW   (32u * 1024u)
#define PERROW 8u
#define NNZ    (NROW * PERROW)

static uint32_t xvec[NCOL], colsum[NCOL], yvec[NROW];
static uint32_t val[NNZ], col[NNZ], rowptr[NROW + 1];

static __attribute__((noinline)) void build_matrix(tally_rng *rng)
{
    uint32_t k = 0;
    for (uint32_t r = 0; r < NROW; r++) {
        rowptr[r] = k;
        for (uint32_t j = 0; j < PERROW; j++, k++) {
            col[k] = tally_rng_next(rng) % NCOL;
            val[k] = tally_mix32(k) & 0xffu;
        }
    }
    rowptr[NROW] = k;
}

static __attribute__((noinline)) void column_sums(void)
{
    for (uint32_t k = NNZ; k-- > 0;)
        colsum[col[k]] += val[k];
}

static __attribute__((noinline)) void fill_vector(uint32_t it)
{
    for (uint32_t i = 0; i < NCOL; i++)
        xvec[i] = (i ^ it) * 2654435761u;
}

static __attribute__((noinline)) void spmv(uint32_t *y, const uint32_t *x)
{
    for (uint32_t r = 0; r < NROW; r++) {
        uint32_t acc = 0;
        for (uint32_t k = rowptr[r]; k < rowptr[r + 1]; k++)
            acc += val[k] * x[col[k]];
        y[r] = acc;
    }
}

static __attribute__((noinline)) uint32_t dot_colsum(const uint32_t *x)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i < NCOL; i++)
        s += colsum[i] * x[i];
    return s;
}

int main(int argc, char **argv)
{
    unsigned long iters = TALLY_ITERS(2);
    if (iters > 100000) {
        printf("spmv: at most 100000 products\n");
        return 2;
    }
    tally_rng rng;
    tally_rng_seed(&rng, 0x5b3u);
    build_matrix(&rng);
    column_sums();
    uint32_t chk = 0;
    for (unsigned long it = 0; it < iters; it++) {
        fill_vector((uint32_t)it);
        spmv(yvec, xvec);
        uint32_t ysum = 0;
        for (uint32_t r = 0; r < NROW; r++)
            ysum += yvec[r];
        uint32_t expect = dot_colsum(xvec);
        if (ysum != expect) {
            printf("spmv: FAIL product %lu: sum of y %08lx, column sums give %08lx\n", it,
                   (unsigned long)ysum, (unsigned long)expect);
            return 1;
        }
        uint32_t r0 = 0;
        for (uint32_t j = 0; j < PERROW; j++)
            r0 += (tally_mix32(j) & 0xffu) * xvec[col[j]];
        if (r0 != yvec[0]) {
            printf("spmv: FAIL product %lu: row 0 is %08lx, by hand %08lx\n", it,
                   (unsigned long)yvec[0], (unsigned long)r0);
            return 1;
        }
        chk = chk * 31u + ysum;
    }
    printf("spmv: %lu products of a %ux%u matrix with %u entries\n", iters, NROW, NCOL, NNZ);
    printf("spmv: checksum %08lx\n", (unsigned long)chk);
    printf("spmv: OK\n");
    return 0;
}
